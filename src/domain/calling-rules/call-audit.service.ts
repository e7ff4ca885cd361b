// The audit of placed calls: for each outbound call of the Account, oldest first, when it was
// placed and what allowed it (the rule set version, the contact's zones and jurisdictions, the
// rules that bound it, the consent used, the attempt caps' counts: Call.dialingAudit, written by
// the dialer's claim). GET /api/v1/calls/audit.csv pages it as the contacts CSV pages contacts.
// Calls placed before the calling rules existed have no audit: their rule columns are empty.
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { badRequestFor } from '../errors.js';
import { decodeCursor, encodeCursor } from '../shared/cursor.js';
import { parseInput } from '../shared/validation.js';

const Instant = z.iso.datetime({ offset: true });

export const CallAuditQuerySchema = z.object({
  from: Instant.optional().describe('Calls placed at or after this instant'),
  to: Instant.optional().describe('Calls placed before this instant'),
  limit: z.coerce.number().int().min(1).max(1000).default(500).describe('Calls per page, 1 to 1000 (default 500)'),
  nextToken: z.string().min(1).max(512).optional(),
});

/** What the dialer recorded of the decision that allowed a call (see src/jobs/dialer.ts dialingAudit). */
interface StoredAudit {
  decidedAt: string;
  ruleSetVersion: string;
  purpose: string;
  timeZones: string[];
  jurisdictions: string[];
  ruleIds: string[];
  consent: { id: string; kind: string } | null;
  attempts: Array<{
    ruleId: string | null;
    jurisdiction: string | null;
    max: number;
    periodHours: number;
    counted: number;
  }>;
}

export interface CallAuditRow {
  callId: string;
  contactId: string;
  workflowId: string | null;
  agentId: string | null;
  provider: string;
  placedAt: Date;
  status: string;
  result: string | null;
  ruleSetVersion: string | null;
  purpose: string | null;
  timeZones: string | null;
  jurisdictions: string | null;
  ruleIds: string | null;
  consentId: string | null;
  consentKind: string | null;
  attemptCounts: string | null;
}

/** The CSV's columns, in order. */
export const CALL_AUDIT_COLUMNS = [
  'callId',
  'contactId',
  'workflowId',
  'agentId',
  'provider',
  'placedAt',
  'status',
  'result',
  'ruleSetVersion',
  'purpose',
  'timeZones',
  'jurisdictions',
  'ruleIds',
  'consentId',
  'consentKind',
  'attemptCounts',
] as const;

/** A cap's count as one word: `us-fl-cap:1/3@24h` (the count before the call, the cap, its period); `policy` for the Account's own. */
function capWords(audit: StoredAudit): string {
  return audit.attempts.map((a) => `${a.ruleId ?? 'policy'}:${a.counted}/${a.max}@${a.periodHours}h`).join(' ');
}

export async function callAuditPage(
  ctx: RequestContext,
  query: unknown,
): Promise<{ data: CallAuditRow[]; nextToken: string | null }> {
  const { accountId } = requireActor(ctx);
  const q = parseInput(CallAuditQuerySchema, query);
  if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to))
    throw badRequestFor([{ path: 'to', message: 'must be after from' }]);
  const cursor = q.nextToken ? decodeCursor(q.nextToken) : null;
  const rows = await ctx.db.prisma.call.findMany({
    where: {
      accountId,
      direction: 'outbound',
      AND: [
        q.from ? { startedAt: { gte: new Date(q.from) } } : {},
        q.to ? { startedAt: { lt: new Date(q.to) } } : {},
        cursor
          ? { OR: [{ startedAt: { gt: cursor.createdAt } }, { startedAt: cursor.createdAt, id: { gt: cursor.id } }] }
          : {},
      ],
    },
    orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
    take: q.limit + 1,
    select: {
      id: true,
      contactId: true,
      workflowId: true,
      agentId: true,
      provider: true,
      startedAt: true,
      status: true,
      result: true,
      dialingAudit: true,
    },
  });
  const page = rows.slice(0, q.limit);
  return {
    data: page.map((row) => {
      const audit = row.dialingAudit as StoredAudit | null;
      return {
        callId: row.id,
        contactId: row.contactId,
        workflowId: row.workflowId,
        agentId: row.agentId,
        provider: row.provider,
        placedAt: row.startedAt,
        status: row.status,
        result: row.result,
        ruleSetVersion: audit?.ruleSetVersion ?? null,
        purpose: audit?.purpose ?? null,
        timeZones: audit ? audit.timeZones.join(' ') : null,
        jurisdictions: audit ? audit.jurisdictions.join(' ') : null,
        ruleIds: audit ? audit.ruleIds.join(' ') : null,
        consentId: audit?.consent?.id ?? null,
        consentKind: audit?.consent?.kind ?? null,
        attemptCounts: audit ? capWords(audit) : null,
      };
    }),
    nextToken:
      rows.length > q.limit
        ? encodeCursor({ createdAt: page[page.length - 1].startedAt, id: page[page.length - 1].id })
        : null,
  };
}
