// Claims stored batches (bulk imports and bulk-updates, rows of ImportBatch) that no process
// is running, once when the service starts and then every second.
//
// A batch is stored before its 202, then run at once by the process that accepted it (and by a
// queue job). When that process is killed, the batch stays pending; the lock it held on the
// batch row ends with its database connection (no lease to wait out), so the next process to
// look can take it. The queue alone did not make that prompt: the dead process's job stays
// "active" until it expires, and a job that found the batch still locked (PostgreSQL ends a
// killed client's transaction only once it notices) was retried with a growing backoff. This
// sweeper looks at once at start and then every second; a batch another live process is
// running is skipped (its row lock, SKIP LOCKED) and looked at again on the next pass.
import type { Services } from '../domain/context.js';
import { logger } from '../logger.js';
import type { PeriodicWorker } from './periodic.js';

/** How often pending batches are looked for (a query on the (status, createdAt) index). */
export const SWEEP_INTERVAL_MS = 1_000;
/** Pending batches looked at per pass, oldest first. */
const SWEEP_BATCH = 50;
/** A batch that keeps failing is tried again after 2^failures passes, at most this many. */
const MAX_SKIPPED_PASSES = 64;

/**
 * Starts the sweeper: `run` is called for each pending batch, oldest first, one at a time
 * (processBatch: safe to call for a batch that is running or done).
 */
export function startStoredWorkSweeper(
  services: Pick<Services, 'db'>,
  run: (batchId: string) => Promise<void>,
  intervalMs = SWEEP_INTERVAL_MS,
): PeriodicWorker {
  // Backoff counted in passes, not time: the service reads time only through its clock.
  const failing = new Map<string, { failures: number; skipPasses: number }>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const pass = async () => {
    const pending = await services.db.prisma.importBatch.findMany({
      where: { status: 'pending' },
      orderBy: { createdAt: 'asc' },
      take: SWEEP_BATCH,
      select: { id: true },
    });
    for (const { id } of pending) {
      if (stopped) return;
      const failure = failing.get(id);
      if (failure && failure.skipPasses-- > 0) continue;
      try {
        await run(id);
        failing.delete(id);
      } catch (error) {
        const failures = (failure?.failures ?? 0) + 1;
        failing.set(id, { failures, skipPasses: Math.min(2 ** failures, MAX_SKIPPED_PASSES) });
        // The error's name and code only: a database message may quote contact data.
        logger.warn(
          { batchId: id, error: errorSummary(error), failures },
          'stored batch failed; the sweeper will try it again',
        );
      }
    }
    if (failing.size > 1000) failing.clear();
  };

  let running: Promise<void> = Promise.resolve();
  const schedule = (delay: number) => {
    timer = setTimeout(() => {
      running = pass()
        .catch((error) => logger.warn({ error: errorSummary(error) }, 'stored work sweep failed; retrying next pass'))
        .finally(() => {
          if (!stopped) schedule(intervalMs);
        });
    }, delay);
  };
  // The first pass at once: work left by a killed process starts with this one.
  schedule(0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

function errorSummary(error: unknown): { name?: string; code?: unknown } {
  return { name: (error as Error)?.name, code: (error as { code?: unknown })?.code };
}
