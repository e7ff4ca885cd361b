// PGlite is one connection shared by Prisma and the job queue: a statement from the queue
// must never run inside a Prisma transaction (it would be rolled back with it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';

describe('PGlite shared by Prisma and the queue', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('pglite');
  });
  afterAll(() => test?.drop());

  it('runs queue statements outside an open Prisma transaction', async () => {
    const { prisma, sql } = test.db;
    let releaseTransaction!: () => void;
    const held = new Promise<void>((r) => (releaseTransaction = r));
    let insideTransaction!: () => void;
    const started = new Promise<void>((r) => (insideTransaction = r));

    const transaction = prisma
      .$transaction(
        async (tx) => {
          await tx.account.create({ data: { createdAt: new Date(), name: 'rolled back' } });
          insideTransaction();
          await held;
          throw new Error('roll back');
        },
        { timeout: 10_000 },
      )
      .catch((e: Error) => e.message);

    await started;
    // Issued while the transaction is open: must wait for it, then commit on its own.
    const queueWrite = sql.query(
      `INSERT INTO "Account" (id, name, "createdAt") VALUES (gen_random_uuid(), 'from queue', now()) RETURNING name`,
    );
    const queueRead = sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Account" WHERE name = 'rolled back'`);
    await new Promise((r) => setTimeout(r, 100));
    releaseTransaction();

    expect(await transaction).toBe('roll back');
    expect((await queueWrite).rows).toEqual([{ name: 'from queue' }]);
    expect((await queueRead).rows[0].n).toBe(0);
    const names = (await prisma.account.findMany()).map((a) => a.name);
    expect(names).toEqual(['from queue']);
  });
});
