// Erasure: a contact removed with everything that holds its personal data, in one transaction
// (docs/decisions/0024-erasure.md). Its enrollments stay, anonymous (no contact; an active one
// ended as 'contact_erased'), for their workflows' history; its item link, calls, their transcripts, their
// recordings' references and the records of their telephony events (ids and times) go; its
// calls' results stay as anonymous counts (AnonymousCallTally); the events, trigger deliveries,
// stored answers and bulk-update reports that name it are
// deleted or scrubbed; its phone goes on the block list only when asked; and a contact.deleted
// event, naming only its id and its source's key (sourceKind + externalId), is written for the
// Account's receivers.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { notFound } from '../errors.js';
import { assertUuid } from '../shared/ids.js';
import { parseInput } from '../shared/validation.js';
import { directSql, type SqlClient } from '../../db/sql-client.js';
import { tallyCalls } from '../calls/call-tallies.store.js';
import type { ContactRow } from './contacts.rules.js';
import { ExternalIdPathSchema } from './contacts.inputs.js';
import { findContactById, findContactsByExternalId } from './contacts.store.js';
import { theOnlyMatch } from './contacts.service.js';
import { withConflictRetry } from './contacts-write.service.js';
import {
  blockPhoneOfErased,
  deleteCalls,
  deleteContactRow,
  deleteEventsNaming,
  deleteProcessedEventsOf,
  deleteStoredAnswersNaming,
  deleteTriggerDeliveriesOf,
  deleteWebhookDeliveriesNaming,
  endEnrollmentsOfErased,
  insertContactDeletedEvent,
  lockCallsOfContact,
  scrubBulkUpdateReports,
} from './contacts-erase.store.js';

export interface EraseOptions {
  /** Put the contact's phone on the Account's block list. */
  block?: boolean;
}

export interface ContactErasure {
  deleted: true;
  id: string;
  /** Whether the phone was put on the block list (asked, and the contact had a phone). */
  blocked: boolean;
}

/** Erases the Account's contact with this id; 404 when there is none (another Account's included). */
export function eraseContact(ctx: RequestContext, id: string, options: EraseOptions = {}): Promise<ContactErasure> {
  const actor = requireActor(ctx);
  const contactId = assertUuid(id, 'id');
  return erase(ctx, options, async (tx) => {
    const contact = await findContactById(tx, actor.accountId, contactId, true);
    if (!contact) throw notFound(`No contact ${id}`);
    return contact;
  });
}

/** Erases the one contact with this external ID: 404 when none, 409 (listing them) when several. */
export function eraseContactByExternalId(
  ctx: RequestContext,
  path: { sourceKind: string; externalId: string },
  options: EraseOptions = {},
): Promise<ContactErasure> {
  const actor = requireActor(ctx);
  const { sourceKind, externalId } = parseInput(ExternalIdPathSchema, path);
  return erase(ctx, options, async (tx) =>
    theOnlyMatch(
      await findContactsByExternalId(tx, actor.accountId, sourceKind, externalId, 100, true),
      sourceKind,
      externalId,
    ),
  );
}

/** The erasure's transaction: `find` reads and locks the contact, then every trace of it goes. */
function erase(
  ctx: RequestContext,
  options: EraseOptions,
  find: (tx: SqlClient) => Promise<ContactRow>,
): Promise<ContactErasure> {
  const { accountId } = requireActor(ctx);
  // A deadlock with a call event applied at the same moment (it locks the call, then the
  // contact) rolls this back; it then runs again.
  return withConflictRetry(() =>
    ctx.db.sql.transaction(async (runner) => {
      const tx = directSql(runner);
      const now = ctx.clock.now();
      const contact = await find(tx);
      const callIds = await lockCallsOfContact(tx, accountId, contact.id);
      await deleteEventsNaming(tx, accountId, contact.id, callIds);
      await deleteTriggerDeliveriesOf(tx, callIds);
      await deleteWebhookDeliveriesNaming(tx, accountId, contact.id);
      await tallyCalls(tx, accountId, callIds);
      await deleteCalls(tx, accountId, callIds);
      await deleteProcessedEventsOf(tx, callIds);
      await deleteStoredAnswersNaming(tx, accountId, contact.id);
      await scrubBulkUpdateReports(tx, accountId, contact.id);
      await endEnrollmentsOfErased(tx, accountId, contact.id, now);
      await deleteContactRow(tx, accountId, contact.id);
      const blocked = options.block === true && contact.phone !== null;
      if (blocked && contact.phone) await blockPhoneOfErased(tx, accountId, contact.phone, now);
      await insertContactDeletedEvent(tx, {
        id: randomUUID(),
        accountId,
        now,
        payload: {
          contactId: contact.id,
          sourceKind: contact.sourceKind,
          externalId: contact.externalId,
          blocked,
          deletedAt: now.toISOString(),
        },
      });
      return { deleted: true as const, id: contact.id, blocked };
    }),
  );
}
