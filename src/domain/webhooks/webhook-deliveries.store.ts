// SQL of webhook delivery (src/jobs/webhook-delivery.ts): outbox events fanned out to
// WebhookDelivery rows, those rows leased, settled and rescheduled, and endpoints' failure clocks.
// Set-based and on the driver: events and deliveries are claimed with SKIP LOCKED, leases by a
// counting UPDATE … RETURNING, so any number of workers share the work.
import type { SqlClient } from '../../db/sql-client.js';

export interface UnfannedEvent {
  seq: string;
  id: string;
  accountId: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

export interface EnabledEndpoint {
  id: string;
  accountId: string;
  events: string[];
  createdAt: Date;
}

export interface NewWebhookDelivery {
  id: string;
  endpointId: string;
  accountId: string;
  eventId: string;
  eventType: string;
  contactId: string | null;
  /** The body, as JSON text. */
  payload: string;
}

export interface LeasedWebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  payload: string;
  /** Attempts so far, this one included. */
  attempts: number;
  giveUpAt: Date;
  url: string;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The oldest events the webhook fan-out has not handled (read without a lock: see lockUnfanned). */
export async function unfannedEvents(db: SqlClient, limit: number): Promise<UnfannedEvent[]> {
  return db.$queryRaw<UnfannedEvent[]>`SELECT "seq"::text AS "seq", "id", "accountId", "type", "payload", "createdAt"
    FROM "DomainEvent" WHERE "webhooksFannedAt" IS NULL
    ORDER BY "seq" LIMIT ${limit}`;
}

/** Of these events, the ones still not handled, locked (another worker's are skipped): their seqs. */
export async function lockUnfanned(tx: SqlClient, seqs: string[]): Promise<Set<string>> {
  const rows = await tx.$queryRaw<Array<{ seq: string }>>`SELECT "seq"::text AS "seq" FROM "DomainEvent"
    WHERE "seq" = ANY(${seqs}::bigint[]) AND "webhooksFannedAt" IS NULL FOR UPDATE SKIP LOCKED`;
  return new Set(rows.map((r) => r.seq));
}

export async function enabledEndpointsOf(tx: SqlClient, accountIds: string[]): Promise<EnabledEndpoint[]> {
  if (accountIds.length === 0) return [];
  return tx.$queryRaw<EnabledEndpoint[]>`SELECT "id", "accountId", "events", "createdAt" FROM "WebhookEndpoint"
    WHERE "accountId" = ANY(${accountIds}::uuid[]) AND NOT "disabled"`;
}

/** One row per (endpoint, event), due now; a pair already there is left as it is. */
export async function insertWebhookDeliveries(
  tx: SqlClient,
  deliveries: NewWebhookDelivery[],
  now: Date,
  giveUpAt: Date,
): Promise<void> {
  if (deliveries.length === 0) return;
  await tx.$executeRaw`INSERT INTO "WebhookDelivery" ("id", "endpointId", "accountId", "eventId", "eventType",
      "contactId", "payload", "nextAttemptAt", "giveUpAt", "createdAt")
    SELECT d."id"::uuid, d."endpointId"::uuid, d."accountId"::uuid, d."eventId"::uuid, d."eventType",
        d."contactId"::uuid, d."payload", ${now}::timestamptz, ${giveUpAt}::timestamptz, ${now}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb)
        AS d("id" text, "endpointId" text, "accountId" text, "eventId" text, "eventType" text, "contactId" text, "payload" text)
    ON CONFLICT ("endpointId", "eventId") DO NOTHING`;
}

export async function markEventsFanned(tx: SqlClient, seqs: string[], now: Date): Promise<void> {
  await tx.$executeRaw`UPDATE "DomainEvent" SET "webhooksFannedAt" = ${now}::timestamptz
    WHERE "seq" = ANY(${seqs}::bigint[])`;
}

export interface WebhookLease {
  now: Date;
  until: Date;
  /** The process leasing (null: none recorded). */
  owner: string | null;
  limit: number;
}

/**
 * Leases up to `limit` due deliveries of enabled endpoints to `owner` until `until` (their next
 * attempt time, should the process die), counting the attempt; each with its endpoint's URL and
 * secrets (as stored: encrypted).
 */
export async function leaseDueWebhookDeliveries(db: SqlClient, lease: WebhookLease): Promise<LeasedWebhookDelivery[]> {
  return db.$queryRaw<LeasedWebhookDelivery[]>`UPDATE "WebhookDelivery" d
      SET "attempts" = d."attempts" + 1, "nextAttemptAt" = ${lease.until}::timestamptz,
        "lastAttemptAt" = ${lease.now}::timestamptz, "leasedBy" = ${lease.owner}::uuid
    FROM (SELECT w."id", e."url", e."secretEncrypted", e."previousSecretEncrypted", e."previousSecretExpiresAt"
           FROM "WebhookDelivery" w JOIN "WebhookEndpoint" e ON e."id" = w."endpointId"
           WHERE w."status" = 'pending' AND w."nextAttemptAt" <= ${lease.now}::timestamptz AND NOT e."disabled"
           ORDER BY w."nextAttemptAt" LIMIT ${lease.limit} FOR UPDATE OF w SKIP LOCKED) due
    WHERE d."id" = due."id"
    RETURNING d."id", d."endpointId", d."eventId", d."payload", d."attempts", d."giveUpAt", due."url",
      due."secretEncrypted", due."previousSecretEncrypted", due."previousSecretExpiresAt"`;
}

/** A 2xx: the delivery is done, and its endpoint is no longer failing. */
export async function settleWebhookDelivered(
  db: SqlClient,
  delivery: { id: string; endpointId: string },
  responseStatus: number,
  now: Date,
): Promise<void> {
  await db.$executeRaw`WITH delivered AS (UPDATE "WebhookDelivery"
      SET "status" = 'delivered', "responseStatus" = ${responseStatus}, "lastError" = NULL,
        "deliveredAt" = ${now}::timestamptz, "nextAttemptAt" = NULL, "leasedBy" = NULL
      WHERE "id" = ${delivery.id}::uuid RETURNING "id")
    UPDATE "WebhookEndpoint" SET "failingSince" = NULL
      WHERE "id" = ${delivery.endpointId}::uuid AND "failingSince" IS NOT NULL`;
}

export interface FailedAttempt {
  id: string;
  endpointId: string;
  /** The answer's status; null when there was none. */
  responseStatus: number | null;
  error: string;
  now: Date;
  /** When to try again; null: given up (the delivery fails for good). */
  next: Date | null;
}

/**
 * A failed attempt: the delivery is rescheduled (or failed for good), and its endpoint's failure
 * clock starts if it was not running. Answers when the endpoint started failing.
 */
export async function recordWebhookFailure(db: SqlClient, attempt: FailedAttempt): Promise<Date> {
  const [row] = await db.$queryRaw<[{ failingSince: Date }]>`WITH failed AS (UPDATE "WebhookDelivery"
      SET "status" = ${attempt.next ? 'pending' : 'failed'}, "responseStatus" = ${attempt.responseStatus}::int,
        "lastError" = ${attempt.error}, "nextAttemptAt" = ${attempt.next}::timestamptz, "leasedBy" = NULL
      WHERE "id" = ${attempt.id}::uuid RETURNING "id")
    UPDATE "WebhookEndpoint" SET "failingSince" = COALESCE("failingSince", ${attempt.now}::timestamptz)
      WHERE "id" = ${attempt.endpointId}::uuid RETURNING "failingSince"`;
  return row?.failingSince ?? attempt.now;
}

/**
 * Disables an endpoint that has failed for too long, with a notice as the last line of its log;
 * nothing when it was already disabled (another worker did it). Its pending deliveries wait.
 */
export async function disableFailingEndpoint(
  db: SqlClient,
  endpointId: string,
  notice: { id: string; eventId: string; eventType: string; payload: string; reason: string },
  now: Date,
): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`WITH disabled AS (UPDATE "WebhookEndpoint"
      SET "disabled" = true, "disabledReason" = ${notice.reason}, "updatedAt" = ${now}::timestamptz
      WHERE "id" = ${endpointId}::uuid AND NOT "disabled" RETURNING "id", "accountId")
    INSERT INTO "WebhookDelivery" ("id", "endpointId", "accountId", "eventId", "eventType", "payload", "status",
        "lastError", "giveUpAt", "createdAt")
      SELECT ${notice.id}::uuid, d."id", d."accountId", ${notice.eventId}::uuid, ${notice.eventType}, ${notice.payload},
        'notice', ${notice.reason}, ${now}::timestamptz, ${now}::timestamptz
      FROM disabled d RETURNING "id"`;
  return rows.length > 0;
}

/** The processes holding leases of pending deliveries. */
export async function webhookLeaseOwners(db: SqlClient): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ owner: string }>>`SELECT DISTINCT "leasedBy"::text AS "owner"
    FROM "WebhookDelivery" WHERE "status" = 'pending' AND "leasedBy" IS NOT NULL`;
  return rows.map((r) => r.owner);
}

/** Gives back, due at `now`, the leases of pending deliveries held by `owners`; how many. */
export async function releaseWebhookLeasesOf(db: SqlClient, owners: string[], now: Date): Promise<number> {
  return db.$executeRaw`UPDATE "WebhookDelivery" SET "leasedBy" = NULL, "nextAttemptAt" = ${now}::timestamptz
    WHERE "status" = 'pending' AND "leasedBy" = ANY(${owners}::uuid[])`;
}
