// GET /api/v1/workflows/{id}/results over a large workflow (issue 28 §2): one workflow with
// 1,000,000 ended calls (BENCH_RESULTS_CALLS) over the 90 days before now, to 200,000 contacts
// (one for every five calls) with their enrollments, seeded by SQL. Results follow a fixed mix
// (about a third connected), durations 0 for the unconnected and 30-329 s for the connected. The
// hourly roll-ups the calls imply (docs/decisions/0039-workflow-results.md) are then built by the
// backfill statements of the migration 20261204000000_workflow_results, read from its file and run
// as they are (the same roll-ups each call's end adds to, test/api/workflow-results.test.ts checks
// that path); every roll-up row is deleted first, so the backfill rebuilds them for every call
// of the database. Then VACUUM ANALYZE.
//
//   workflow-results-90d   GET /api/v1/workflows/{id}/results for the whole 90 days, groupBy=day,
//                          timeZone=America/Chicago (the widest window of the benchmark). Raw: one
//                          plain SQL statement on the driver computing the same aggregation from
//                          the calls themselves (counts by result, distinct contacts attempted,
//                          reached and converted, the connected calls' median and p90, the calls
//                          per Chicago day by result, the enrollments started): what the roll-ups
//                          spare.
//   workflow-results-7d    the same for the last 7 days.
// Target: p95 < 100 ms on PostgreSQL for 90 days.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '../test/support/test-server.js';
import { CONNECTED_RESULTS, REACHED_RESULTS } from '../src/domain/workflows/workflow-results.rules.js';
import { CALL_RESULTS } from '../src/calls/telephony/telephony.port.js';
import { figure, timed, type Figure } from './run.js';

const DAY_MS = 86_400_000;
const MIGRATION = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../prisma/migrations/20261204000000_workflow_results/migration.sql',
);

/** The migration's backfill statements (after its "-- Backfill" comment), one by one. */
function backfillStatements(): string[] {
  const text = fs.readFileSync(MIGRATION, 'utf8');
  const backfill = text.slice(text.indexOf('-- Backfill'));
  return backfill
    .split(/;\s*\n/)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}

/** The raw statement: the same aggregates as the service's, written plainly. */
const RAW_SQL = `WITH c AS MATERIALIZED (
    SELECT "contactId", "result", "durationSeconds", "startedAt" FROM "Call"
    WHERE "workflowId" = $1::uuid AND "accountId" = $2::uuid AND "startedAt" >= $3 AND "startedAt" < $4 AND "result" IS NOT NULL)
  SELECT
    (SELECT count(*) FROM "Enrollment" WHERE "workflowId" = $1::uuid AND "accountId" = $2::uuid AND "createdAt" >= $3 AND "createdAt" < $4) AS enrolled,
    (SELECT json_object_agg("result", n) FROM (SELECT "result", count(*) AS n FROM c GROUP BY 1) r) AS results,
    (SELECT json_build_object('attempted', count(*), 'reached', count(*) FILTER (WHERE reached), 'converted', count(*) FILTER (WHERE converted))
      FROM (SELECT "contactId", bool_or("result" = ANY($5::text[])) AS reached, bool_or("result" = 'converted') AS converted
        FROM c GROUP BY 1) p) AS contacts,
    (SELECT json_build_object('median', percentile_disc(0.5) WITHIN GROUP (ORDER BY "durationSeconds"),
        'p90', percentile_disc(0.9) WITHIN GROUP (ORDER BY "durationSeconds"))
      FROM c WHERE "result" = ANY($6::text[])) AS durations,
    (SELECT json_agg(d) FROM (SELECT to_char("startedAt" AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD') AS day, "result", count(*) AS n
      FROM c GROUP BY 1, 2) d) AS days`;

export async function benchWorkflowResults(
  server: TestServer,
  settings: { calls: number; requests: number; warmup: number; rawRuns: number },
  log: (message: string) => void,
): Promise<Figure[]> {
  const sql = server.service.services.db.sql;
  const { apiKey, accountId } = await server.createAccount();
  const workflowId = await server.createWorkflow(accountId, { name: 'Results bench' });
  const contacts = Math.max(1, Math.floor(settings.calls / 5));
  const now = server.now();
  const start = new Date(now.getTime() - 90 * DAY_MS);
  log(
    `   seeding ${contacts.toLocaleString('en-US')} contacts and ${settings.calls.toLocaleString('en-US')} calls over 90 days…`,
  );
  const [seedMs] = await timed(async () => {
    await sql.query(
      `INSERT INTO "Contact" ("id", "accountId", "sourceKind", "createdAt", "updatedAt", "dedupKey", "phone")
       SELECT gen_random_uuid(), $1::uuid, 'api', $2::timestamptz, $2::timestamptz, 'bench-results-' || i, '+1628' || (3000000 + i)
       FROM generate_series(1, $3::int) AS i`,
      [accountId, start, contacts],
    );
    await sql.query(
      `INSERT INTO "Enrollment" ("id", "accountId", "contactId", "workflowId", "active", "attempts", "createdAt")
       SELECT gen_random_uuid(), $1::uuid, c."id", $2::uuid, false, 5,
         $3::timestamptz + (hashtext(c."id"::text) & 2147483647) % 7776000 * interval '1 second'
       FROM "Contact" c WHERE c."accountId" = $1::uuid`,
      [accountId, workflowId, start],
    );
    // Each call: a contact (one in five), a start uniform over the 90 days, a result from a fixed mix.
    await sql.query(
      `WITH ids AS (SELECT array_agg("id" ORDER BY "id") AS ids FROM "Contact" WHERE "accountId" = $1::uuid),
        results AS (SELECT $5::text[] AS r)
       INSERT INTO "Call" ("id", "accountId", "contactId", "workflowId", "direction", "status", "result", "startedAt",
         "endedAt", "durationSeconds", "createdAt")
       SELECT gen_random_uuid(), $1::uuid, ids.ids[1 + (i % array_length(ids.ids, 1))], $2::uuid, 'outbound', 'ended', x.result,
         x.started, x.started + interval '1 minute', x.duration, x.started
       FROM ids, results, generate_series(1, $4::int) AS i,
         LATERAL (SELECT results.r[1 + (hashtext('r' || i) & 2147483647) % array_length(results.r, 1)] AS result,
           $3::timestamptz + ((hashtext('t' || i) & 2147483647) % 7776000) * interval '1 second' AS started) AS y,
         LATERAL (SELECT y.result AS result, y.started AS started,
           CASE WHEN y.result = ANY($6::text[]) THEN 30 + (hashtext('d' || i) & 2147483647) % 300 ELSE 0 END AS duration) AS x`,
      [accountId, workflowId, start, settings.calls, RESULT_MIX, [...CONNECTED_RESULTS]],
    );
    await sql.query('DELETE FROM "WorkflowResultHour"');
    await sql.query('DELETE FROM "WorkflowDurationHour"');
    for (const statement of backfillStatements()) await sql.query(statement);
    await sql.query('VACUUM ANALYZE "Call"');
    await sql.query('VACUUM ANALYZE "WorkflowResultHour"');
    await sql.query('VACUUM ANALYZE "WorkflowDurationHour"');
    await sql.query('VACUUM ANALYZE "Enrollment"');
  });
  log(`   seeded in ${(seedMs / 1000).toFixed(1)} s`);
  const figures: Figure[] = [];
  for (const days of [90, 7]) {
    const from = new Date(now.getTime() - days * DAY_MS);
    const url = `${server.baseUrl}/api/v1/workflows/${workflowId}/results?from=${from.toISOString()}&to=${now.toISOString()}&groupBy=day&timeZone=America/Chicago`;
    const request = async () => {
      const [ms, status] = await timed(async () => {
        const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
        await response.text();
        return response.status;
      });
      if (status !== 200) throw new Error(`results: HTTP ${status}`);
      return ms;
    };
    const raw = async () =>
      (
        await timed(() =>
          sql.query(RAW_SQL, [workflowId, accountId, from, now, [...REACHED_RESULTS], [...CONNECTED_RESULTS]]),
        )
      )[0];
    await raw();
    for (let i = 0; i < settings.warmup; i++) await request();
    // The service's requests first, then the raw statements: a raw statement reads every call of the
    // window (seconds, with parallel workers), which would otherwise slow the request that follows it.
    const serviceMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = 0; i < settings.requests; i++) serviceMs.push(await request());
    for (let i = 0; i < settings.rawRuns; i++) rawMs.push(await raw());
    const plan = await sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${RAW_SQL}`, [
      workflowId,
      accountId,
      from,
      now,
      [...REACHED_RESULTS],
      [...CONNECTED_RESULTS],
    ]);
    figures.push(
      figure(serviceMs, rawMs, {
        id: `workflow-results-${days}d`,
        name: `GET /workflows/{id}/results, ${days} days of a workflow with ${settings.calls.toLocaleString('en-US')} calls over 90 days (groupBy=day, America/Chicago)`,
        target: days === 90 ? 'p95 < 100 ms' : 'informational',
        pass: (service) => (days === 90 ? service.p95 < 100 : null),
        notes: 'raw: one plain SQL statement computing the same aggregates on the driver',
        explain: { variant: `raw, ${days} days`, plan: plan.rows.map((r) => r['QUERY PLAN']).join('\n') },
        extra: { calls: settings.calls, contacts, seedSeconds: Math.round(seedMs / 100) / 10 },
      }),
    );
  }
  return figures;
}

/** The results the seeded calls end with, by weight (about a third connected, 3% converted). */
const RESULT_MIX: string[] = (
  [
    ['no_answer', 30],
    ['voicemail', 20],
    ['busy', 6],
    ['ivr', 3],
    ['invalid_number', 2],
    ['carrier_blocked', 1],
    ['unknown', 1],
    ['answered', 10],
    ['not_interested', 8],
    ['callback_requested', 5],
    ['human_busy', 3],
    ['wrong_number', 2],
    ['converted', 3],
    ['qualified', 2],
    ['disqualified', 2],
    ['do_not_call', 1],
    ['contact_verified', 1],
  ] as const
).flatMap(([result, weight]) => {
  if (!(CALL_RESULTS as readonly string[]).includes(result)) throw new Error(result);
  return Array.from({ length: weight }, () => result as string);
});
