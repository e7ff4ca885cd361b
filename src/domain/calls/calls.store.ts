// The SQL of reading calls that the Prisma client cannot say in one statement.
import type { SqlClient } from '../../db/sql-client.js';

/**
 * Which of these calls have at least one utterance: one EXISTS probe per id on the
 * utterances' primary key (callId, seq), never reading a whole transcript.
 */
export async function findCallsWithUtterances(db: SqlClient, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.$queryRaw<Array<{ id: string }>>`SELECT c.id::text AS id FROM unnest(${ids}::uuid[]) AS c(id)
    WHERE EXISTS (SELECT 1 FROM "CallUtterance" u WHERE u."callId" = c.id)`;
  return new Set(rows.map((r) => r.id));
}
