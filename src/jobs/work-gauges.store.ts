// The SQL of the work gauges (work-gauges.ts): one statement of counts, each answered from an
// index. Its constants are written into the text, not sent as parameters: a partial index
// (Call_in_flight_idx, on the in-flight statuses) serves a statement only when the planner can
// see that its condition implies the index's, which a parameter's value would hide from a
// prepared statement's generic plan.
import { Prisma } from '../generated/prisma/client.js';
import type { SqlClient } from '../db/sql-client.js';
import { IN_FLIGHT } from './dialer.store.js';

/** One row: each count (and the oldest waiting batch's time) under its WorkSnapshot name. */
export type WorkCountsRow = Record<string, number | string | Date | null>;

/** Due enrollments are counted up to this many (see work-gauges.ts). */
export const DUE_COUNT_CAP = 10_000;

const IN_FLIGHT_LIST = Prisma.raw(IN_FLIGHT.map((status) => `'${status}'`).join(', '));
const DUE_CAP = Prisma.raw(String(DUE_COUNT_CAP));

/** The stored work waiting at `now`. */
export async function countWaitingWork(db: SqlClient, now: Date): Promise<WorkCountsRow> {
  const [row] = await db.$queryRaw<WorkCountsRow[]>`SELECT
       (SELECT count(*) FROM "ImportBatch" WHERE "status" = 'pending' AND "kind" = 'import')::int AS "importBatchesWaiting",
       (SELECT count(*) FROM "ImportBatch" WHERE "status" = 'pending' AND "kind" = 'bulk-update')::int AS "bulkUpdatesWaiting",
       (SELECT min("createdAt") FROM "ImportBatch" WHERE "status" = 'pending') AS "oldestBatchAt",
       (SELECT count(*) FROM (SELECT 1 FROM "Enrollment" WHERE "active" AND "nextAttemptAt" <= ${now}::timestamptz LIMIT ${DUE_CAP}) due)::int AS "dialerDue",
       (SELECT count(*) FROM "Call" WHERE "status" IN (${IN_FLIGHT_LIST}))::int AS "callsInFlight",
       (SELECT count(*) FROM "MondayTriggerDelivery" WHERE "status" = 'pending')::int AS "triggerDeliveriesWaiting",
       (SELECT count(*) FROM "MondayTriggerDelivery" WHERE "status" = 'pending' AND "lastError" IS NOT NULL)::int AS "triggerDeliveriesFailing",
       (SELECT count(*) FROM "WebhookDelivery" WHERE "status" = 'pending')::int AS "webhookDeliveriesWaiting",
       (SELECT count(*) FROM "WebhookDelivery" WHERE "status" = 'pending' AND "lastError" IS NOT NULL)::int AS "webhookDeliveriesFailing",
       (SELECT count(*) FROM "DomainEvent" WHERE "webhooksFannedAt" IS NULL)::int AS "webhookEventsToFanOut"`;
  return row;
}
