// The SQL of the sweep of calls without a report (provider-report-recovery.ts, and the dialer's
// sweep of the calls no provider can be asked about): calls given up, and the lease on asking a
// provider about a call ("reportAskedAt"), taken over rows locked FOR UPDATE SKIP LOCKED. Also
// the withdrawal of a call its provider refused for capacity (provider-placement.ts): ended the
// same way as a call given up, without counting an attempt.
import { Prisma } from '../generated/prisma/client.js';
import type { SqlClient } from '../db/sql-client.js';
import type { RemoteVoiceProvider } from '../calls/telephony/voice-provider.port.js';

/** The end reason of a call given up for want of its provider's report. */
export const NO_PROVIDER_REPORT = 'no_provider_report';

/** The sweep's cut-offs: open calls placed (queued, ringing) or started (in progress) before these have no report. */
export interface UnreportedCutoffs {
  placedBefore: Date;
  startedBefore: Date;
}

/** SQL: an open call of table "Call" past the cut-offs. */
function isUnreported(cutoffs: UnreportedCutoffs): Prisma.Sql {
  return Prisma.sql`(("status" IN ('queued', 'ringing') AND "createdAt" < ${cutoffs.placedBefore}::timestamptz)
    OR ("status" = 'in_progress' AND "startedAt" < ${cutoffs.startedBefore}::timestamptz))`;
}

/** SQL: a call its provider can be asked about (a Vapi or Retell call with the provider's id). */
const ASKS_PROVIDER = Prisma.sql`("provider" <> 'simulator' AND "providerCallId" IS NOT NULL)`;

/**
 * Ends the open calls that match `which` without counting them as attempts: failed with
 * `endReason`, and their enrollments due again at `due` (the attempts counter is not touched:
 * only a call.ended counts one). A call that ended meanwhile (its report came) is left alone; a
 * report that comes after still applies (the call is not "ended"). Returns the calls ended.
 */
async function failOpenCalls(tx: SqlClient, which: Prisma.Sql, endReason: string, due: Date): Promise<number> {
  const stuck = await tx.$queryRaw<
    Array<{ enrollmentId: string | null }>
  >`UPDATE "Call" SET "status" = 'failed', "endReason" = ${endReason}, "placingSince" = NULL
    WHERE "status" IN ('placing', 'queued', 'ringing', 'in_progress') AND ${which}
    RETURNING "enrollmentId"`;
  const enrollments = stuck.map((r) => r.enrollmentId).filter((id): id is string => id !== null);
  if (enrollments.length > 0) {
    await tx.$executeRaw`UPDATE "Enrollment" SET "nextAttemptAt" = ${due}::timestamptz
      WHERE "id" = ANY(${enrollments}::uuid[]) AND "active" AND "nextAttemptAt" IS NULL`;
  }
  return stuck.length;
}

/** Gives up one call: failed with `no_provider_report`, its enrollment due at once; 1 when it was still open, else 0. */
export function giveUpCall(tx: SqlClient, now: Date, callId: string): Promise<number> {
  return failOpenCalls(tx, Prisma.sql`"id" = ${callId}::uuid`, NO_PROVIDER_REPORT, now);
}

/** Gives up the calls past the cut-offs that no provider can be asked about (as giveUpCall does). */
export function giveUpUnaskableCalls(tx: SqlClient, now: Date, cutoffs: UnreportedCutoffs): Promise<number> {
  return failOpenCalls(tx, Prisma.sql`${isUnreported(cutoffs)} AND NOT ${ASKS_PROVIDER}`, NO_PROVIDER_REPORT, now);
}

/**
 * Withdraws a call its provider refused for capacity before dialling it (a webhook said so):
 * failed with the provider's reason, its enrollment due at `due`, not an attempt. Only the
 * Account's call of that provider recorded with that provider call id, and not one that started
 * (a call in progress was dialled): a refusal of another call for our id (one placed before and
 * looked up since) changes nothing. 1 when it was withdrawn, else 0.
 */
export function withdrawNotPlacedCall(
  tx: SqlClient,
  due: Date,
  call: { accountId: string; provider: RemoteVoiceProvider; callId: string; providerCallId: string; reason: string },
): Promise<number> {
  return failOpenCalls(
    tx,
    Prisma.sql`"id" = ${call.callId}::uuid AND "accountId" = ${call.accountId}::uuid AND "provider"::text = ${call.provider}
      AND "providerCallId" = ${call.providerCallId} AND "status" <> 'in_progress'`,
    call.reason,
    due,
  );
}

/** A provider call leased for asking its provider about it. */
export interface LeasedCall {
  callId: string;
  accountId: string;
  provider: RemoteVoiceProvider;
  providerCallId: string;
  placedAt: Date;
  /** The lease it had before this pass (null: never asked). */
  previous: Date | null;
}

/**
 * Leases up to `limit` provider calls past the cut-offs whose lease is `leaseExpired` or older
 * (never asked first, then the longest since), by setting "reportAskedAt" to `now`, in one
 * statement over rows locked FOR UPDATE SKIP LOCKED: no other dialer leases them at once.
 */
export async function leaseUnreportedCalls(
  db: SqlClient,
  now: Date,
  cutoffs: UnreportedCutoffs,
  leaseExpired: Date,
  limit: number,
): Promise<LeasedCall[]> {
  return db.$queryRaw<LeasedCall[]>`UPDATE "Call" AS c SET "reportAskedAt" = ${now}::timestamptz
    FROM (SELECT "id", "reportAskedAt" FROM "Call"
      WHERE ${ASKS_PROVIDER} AND ${isUnreported(cutoffs)} AND ("reportAskedAt" IS NULL OR "reportAskedAt" <= ${leaseExpired}::timestamptz)
      ORDER BY "reportAskedAt" NULLS FIRST, "createdAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED) AS due
    WHERE c."id" = due."id"
    RETURNING c."id" AS "callId", c."accountId", c."provider"::text AS "provider", c."providerCallId", c."createdAt" AS "placedAt", due."reportAskedAt" AS "previous"`;
}

/** Gives these calls back the lease they had before the one taken at `now` (unless leased again since). */
export async function returnLeases(db: SqlClient, calls: LeasedCall[], now: Date): Promise<void> {
  await db.$executeRaw`UPDATE "Call" AS c SET "reportAskedAt" = u.previous
      FROM unnest(${calls.map((c) => c.callId)}::uuid[], ${calls.map((c) => c.previous)}::timestamptz[]) AS u(id, previous)
      WHERE c."id" = u.id AND c."reportAskedAt" = ${now}::timestamptz`;
}
