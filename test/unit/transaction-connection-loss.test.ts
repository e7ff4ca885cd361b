// A transaction's connection ended by the server (a dropped database, a terminated backend, a
// restart) fails that transaction, and only it: the pool stays usable and the process stays up.
// The pool stops listening for a client's 'error' while it is checked out, and pg emits one on
// every unexpected end, so the transaction must listen itself; an unhandled 'error' here ends the
// run (vitest reports it), as it ended the service.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { createTestDatabase } from '../support/databases.js';
import { waitUntil } from '../support/topology/processes.js';

describe.runIf(process.env.TEST_DATABASE_URL)('a transaction whose connection the server ends', () => {
  it('fails, and the next statement runs on a new connection', async () => {
    const { url, drop } = await createTestDatabase('postgres');
    const db = await openDatabase({ databaseUrl: url! });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      let ended: number | undefined;
      const outcome = await db.sql
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          ended = rows[0].pid;
          // Ended by another session between two statements, as a dropped database ends it.
          await admin.query('SELECT pg_terminate_backend($1)', [ended]);
          await waitUntil(
            'the terminated backend gone',
            async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [ended])).rowCount === 0,
            { everyMs: 10 },
          );
          await tx.query('SELECT 1');
          return 'committed';
        })
        .catch((error: Error) => error);
      expect(outcome).toBeInstanceOf(Error);
      // The transaction's own session ending itself mid-statement is the other shape of it.
      const own = await db.sql
        .transaction((tx) => tx.query('SELECT pg_terminate_backend(pg_backend_pid())'))
        .catch((error: Error) => error);
      expect(own).toBeInstanceOf(Error);
      const { rows } = await db.sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(rows[0].pid).not.toBe(ended);
    } finally {
      await admin.end();
      await db.close();
      await drop();
    }
  });
});
