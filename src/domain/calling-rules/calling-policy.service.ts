// An Account's calling policy: the purpose of its calls, whether it asks written consent of
// everyone, its own attempt cap, and the jurisdictions whose rules it turned off. An Account
// without a stored policy has the defaults: every rule on, purpose telemarketing. Each change is
// recorded with who made it and when; turning a jurisdiction off is never implicit.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PageLimitSchema } from '../shared/cursor.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { notFound } from '../errors.js';
import { assertUuid } from '../shared/ids.js';
import { parseInput } from '../shared/validation.js';
import type { CallPurpose } from './calling-rule.types.js';
import { CallingPolicyBodySchema } from './calling-rules.inputs.js';
import type { CallingPolicyRules } from './dialing-decision.rules.js';
import { lockPolicy, releaseHeldEnrollments, type PolicyRow } from './dialing.store.js';
import { RULE_JURISDICTIONS, RULE_SET } from './rule-set.js';

/** A jurisdiction turned off, with who did it and when. */
export interface DisabledJurisdiction {
  jurisdiction: string;
  disabledAt: Date;
  disabledBy: string;
}

export interface CallingPolicyView {
  purpose: CallPurpose;
  requireWrittenConsent: boolean;
  attemptCap: { max: number; periodHours: number } | null;
  disabledJurisdictions: DisabledJurisdiction[];
  /** The law's caps on calls to one contact, for the policy's purpose (from the rule set). */
  legalAttemptCaps: Array<{
    ruleId: string;
    jurisdiction: string;
    max: number;
    periodHours: number;
    source: string;
    disabled: boolean;
  }>;
  /** Every jurisdiction the rule set has rules for. */
  jurisdictions: readonly string[];
  ruleSetVersion: string;
  /** null while the Account has the defaults. */
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** The policy every Account starts with. */
export const DEFAULT_CALLING_POLICY: CallingPolicyRules = {
  purpose: 'telemarketing',
  requireWrittenConsent: false,
  disabledJurisdictions: [],
  attemptCap: null,
};

/** A stored policy (or none) as the rules the dialing decision takes. */
export function policyRules(row: Omit<PolicyRow, 'accountId'> | null | undefined): CallingPolicyRules {
  if (!row) return DEFAULT_CALLING_POLICY;
  return {
    purpose: row.purpose as CallPurpose,
    requireWrittenConsent: row.requireWrittenConsent,
    disabledJurisdictions: disabledOf(row).map((d) => d.jurisdiction),
    attemptCap:
      row.attemptCapMax !== null && row.attemptCapPeriodHours !== null
        ? { max: row.attemptCapMax, periodHours: row.attemptCapPeriodHours }
        : null,
  };
}

function disabledOf(row: Omit<PolicyRow, 'accountId'>): DisabledJurisdiction[] {
  const stored = (row.disabledJurisdictions ?? []) as Array<{ jurisdiction: string; at: string; by: string }>;
  return stored.map((d) => ({ jurisdiction: d.jurisdiction, disabledAt: new Date(d.at), disabledBy: d.by }));
}

function viewOf(row: Omit<PolicyRow, 'accountId'> | null): CallingPolicyView {
  const rules = policyRules(row);
  return {
    purpose: rules.purpose,
    requireWrittenConsent: rules.requireWrittenConsent,
    attemptCap: rules.attemptCap,
    disabledJurisdictions: row ? disabledOf(row) : [],
    legalAttemptCaps: RULE_SET.rules.flatMap((rule) =>
      rule.restriction.kind === 'attempt_cap' && rule.purposes.includes(rules.purpose)
        ? [
            {
              ruleId: rule.id,
              jurisdiction: rule.jurisdiction,
              max: rule.restriction.max,
              periodHours: rule.restriction.periodHours,
              source: rule.source,
              disabled:
                rules.disabledJurisdictions.includes(rule.jurisdiction) ||
                rules.disabledJurisdictions.includes(rule.jurisdiction.split('-')[0]),
            },
          ]
        : [],
    ),
    jurisdictions: RULE_JURISDICTIONS,
    ruleSetVersion: RULE_SET.version,
    updatedAt: row?.updatedAt ?? null,
    updatedBy: row?.updatedBy ?? null,
  };
}

/** Who acts, as the policy's history names them: `user:<id>` in the console, `key:<id>` with an API key, `operator`. */
export function actorName(ctx: RequestContext): string {
  if (ctx.console && ctx.actor) return `user:${ctx.actor.userId}`;
  if (ctx.actor?.apiKeyId) return `key:${ctx.actor.apiKeyId}`;
  if (ctx.actor) return `user:${ctx.actor.userId}`;
  return 'operator';
}

/** The Account an operation acts in: the key's (or the console user's), or, for the operator, the one named. */
async function policyAccount(ctx: RequestContext, accountId?: string | null): Promise<string> {
  if (ctx.isAdmin && accountId) {
    assertUuid(accountId, 'accountId');
    const account = await ctx.db.prisma.account.findUnique({ where: { id: accountId }, select: { id: true } });
    if (!account) throw notFound(`No account ${accountId}`);
    return account.id;
  }
  return requireActor(ctx).accountId;
}

export async function getCallingPolicy(ctx: RequestContext, accountId?: string | null): Promise<CallingPolicyView> {
  const id = await policyAccount(ctx, accountId);
  return viewOf(await ctx.db.prisma.callingPolicy.findUnique({ where: { accountId: id } }));
}

/**
 * Changes the policy: the fields sent replace theirs, the others keep their value. Each field
 * that changes is recorded (CallingPolicyChange) with who and when, and the Account's
 * enrollments the dialer set aside are looked at again at once under the new policy.
 */
export async function setCallingPolicy(
  ctx: RequestContext,
  input: unknown,
  accountId?: string | null,
): Promise<CallingPolicyView> {
  const id = await policyAccount(ctx, accountId);
  const body = parseInput(CallingPolicyBodySchema, input);
  const now = ctx.clock.now();
  const actor = actorName(ctx);
  return ctx.db.prisma.$transaction(async (tx) => {
    // The row is locked for the change, so two changes at once are recorded one after the other.
    await lockPolicy(tx, id);
    const current = await tx.callingPolicy.findUnique({ where: { accountId: id } });
    const before = policyRules(current);
    const disabledBefore = current ? disabledOf(current) : [];
    const after: CallingPolicyRules = {
      purpose: body.purpose ?? before.purpose,
      requireWrittenConsent: body.requireWrittenConsent ?? before.requireWrittenConsent,
      attemptCap: body.attemptCap === undefined ? before.attemptCap : body.attemptCap,
      disabledJurisdictions: body.disabledJurisdictions ?? before.disabledJurisdictions,
    };
    const disabled = [...after.disabledJurisdictions].sort().map(
      (jurisdiction) =>
        disabledBefore.find((d) => d.jurisdiction === jurisdiction) ?? {
          jurisdiction,
          disabledAt: now,
          disabledBy: actor,
        },
    );
    const change: Record<string, { from: unknown; to: unknown }> = {};
    if (after.purpose !== before.purpose) change.purpose = { from: before.purpose, to: after.purpose };
    if (after.requireWrittenConsent !== before.requireWrittenConsent)
      change.requireWrittenConsent = { from: before.requireWrittenConsent, to: after.requireWrittenConsent };
    if (JSON.stringify(after.attemptCap) !== JSON.stringify(before.attemptCap))
      change.attemptCap = { from: before.attemptCap, to: after.attemptCap };
    const was = [...before.disabledJurisdictions].sort();
    const is = disabled.map((d) => d.jurisdiction);
    if (JSON.stringify(was) !== JSON.stringify(is)) change.disabledJurisdictions = { from: was, to: is };
    if (Object.keys(change).length === 0) return viewOf(current);
    const stored = {
      purpose: after.purpose,
      requireWrittenConsent: after.requireWrittenConsent,
      attemptCapMax: after.attemptCap?.max ?? null,
      attemptCapPeriodHours: after.attemptCap?.periodHours ?? null,
      disabledJurisdictions: disabled.map((d) => ({
        jurisdiction: d.jurisdiction,
        at: d.disabledAt.toISOString(),
        by: d.disabledBy,
      })) as Prisma.InputJsonValue,
      updatedAt: now,
      updatedBy: actor,
    };
    const row = await tx.callingPolicy.upsert({
      where: { accountId: id },
      create: { accountId: id, ...stored },
      update: stored,
    });
    await tx.callingPolicyChange.create({
      data: { id: randomUUID(), accountId: id, at: now, actor, change: change as Prisma.InputJsonValue },
    });
    await releaseHeldEnrollments(tx, id, null, now);
    return viewOf(row);
  });
}

export interface CallingPolicyChangeView {
  at: Date;
  actor: string;
  change: Record<string, { from: unknown; to: unknown }>;
}

/** The policy's changes, newest first (at most `limit`, 1 to 100). */
export async function callingPolicyChanges(
  ctx: RequestContext,
  limit: number | undefined,
  accountId?: string | null,
): Promise<CallingPolicyChangeView[]> {
  const id = await policyAccount(ctx, accountId);
  const query = parseInput(z.object({ limit: PageLimitSchema }), { limit });
  const rows = await ctx.db.prisma.callingPolicyChange.findMany({
    where: { accountId: id },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take: query.limit,
  });
  return rows.map((r) => ({ at: r.at, actor: r.actor, change: r.change as CallingPolicyChangeView['change'] }));
}
