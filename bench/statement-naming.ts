// What naming the parameterized statements is worth (src/db/database.ts): a statement named by
// its text is parsed and planned once per connection, an unnamed one at every call, which is
// what the service does through a transaction pooler (DATABASE_DIRECT_URL set; PgBouncer 1.18
// cannot keep prepared statements). Times, on one connection, the service's own SELECTs of a
// list page, a search and a read by id, named and unnamed in turn, and unnamed through a
// PgBouncer in transaction mode when /usr/sbin/pgbouncer exists. docs/read-replica.md quotes it.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/statement-naming.ts [contacts] [rounds]
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { listQuerySql } from '../src/domain/contacts/contacts-list.store.js';
import { ListQuerySchema } from '../src/domain/contacts/contacts.inputs.js';
import { findContactById } from '../src/domain/contacts/contacts.store.js';
import { directSql } from '../src/db/sql-client.js';
import { createTestDatabase } from '../test/support/databases.js';
import { PGBOUNCER, startPgBouncer } from '../test/support/pgbouncer.js';

const CONTACTS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 2_000);

if (!process.env.TEST_DATABASE_URL) throw new Error('set TEST_DATABASE_URL (a PostgreSQL server)');
const database = await createTestDatabase('postgres');
const { prisma } = database.db;
const account = await prisma.account.create({ data: { createdAt: new Date(), name: 'Bench' } });
await database.db.sql.query(
  `INSERT INTO "Contact" ("id", "accountId", "firstName", "lastName", "sourceKind", "createdAt", "updatedAt", "dedupKey", "phoneDigits")
   SELECT gen_random_uuid(), $1::uuid, 'First' || i, 'Last' || i, 'api', now() - i * interval '1 minute', now(), 'k' || i,
     '1415' || lpad(i::text, 7, '0') FROM generate_series(1, $2::int) AS i`,
  [account.id, CONTACTS],
);
await database.db.sql.exec('ANALYZE "Contact"');
const someId = (await prisma.contact.findFirstOrThrow({ where: { accountId: account.id } })).id;

/** The statements measured: the text and values the service sends. */
const captured: Record<string, { text: string; values: unknown[] }> = {
  'list page (50)': listQuerySql(account.id, ListQuerySchema.parse({})),
  'search "First12"': listQuerySql(account.id, ListQuerySchema.parse({ searchTerm: 'First12' })),
};
await findContactById(
  directSql({
    query: async (text, values) => {
      captured['get by id'] = { text, values: values ?? [] };
      return { rows: [], rowCount: 0 };
    },
  }),
  account.id,
  someId,
);

async function time(url: string, named: boolean, statement: { text: string; values: unknown[] }): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const name = `bench_${randomUUID().slice(0, 8)}`;
  const run = () => client.query(named ? { name, text: statement.text, values: statement.values } : statement);
  for (let i = 0; i < 50; i++) await run();
  const took: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    took.push(performance.now() - start);
  }
  await client.end();
  return took.sort((a, b) => a - b);
}

const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (v: number) => `${v.toFixed(3)} ms`;

const bouncer = fs.existsSync(PGBOUNCER) ? await startPgBouncer(database.url!.split('/').pop()!, database.url!) : null;
try {
  console.log(`PostgreSQL, ${CONTACTS} contacts in the Account, ${ROUNDS} calls each, one connection`);
  console.log(
    '| statement | named p50 | unnamed p50 | unnamed − named | named p95 | unnamed p95 | unnamed via PgBouncer p50 |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const [what, statement] of Object.entries(captured)) {
    const named = await time(database.url!, true, statement);
    const unnamed = await time(database.url!, false, statement);
    const pooled = bouncer ? await time(bouncer.url, false, statement) : null;
    console.log(
      `| ${what} | ${ms(p(named, 0.5))} | ${ms(p(unnamed, 0.5))} | ${ms(p(unnamed, 0.5) - p(named, 0.5))} | ${ms(p(named, 0.95))} | ${ms(p(unnamed, 0.95))} | ${pooled ? ms(p(pooled, 0.5)) : 'n/a'} |`,
    );
  }
} finally {
  await bouncer?.stop();
  await database.drop();
}
