// SQL of the board app's hot path: every request monday sends is resolved to its linked
// Account in one indexed read (the link with the Account's contact rules).
import type { SqlClient } from '../../db/sql-client.js';

export interface LinkedAccountRow {
  accountId: string;
  userId: string;
  defaultLocation: string | null;
  dedupFields: string[];
}

/** The Account linked to monday's account, with its contact rules; null when none is. */
export async function findLinkedAccount(db: SqlClient, mondayAccountId: string): Promise<LinkedAccountRow | null> {
  const rows = await db.$queryRaw<LinkedAccountRow[]>`SELECT
      l."accountId", l."userId", a."defaultLocation", a."dedupFields"
    FROM "MondayLink" l JOIN "Account" a ON a."id" = l."accountId"
    WHERE l."mondayAccountId" = ${mondayAccountId}`;
  return rows[0] ?? null;
}
