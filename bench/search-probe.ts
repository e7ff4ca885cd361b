// The search cases' SELECTs on a database kept between runs: for tuning the search at ten
// million contacts without a full benchmark run (its seed takes over ten minutes each time).
//
//   npx tsx bench/search-probe.ts seed <database> <contacts>      create (or recreate) the database, migrate, seed
//   npx tsx bench/search-probe.ts run <database> [case] [runs]    time each case's terms, best of `runs` (default 2)
//   npx tsx bench/search-probe.ts worth <database> [case]         what each index of Contact pays for (below)
//
// `case` is a regular expression over the case ids of bench/search.ts (`status-rare`, `phone`…).
// Each term's SELECT is listQuerySql's, as the benchmark's raw column runs it, and the three slowest
// terms of each case are printed. The server is BENCH_DATABASE_URL's (default: postgres@127.0.0.1:5432).
// The seed is bench/seed.ts's, without ANALYZE or VACUUM, as the benchmark leaves it.
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { listQuerySql } from '../src/domain/contacts/contacts-list.store.js';
import { ListQuerySchema } from '../src/domain/contacts/contacts.inputs.js';
import { type ListCase, listCases } from './lists.js';
import { multiRowInsert, rawRow, UPSERT_SQL } from './raw-statements.js';
import { FIRST_NAMES, freshPhone, LAST_NAMES, legacyTerms, pick, stats, timed } from './run.js';
import { sampleContacts, searchCases } from './search.js';
import { seedContacts, WORKFLOW_SHARES } from './seed.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ACCOUNT_NAME = 'search-probe';

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function seed(name: string, contacts: number): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`database name: lower-case letters, digits and _ (got ${name})`);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const db = await openDatabase({ databaseUrl: databaseUrl(name) });
  try {
    await migrate(db.sql);
    const { rows } = await db.sql.query<{ id: string }>(
      `INSERT INTO "Account" (id, name, "createdAt") VALUES (gen_random_uuid(), $1, now()) RETURNING id`,
      [ACCOUNT_NAME],
    );
    const seeded = await seedContacts(db, rows[0].id, contacts);
    console.log(`seeded ${contacts} contacts in ${seeded.seconds.toFixed(0)} s: ${JSON.stringify(seeded.steps)}`);
  } finally {
    await db.close();
  }
}

async function run(name: string, only: RegExp, runs: number): Promise<void> {
  const db = await openDatabase({ databaseUrl: databaseUrl(name) });
  try {
    const { id, n } = await probeAccount(db);
    for (const c of searchCases(await sampleContacts(db, id, n, 400))) {
      if (!only.test(c.id)) continue;
      const times: Array<{ ms: number; q: unknown }> = [];
      for (const q of c.variants) {
        const sql = listQuerySql(id, ListQuerySchema.parse({ ...q, limit: c.limit }));
        let best = Number.POSITIVE_INFINITY;
        for (let i = 0; i < runs; i++)
          best = Math.min(best, (await timed(() => db.sql.query(sql.text, sql.values)))[0]);
        times.push({ ms: best, q });
      }
      const { p50, p95, max } = stats(times.map((t) => t.ms));
      const ms = (x: number) => x.toFixed(1).padStart(7);
      console.log(`${c.id.padEnd(30)} p50 ${ms(p50)}  p95 ${ms(p95)}  max ${ms(max)} ms`);
      for (const t of times.sort((a, b) => b.ms - a.ms).slice(0, 3))
        console.log(`    ${t.ms.toFixed(1).padStart(8)}  ${JSON.stringify(t.q)}`);
    }
  } finally {
    await db.close();
  }
}

/**
 * What each index of Contact pays for: every list and search case's SELECTs (the first page,
 * one run per term) and the writes (a 1000-row INSERT and single-row upserts, as the write
 * figures' raw side runs them), with all the indexes and then with each one dropped in turn,
 * inside a transaction rolled back afterwards (DROP INDEX is transactional: nothing is rebuilt,
 * and the writes are undone). The unique indexes are left alone: they enforce the rules. A
 * statement over WORTH_TIMEOUT_MS is cut there, and its case's other terms are not run.
 */
const WORTH_TIMEOUT_MS = 2000;
const WORTH_INSERTS = 9;
const WORTH_UPSERTS = 40;

interface Measured {
  cases: Map<string, { p95: number; cut: boolean }>;
  insertMs: number;
  upsertMs: number;
}

async function worth(name: string, only: RegExp): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(name) });
  await client.connect();
  const db = await openDatabase({ databaseUrl: databaseUrl(name) });
  try {
    const { id, n } = await probeAccount(db);
    const cases = [
      ...listCases(await seededShape(client, id), legacyTerms()),
      ...searchCases(await sampleContacts(db, id, n, 400)),
    ].filter((c) => only.test(c.id));
    const indexes = (
      await client.query<{ index: string; bytes: string }>(
        `SELECT c.relname AS index, pg_relation_size(c.oid)::text AS bytes FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = '"Contact"'::regclass AND NOT i.indisunique
         ORDER BY pg_relation_size(c.oid) DESC`,
      )
    ).rows;
    // A lookup by external id (GET …/by-external-id, the tool, the bulk update's filter) is no
    // list case: 40 of them, by the external ids of sampled contacts.
    const external = await client.query<{ sourceKind: string; externalId: string }>(
      `SELECT "sourceKind", "externalId" FROM "Contact" TABLESAMPLE SYSTEM (1) REPEATABLE (7)
       WHERE "accountId" = $1 AND "externalId" IS NOT NULL LIMIT 40`,
      [id],
    );
    const lookups = external.rows.map((r) => ({
      text: `SELECT * FROM "Contact" WHERE "accountId" = $1::uuid AND "sourceKind" = $2::"SourceKind" AND "externalId" = $3
        ORDER BY "createdAt", "id" LIMIT 100`,
      values: [id, r.sourceKind, r.externalId],
    }));
    const within = async (drop: string | null, reads: boolean): Promise<Measured> => {
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL statement_timeout = ${WORTH_TIMEOUT_MS}`);
        if (drop) await client.query(`DROP INDEX "${drop}"`);
        return await measure(client, id, reads ? cases : [], reads ? lookups : []);
      } finally {
        await client.query('ROLLBACK');
      }
    };
    await within(null, true); // a warm-up pass, so the first measured pass does not pay for a cold cache
    const all = await within(null, true);
    for (const { index, bytes } of indexes) {
      // The writes with every index again, right before: their times drift over a run.
      const writes = await within(null, false);
      const without = await within(index, true);
      const slower = [...all.cases.keys()]
        .map((c) => ({ c: { id: c }, before: all.cases.get(c)!, after: without.cases.get(c)! }))
        .filter(({ before, after }) => after.p95 > 1.5 * before.p95 && after.p95 - before.p95 > 5)
        .sort((a, b) => b.after.p95 - a.after.p95);
      const mb = (Number(bytes) / 2 ** 20).toFixed(0);
      console.log(
        `\n${index} (${mb} MB): insert of 1000 ${writes.insertMs.toFixed(1)} → ${without.insertMs.toFixed(1)} ms, upsert ${writes.upsertMs.toFixed(2)} → ${without.upsertMs.toFixed(2)} ms without it; ${slower.length} cases slower`,
      );
      for (const { c, before, after } of slower.slice(0, 6))
        console.log(
          `    ${c.id.padEnd(34)} p95 ${before.p95.toFixed(1).padStart(7)} → ${after.cut ? `> ${WORTH_TIMEOUT_MS}` : after.p95.toFixed(1)} ms`,
        );
    }
  } finally {
    await db.close();
    await client.end();
  }
}

/** Each case's p95 (one run per term, the first page) and the writes' medians, on `client` within its transaction. */
async function measure(
  client: pg.Client,
  accountId: string,
  cases: ListCase[],
  lookups: Array<{ text: string; values: unknown[] }>,
): Promise<Measured> {
  const result: Measured = { cases: new Map(), insertMs: 0, upsertMs: 0 };
  const statements = [
    ...cases.map((c) => ({
      id: c.id,
      sqls: c.variants.map((q) => listQuerySql(accountId, ListQuerySchema.parse({ ...q, limit: c.limit }))),
    })),
    ...(lookups.length > 0 ? [{ id: 'lookup-by-external-id', sqls: lookups }] : []),
  ];
  for (const c of statements) {
    const times: number[] = [];
    let cut = false;
    for (const sql of c.sqls) {
      await client.query('SAVEPOINT term');
      try {
        times.push((await timed(() => client.query(sql.text, sql.values)))[0]);
        await client.query('RELEASE SAVEPOINT term');
      } catch (error) {
        if ((error as { code?: string }).code !== '57014') throw error;
        await client.query('ROLLBACK TO SAVEPOINT term');
        times.push(WORTH_TIMEOUT_MS);
        cut = true;
        break;
      }
    }
    result.cases.set(c.id, { p95: stats(times).p95, cut });
  }
  const row = () => rawRow(accountId, freshPhone(), pick(FIRST_NAMES), pick(LAST_NAMES));
  const inserts: number[] = [];
  for (let i = 0; i < WORTH_INSERTS; i++) {
    const { text, values } = multiRowInsert(Array.from({ length: 1000 }, row));
    inserts.push((await timed(() => client.query(text, values)))[0]);
  }
  const upserts: number[] = [];
  for (let i = 0; i < WORTH_UPSERTS; i++) upserts.push((await timed(() => client.query(UPSERT_SQL, row())))[0]);
  result.insertMs = stats(inserts).p50;
  result.upsertMs = stats(upserts).p50;
  return result;
}

/** The probe's seeded Account and its size. */
async function probeAccount(db: Awaited<ReturnType<typeof openDatabase>>): Promise<{ id: string; n: number }> {
  const account = await db.sql.query<{ id: string; n: number }>(
    `SELECT a.id, (SELECT count(*)::int FROM "Contact" c WHERE c."accountId" = a.id) AS n FROM "Account" a WHERE a.name = $1`,
    [ACCOUNT_NAME],
  );
  if (account.rows.length === 0) throw new Error(`no seeded Account "${ACCOUNT_NAME}": run "seed" first`);
  return account.rows[0];
}

/** What the list cases need of the seed, read back: its workflows (biggest first) and its time (after the newest contact). */
async function seededShape(client: pg.Client, accountId: string): Promise<Parameters<typeof listCases>[0]> {
  const workflows = await client.query<{ id: string; name: string }>(
    `SELECT "id", "name" FROM "Workflow" WHERE "accountId" = $1`,
    [accountId],
  );
  const byName = new Map(workflows.rows.map((w) => [w.name, w.id]));
  const newest = await client.query<{ at: Date }>(
    `SELECT max("createdAt") AS "at" FROM "Contact" WHERE "accountId" = $1`,
    [accountId],
  );
  const emptyWorkflowId = workflows.rows.find((w) => !WORKFLOW_SHARES.some(([name]) => name === w.name))?.id ?? '';
  return {
    seconds: 0,
    seedTime: new Date(Math.ceil(newest.rows[0].at.getTime() / 1000) * 1000 + 1000),
    workflows: WORKFLOW_SHARES.map(([name, share]) => ({ id: byName.get(name) ?? '', name, share })).sort(
      (a, b) => b.share - a.share,
    ),
    emptyWorkflowId,
    enrollments: 0,
    steps: {},
  };
}

const [command, name, ...rest] = process.argv.slice(2);
if (command === 'seed' && name && rest[0]) await seed(name, Number(rest[0]));
else if (command === 'run' && name) await run(name, new RegExp(rest[0] ?? '.'), Number(rest[1] ?? 2));
else if (command === 'worth' && name) await worth(name, new RegExp(rest[0] ?? '.'));
else {
  console.error(
    'usage: search-probe.ts seed <database> <contacts> | run <database> [case] [runs] | worth <database> [case]',
  );
  process.exitCode = 2;
}
