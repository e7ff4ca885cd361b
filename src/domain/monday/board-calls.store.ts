// SQL of a board's recent calls: the calls of the contacts linked to the board's items (the
// enroll action links each contact to its item), newest first. The raw driver joins the link
// table the Prisma client has no relation for.
import type { SqlClient } from '../../db/sql-client.js';

export interface BoardItemCallRow {
  callId: string;
  itemId: string;
  contactId: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  status: string;
  result: string | null;
  startedAt: Date;
  endedAt: Date | null;
  durationSeconds: number | null;
}

/** The newest `limit` calls of the board's linked items, in the Account. */
export async function recentCallsOfBoard(
  db: SqlClient,
  accountId: string,
  boardId: string,
  limit: number,
): Promise<BoardItemCallRow[]> {
  return db.$queryRaw<BoardItemCallRow[]>`SELECT c."id" AS "callId", l."itemId", l."contactId",
      ct."firstName", ct."lastName", ct."fullName", c."status", c."result"::text AS "result",
      c."startedAt", c."endedAt", c."durationSeconds"
    FROM "MondayItemLink" l
      JOIN "Call" c ON c."contactId" = l."contactId" AND c."accountId" = l."accountId"
      JOIN "Contact" ct ON ct."id" = l."contactId"
    WHERE l."accountId" = ${accountId}::uuid AND l."boardId" = ${boardId}
    ORDER BY c."startedAt" DESC, c."id" DESC
    LIMIT ${limit}`;
}
