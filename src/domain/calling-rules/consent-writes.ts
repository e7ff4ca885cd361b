// A consent as it is written: checked against the clock and the Account (obtained in the past,
// for a workflow of the Account), and the row stored. Used by POST /contacts/{id}/consents and by
// the contact writes that carry a consent (upsert, bulk import).
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.js';
import { badRequestFor } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { ConsentBodySchema, type ConsentBody } from './calling-rules.inputs.js';

/**
 * Checks consents sent with writes (or alone) against the clock and the Account: each obtained in
 * the past, for a workflow of the Account. `prefix` names each in a 400 (`contacts[3].consent.`).
 * Every bad one is reported in one 400.
 */
export async function checkedConsents(
  ctx: RequestContext,
  accountId: string,
  consents: ReadonlyArray<{ body: ConsentBody; prefix: string }>,
): Promise<void> {
  const now = ctx.clock.now().getTime();
  const problems: Array<{ path: string; message: string }> = [];
  const workflowIds = [...new Set(consents.flatMap((c) => (c.body.workflowId ? [c.body.workflowId] : [])))];
  const known = new Set(
    workflowIds.length === 0
      ? []
      : (
          await ctx.db.prisma.workflow.findMany({
            where: { id: { in: workflowIds }, accountId },
            select: { id: true },
          })
        ).map((w) => w.id),
  );
  for (const { body, prefix } of consents) {
    if (Date.parse(body.obtainedAt) > now)
      problems.push({ path: `${prefix}obtainedAt`, message: 'must not be in the future' });
    if (body.workflowId && !known.has(body.workflowId))
      problems.push({ path: `${prefix}workflowId`, message: `no workflow ${body.workflowId} in this Account` });
  }
  if (problems.length > 0) throw badRequestFor(problems.slice(0, 20));
}

/** Parses and checks one consent's body (see checkedConsents). */
export async function checkedConsent(
  ctx: RequestContext,
  accountId: string,
  input: unknown,
  prefix = '',
): Promise<ConsentBody> {
  const body = parseInput(ConsentBodySchema, input, prefix);
  await checkedConsents(ctx, accountId, [{ body, prefix }]);
  return body;
}

/** The row of a consent to store. */
export function consentRow(accountId: string, contactId: string, body: ConsentBody, now: Date) {
  return {
    id: randomUUID(),
    accountId,
    contactId,
    kind: body.kind,
    workflowId: body.workflowId ?? null,
    method: body.method,
    evidence: body.evidence ?? null,
    obtainedAt: new Date(body.obtainedAt),
    createdAt: now,
  };
}
