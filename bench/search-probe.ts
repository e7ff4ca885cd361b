// The search cases' SELECTs on a database kept between runs: for tuning the search at ten
// million contacts without a full benchmark run (its seed takes over ten minutes each time).
//
//   npx tsx bench/search-probe.ts seed <database> <contacts>      create (or recreate) the database, migrate, seed
//   npx tsx bench/search-probe.ts run <database> [case] [runs]    time each case's terms, best of `runs` (default 2)
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
import { stats, timed } from './run.js';
import { sampleContacts, searchCases } from './search.js';
import { seedContacts } from './seed.js';

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
    const account = await db.sql.query<{ id: string; n: number }>(
      `SELECT a.id, (SELECT count(*)::int FROM "Contact" c WHERE c."accountId" = a.id) AS n FROM "Account" a WHERE a.name = $1`,
      [ACCOUNT_NAME],
    );
    if (account.rows.length === 0) throw new Error(`no seeded Account in ${name}: run "seed" first`);
    const { id, n } = account.rows[0];
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

const [command, name, ...rest] = process.argv.slice(2);
if (command === 'seed' && name && rest[0]) await seed(name, Number(rest[0]));
else if (command === 'run' && name) await run(name, new RegExp(rest[0] ?? '.'), Number(rest[1] ?? 2));
else {
  console.error('usage: search-probe.ts seed <database> <contacts> | run <database> [case] [runs]');
  process.exitCode = 2;
}
