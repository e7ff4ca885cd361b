// The SQL of a workflow's results (workflow-results.service.ts): one statement sums the
// workflow's hourly roll-ups in [from, to) (WorkflowResultHour, WorkflowDurationHour, kept by
// each call's end: call-events.store.ts; WorkflowEnrollmentHour, kept by startEnrollments; the
// hours read once, grouped by day in the zone, agent and result),
// answering every aggregate as JSON, keyed by agent when asked.
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';

export interface Window {
  accountId: string;
  workflowId: string;
  /** Whole UTC hours. */
  from: Date;
  to: Date;
  /** A canonical IANA zone name (checked by the service). */
  timeZone: string;
}

/** One group's sums: the whole workflow (`key` ''), or one agent (`key` its id, the zero UUID for none). */
export interface GroupAggregates {
  key: string;
  calls: number;
  connected: number;
  attempted: number;
  reached: number;
  converted: number;
  convertedCalls: number;
  /** The connected calls' duration histogram (DURATION_BUCKETS); null: none. */
  durations: number[] | null;
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
  options: { byAgent: boolean; withDays: boolean; connected: readonly string[]; buckets: number },
): Promise<WindowAggregates> {
  // The workflow was read within its Account: its roll-ups and enrollments are the Account's.
  const { workflowId, from, to, timeZone } = window;
  const key = options.byAgent ? Prisma.sql`"agentId"::text` : Prisma.sql`''`;
  const inWindow = Prisma.sql`"workflowId" = ${workflowId}::uuid AND "hour" >= ${from}::timestamptz AND "hour" < ${to}::timestamptz`;
  // Each row's day in the zone only when the days are asked for (else one day for all).
  const day = options.withDays ? Prisma.sql`("hour" AT TIME ZONE ${timeZone})::date` : Prisma.sql`NULL::date`;
  const days = options.withDays
    ? Prisma.sql`(SELECT COALESCE(json_agg(json_build_object('date', to_char(d.day, 'YYYY-MM-DD'), 'calls', d.calls, 'results', d.results)
          ORDER BY d.day), '[]'::json)
        FROM (SELECT day, sum(calls)::int AS calls, json_object_agg("result", calls) AS results
          FROM (SELECT day, "result", sum(calls)::int AS calls FROM hours GROUP BY 1, 2) AS r GROUP BY day) AS d)`
    : Prisma.sql`'[]'::json`;
  // The histogram's buckets summed column by column: one pass over the window's hours.
  const bucketSums = Prisma.raw(
    Array.from({ length: options.buckets }, (_, i) => `COALESCE(sum("durations"[${i + 1}]), 0)::int`).join(', '),
  );
  const [row] = await db.$queryRaw<Array<{ result: WindowAggregates }>>`
    WITH hours AS MATERIALIZED (
      SELECT ${day} AS day, ${key} AS key, "result", sum("calls")::int AS calls, sum("firstCalls")::int AS attempted,
        sum("firstReached")::int AS reached, sum("firstConversions")::int AS converted,
        sum("convertedAfter")::int AS converted_calls
      FROM "WorkflowResultHour" WHERE ${inWindow} GROUP BY 1, 2, 3
    ),
    by_result AS (
      SELECT key, "result", sum(calls)::int AS calls, sum(attempted)::int AS attempted, sum(reached)::int AS reached,
        sum(converted)::int AS converted, sum(converted_calls)::int AS converted_calls
      FROM hours GROUP BY 1, 2
    ),
    groups AS (
      SELECT key, sum(calls)::int AS calls,
        COALESCE(sum(calls) FILTER (WHERE "result" = ANY(${options.connected as string[]}::text[])), 0)::int AS connected,
        sum(attempted)::int AS attempted, sum(reached)::int AS reached, sum(converted)::int AS converted,
        sum(converted_calls)::int AS converted_calls, json_object_agg("result", calls) AS results
      FROM by_result GROUP BY key
    ),
    durations AS (
      SELECT ${key} AS key, ARRAY[${bucketSums}] AS durations
      FROM "WorkflowDurationHour" WHERE ${inWindow} GROUP BY 1
    )
    SELECT json_build_object(
      'enrolled', (SELECT COALESCE(sum("enrolled"), 0)::int FROM "WorkflowEnrollmentHour" WHERE ${inWindow}),
      'groups', (SELECT COALESCE(json_agg(json_build_object('key', g.key, 'calls', g.calls, 'connected', g.connected,
          'attempted', g.attempted, 'reached', g.reached, 'converted', g.converted, 'convertedCalls', g.converted_calls,
          'durations', d.durations, 'results', g.results) ORDER BY g.key), '[]'::json)
        FROM groups g LEFT JOIN durations d ON d.key = g.key),
      'days', ${days}
    ) AS result`;
  return row.result;
}
