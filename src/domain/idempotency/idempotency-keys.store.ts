// SQL of IdempotencyKey, the REST writes' Idempotency-Key (src/http/idempotency.ts): a key is
// claimed before its request runs, and its answer stored when it ends. On the path of every
// keyed write, so each step is one statement on the driver; the claim needs ON CONFLICT.
import type { SqlClient } from '../../db/sql-client.js';

export interface KeyClaim {
  accountId: string;
  key: string;
  requestHash: string;
  /** This request's id for the claim: only the holder stores or releases its answer. */
  owner: string;
  now: Date;
  expiresAt: Date;
  /** A claim without an answer made at or before this is abandoned (its request crashed). */
  abandonedBy: Date;
}

export interface StoredKey {
  requestHash: string;
  /** Null while the request that claimed the key runs. */
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Claims the key in one statement: a new key, an expired one or an abandoned claim becomes
 * this request's (true); a key held by a running request or holding an answer stays as it is
 * (false). Concurrent claims of one key: exactly one is true.
 */
export async function claimKey(db: SqlClient, claim: KeyClaim): Promise<boolean> {
  const { accountId, key, requestHash, owner, now, expiresAt, abandonedBy } = claim;
  const claimed = await db.$executeRaw`INSERT INTO "IdempotencyKey" AS k
      ("accountId", "key", "requestHash", "owner", "claimedAt", "expiresAt")
    VALUES (${accountId}::uuid, ${key}, ${requestHash}, ${owner}::uuid, ${now}::timestamptz, ${expiresAt}::timestamptz)
    ON CONFLICT ("accountId", "key") DO UPDATE SET
      "requestHash" = EXCLUDED."requestHash", "owner" = EXCLUDED."owner", "claimedAt" = EXCLUDED."claimedAt",
      "expiresAt" = EXCLUDED."expiresAt", "status" = NULL, "headers" = NULL, "body" = NULL
    WHERE k."expiresAt" <= ${now}::timestamptz
       OR (k."status" IS NULL AND k."claimedAt" <= ${abandonedBy}::timestamptz)`;
  return claimed === 1;
}

export async function findKey(db: SqlClient, accountId: string, key: string): Promise<StoredKey | null> {
  const rows = await db.$queryRaw<StoredKey[]>`SELECT "requestHash", "status", "headers", "body"
    FROM "IdempotencyKey" WHERE "accountId" = ${accountId}::uuid AND "key" = ${key}`;
  return rows[0] ?? null;
}

/** Stores the answer of the claim `owner` holds (nothing when another request took the key over). */
export async function storeAnswer(
  db: SqlClient,
  accountId: string,
  key: string,
  owner: string,
  answer: StoredAnswer,
): Promise<void> {
  await db.$executeRaw`UPDATE "IdempotencyKey"
    SET "status" = ${answer.status}, "headers" = ${JSON.stringify(answer.headers)}::jsonb, "body" = ${answer.body}
    WHERE "accountId" = ${accountId}::uuid AND "key" = ${key} AND "owner" = ${owner}::uuid`;
}

/** Drops the claim `owner` holds, so that a retry runs the request again. */
export async function releaseKey(db: SqlClient, accountId: string, key: string, owner: string): Promise<void> {
  await db.$executeRaw`DELETE FROM "IdempotencyKey"
    WHERE "accountId" = ${accountId}::uuid AND "key" = ${key} AND "owner" = ${owner}::uuid AND "status" IS NULL`;
}

/** Deletes every key expired at `now` (they are ignored already; this keeps the table small). */
export async function deleteExpiredKeys(db: SqlClient, now: Date): Promise<number> {
  return db.$executeRaw`DELETE FROM "IdempotencyKey" WHERE "expiresAt" <= ${now}::timestamptz`;
}
