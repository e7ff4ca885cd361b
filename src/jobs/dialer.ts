// The dialer: places due calls. Each run claims up to `batchSize` due enrollments (highest
// contact priority first, then the longest due: read in that order from one index, see
// migration 20261122080000_dialer_claim_order) with FOR UPDATE SKIP LOCKED, so several
// worker processes on one PostgreSQL never claim the same enrollment; a claimed enrollment
// is marked in flight (no next attempt time) in the same transaction as its Call row.
// Calls are placed after the commit; the outcome comes back as telephony events.
//
// An active enrollment's nextAttemptAt is NULL only while its call is in flight. An agent
// with no working-hours window at all calls nobody except first attempts that are called at
// once (enforceCallNow, or its call-new-contacts-immediately option): the claim skips its other
// enrollments, which stay due with their time unchanged, as those of a paused agent do, so the
// first pass after hours are set calls them.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import type { Services } from '../domain/context.js';
import { directSql } from '../domain/contacts/contacts.store.js';
import { nextWindowStart, type WorkingHours } from '../domain/calls/calling-hours.js';
import type { PlaceCallRequest, Telephony } from '../calls/telephony/telephony.port.js';
import { logger } from '../logger.js';
import { startPeriodic, type PeriodicWorker } from './periodic.js';

interface DueEnrollment {
  enrollmentId: string;
  accountId: string;
  contactId: string;
  workflowId: string;
  agentId: string;
  attempts: number;
  enforceCallNow: boolean;
  phone: string;
  contactTimezone: string | null;
  language: string | null;
  agentTimezone: string;
  defaultLanguage: string;
  workingHours: WorkingHours;
  callNewContactsImmediately: boolean;
}

/** A call claimed for placing, with the ids its Call row needs. */
type ClaimedCall = PlaceCallRequest & { accountId: string; enrollmentId: string };

export interface DialerRun {
  placed: ClaimedCall[];
  /** Due enrollments outside their calling hours, moved to their next window. */
  deferred: number;
}

/** SQL: the agent `a` has at least one working-hours window (the JSON holds { mon: [{ start, end }], … }). */
const HAS_WORKING_HOURS = Prisma.sql`jsonb_path_exists(a."workingHours", '$.*[*]')`;
/** When the agent's windows exist but none opens in the lookahead, look again after this long. */
const RECHECK_WITHOUT_WINDOW_MS = 86_400_000;

/** A call with no report this long after it was placed (or started) is given up and retried. */
export const UNREPORTED_PLACED_MS = 30 * 60_000;
export const UNREPORTED_STARTED_MS = 3 * 3600_000;

/**
 * Gives up calls the provider never reported on (a worker died between claiming and placing,
 * or the provider lost them): they are marked failed and their enrollments are due again.
 * A late report for such a call still applies (its status is not "ended").
 */
export async function recoverUnreportedCalls(services: Pick<Services, 'db' | 'clock'>): Promise<number> {
  const now = services.clock.now();
  const placedBefore = new Date(now.getTime() - UNREPORTED_PLACED_MS);
  const startedBefore = new Date(now.getTime() - UNREPORTED_STARTED_MS);
  return services.db.sql.transaction(async (runner) => {
    const tx = directSql(runner);
    const stuck = await tx.$queryRaw<Array<{ enrollmentId: string | null }>>`UPDATE "Call" SET "status" = 'failed', "endReason" = 'no_provider_report'
      WHERE ("status" IN ('queued', 'ringing') AND "createdAt" < ${placedBefore}::timestamptz)
         OR ("status" = 'in_progress' AND "startedAt" < ${startedBefore}::timestamptz)
      RETURNING "enrollmentId"`;
    const enrollments = stuck.map((r) => r.enrollmentId).filter((id): id is string => id !== null);
    if (enrollments.length > 0) {
      await tx.$executeRaw`UPDATE "Enrollment" SET "nextAttemptAt" = ${now}::timestamptz
        WHERE "id" = ANY(${enrollments}::uuid[]) AND "active" AND "nextAttemptAt" IS NULL`;
    }
    return stuck.length;
  });
}

/** One dialer pass at the services' clock time. */
export async function runDialerOnce(services: Pick<Services, 'db' | 'clock'>, telephony: Telephony, batchSize = 100): Promise<DialerRun> {
  const now = services.clock.now();
  const { placed, deferred } = await services.db.sql.transaction(async (runner) => {
    const tx = directSql(runner);
    const due = await tx.$queryRaw<DueEnrollment[]>`
      SELECT e."id" AS "enrollmentId", e."accountId", e."contactId", e."workflowId", a."id" AS "agentId", e."attempts", e."enforceCallNow",
        c."phone", c."timezone" AS "contactTimezone", c."language", a."timezone" AS "agentTimezone", a."defaultLanguage",
        a."workingHours", a."callNewContactsImmediately"
      FROM "Enrollment" e
        JOIN "Contact" c ON c."id" = e."contactId"
        JOIN "Workflow" w ON w."id" = e."workflowId"
        JOIN "Agent" a ON a."id" = w."agentId"
      WHERE e."active" AND e."nextAttemptAt" <= ${now}::timestamptz
        AND w."status" = 'published' AND NOT w."paused" AND a."status" = 'live'
        AND c."phone" IS NOT NULL AND (c."status" IS NULL OR c."status" NOT IN ('paused', 'dnc'))
        AND NOT EXISTS (SELECT 1 FROM "BlockedPhone" b WHERE b."accountId" = c."accountId" AND b."phone" = c."phone")
        AND (${HAS_WORKING_HOURS} OR (e."attempts" = 0 AND (e."enforceCallNow" OR a."callNewContactsImmediately")))
      ORDER BY e."priority" DESC, e."nextAttemptAt" ASC
      LIMIT ${batchSize}
      FOR UPDATE OF e SKIP LOCKED`;
    const calls: ClaimedCall[] = [];
    const later: Array<{ id: string; at: Date }> = [];
    for (const item of due) {
      // New contacts may be called at once (enforceCallNow, or the agent's option); every
      // other attempt waits for the agent's working hours in the contact's zone.
      const immediate = item.attempts === 0 && (item.enforceCallNow || item.callNewContactsImmediately);
      const zone = item.contactTimezone ?? item.agentTimezone;
      // One look at the hours: the next window start is `now` itself when now is inside one.
      // Windows that never open within the lookahead (all inside DST gaps) are looked at again
      // a day later: nextAttemptAt is never NULL for an enrollment without a call in flight.
      const at = immediate ? now : (nextWindowStart(item.workingHours, zone, now) ?? new Date(now.getTime() + RECHECK_WITHOUT_WINDOW_MS));
      if (at?.getTime() === now.getTime()) {
        calls.push({
          callId: randomUUID(), phone: item.phone, agentId: item.agentId, workflowId: item.workflowId, contactId: item.contactId,
          language: item.language ?? item.defaultLanguage, startedAt: now, accountId: item.accountId, enrollmentId: item.enrollmentId,
        });
      } else {
        later.push({ id: item.enrollmentId, at });
      }
    }
    if (calls.length > 0) {
      await tx.$executeRaw`INSERT INTO "Call" ("id", "accountId", "contactId", "workflowId", "agentId", "enrollmentId", "direction", "status", "startedAt", "createdAt")
        SELECT u.id, u.account, u.contact, u.workflow, u.agent, u.enrollment, 'outbound', 'ringing', ${now}::timestamptz, ${now}::timestamptz
        FROM unnest(${calls.map((c) => c.callId)}::uuid[], ${calls.map((c) => c.accountId)}::uuid[], ${calls.map((c) => c.contactId)}::uuid[],
          ${calls.map((c) => c.workflowId)}::uuid[], ${calls.map((c) => c.agentId)}::uuid[], ${calls.map((c) => c.enrollmentId)}::uuid[])
          AS u(id, account, contact, workflow, agent, enrollment)`;
      await tx.$executeRaw`UPDATE "Enrollment" SET "nextAttemptAt" = NULL WHERE "id" = ANY(${calls.map((c) => c.enrollmentId)}::uuid[])`;
    }
    if (later.length > 0) {
      await tx.$executeRaw`UPDATE "Enrollment" AS e SET "nextAttemptAt" = u.at FROM unnest(${later.map((l) => l.id)}::uuid[], ${later.map((l) => l.at)}::timestamptz[]) AS u(id, at)
        WHERE e."id" = u.id`;
    }
    return { placed: calls, deferred: later.length };
  });
  for (const call of placed) {
    await telephony.placeCall(call).catch((error) => logger.error({ err: error, callId: call.callId }, 'placing a call failed'));
  }
  return { placed, deferred };
}

/** Runs the dialer every `intervalMs`, one pass at a time, until stopped. */
export function startDialer(services: Pick<Services, 'db' | 'clock'>, telephony: Telephony, intervalMs = 1000): PeriodicWorker {
  // The unreported-call sweep's cut-offs are 30 minutes and 3 hours: once a minute is plenty
  // (from the first pass on), where the claim runs every pass.
  const recoverEvery = Math.max(1, Math.round(60_000 / intervalMs));
  let pass = 0;
  return startPeriodic(
    intervalMs,
    async () => {
      if (pass++ % recoverEvery === 0) await recoverUnreportedCalls(services);
      await runDialerOnce(services, telephony);
    },
    (error) => logger.warn({ err: error }, 'dialer pass failed; retrying next tick'),
  );
}
