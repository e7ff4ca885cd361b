// The SQL of a bearer token on the tool server: the access token with its grant, its user and
// its Account's contact rules, in one indexed read on the driver (every OAuth request runs it).
import type { SqlClient } from '../../db/sql-client.js';

export interface ActiveTokenRow {
  grantId: string;
  clientId: string;
  userId: string;
  accountId: string;
  scopes: string[];
  resource: string;
  expiresAt: Date;
  lastUsedAt: Date | null;
  defaultLocation: string | null;
  dedupFields: string[];
}

/**
 * The access token with this hash, when its grant is not revoked and its user is still in the
 * grant's Account; null otherwise. Expiry is the caller's to judge, on the service's clock.
 */
export async function findActiveAccessToken(db: SqlClient, tokenHash: string): Promise<ActiveTokenRow | null> {
  const rows = await db.$queryRaw<ActiveTokenRow[]>`
    SELECT g."id" AS "grantId", g."clientId", g."userId", g."accountId", t."scopes", g."resource", t."expiresAt",
           g."lastUsedAt", a."defaultLocation", a."dedupFields"
    FROM "OAuthToken" t
    JOIN "OAuthGrant" g ON g."id" = t."grantId"
    JOIN "User" u ON u."id" = g."userId"
    JOIN "Account" a ON a."id" = g."accountId"
    WHERE t."tokenHash" = ${tokenHash} AND t."kind" = 'access' AND g."revokedAt" IS NULL
      AND u."removedAt" IS NULL AND u."accountId" = g."accountId"`;
  return rows[0] ?? null;
}
