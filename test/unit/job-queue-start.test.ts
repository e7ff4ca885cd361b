// Several processes start on one new PostgreSQL database at once (`serve --processes N`, a
// deployment's machines): each creates the job queues. pg-boss's createQueue, run from two of
// them at once, can end one in a deadlock; the service must start on every one of them.
import PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { startJobQueue } from '../../src/jobs/queue.js';
import { openDatabase } from '../../src/db/database.js';
import { createTestDatabase } from '../support/databases.js';

const STARTS = 6;

describe.runIf(process.env.TEST_DATABASE_URL)('job queue start on PostgreSQL', () => {
  it(`${STARTS} processes' queues starting at once on a new database all start`, async () => {
    const { url, drop } = await createTestDatabase('postgres');
    // pg-boss's schema is there (its start takes a lock for that), its queue is not: the starts
    // then reach the queue's creation together.
    const schema = new PgBoss({ connectionString: url!, schedule: false, supervise: false });
    await schema.start();
    await schema.stop({ graceful: false, wait: true });
    // Each its own pool, as each process has.
    const dbs = await Promise.all(Array.from({ length: STARTS }, () => openDatabase({ databaseUrl: url! })));
    try {
      const started = await Promise.allSettled(dbs.map((db) => startJobQueue(db, { supervise: false })));
      const failures = started
        .filter((s) => s.status === 'rejected')
        .map((s) => String((s as PromiseRejectedResult).reason));
      expect(failures).toEqual([]);
      await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
      const { rows } = await dbs[0].sql.query<{ name: string }>('SELECT name FROM pgboss.queue ORDER BY name');
      expect(rows.map((r) => r.name)).toEqual(['contacts.import']);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await drop();
    }
  });
});
