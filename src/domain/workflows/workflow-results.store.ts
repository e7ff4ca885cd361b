// The SQL of a workflow's results (workflow-results.service.ts): one statement reads the
// workflow's ended calls placed in [from, to) from one range of the index
// Call_workflowId_startedAt_idx (every column it needs is in the index) and answers every
// aggregate as JSON, keyed by agent when asked; the erased contacts' tallies have no time and
// are read apart (call-tallies.store.ts).
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';

export interface Window {
  accountId: string;
  workflowId: string;
  from: Date;
  to: Date;
  /** A canonical IANA zone name (checked by the service). */
  timeZone: string;
}

/** One group's aggregates: the whole workflow (`key` ''), or one agent (`key` its id, '-' for calls without one). */
export interface GroupAggregates {
  key: string;
  calls: number;
  connected: number;
  attempted: number;
  reached: number;
  converted: number;
  convertedCalls: number;
  durationMedian: number | null;
  durationP90: number | null;
  results: Record<string, number>;
}

export interface DayAggregates {
  date: string;
  calls: number;
  results: Record<string, number>;
}

export interface WindowAggregates {
  enrolled: number;
  groups: GroupAggregates[];
  days: DayAggregates[];
}

/**
 * Every aggregate of the window in one round trip. `byAgent`: the groups are the agents (else
 * one group, the workflow); `withDays`: the calls per day (in `timeZone`) by result.
 */
export async function windowAggregates(
  db: SqlClient,
  window: Window,
  options: { byAgent: boolean; withDays: boolean; connected: readonly string[]; reached: readonly string[] },
): Promise<WindowAggregates> {
  const { accountId, workflowId, from, to, timeZone } = window;
  const key = options.byAgent ? Prisma.sql`COALESCE(c."agentId"::text, '-')` : Prisma.sql`''`;
  const days = options.withDays
    ? Prisma.sql`(SELECT COALESCE(json_agg(json_build_object('date', d.date, 'calls', d.calls, 'results', d.results) ORDER BY d.date), '[]'::json)
        FROM (SELECT r.date, sum(r.n)::int AS calls, json_object_agg(r.result, r.n) AS results
          FROM (SELECT to_char(c."startedAt" AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS date, c."result", count(*)::int AS n
            FROM c GROUP BY 1, 2) AS r(date, result, n)
          GROUP BY r.date) AS d)`
    : Prisma.sql`'[]'::json`;
  const [row] = await db.$queryRaw<Array<{ result: WindowAggregates }>>`
    WITH c AS MATERIALIZED (
      SELECT c."contactId", ${key} AS key, c."result", c."durationSeconds", c."startedAt"
      FROM "Call" c
      WHERE c."workflowId" = ${workflowId}::uuid AND c."startedAt" >= ${from}::timestamptz AND c."startedAt" < ${to}::timestamptz
        AND c."accountId" = ${accountId}::uuid AND c."result" IS NOT NULL
    ),
    per_contact AS (
      SELECT key, "contactId", count(*)::int AS calls,
        bool_or("result" = ANY(${options.reached as string[]}::text[])) AS reached,
        bool_or("result" = 'converted') AS converted
      FROM c GROUP BY key, "contactId"
    ),
    contacts AS (
      SELECT key, count(*)::int AS attempted, count(*) FILTER (WHERE reached)::int AS reached,
        count(*) FILTER (WHERE converted)::int AS converted,
        COALESCE(sum(calls) FILTER (WHERE converted), 0)::int AS converted_calls
      FROM per_contact GROUP BY key
    ),
    durations AS (
      SELECT key, count(*)::int AS calls,
        count(*) FILTER (WHERE "result" = ANY(${options.connected as string[]}::text[]))::int AS connected,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY "durationSeconds")
          FILTER (WHERE "result" = ANY(${options.connected as string[]}::text[])) AS median,
        percentile_disc(0.9) WITHIN GROUP (ORDER BY "durationSeconds")
          FILTER (WHERE "result" = ANY(${options.connected as string[]}::text[])) AS p90
      FROM c GROUP BY key
    ),
    by_result AS (
      SELECT key, json_object_agg("result", n) AS results
      FROM (SELECT key, "result", count(*)::int AS n FROM c GROUP BY key, "result") AS r GROUP BY key
    )
    SELECT json_build_object(
      'enrolled', (SELECT count(*)::int FROM "Enrollment" e WHERE e."workflowId" = ${workflowId}::uuid
        AND e."accountId" = ${accountId}::uuid AND e."createdAt" >= ${from}::timestamptz AND e."createdAt" < ${to}::timestamptz),
      'groups', (SELECT COALESCE(json_agg(json_build_object('key', d.key, 'calls', d.calls, 'connected', d.connected,
          'attempted', ct.attempted, 'reached', ct.reached, 'converted', ct.converted, 'convertedCalls', ct.converted_calls,
          'durationMedian', d.median, 'durationP90', d.p90, 'results', br.results) ORDER BY d.key), '[]'::json)
        FROM durations d JOIN contacts ct ON ct.key = d.key JOIN by_result br ON br.key = d.key),
      'days', ${days}
    ) AS result`;
  return row.result;
}
