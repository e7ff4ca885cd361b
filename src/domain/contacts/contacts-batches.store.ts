// ImportBatch rows: the stored bulk imports and bulk-updates, each the durable record of a 202.
// A batch is claimed by its row lock (FOR UPDATE SKIP LOCKED) for as long as the transaction that
// applies it (or one chunk of it) runs, and marked done in that same transaction.
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';

export type BatchKind = 'import' | 'bulk-update' | 'enrollment';

/** A statement insertBatch runs in the same statement as the batch's INSERT (its job row: contact-jobs.store.ts). */
export type AlongsideInsert = Prisma.Sql;

/**
 * Stores an accepted batch, pending, and runs `alongside` (an INSERT) in the same statement, as
 * a CTE: both rows exist or neither does (one statement on the bulk import's path to its 202).
 */
export async function insertBatch(
  db: SqlClient,
  batch: { id: string; accountId: string; userId: string; kind: BatchKind; payload: object; createdAt: Date },
  alongside?: AlongsideInsert,
): Promise<void> {
  const { id, accountId, userId, kind, payload, createdAt } = batch;
  const withAlongside = alongside ? Prisma.sql`WITH "alongside" AS (${alongside})` : Prisma.empty;
  await db.$executeRaw`${withAlongside} INSERT INTO "ImportBatch" ("id", "accountId", "userId", "kind", "payload", "createdAt")
    VALUES (${id}::uuid, ${accountId}::uuid, ${userId}::uuid, ${kind}, ${JSON.stringify(payload)}::jsonb, ${createdAt})`;
}

interface BatchHead {
  status: string;
  kind: BatchKind;
}

/** A batch's status and kind, without its payload (null: no such batch). */
export async function findBatchHead(db: SqlClient, batchId: string): Promise<BatchHead | null> {
  const [head] = await db.$queryRaw<BatchHead[]>`
    SELECT "status"::text AS "status", "kind" FROM "ImportBatch" WHERE "id" = ${batchId}::uuid`;
  return head ?? null;
}

/**
 * The batch, locked until the transaction ends; null when another transaction holds it (SKIP
 * LOCKED: it is being run elsewhere). Without `withPayload` its payload is not read (null): the
 * caller holds it already.
 */
export async function lockBatch<Payload>(
  tx: SqlClient,
  batchId: string,
  withPayload = true,
): Promise<{ accountId: string; payload: Payload; status: string } | null> {
  const payloadColumn = withPayload ? Prisma.sql`"payload"` : Prisma.sql`NULL::jsonb AS "payload"`;
  const locked = await tx.$queryRaw<Array<{ accountId: string; payload: Payload; status: string }>>`
    SELECT "accountId", ${payloadColumn}, "status"::text AS "status" FROM "ImportBatch" WHERE "id" = ${batchId}::uuid FOR UPDATE SKIP LOCKED`;
  return locked[0] ?? null;
}

/** Marks the batch done with its result; its payload, applied, is dropped. */
export async function markBatchDone(tx: SqlClient, batchId: string, now: Date, result: object): Promise<void> {
  await tx.$executeRaw`UPDATE "ImportBatch" SET "status" = 'done', "doneAt" = ${now}::timestamptz, "payload" = '{}'::jsonb,
      "result" = ${JSON.stringify(result)}::jsonb WHERE "id" = ${batchId}::uuid`;
}

/** Replaces the payload of a batch applied in steps (a bulk-update's progress), committed with the step. */
export async function saveBatchPayload(tx: SqlClient, batchId: string, payload: object): Promise<void> {
  await tx.$executeRaw`UPDATE "ImportBatch" SET "payload" = ${JSON.stringify(payload)}::jsonb WHERE "id" = ${batchId}::uuid`;
}
