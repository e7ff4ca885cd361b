// Stopping the queue must leave nothing talking to the database: the service closes the
// database right after. pg-boss completes a job without awaiting the completion, so a job
// that ends while the queue stops used to meet a closed embedded database (an unhandled
// "PGlite is closed" rejection after the process had stopped).
import { afterEach, describe, expect, it } from 'vitest';
import { startJobQueue } from '../../src/jobs/queue.js';
import { createTestDatabase } from '../support/databases.js';

const rejections: unknown[] = [];
const collect = (reason: unknown) => rejections.push(reason);

afterEach(() => {
  process.off('unhandledRejection', collect);
});

/** The service's is 5 s; past it the behaviour is the same at pg-boss's shortest, 1 s. */
const STOP_TIMEOUT_MS = 1000;

describe('job queue stop on the embedded database', () => {
  it('waits for a job that outlasts the graceful stop, and its completion, before it returns', async () => {
    process.on('unhandledRejection', collect);
    const { db, drop } = await createTestDatabase('pglite');
    const queue = await startJobQueue(db, { stopTimeoutMs: STOP_TIMEOUT_MS });
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finished = false;
    await queue.work('contacts.import', async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      finished = true;
    });
    await queue.send('contacts.import', { batchId: 'b1' });
    await running;

    // pg-boss's graceful stop waits STOP_TIMEOUT_MS for running jobs; this one ends after that.
    const stopping = queue.stop();
    setTimeout(() => release(), STOP_TIMEOUT_MS + 500);
    await stopping;
    expect(finished).toBe(true);
    // The stop failed the job it gave up on, so it runs again later (handlers are idempotent).
    const { rows } = await db.sql.query<{ state: string }>(
      `SELECT state FROM pgboss.job WHERE name = 'contacts.import'`,
      [],
    );
    expect(rows.map((row) => row.state)).toEqual(['retry']);
    await drop();

    // Give a stray completion time to reach the closed database and reject.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rejections).toEqual([]);
  }, 30_000);
});
