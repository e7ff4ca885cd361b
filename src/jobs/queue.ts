// The durable job queue: pg-boss on the service's own database (PostgreSQL, or PGlite
// through pg-boss's `db.executeSql` hook). Jobs carry ids only; their payload lives in
// domain tables written before the job is sent, so a job is never the only copy of work.
import PgBossManager from 'pg-boss/src/manager.js';
import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';
import type { JobHandler, JobQueue } from '../domain/context.js';
import { logger } from '../logger.js';

// pg-boss 10's worker calls its manager's complete() and fail() without awaiting them
// (manager.js, onFetch: `this.complete(…)`, `this.fail(…)`): when the database is gone their
// rejection is unhandled, and Node ends the process. A lost completion only means the job runs
// again (every handler is safe to run twice: the work's record is in the domain's tables), so it
// is logged instead. The calls go through the Manager's prototype (the manager is a private field
// of PgBoss), so the prototype's two methods are wrapped, once.
const managerPrototype = PgBossManager.prototype;
for (const method of ['complete', 'fail'] as const) {
  const original = managerPrototype[method] as (...args: unknown[]) => Promise<unknown>;
  if ((original as { recordsLoss?: boolean }).recordsLoss) continue;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    return original.apply(this, args).catch((error: unknown) => {
      logger.warn({ err: error }, `job queue: ${method} could not be recorded; the job will run again`);
      return [];
    });
  };
  managerPrototype[method] = Object.assign(wrapped, { recordsLoss: true });
}

/** Every queue the service uses, created at start-up (pg-boss 10 requires queues to exist). */
export const QUEUES = ['contacts.import'] as const;

export interface JobQueueOptions {
  /** How long stop() waits for running handlers before it fails their jobs (pg-boss's graceful stop). */
  stopTimeoutMs?: number;
  /**
   * Run pg-boss's maintenance (expiring and archiving jobs) in this process (default true). A
   * process that only sends jobs (the api role) leaves it to the workers.
   */
  supervise?: boolean;
}

/** PostgreSQL's codes for a deadlock and a unique violation: what two processes creating one queue at once meet. */
const CREATE_RACE_CODES = new Set(['40P01', '23505']);

/**
 * Creates a queue unless it exists. pg-boss's createQueue is not safe to run from two processes
 * at once on a new database (`serve --processes N`, or several machines starting together): one
 * of them can end in a deadlock between the queue's new partition and the other's. The
 * database has then chosen one to finish; the other sees the queue there, or tries again.
 */
async function ensureQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(name)) return;
    try {
      await boss.createQueue(name, { name, retryLimit: 20, retryDelay: 1, retryBackoff: true });
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 5 || !code || !CREATE_RACE_CODES.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

export async function startJobQueue(
  db: Database,
  { stopTimeoutMs = 5000, supervise = true }: JobQueueOptions = {},
): Promise<JobQueue> {
  // What must end before the database may close: running handlers, and on PGlite the queue's own
  // statements. pg-boss completes a job without awaiting it, and its graceful stop gives up
  // waiting for a handler after the timeout; either would then meet a closed database.
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    work.then(
      () => inFlight.delete(work),
      () => inFlight.delete(work),
    );
    return work;
  };
  if (db.kind === 'postgres' && !db.connectionString) throw new Error('the job queue needs the PostgreSQL URL');
  const boss =
    db.kind === 'postgres' && db.connectionString
      ? new PgBoss({ connectionString: db.connectionString, max: 4, schedule: false, supervise })
      : new PgBoss({
          db: { executeSql: (text, values) => track(runOnPglite(db, text, values)) },
          schedule: false,
          supervise,
        });
  boss.on('error', (error) => {
    // pg-boss reports maintenance failures here; they must not crash the process.
    logger.warn({ err: error }, 'job queue error');
  });
  await boss.start();
  for (const name of QUEUES) await ensureQueue(boss, name);
  /** This process's handler of each queue, for the runs `send` starts here at once. */
  const handlers = new Map<string, JobHandler>();
  return {
    async send(name, data, options) {
      await boss.send(name, data);
      const handler = handlers.get(name);
      if (!options?.runHere || !handler) return;
      setImmediate(() => {
        track(handler(data, options.held)).catch((error) => {
          // The queued job retries; nothing is lost.
          logger.warn({ err: error, queue: name, ...data }, 'immediate job run failed; the queue will retry');
        });
      });
    },
    async work(name, handler) {
      handlers.set(name, handler);
      await boss.work(name, { pollingIntervalSeconds: 0.5, batchSize: 1 }, (jobs) =>
        track(
          (async () => {
            for (const job of jobs) await handler(job.data as Record<string, unknown>);
          })(),
        ),
      );
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: stopTimeoutMs });
      // A handler still running goes on to its end (its job was failed by the stop and will be
      // retried: handlers are idempotent); a completion pg-boss sent is let through.
      while (inFlight.size > 0) {
        await Promise.allSettled([...inFlight]);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

/**
 * pg-boss sends its schema migrations as several statements without parameters; PGlite's
 * extended-protocol query() refuses those, so they go through exec() (simple protocol).
 */
async function runOnPglite(db: Database, text: string, values: unknown[] | undefined): Promise<{ rows: unknown[] }> {
  if (values && values.length > 0) return db.sql.query(text, values);
  const results = await db.sql.execResults(text);
  return { rows: results.at(-1)?.rows ?? [] };
}
