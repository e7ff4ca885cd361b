// How much stored work is waiting, read for a /metrics scrape: one statement of counts, each
// answered from an index (ImportBatch (status, createdAt); Enrollment_due_idx, partial on
// active enrollments; Call_in_flight_idx, partial on the calls in flight; MondayTriggerDelivery
// (status, nextAttemptAt); the partial indexes of pending webhook deliveries and of the events the
// webhook fan-out has not handled), so a scrape costs a few index reads whatever the data's size.
// Due enrollments are counted up to DUE_COUNT_CAP (./work-gauges.store.ts): at a million enrolled contacts an exact
// count would read the whole index on every scrape; past the cap the dialer is far behind
// anyway, which is what the gauge is for.
import type { Database } from '../db/database.js';
import { directSql } from '../db/sql-client.js';
import { countWaitingWork } from './work-gauges.store.js';

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
  webhookDeliveriesWaiting: number;
  /** Waiting webhook deliveries whose last attempt failed (retried with backoff). */
  webhookDeliveriesFailing: number;
  /** Outbox events the webhook fan-out has not handled yet. */
  webhookEventsToFanOut: number;
}

export async function readWorkSnapshot(db: Pick<Database, 'sql'>, now: Date): Promise<WorkSnapshot> {
  const row = await countWaitingWork(directSql(db.sql), now);
  const count = (key: string) => Number(row[key] ?? 0);
  return {
    importBatchesWaiting: count('importBatchesWaiting'),
    bulkUpdatesWaiting: count('bulkUpdatesWaiting'),
    oldestBatchAt: row.oldestBatchAt ? new Date(row.oldestBatchAt as string | Date) : null,
    dialerDue: count('dialerDue'),
    callsInFlight: count('callsInFlight'),
    triggerDeliveriesWaiting: count('triggerDeliveriesWaiting'),
    triggerDeliveriesFailing: count('triggerDeliveriesFailing'),
    webhookDeliveriesWaiting: count('webhookDeliveriesWaiting'),
    webhookDeliveriesFailing: count('webhookDeliveriesFailing'),
    webhookEventsToFanOut: count('webhookEventsToFanOut'),
  };
}
