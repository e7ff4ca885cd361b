// The SQL of placing calls with Vapi or Retell (provider-placement.ts): a claimed call is a Call
// row in status "placing" whose "placingSince" is a lease.
import type { SqlClient } from '../db/sql-client.js';
import type { RemoteVoiceProvider } from '../calls/telephony/voice-provider.port.js';

/** A placing call with its contact and agent: everything its provider request needs. */
export interface PlacingCallRow {
  callId: string;
  accountId: string;
  enrollmentId: string | null;
  provider: RemoteVoiceProvider;
  placedAt: Date;
  phone: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  customFields: Record<string, unknown> | null;
  language: string;
  timezone: string;
  providerAgentId: string | null;
  providerPhoneNumber: string | null;
}

/** Of these calls, those still placing, with their contact and agent. */
export async function findPlacingCalls(db: SqlClient, callIds: string[]): Promise<PlacingCallRow[]> {
  return db.$queryRaw<PlacingCallRow[]>`
    SELECT cl."id" AS "callId", cl."accountId", cl."enrollmentId", cl."provider"::text AS "provider", cl."startedAt" AS "placedAt",
      c."phone", c."firstName", c."lastName", c."fullName", c."customFields",
      COALESCE(c."language", a."defaultLanguage") AS "language", COALESCE(c."timezone", a."timezone") AS "timezone",
      a."providerAgentId", a."providerPhoneNumber"
    FROM "Call" cl JOIN "Contact" c ON c."id" = cl."contactId" JOIN "Agent" a ON a."id" = cl."agentId"
    WHERE cl."id" = ANY(${callIds}::uuid[]) AND cl."status" = 'placing'`;
}

/**
 * The provider accepted the call: its id recorded, the lease ended, and a call still placing is
 * queued (a webhook may have come first and moved the status on). Committed without waiting for
 * the WAL flush (synchronous_commit off for this statement's transaction only): a write lost in a
 * crash leaves the call "placing", and the reconciliation finds it at the provider by our call id.
 */
export async function recordAccepted(db: SqlClient, callId: string, providerCallId: string): Promise<void> {
  await db.$executeRaw`WITH no_flush AS (SELECT set_config('synchronous_commit', 'off', true))
      UPDATE "Call" SET "providerCallId" = COALESCE("providerCallId", ${providerCallId}), "placingSince" = NULL,
        "status" = CASE WHEN "status" = 'placing' THEN 'queued' ELSE "status" END
      WHERE "id" = ${callId}::uuid AND EXISTS (SELECT 1 FROM no_flush)`;
}

/**
 * Records the provider's id of a call whose placing is still open (an answer that named the call
 * but left open whether it will be dialled): the lookup and the webhooks find it by that id.
 */
export async function recordPlacingProviderCallId(
  db: SqlClient,
  callId: string,
  providerCallId: string,
): Promise<void> {
  await db.$executeRaw`UPDATE "Call" SET "providerCallId" = ${providerCallId}
      WHERE "id" = ${callId}::uuid AND "status" = 'placing' AND "providerCallId" IS NULL`;
}

/**
 * Before a placing call is placed again (the lookup found no placed call for it): forgets the
 * provider's id of the call it was refused as, so that the new call's id is the one recorded.
 * False when the call is no longer placing (a webhook ended it meanwhile): then it is not placed.
 */
export async function forgetPlacingProviderCallId(db: SqlClient, callId: string): Promise<boolean> {
  const changed = await db.$executeRaw`UPDATE "Call" SET "providerCallId" = NULL
      WHERE "id" = ${callId}::uuid AND "status" = 'placing'`;
  return changed > 0;
}

/** Ends the call's placing lease. */
export async function endPlacingLease(db: SqlClient, callId: string): Promise<void> {
  await db.$executeRaw`UPDATE "Call" SET "placingSince" = NULL WHERE "id" = ${callId}::uuid`;
}

/**
 * Removes a call the provider asked to retry later (still placing: not an attempt) and makes its
 * enrollment due at `due`, inside the caller's transaction.
 */
export async function removePlacingCall(tx: SqlClient, callId: string, due: Date): Promise<void> {
  const removed = await tx.$queryRaw<
    Array<{ enrollmentId: string | null }>
  >`DELETE FROM "Call" WHERE "id" = ${callId}::uuid AND "status" = 'placing' RETURNING "enrollmentId"`;
  const enrollmentId = removed[0]?.enrollmentId;
  if (enrollmentId) {
    await tx.$executeRaw`UPDATE "Enrollment" SET "nextAttemptAt" = ${due}::timestamptz WHERE "id" = ${enrollmentId}::uuid AND "active" AND "nextAttemptAt" IS NULL`;
  }
}

/**
 * Leases again up to `limit` placing calls whose lease is older than `expired`, oldest first,
 * over rows locked FOR UPDATE SKIP LOCKED (no two dialers reconcile one call at once).
 */
export async function leaseExpiredPlacements(
  tx: SqlClient,
  now: Date,
  expired: Date,
  limit: number,
): Promise<Array<{ id: string }>> {
  return tx.$queryRaw<Array<{ id: string }>>`UPDATE "Call" SET "placingSince" = ${now}::timestamptz
      WHERE "id" IN (SELECT "id" FROM "Call" WHERE "status" = 'placing' AND "placingSince" < ${expired}::timestamptz
        ORDER BY "placingSince" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING "id"`;
}
