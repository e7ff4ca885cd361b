// SQL of MondayItemLink: which board item a contact came from. Written inside the contact
// upsert's transaction (on the raw driver, where the Prisma client cannot join), so the contact
// and its link are stored together or not at all.
import type { SqlClient } from '../../db/sql-client.js';

export interface ItemLink {
  contactId: string;
  accountId: string;
  boardId: string;
  itemId: string;
}

/** Links the contact to the item (a contact keeps one link: its latest item). */
export async function linkContactToItem(tx: SqlClient, link: ItemLink, now: Date): Promise<void> {
  await tx.$executeRaw`INSERT INTO "MondayItemLink" ("contactId", "accountId", "boardId", "itemId", "updatedAt")
    VALUES (${link.contactId}::uuid, ${link.accountId}::uuid, ${link.boardId}, ${link.itemId}, ${now}::timestamptz)
    ON CONFLICT ("contactId") DO UPDATE
      SET "boardId" = EXCLUDED."boardId", "itemId" = EXCLUDED."itemId", "updatedAt" = EXCLUDED."updatedAt"`;
}

/** The result of the latest finished call of the contacts linked to the item, or null. */
export async function latestCallResultOfItem(db: SqlClient, accountId: string, itemId: string): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ result: string }>>`SELECT c."result"::text AS "result"
    FROM "MondayItemLink" l JOIN "Call" c ON c."contactId" = l."contactId"
    WHERE l."accountId" = ${accountId}::uuid AND l."itemId" = ${itemId}
      AND c."result" IS NOT NULL AND c."endedAt" IS NOT NULL
    ORDER BY c."endedAt" DESC LIMIT 1`;
  return rows[0]?.result ?? null;
}
