// ImportJob and BulkUpdateJob rows: what a bulk import or bulk-update did, as their API reads it
// back. A job row shares its id with the ImportBatch that carries the work; it is inserted by
// the statement that stores the batch (a CTE of insertBatch) and counted by the transaction
// that writes the batch (an import) or each chunk of it (a bulk-update), so its counts are the
// committed writes exactly, however often a run is retried or restarted after a crash.
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';
import { jobCompletedEventsFrom } from '../webhooks/webhook-outbox.store.js';

/** An import's item the writer did not apply, or that validation refused: its index in the request. */
export interface ImportRejection {
  index: number;
  reason: string;
}

/** A contact a bulk-update left unchanged, and why (conflictsWith: the contact holding the dedup key it would take). */
export interface SkippedContact {
  contactId: string;
  reason: string;
  conflictsWith?: string;
}

/** The INSERT of a queued import's job row, run inside the batch's INSERT (insertBatch's `alongside`). */
export function importJobInsert(job: {
  id: string;
  accountId: string;
  accepted: number;
  rejected: ImportRejection[];
  createdAt: Date;
}): Prisma.Sql {
  return Prisma.sql`INSERT INTO "ImportJob" ("id", "accountId", "accepted", "rejected", "createdAt")
    VALUES (${job.id}::uuid, ${job.accountId}::uuid, ${job.accepted}, ${JSON.stringify(job.rejected)}::jsonb, ${job.createdAt})`;
}

/** The INSERT of a queued bulk-update's job row, run inside the batch's INSERT. */
export function bulkUpdateJobInsert(job: { id: string; accountId: string; createdAt: Date }): Prisma.Sql {
  return Prisma.sql`INSERT INTO "BulkUpdateJob" ("id", "accountId", "createdAt")
    VALUES (${job.id}::uuid, ${job.accountId}::uuid, ${job.createdAt})`;
}

/** Marks a queued import running (a statement of its own, committed before the write, so it can be seen). */
export async function markImportRunning(db: SqlClient, id: string, now: Date): Promise<void> {
  await db.$executeRaw`UPDATE "ImportJob" SET "status" = 'running', "startedAt" = ${now}
    WHERE "id" = ${id}::uuid AND "status" = 'queued'`;
}

/**
 * Records an import's written counts and marks it done: in the transaction that writes it and
 * marks its batch done, with its import.completed webhook event (when the Account listens).
 */
export async function finishImportJob(
  tx: SqlClient,
  id: string,
  result: { created: number; updated: number; rejected: ImportRejection[] },
  now: Date,
): Promise<void> {
  await tx.$executeRaw`WITH finished AS (UPDATE "ImportJob" SET "status" = 'done', "created" = ${result.created},
      "updated" = ${result.updated}, "rejected" = "rejected" || ${JSON.stringify(result.rejected)}::jsonb,
      "startedAt" = COALESCE("startedAt", ${now}), "finishedAt" = ${now}
    WHERE "id" = ${id}::uuid RETURNING "id", "accountId")
    ${jobCompletedEventsFrom('finished', 'import.completed', now)}`;
}

/**
 * Adds one bulk-update chunk's counts (in the chunk's transaction, so a chunk is counted once
 * exactly when it commits); `listed` are the skipped contacts to add to the list (the caller
 * bounds it), `skipped` all of this chunk's. The last chunk records the bulk_update.completed
 * webhook event (when the Account listens).
 */
export async function recordBulkUpdateChunk(
  tx: SqlClient,
  id: string,
  chunk: { matched: number; changed: number; skipped: number; listed: SkippedContact[]; finished: boolean },
  now: Date,
): Promise<void> {
  const status = chunk.finished ? 'done' : 'running';
  const finishedAt = chunk.finished ? now : null;
  await tx.$executeRaw`WITH recorded AS (UPDATE "BulkUpdateJob" SET "status" = ${status}::"JobStatus",
      "matched" = "matched" + ${chunk.matched}, "changed" = "changed" + ${chunk.changed},
      "skippedCount" = "skippedCount" + ${chunk.skipped}, "skipped" = "skipped" || ${JSON.stringify(chunk.listed)}::jsonb,
      "startedAt" = COALESCE("startedAt", ${now}), "finishedAt" = ${finishedAt}::timestamptz
    WHERE "id" = ${id}::uuid RETURNING "id", "accountId", "status"),
    finished AS (SELECT "id", "accountId" FROM recorded WHERE "status" = 'done')
    ${jobCompletedEventsFrom('finished', 'bulk_update.completed', now)}`;
}
