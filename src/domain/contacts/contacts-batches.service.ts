// Stored batches, the part bulk import and bulk-update share: the validated request is stored
// as one ImportBatch row before the 202, a queue job is sent for it, and this process runs it
// at once too (the batch worker, src/jobs/import-batches.ts, runs it either way). A crash between
// the 202 and the write loses nothing: the batch stays pending until a worker runs it.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { directSql } from '../../db/sql-client.js';
import { insertBatch, type AlongsideInsert, type BatchKind } from './contacts-batches.store.js';

/** The batch's job row (contact-jobs.store.ts), stored by the same statement as the batch. */
export type JobRowFor = (batch: { id: string; accountId: string; createdAt: Date }) => AlongsideInsert;

/** The queue of stored batches; its jobs carry a batch id only. */
export const BATCH_QUEUE = 'contacts.import';

/** Thrown inside a batch's transaction when another process holds the batch (its row lock). */
export class BatchBusy extends Error {}

/**
 * Stores the batch durably with its job row (the id the 202 names), queues it, and starts it
 * right away in this process. Returns the batch's id, which is its job's.
 */
export async function enqueueBatch(
  ctx: RequestContext,
  kind: BatchKind,
  payload: object,
  jobRow: JobRowFor,
): Promise<string> {
  const actor = requireActor(ctx);
  const batch = { id: randomUUID() };
  const { accountId, userId } = actor;
  const createdAt = ctx.clock.now();
  await insertBatch(
    directSql(ctx.db.sql),
    { id: batch.id, accountId, userId, kind, payload, createdAt },
    jobRow({ id: batch.id, accountId, createdAt }),
  );
  // The queue job is the durable path; the run here only removes its polling delay (and, holding
  // an import's payload already, skips reading it back).
  const held = kind === 'import' ? payload : undefined;
  await ctx.queue.send(BATCH_QUEUE, { batchId: batch.id }, { runHere: true, held });
  return batch.id;
}
