// The SQL of authentication: a bearer key with its user and its Account's contact rules, in one
// indexed read on the driver (every keyed request runs it).
import type { SqlClient } from '../../db/sql-client.js';

export interface ActiveKeyRow {
  id: string;
  userId: string;
  accountId: string;
  lastUsedAt: Date | null;
  /** Empty: every scope. */
  scopes: string[];
  expiresAt: Date | null;
  defaultLocation: string | null;
  dedupFields: string[];
}

/** The unrevoked key with this secret hash, with its Account's rules; null: none. */
export async function findActiveKey(db: SqlClient, secretHash: string): Promise<ActiveKeyRow | null> {
  const rows = await db.$queryRaw<ActiveKeyRow[]>`
    SELECT k."id", k."userId", k."accountId", k."lastUsedAt", k."scopes", k."expiresAt", a."defaultLocation", a."dedupFields"
    FROM "ApiKey" k JOIN "Account" a ON a."id" = k."accountId"
    WHERE k."secretHash" = ${secretHash} AND k."revokedAt" IS NULL`;
  return rows[0] ?? null;
}
