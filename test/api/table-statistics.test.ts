// The service keeps Contact's planner statistics fresh by itself (src/jobs/table-statistics.ts):
// a table never analyzed is analyzed, a tenth of it changed or added makes it stale again,
// and a write the service reports counts even before the database's own counters move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { startStatisticsKeeper, type StatisticsKeeper } from '../../src/jobs/table-statistics.js';

const ACCOUNT = '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a';

describe.each(testDatabaseKinds())('Contact statistics on %s', (kind) => {
  let database: TestDatabase;
  let keeper: StatisticsKeeper;

  const sql = (text: string) => database.db.sql.query<Record<string, any>>(text);
  const insert = (from: number, to: number) =>
    sql(`INSERT INTO "Contact" ("id", "accountId", "firstName", "lastName", "phone", "phoneDigits", "sourceKind", "status", "dedupKey", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), '${ACCOUNT}', 'First' || (i % 97), 'Last' || (i % 89), '+1415' || (2000000 + i), '1415' || (2000000 + i), 'api',
        (ARRAY['new', 'assigned', NULL])[1 + i % 3]::"ContactStatus", 'phone=+1415' || (2000000 + i), '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z'
      FROM generate_series(${from}, ${to - 1}) AS i`);
  const analyzed = async () =>
    (await sql(`SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'Contact'`)).rows[0].n > 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await sql(
      `INSERT INTO "Account" ("id", "name", "createdAt") VALUES ('${ACCOUNT}', 'Statistics', '2024-01-01T00:00:00Z')`,
    );
    // The periodic check is not waited for here: every check below is called or nudged.
    keeper = startStatisticsKeeper(database.db, 3_600_000);
  });
  afterAll(async () => {
    await keeper?.stop();
    await database?.drop();
  });

  it('leaves a small table alone: read whole, it needs no plan', async () => {
    await insert(0, 500);
    expect(await keeper.check()).toBe(false);
    expect(await analyzed()).toBe(false);
  });

  it('analyzes a table that was never analyzed, then not again while it has not changed', async () => {
    await insert(500, 8000);
    expect(await keeper.check()).toBe(true);
    expect(await analyzed()).toBe(true);
    const { rows } = await sql(`SELECT reltuples::float8 AS tuples FROM pg_class WHERE oid = '"Contact"'::regclass`);
    expect(rows[0].tuples).toBeGreaterThan(7000);
    expect(await keeper.check()).toBe(false);
  });

  it('analyzes again once the service reports writing a tenth of the table', async () => {
    keeper.wrote(100);
    expect(await keeper.check()).toBe(false);
    await sql(
      `UPDATE "Contact" SET "status" = 'qualified' WHERE "firstName" IN ('First1', 'First2', 'First3', 'First4', 'First5', 'First6', 'First7', 'First8', 'First9', 'First10', 'First11', 'First12')`,
    );
    keeper.wrote(2000);
    expect(await keeper.check()).toBe(true);
    expect(
      (
        await sql(
          `SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'Contact' AND attname = 'status' AND 'qualified' = ANY(most_common_vals::text::text[])`,
        )
      ).rows[0].n,
    ).toBe(1);
  });

  it('a large report checks at once, without waiting for the next tick', async () => {
    await insert(8000, 10000);
    keeper.wrote(2000);
    const deadline = Date.now() + 20_000;
    while (
      (await sql(`SELECT reltuples::float8 AS t FROM pg_class WHERE oid = '"Contact"'::regclass`)).rows[0].t < 9500
    ) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('analyzes a table that grew by a tenth even when no write was reported', async () => {
    await insert(10000, 16000);
    expect(await keeper.check()).toBe(true);
    expect(await keeper.check()).toBe(false);
  });

  it('on its minute, counts the changes nobody reported', async () => {
    const analyses = async () =>
      Number(
        (await sql(`SELECT analyze_count + autoanalyze_count AS n FROM pg_stat_user_tables WHERE relname = 'Contact'`))
          .rows[0].n,
      );
    const ticking = startStatisticsKeeper(database.db, 100);
    try {
      // The inserts above reach the counters after the ANALYZE they caused, from whichever pool
      // connection made them, at a moment this test cannot force on a busy machine (PostgreSQL
      // flushes a backend's counters on its own schedule): the keeper may or may not analyze
      // once more for them. Let that settle, then start counting.
      await database.db.sql.transaction(async (tx) => {
        await tx.query('SELECT pg_stat_force_next_flush()');
      });
      await new Promise((r) => setTimeout(r, 1500));
      const before = await analyses();
      // A fifth of the table changed by another process: no report, no growth.
      await database.db.sql.transaction(async (tx) => {
        await tx.query(
          `UPDATE "Contact" SET "priority" = "priority" + 1 WHERE "firstName" IN (${Array.from({ length: 20 }, (_, i) => `'First${i}'`).join(', ')})`,
        );
        await tx.query('SELECT pg_stat_force_next_flush()');
      });
      const deadline = Date.now() + 20_000;
      while ((await analyses()) === before) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await ticking.stop();
    }
  });
});
