// The SQL of the sweep of calls without a report (provider-report-recovery.ts, and the dialer's
// sweep of the calls no provider can be asked about): calls given up, and the lease on asking a
// provider about a call ("reportAskedAt"), taken over rows locked FOR UPDATE SKIP LOCKED.
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
 * Gives up the open calls that match `which`: failed with `no_provider_report`, and their
 * enrollments due again at once. A call that ended meanwhile (its report came) is left alone;
 * a report that comes after still applies (the call is not "ended"). Returns the calls given up.
 */
async function giveUpCalls(tx: SqlClient, now: Date, which: Prisma.Sql): Promise<number> {
  const stuck = await tx.$queryRaw<
    Array<{ enrollmentId: string | null }>
  >`UPDATE "Call" SET "status" = 'failed', "endReason" = ${NO_PROVIDER_REPORT}, "placingSince" = NULL
    WHERE "status" IN ('placing', 'queued', 'ringing', 'in_progress') AND ${which}
    RETURNING "enrollmentId"`;
  const enrollments = stuck.map((r) => r.enrollmentId).filter((id): id is string => id !== null);
  if (enrollments.length > 0) {
    await tx.$executeRaw`UPDATE "Enrollment" SET "nextAttemptAt" = ${now}::timestamptz
      WHERE "id" = ANY(${enrollments}::uuid[]) AND "active" AND "nextAttemptAt" IS NULL`;
  }
  return stuck.length;
}

/** Gives up one call (see giveUpCalls): 1 when it was still open, else 0. */
export function giveUpCall(tx: SqlClient, now: Date, callId: string): Promise<number> {
  return giveUpCalls(tx, now, Prisma.sql`"id" = ${callId}::uuid`);
}

/** Gives up the calls past the cut-offs that no provider can be asked about (see giveUpCalls). */
export function giveUpUnaskableCalls(tx: SqlClient, now: Date, cutoffs: UnreportedCutoffs): Promise<number> {
  return giveUpCalls(tx, now, Prisma.sql`${isUnreported(cutoffs)} AND NOT ${ASKS_PROVIDER}`);
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
