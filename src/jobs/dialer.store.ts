// The SQL of the dialer's claim (dialer.ts): the due enrollments read and locked in priority
// order (FOR UPDATE SKIP LOCKED), the caps on calls in flight counted under the agents' and
// keys' row locks, and the claim's writes in one statement.
import { Prisma } from '../generated/prisma/client.js';
import type { SqlClient } from '../db/sql-client.js';
import type { WorkingHours } from '../domain/calls/calling-hours.rules.js';
import type { RemoteVoiceProvider, VoiceProvider } from '../calls/telephony/voice-provider.port.js';

/** A due enrollment, as the claim reads it: the enrollment, its contact, its agent and the Account's key. */
export interface DueEnrollment {
  enrollmentId: string;
  accountId: string;
  contactId: string;
  workflowId: string;
  agentId: string;
  attempts: number;
  enforceCallNow: boolean;
  phone: string;
  contactTimezone: string | null;
  location: string | null;
  locationDefaulted: boolean;
  language: string | null;
  agentTimezone: string;
  defaultLanguage: string;
  workingHours: WorkingHours;
  callNewContactsImmediately: boolean;
  provider: VoiceProvider;
  /** The cap on the agent's calls in flight, and on the Account's key for its provider (null: none). */
  agentCap: number | null;
  keyCap: number | null;
  /** What a provider call's request needs, read with the claim (see placeProviderCalls). */
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  customFields: Record<string, unknown> | null;
  providerAgentId: string | null;
  providerPhoneNumber: string | null;
  apiKeyEncrypted: string | null;
  webhookSecretEncrypted: string | null;
}

/** SQL: the agent `a` has at least one working-hours window (the JSON holds { mon: [{ start, end }], … }). */
const HAS_WORKING_HOURS = Prisma.sql`jsonb_path_exists(a."workingHours", '$.*[*]')`;
/** A call's statuses while it is in flight: they count against the agent's and the key's caps. */
export const IN_FLIGHT = ['placing', 'queued', 'ringing', 'in_progress'];

/** SQL: the default cap of the provider named by `provider` (none for the simulator). */
function providerDefault(provider: Prisma.Sql, defaults: Record<RemoteVoiceProvider, number | null>): Prisma.Sql {
  return Prisma.sql`(CASE ${provider}::text WHEN 'vapi' THEN ${defaults.vapi}::int WHEN 'retell' THEN ${defaults.retell}::int END)`;
}

/**
 * Up to `batchSize` enrollments due at `now`, highest priority first, then the longest due,
 * locked (SKIP LOCKED: another dialer's claims are passed over). A Vapi or Retell agent calls
 * only with its Account's credentials, and neither the agent nor the Account's key goes past its
 * cap on calls in flight: agents at a cap are not even read (their enrollments stay due).
 */
export async function claimDueEnrollments(
  tx: SqlClient,
  now: Date,
  defaults: Record<RemoteVoiceProvider, number | null>,
  batchSize: number,
): Promise<DueEnrollment[]> {
  return tx.$queryRaw<DueEnrollment[]>`
      SELECT e."id" AS "enrollmentId", e."accountId", e."contactId", e."workflowId", a."id" AS "agentId", e."attempts", e."enforceCallNow",
        c."phone", c."timezone" AS "contactTimezone", c."location", c."locationDefaulted", c."language", a."timezone" AS "agentTimezone", a."defaultLanguage",
        a."workingHours", a."callNewContactsImmediately", a."provider"::text AS "provider",
        COALESCE(a."maxConcurrentCalls", ${providerDefault(Prisma.sql`a."provider"`, defaults)}) AS "agentCap",
        COALESCE(pc."maxConcurrentCalls", ${providerDefault(Prisma.sql`a."provider"`, defaults)}) AS "keyCap",
        c."firstName", c."lastName", c."fullName", c."customFields", a."providerAgentId", a."providerPhoneNumber",
        pc."apiKeyEncrypted", pc."webhookSecretEncrypted"
      FROM "Enrollment" e
        JOIN "Contact" c ON c."id" = e."contactId"
        JOIN "Workflow" w ON w."id" = e."workflowId"
        JOIN "Agent" a ON a."id" = w."agentId"
        LEFT JOIN "ProviderCredential" pc ON pc."accountId" = e."accountId" AND pc."provider" = a."provider"
      WHERE e."active" AND e."nextAttemptAt" <= ${now}::timestamptz
        AND w."status" = 'published' AND NOT w."paused" AND a."status" = 'live'
        AND c."phone" IS NOT NULL AND (c."status" IS NULL OR c."status" NOT IN ('paused', 'dnc'))
        AND NOT EXISTS (SELECT 1 FROM "BlockedPhone" b WHERE b."accountId" = c."accountId" AND b."phone" = c."phone")
        AND (${HAS_WORKING_HOURS} OR (e."attempts" = 0 AND (e."enforceCallNow" OR a."callNewContactsImmediately")))
        AND (a."provider" = 'simulator' OR pc."accountId" IS NOT NULL)
        AND (a."maxConcurrentCalls" IS NULL AND a."provider" = 'simulator'
          OR (SELECT count(*) FROM "Call" f WHERE f."agentId" = a."id" AND f."status" IN (${Prisma.join(IN_FLIGHT)}))
            < COALESCE(a."maxConcurrentCalls", ${providerDefault(Prisma.sql`a."provider"`, defaults)}))
        AND (a."provider" = 'simulator'
          OR (SELECT count(*) FROM "Call" f WHERE f."accountId" = e."accountId" AND f."provider" = a."provider" AND f."status" IN (${Prisma.join(IN_FLIGHT)}))
            < COALESCE(pc."maxConcurrentCalls", ${providerDefault(Prisma.sql`a."provider"`, defaults)}))
      ORDER BY e."priority" DESC, e."nextAttemptAt" ASC
      LIMIT ${batchSize}
      FOR UPDATE OF e SKIP LOCKED`;
}

/**
 * Locks the rows of these agents and of these Accounts' provider keys (`keys[i]` is the pair
 * keyAccounts[i], keyProviders[i]), each in id order: one order for every dialer, so no deadlock.
 */
export async function lockCapHolders(
  tx: SqlClient,
  agents: string[],
  keyAccounts: string[],
  keyProviders: string[],
): Promise<void> {
  await tx.$queryRaw`WITH agents AS (SELECT "id" FROM "Agent" WHERE "id" = ANY(${agents}::uuid[]) ORDER BY "id" FOR UPDATE),
      provider_keys AS (SELECT 1 FROM "ProviderCredential" WHERE ("accountId", "provider"::text) IN (SELECT * FROM unnest(${keyAccounts}::uuid[], ${keyProviders}::text[]))
        ORDER BY "accountId", "provider" FOR UPDATE)
      SELECT (SELECT count(*) FROM agents) AS agents, (SELECT count(*) FROM provider_keys) AS keys`;
}

/** The calls in flight of each agent (`agent:<id>`) and of each Account's provider key (`key:<account>:<provider>`). */
export async function countCallsInFlight(
  tx: SqlClient,
  agents: string[],
  keyAccounts: string[],
  keyProviders: string[],
): Promise<Array<{ cap: string; n: number }>> {
  return tx.$queryRaw<Array<{ cap: string; n: number }>>`
      SELECT 'agent:' || "agentId" AS cap, count(*)::int AS n FROM "Call"
        WHERE "agentId" = ANY(${agents}::uuid[]) AND "status" IN (${Prisma.join(IN_FLIGHT)}) GROUP BY "agentId"
      UNION ALL
      SELECT 'key:' || "accountId" || ':' || "provider"::text, count(*)::int FROM "Call"
        WHERE ("accountId", "provider"::text) IN (SELECT * FROM unnest(${keyAccounts}::uuid[], ${keyProviders}::text[]))
          AND "status" IN (${Prisma.join(IN_FLIGHT)}) GROUP BY "accountId", "provider"`;
}

/** A claimed call, as its Call row is written. */
export interface ClaimedCallRow {
  callId: string;
  /** Why the calling rules allowed it (the Call's dialingAudit). */
  audit: object;
  accountId: string;
  contactId: string;
  workflowId: string;
  agentId: string;
  enrollmentId: string;
  provider: VoiceProvider;
}

/**
 * One statement for the claim's writes: the Call rows (a simulator call rings at once; a
 * provider's call is "placing", with its lease, until the provider accepts it:
 * provider-placement.ts), their enrollments marked in flight, and the deferred enrollments
 * moved to their next window (or set aside until someone acts: `hold`, see Enrollment.dialingHold).
 */
export async function recordClaims(
  tx: SqlClient,
  calls: ClaimedCallRow[],
  later: Array<{ id: string; at: Date; hold: string | null }>,
  now: Date,
): Promise<void> {
  if (calls.length === 0 && later.length === 0) return;
  await tx.$executeRaw`WITH inserted AS (
      INSERT INTO "Call" ("id", "accountId", "contactId", "workflowId", "agentId", "enrollmentId", "direction", "status", "startedAt", "createdAt", "provider", "placingSince", "dialingAudit")
      SELECT u.id, u.account, u.contact, u.workflow, u.agent, u.enrollment, 'outbound',
        CASE WHEN u.provider = 'simulator' THEN 'ringing' ELSE 'placing' END, ${now}::timestamptz, ${now}::timestamptz,
        u.provider::"VoiceProvider", CASE WHEN u.provider = 'simulator' THEN NULL ELSE ${now}::timestamptz END, u.audit
      FROM unnest(${calls.map((c) => c.callId)}::uuid[], ${calls.map((c) => c.accountId)}::uuid[], ${calls.map((c) => c.contactId)}::uuid[],
        ${calls.map((c) => c.workflowId)}::uuid[], ${calls.map((c) => c.agentId)}::uuid[], ${calls.map((c) => c.enrollmentId)}::uuid[],
        ${calls.map((c) => c.provider)}::text[], ${calls.map((c) => JSON.stringify(c.audit))}::jsonb[])
        AS u(id, account, contact, workflow, agent, enrollment, provider, audit))
    UPDATE "Enrollment" AS e SET "nextAttemptAt" = u.at, "dialingHold" = u.hold
    FROM unnest(${[...calls.map((c) => c.enrollmentId), ...later.map((l) => l.id)]}::uuid[],
      ${[...calls.map(() => null), ...later.map((l) => l.at)]}::timestamptz[],
      ${[...calls.map(() => null), ...later.map((l) => l.hold)]}::text[]) AS u(id, at, hold)
    WHERE e."id" = u.id`;
}
