// A contact's consents to be called: recorded with how and when they were obtained and what
// proves them, listed, and revoked (all of them, or one scope). A revocation takes effect for
// the dialer's next claim: it reads live consents with every claim. A do-not-call call result,
// an erasure with block=true and putting the phone on the block list revoke too
// (dialing.store.ts revokeConsentsOfPhone). A new consent brings back at once the contact's
// enrollments the dialer had set aside for want of one.
import type { Consent } from '../../generated/prisma/client.js';
import { directSql } from '../../db/sql-client.js';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { getContact, getContactByExternalId } from '../contacts/contacts.service.js';
import { parseInput } from '../shared/validation.js';
import type { ConsentKind } from './calling-rule.types.js';
import { RevokeConsentsBodySchema } from './calling-rules.inputs.js';
import { checkedConsent, consentRow } from './consent-writes.js';
import { storeConsents } from './dialing.store.js';

/** A contact named by its id, or by its source kind and external ID. */
export type ContactRef = { id: string } | { sourceKind: string; externalId: string };

export interface ConsentView {
  id: string;
  contactId: string;
  kind: ConsentKind;
  workflowId: string | null;
  method: string;
  evidence: string | null;
  obtainedAt: Date;
  createdAt: Date;
  revokedAt: Date | null;
  revokedBy: string | null;
  active: boolean;
}

export function consentView(row: Consent): ConsentView {
  return {
    id: row.id,
    contactId: row.contactId,
    kind: row.kind as ConsentKind,
    workflowId: row.workflowId,
    method: row.method,
    evidence: row.evidence,
    obtainedAt: row.obtainedAt,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    revokedBy: row.revokedBy,
    active: row.revokedAt === null,
  };
}

export async function contactOf(ctx: RequestContext, ref: ContactRef) {
  return 'id' in ref ? getContact(ctx, ref.id) : getContactByExternalId(ctx, ref);
}

export async function addConsent(ctx: RequestContext, ref: ContactRef, input: unknown): Promise<ConsentView> {
  const { accountId } = requireActor(ctx);
  const contact = await contactOf(ctx, ref);
  const body = await checkedConsent(ctx, accountId, input);
  const now = ctx.clock.now();
  const row = consentRow(accountId, contact.id, body, now);
  await ctx.db.sql.transaction((runner) => storeConsents(directSql(runner), accountId, [row], now));
  return consentView({ ...row, revokedAt: null, revokedBy: null });
}

/** The contact's consents, newest first, revoked ones included. */
export async function listConsents(ctx: RequestContext, ref: ContactRef): Promise<ConsentView[]> {
  const { accountId } = requireActor(ctx);
  const contact = await contactOf(ctx, ref);
  const rows = await ctx.db.prisma.consent.findMany({
    where: { accountId, contactId: contact.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 500,
  });
  return rows.map(consentView);
}

/** Revokes the contact's live consents (all, the Account-wide ones, or one workflow's); the consents revoked. */
export async function revokeConsents(ctx: RequestContext, ref: ContactRef, input: unknown): Promise<ConsentView[]> {
  const { accountId } = requireActor(ctx);
  const contact = await contactOf(ctx, ref);
  const body = parseInput(RevokeConsentsBodySchema, input);
  const now = ctx.clock.now();
  const scope = body.workflowId === undefined ? {} : { workflowId: body.workflowId };
  return ctx.db.prisma.$transaction(async (tx) => {
    const live = await tx.consent.findMany({
      where: { accountId, contactId: contact.id, revokedAt: null, ...scope },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    if (live.length === 0) return [];
    await tx.consent.updateMany({
      where: { id: { in: live.map((c) => c.id) } },
      data: { revokedAt: now, revokedBy: 'api' },
    });
    return live.map((c) => consentView({ ...c, revokedAt: now, revokedBy: 'api' }));
  });
}
