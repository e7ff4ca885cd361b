// AnonymousCallTally: the results of erased contacts' calls, as counts per Account, workflow,
// agent and result (contacts-erase.service.ts adds to them), and a workflow's call results read
// as its live calls plus those counts (Workflow.callResults).
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';

/** The value a missing workflow or agent counts as in the tally's unique index (see its migration). */
const NONE = Prisma.raw(`'00000000-0000-0000-0000-000000000000'::uuid`);

export interface ResultCount {
  result: string;
  count: number;
}

/**
 * Adds the ended calls of these ids (the Account's) to the Account's tallies, one row per
 * workflow, agent and result. Calls without a result (never ended) count nowhere.
 */
export async function tallyCalls(tx: SqlClient, accountId: string, callIds: string[]): Promise<void> {
  if (callIds.length === 0) return;
  await tx.$executeRaw`INSERT INTO "AnonymousCallTally" ("id", "accountId", "workflowId", "agentId", "result", "count")
    SELECT gen_random_uuid(), ${accountId}::uuid, "workflowId", "agentId", "result", count(*)::int
      FROM "Call"
      WHERE "accountId" = ${accountId}::uuid AND "id" = ANY(${callIds}::uuid[]) AND "result" IS NOT NULL
      GROUP BY "workflowId", "agentId", "result"
    ON CONFLICT ("accountId", COALESCE("workflowId", ${NONE}), COALESCE("agentId", ${NONE}), "result")
      DO UPDATE SET "count" = "AnonymousCallTally"."count" + excluded."count"`;
}

/** A workflow's calls by result: its calls with a result, plus the tallies of erased contacts' calls. */
export async function callResultsOfWorkflow(
  db: SqlClient,
  accountId: string,
  workflowId: string,
): Promise<ResultCount[]> {
  return db.$queryRaw<ResultCount[]>`SELECT "result", sum("count")::int AS "count" FROM (
      SELECT "result", count(*)::int AS "count" FROM "Call"
        WHERE "accountId" = ${accountId}::uuid AND "workflowId" = ${workflowId}::uuid AND "result" IS NOT NULL
        GROUP BY "result"
      UNION ALL
      SELECT "result", "count" FROM "AnonymousCallTally"
        WHERE "accountId" = ${accountId}::uuid AND "workflowId" = ${workflowId}::uuid
    ) AS counted
    GROUP BY "result" ORDER BY "result"`;
}

/** The erased contacts' calls of a workflow, per agent (null: none) and result (the tallies keep no time). */
export async function tallyOfWorkflow(
  db: SqlClient,
  accountId: string,
  workflowId: string,
): Promise<Array<{ agentId: string | null; result: string; count: number }>> {
  return db.$queryRaw`SELECT "agentId"::text AS "agentId", "result", "count" FROM "AnonymousCallTally"
    WHERE "accountId" = ${accountId}::uuid AND "workflowId" = ${workflowId}::uuid ORDER BY "agentId", "result"`;
}
