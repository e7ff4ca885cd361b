// SQL of the "when a call ends" outbox (src/jobs/trigger-delivery.ts): call.ended events fanned
// out to MondayTriggerDelivery rows, and those rows leased, settled and rescheduled. Set-based
// and on the driver: events and deliveries are claimed with SKIP LOCKED, leases by a counting
// UPDATE … RETURNING, so that any number of workers share the work.
import type { CallEndedEvent } from '../calls/call-events.service.js';
import type { SqlClient } from '../../db/sql-client.js';

export interface UndispatchedEvent {
  seq: string;
  payload: CallEndedEvent;
}

export interface ActiveSubscription {
  webhookId: string;
  accountId: string;
  agentId: string | null;
  boardId: string | null;
}

export interface ContactItem {
  contactId: string;
  boardId: string;
  itemId: string;
}

export interface NewDelivery {
  webhookId: string;
  callId: string;
  /** The body to send, as JSON text. */
  payload: string;
}

export interface LeasedDelivery {
  id: string;
  webhookId: string;
  payload: unknown;
  /** Attempts so far, this one included. */
  attempts: number;
  createdAt: Date;
  /** null when the subscription row is gone. */
  webhookUrl: string | null;
  subscriptionDeleted: boolean;
}

/** The oldest call.ended events not fanned out yet, locked (other workers skip them). */
export async function lockUndispatchedCallEnded(tx: SqlClient, limit: number): Promise<UndispatchedEvent[]> {
  return tx.$queryRaw<UndispatchedEvent[]>`SELECT "seq", "payload" FROM "DomainEvent"
    WHERE "dispatchedAt" IS NULL AND "type" = 'call.ended'
    ORDER BY "seq" LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
}

export async function activeSubscriptionsOf(tx: SqlClient, accountIds: string[]): Promise<ActiveSubscription[]> {
  return tx.$queryRaw<ActiveSubscription[]>`SELECT "webhookId", "accountId", "agentId", "boardId"
    FROM "MondayTriggerSubscription"
    WHERE "accountId" = ANY(${accountIds}::uuid[]) AND "deletedAt" IS NULL`;
}

/** The board items the contacts came from (contacts from no board have none). */
export async function itemsOfContacts(tx: SqlClient, contactIds: string[]): Promise<ContactItem[]> {
  return tx.$queryRaw<ContactItem[]>`SELECT "contactId", "boardId", "itemId" FROM "MondayItemLink"
    WHERE "contactId" = ANY(${contactIds}::uuid[])`;
}

/** One row per (subscription, call); a pair already there is left as it is. */
export async function insertDeliveries(tx: SqlClient, deliveries: NewDelivery[], now: Date): Promise<void> {
  if (deliveries.length === 0) return;
  await tx.$executeRaw`INSERT INTO "MondayTriggerDelivery"
      ("id", "webhookId", "callId", "payload", "nextAttemptAt", "createdAt")
    SELECT gen_random_uuid(), d."webhookId", d."callId"::uuid, d."payload"::jsonb,
        ${now}::timestamptz, ${now}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb)
        AS d("webhookId" text, "callId" text, "payload" text)
    ON CONFLICT ("webhookId", "callId") DO NOTHING`;
}

export async function markEventsDispatched(tx: SqlClient, seqs: string[], now: Date): Promise<void> {
  await tx.$executeRaw`UPDATE "DomainEvent" SET "dispatchedAt" = ${now}::timestamptz
    WHERE "seq" = ANY(${seqs}::bigint[])`;
}

/**
 * Leases up to `limit` due deliveries to `owner` until `leaseUntil` (their next attempt time),
 * counting the attempt; with each, its subscription's URL and whether it was deleted.
 */
export interface Lease {
  now: Date;
  until: Date;
  /** The process leasing (null: none recorded). */
  owner: string | null;
  limit: number;
}

export async function leaseDueDeliveries(db: SqlClient, lease: Lease): Promise<LeasedDelivery[]> {
  return db.$queryRaw<LeasedDelivery[]>`UPDATE "MondayTriggerDelivery" d
      SET "attempts" = d."attempts" + 1, "nextAttemptAt" = ${lease.until}::timestamptz,
        "leasedBy" = ${lease.owner}::uuid
    FROM (SELECT "id", "webhookId" FROM "MondayTriggerDelivery"
           WHERE "status" = 'pending' AND "nextAttemptAt" <= ${lease.now}::timestamptz
           ORDER BY "nextAttemptAt" LIMIT ${lease.limit} FOR UPDATE SKIP LOCKED) due
    LEFT JOIN "MondayTriggerSubscription" sub ON sub."webhookId" = due."webhookId"
    WHERE d."id" = due."id"
    RETURNING d."id", d."webhookId", d."payload", d."attempts", d."createdAt", sub."webhookUrl",
      (sub."deletedAt" IS NOT NULL) AS "subscriptionDeleted"`;
}

/** Ends a delivery: delivered, cancelled (the automation is gone) or failed for good. */
export type DeliveryEnd = 'delivered' | 'cancelled' | 'failed';

export async function settleDelivery(
  db: SqlClient,
  id: string,
  status: DeliveryEnd,
  error: string | null,
  now: Date,
): Promise<void> {
  await db.$executeRaw`UPDATE "MondayTriggerDelivery"
    SET "status" = ${status}, "lastError" = COALESCE(${error}, "lastError"),
      "deliveredAt" = ${status === 'delivered' ? now : null}::timestamptz, "leasedBy" = NULL
    WHERE "id" = ${id}::uuid`;
}

/** Gives the lease back, due again at `next`. */
export async function rescheduleDelivery(db: SqlClient, id: string, next: Date, error: string): Promise<void> {
  await db.$executeRaw`UPDATE "MondayTriggerDelivery"
    SET "nextAttemptAt" = ${next}::timestamptz, "lastError" = ${error}, "leasedBy" = NULL
    WHERE "id" = ${id}::uuid`;
}

/** Soft-deletes a subscription monday no longer knows (its automation was deleted without an unsubscribe). */
export async function dropSubscription(db: SqlClient, webhookId: string, now: Date): Promise<void> {
  await db.$executeRaw`UPDATE "MondayTriggerSubscription" SET "deletedAt" = ${now}::timestamptz
    WHERE "webhookId" = ${webhookId} AND "deletedAt" IS NULL`;
}

/** The processes holding leases of pending deliveries. */
export async function leaseOwners(db: SqlClient): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ owner: string }>>`SELECT DISTINCT "leasedBy"::text AS "owner"
    FROM "MondayTriggerDelivery"
    WHERE "status" = 'pending' AND "leasedBy" IS NOT NULL`;
  return rows.map((r) => r.owner);
}

/** Gives back, due at `now`, the leases of pending deliveries held by `owners`; how many. */
export async function releaseLeasesOf(db: SqlClient, owners: string[], now: Date): Promise<number> {
  return db.$executeRaw`UPDATE "MondayTriggerDelivery" SET "leasedBy" = NULL, "nextAttemptAt" = ${now}::timestamptz
    WHERE "status" = 'pending' AND "leasedBy" = ANY(${owners}::uuid[])`;
}
