// On the embedded database, statements let the event loop turn before they queue for PGlite's
// lock (src/db/pglite-fair-turns.ts). Fifty busy clients each run request after request of two
// statements; a request that comes due later (a timer, as a socket read would) is served after
// about the statements already queued, not after every statement the busy clients go on to
// send. Without the turn, their chains of statements never leave the event loop a turn and the
// latecomer runs only when all of them are done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';

const CLIENTS = 50;
const REQUESTS_EACH = 10;

describe('embedded database: a request that comes later is not starved by busy clients', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ inMemory: true });
  });
  afterAll(() => db?.close());

  /** Fifty clients' requests, and a latecomer's; how many statements completed before the latecomer was answered. */
  async function latecomer(
    request: () => Promise<unknown>,
  ): Promise<{ completedBeforeLatecomer: number; total: number }> {
    let completed = 0;
    const busy = Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < REQUESTS_EACH; i++) {
        await request();
        completed += 2;
      }
    });
    const late = new Promise<number>((resolve) => setTimeout(() => void request().then(() => resolve(completed)), 0));
    const completedBeforeLatecomer = await late;
    await Promise.all(busy);
    return { completedBeforeLatecomer, total: completed };
  }

  it("plain statements (the service's SQL)", async () => {
    const { completedBeforeLatecomer, total } = await latecomer(async () => {
      await db.sql.query('SELECT $1::int AS n', [1]);
      await db.sql.query('SELECT $1::text AS t', ['x']);
    });
    expect(total).toBe(CLIENTS * REQUESTS_EACH * 2);
    // About one round of the busy clients' statements, far from all 1000.
    expect(completedBeforeLatecomer).toBeLessThan(CLIENTS * 2 * 2);
  });

  it("Prisma's statements and transactions (the same PGlite)", async () => {
    const { completedBeforeLatecomer, total } = await latecomer(async () => {
      await db.prisma.$queryRaw`SELECT 1`;
      await db.sql.transaction((tx) => tx.query('SELECT 1'));
    });
    expect(total).toBe(CLIENTS * REQUESTS_EACH * 2);
    expect(completedBeforeLatecomer).toBeLessThan(CLIENTS * 2 * 2);
  });
});
