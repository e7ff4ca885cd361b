// How much stored work is waiting, read for a /metrics scrape: one statement of counts, each
// answered from an index (ImportBatch (status, createdAt); Enrollment_due_idx, partial on
// active enrollments; Call_in_flight_idx, partial on the calls in flight; MondayTriggerDelivery
// (status, nextAttemptAt)), so a scrape costs a few index reads whatever the data's size.
// Due enrollments are counted up to DUE_COUNT_CAP: at a million enrolled contacts an exact
// count would read the whole index on every scrape; past the cap the dialer is far behind
// anyway, which is what the gauge is for.
import type { Database } from '../db/database.js';
import { IN_FLIGHT } from './dialer.js';

export const DUE_COUNT_CAP = 10_000;

export interface WorkSnapshot {
  importBatchesWaiting: number;
  bulkUpdatesWaiting: number;
  /** When the oldest waiting batch was stored; null when none waits. */
  oldestBatchAt: Date | null;
  dialerDue: number;
  callsInFlight: number;
  triggerDeliveriesWaiting: number;
  /** Waiting deliveries whose last attempt failed (they are being retried with backoff). */
  triggerDeliveriesFailing: number;
}

export async function readWorkSnapshot(db: Pick<Database, 'sql'>, now: Date): Promise<WorkSnapshot> {
  const inFlight = IN_FLIGHT.map((status) => `'${status}'`).join(', ');
  const { rows } = await db.sql.query<Record<string, number | string | Date | null>>(
    `SELECT
       (SELECT count(*) FROM "ImportBatch" WHERE "status" = 'pending' AND "kind" = 'import')::int AS "importBatchesWaiting",
       (SELECT count(*) FROM "ImportBatch" WHERE "status" = 'pending' AND "kind" = 'bulk-update')::int AS "bulkUpdatesWaiting",
       (SELECT min("createdAt") FROM "ImportBatch" WHERE "status" = 'pending') AS "oldestBatchAt",
       (SELECT count(*) FROM (SELECT 1 FROM "Enrollment" WHERE "active" AND "nextAttemptAt" <= $1::timestamptz LIMIT ${DUE_COUNT_CAP}) due)::int AS "dialerDue",
       (SELECT count(*) FROM "Call" WHERE "status" IN (${inFlight}))::int AS "callsInFlight",
       (SELECT count(*) FROM "MondayTriggerDelivery" WHERE "status" = 'pending')::int AS "triggerDeliveriesWaiting",
       (SELECT count(*) FROM "MondayTriggerDelivery" WHERE "status" = 'pending' AND "lastError" IS NOT NULL)::int AS "triggerDeliveriesFailing"`,
    [now],
  );
  const row = rows[0];
  const count = (key: string) => Number(row[key] ?? 0);
  return {
    importBatchesWaiting: count('importBatchesWaiting'),
    bulkUpdatesWaiting: count('bulkUpdatesWaiting'),
    oldestBatchAt: row.oldestBatchAt ? new Date(row.oldestBatchAt as string | Date) : null,
    dialerDue: count('dialerDue'),
    callsInFlight: count('callsInFlight'),
    triggerDeliveriesWaiting: count('triggerDeliveriesWaiting'),
    triggerDeliveriesFailing: count('triggerDeliveriesFailing'),
  };
}
