// SQL of MondayActionRun, the board app's idempotency on monday's `actionUuid`: claimed before a
// run does any work, its answer stored when it ends. On every action run's path, so each step
// is one statement on the driver; the claim needs ON CONFLICT and the take-over a row count.
import type { SqlClient } from '../../db/sql-client.js';

/** The status of a run claimed and not finished yet (a finished run holds its HTTP status). */
export const RUN_IN_PROGRESS = 0;

export interface StoredRun {
  status: number;
  response: unknown;
  accountId: string;
}

export interface RunClaimRow {
  actionUuid: string;
  accountId: string;
  kind: string;
}

/** Inserts the claim; false when the run already has a row. */
export async function insertRunClaim(db: SqlClient, run: RunClaimRow, now: Date): Promise<boolean> {
  const inserted = await db.$executeRaw`INSERT INTO "MondayActionRun"
      ("actionUuid", "accountId", "kind", "status", "response", "createdAt")
    VALUES (${run.actionUuid}, ${run.accountId}::uuid, ${run.kind}, ${RUN_IN_PROGRESS}, '{}', ${now}::timestamptz)
    ON CONFLICT ("actionUuid") DO NOTHING`;
  return inserted === 1;
}

export async function findRun(db: SqlClient, actionUuid: string): Promise<StoredRun | null> {
  const rows = await db.$queryRaw<StoredRun[]>`SELECT "status", "response", "accountId" FROM "MondayActionRun"
    WHERE "actionUuid" = ${actionUuid}`;
  return rows[0] ?? null;
}

/** Takes over a claim in progress older than `staleBefore`; true for exactly one caller. */
export async function takeOverStaleClaim(
  db: SqlClient,
  actionUuid: string,
  now: Date,
  staleBefore: Date,
): Promise<boolean> {
  const taken = await db.$executeRaw`UPDATE "MondayActionRun" SET "createdAt" = ${now}::timestamptz
    WHERE "actionUuid" = ${actionUuid} AND "status" = ${RUN_IN_PROGRESS}
      AND "createdAt" < ${staleBefore}::timestamptz`;
  return taken === 1;
}

/** Stores the run's final answer (its HTTP status and body), replayed to monday's retries. */
export async function storeRunAnswer(db: SqlClient, actionUuid: string, status: number, body: unknown): Promise<void> {
  await db.$executeRaw`UPDATE "MondayActionRun"
    SET "status" = ${status}, "response" = ${JSON.stringify(body)}::jsonb
    WHERE "actionUuid" = ${actionUuid}`;
}

/** Drops a claim in progress, so that monday's retry runs the action again. */
export async function dropRunClaim(db: SqlClient, actionUuid: string): Promise<void> {
  await db.$executeRaw`DELETE FROM "MondayActionRun"
    WHERE "actionUuid" = ${actionUuid} AND "status" = ${RUN_IN_PROGRESS}`;
}
