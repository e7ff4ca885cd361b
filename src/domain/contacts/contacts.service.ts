// Single-contact operations: upsert, read by id, read and PATCH by external ID.
import type { RequestContext } from '../context.js';
import { checkedConsent, consentRow } from '../calling-rules/consent-writes.js';
import { storeConsents } from '../calling-rules/dialing.store.js';
import { requireActor } from '../context.js';
import { DomainError, notFound } from '../errors.js';
import { assertUuid } from '../shared/ids.js';
import { parseInput } from '../shared/validation.js';
import { resolveEnrollmentTarget } from '../workflows/workflows.service.js';
import { prepareContactWrite, toContactResponse, type ContactRow } from './contacts.rules.js';
import { ExternalIdPathSchema, PatchBodySchema, UpsertBodySchema } from './contacts.inputs.js';
import { findContactById, findContactsByExternalId } from './contacts.store.js';
import { directSql, type SqlClient } from '../../db/sql-client.js';
import {
  changeStoredContact,
  dedupFailure,
  upsertInTransaction,
  upsertOnePreparedContact,
  withConflictRetry,
} from './contacts-write.service.js';

/** A write that belongs with the contact's (the board app's item link): run in the upsert's transaction. */
export type AlongsideContactWrite = (tx: SqlClient, contact: ContactRow, now: Date) => Promise<void>;

/**
 * Creates the contact or updates the one matching the Account's dedup fields. `alongside`
 * is written in the same transaction, after the contact, so that both or neither are stored.
 */
export async function upsertContact(
  ctx: RequestContext,
  body: unknown,
  alongside?: AlongsideContactWrite,
): Promise<{ contact: ContactRow; created: boolean }> {
  const actor = requireActor(ctx);
  const { assignmentOptions, consent, ...write } = parseInput(UpsertBodySchema, body);
  const enrollment = await resolveEnrollmentTarget(ctx, actor.accountId, assignmentOptions);
  if (consent) {
    // The consent is checked before anything is written, and stored in the contact's transaction.
    const checked = await checkedConsent(ctx, actor.accountId, consent, 'consent.');
    const before = alongside;
    alongside = async (tx, contact, now) => {
      await before?.(tx, contact, now);
      await storeConsents(tx, actor.accountId, [consentRow(actor.accountId, contact.id, checked, now)], now);
    };
  }
  const prepared = prepareContactWrite({ sourceKind: 'api', ...write }, actor.account);
  if (!prepared.ok) throw dedupFailure(prepared.reason);
  if (!enrollment && prepared.write.status !== 'connecting' && !alongside) {
    return upsertOnePreparedContact(ctx, actor.account, prepared.write);
  }
  // Enrolling (or restarting a call sequence) writes the contact and its enrollment together.
  const [outcome] = await withConflictRetry(() =>
    ctx.db.sql.transaction(async (runner) => {
      const tx = directSql(runner);
      const now = ctx.clock.now();
      const outcomes = await upsertInTransaction(tx, actor.account, [prepared.write], enrollment, now);
      await alongside?.(tx, outcomes[0].contact, now);
      return outcomes;
    }),
  );
  return outcome;
}

export async function getContact(ctx: RequestContext, id: string): Promise<ContactRow> {
  const actor = requireActor(ctx);
  const contact = await findContactById(directSql(ctx.db.sql), actor.accountId, assertUuid(id, 'id'));
  // Another Account's contact is indistinguishable from an unknown one.
  if (!contact) throw notFound(`No contact ${id}`);
  return contact;
}

/** The one contact with this external ID: 404 when none, 409 (with `contacts`) when several. */
export async function getContactByExternalId(
  ctx: RequestContext,
  path: { sourceKind: string; externalId: string },
): Promise<ContactRow> {
  const actor = requireActor(ctx);
  const { sourceKind, externalId } = parseInput(ExternalIdPathSchema, path);
  const matches = await findContactsByExternalId(directSql(ctx.db.sql), actor.accountId, sourceKind, externalId);
  return theOnlyMatch(matches, sourceKind, externalId);
}

/** The one contact of a by-external-ID lookup: 404 when none, 409 (listing them) when several. */
export function theOnlyMatch(matches: ContactRow[], sourceKind: string, externalId: string): ContactRow {
  if (matches.length === 0) throw notFound(`No contact with sourceKind ${sourceKind} and externalId ${externalId}`);
  if (matches.length > 1) {
    throw new DomainError(
      'conflict',
      `${matches.length} contacts have sourceKind ${sourceKind} and externalId ${externalId}; read one by its id, and give each contact a unique external ID in the source system`,
      { contacts: matches.map(toContactResponse) },
    );
  }
  return matches[0];
}

/** Changes only the fields sent on the contact with this external ID. */
export async function patchContactByExternalId(
  ctx: RequestContext,
  path: { sourceKind: string; externalId: string },
  body: unknown,
): Promise<ContactRow> {
  const actor = requireActor(ctx);
  const { sourceKind, externalId } = parseInput(ExternalIdPathSchema, path);
  const write = parseInput(PatchBodySchema, body);
  const prepared = prepareContactWrite(write, actor.account, { keyFields: null });
  if (!prepared.ok) throw dedupFailure(prepared.reason);
  return ctx.db.sql.transaction(async (txRunner) => {
    const tx = directSql(txRunner);
    // Locked for the read-modify-write, so a concurrent write is never overwritten.
    const contact = theOnlyMatch(
      await findContactsByExternalId(tx, actor.accountId, sourceKind, externalId, 100, true),
      sourceKind,
      externalId,
    );
    const result = await changeStoredContact(tx, actor.account, contact, prepared.write, 'patch', ctx.clock.now());
    if (result.ok) return result.contact;
    if (result.reason === 'conflict') {
      throw new DomainError(
        'conflict',
        'another contact already has these dedup field values',
        result.holder ? { contacts: [toContactResponse(result.holder)] } : {},
      );
    }
    throw dedupFailure(result.reason);
  });
}
