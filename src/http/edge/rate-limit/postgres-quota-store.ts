// Rate-limit windows shared by every service process on one PostgreSQL, without a database
// round trip per request. A process leases a slice of a partition's window from the
// "RateLimitQuota" row (one atomic upsert that never grants past the limit) and spends it
// locally; when a slice runs below half, the next one is leased in the background, so a steady
// client waits on the database about once per slice, not per request. So:
//   - across all processes no more than `limit` requests pass in a window (grants are
//     atomic and capped);
//   - a process can hold at most a slice it has not spent when the window ends, so a client
//     may be refused up to a slice per process early. The slice is 1% of the limit (at most
//     100): small limits are leased one request at a time and are exact.
// Once a window is used up in the database, the process refuses locally until it reopens.
// A failing database lets requests through (logged once per failure streak): a limiter
// that fails closed would turn a database hiccup into an outage of every surface.
// Times come from the service's clock (`now`), never from the database.
import type { SqlRunner } from '../../../db/database.js';
import { directSql } from '../../../db/sql-client.js';
import { logger } from '../../../logger.js';
import { secondsUntil, type QuotaDecision, type QuotaStore } from './quota-store.js';
import { deleteEndedWindows, leaseQuota } from './rate-limit-quota.store.js';

/** Requests leased at once: 1% of the limit, between 1 and 100. */
export const sliceOf = (limit: number) => Math.min(100, Math.max(1, Math.floor(limit / 100)));

interface Slice {
  endsAt: number;
  /** Leased and not spent. */
  tokens: number;
  /** The window's use in the database at the last lease (every process's leases). */
  leasedOverall: number;
  /** The database has nothing left in this window. */
  spent: boolean;
}

export function createPostgresQuotaStore(runner: Pick<SqlRunner, 'query'>): QuotaStore {
  const sql = directSql(runner);
  const slices = new Map<string, Slice>();
  const leasing = new Map<string, Promise<void>>();
  let failing = false;
  let lastSweep = 0;

  const current = (partition: string, at: number) => {
    const slice = slices.get(partition);
    if (slice && slice.endsAt <= at) {
      slices.delete(partition);
      return undefined;
    }
    return slice;
  };

  function lease(partition: string, limit: number, windowMs: number, now: Date): Promise<void> {
    const running = leasing.get(partition);
    if (running) return running;
    const at = now.getTime();
    const size = sliceOf(limit);
    const done = leaseQuota(sql, { partition, now, windowEndedBy: new Date(at - windowMs), size, limit })
      .then((row) => {
        failing = false;
        const endsAt = new Date(row.windowStart).getTime() + windowMs;
        const slice = current(partition, at);
        if (slice && slice.endsAt === endsAt) {
          slice.tokens += row.granted;
          slice.leasedOverall = row.used;
          slice.spent = row.used >= limit;
        } else {
          slices.set(partition, { endsAt, tokens: row.granted, leasedOverall: row.used, spent: row.used >= limit });
        }
      })
      .catch((error: unknown) => {
        if (!failing)
          logger.warn({ err: error }, 'rate limits: the shared quota could not be read; requests pass until it can');
        failing = true;
      })
      .finally(() => leasing.delete(partition));
    leasing.set(partition, done);
    sweepEndedWindows(at, windowMs);
    return done;
  }

  /** Rows of windows that ended are deleted now and then (at most once a window per process). */
  function sweepEndedWindows(at: number, windowMs: number) {
    if (at - lastSweep < windowMs) return;
    lastSweep = at;
    deleteEndedWindows(sql, new Date(at - windowMs)).catch(() => {});
  }

  const spend = (slice: Slice, limit: number, at: number): QuotaDecision => {
    slice.tokens -= 1;
    return {
      allowed: true,
      remaining: Math.max(0, limit - slice.leasedOverall + slice.tokens),
      resetSeconds: secondsUntil(slice.endsAt, at),
    };
  };

  /** The hot path, without a promise: a slice with tokens left is spent synchronously. */
  function spendLeased(partition: string, limit: number, windowMs: number, now: Date): QuotaDecision | undefined {
    const at = now.getTime();
    const slice = current(partition, at);
    if (!slice || slice.tokens <= 0) return undefined;
    const decision = spend(slice, limit, at);
    const size = sliceOf(limit);
    if (size > 1 && !slice.spent && slice.tokens * 2 < size) void lease(partition, limit, windowMs, now);
    return decision;
  }

  async function takeAfterLease(partition: string, limit: number, windowMs: number, now: Date): Promise<QuotaDecision> {
    const at = now.getTime();
    // Until a token, a spent window or a failing database: concurrent requests of one partition
    // may spend a fresh slice first (with a slice of one, all but one of them), and then lease
    // again. Each lease grants at least one request of the window or finds it spent, so this
    // ends within `limit` leases. (A cap of a few rounds refused a burst of a small limit's
    // requests while its window still had room: nine sign-ins at once, three let through.)
    for (;;) {
      const leased = spendLeased(partition, limit, windowMs, now);
      if (leased) return leased;
      const slice = current(partition, at);
      if (slice?.spent) return { allowed: false, remaining: 0, resetSeconds: secondsUntil(slice.endsAt, at) };
      await lease(partition, limit, windowMs, now);
      if (failing) return { allowed: true, remaining: limit, resetSeconds: Math.ceil(windowMs / 1000) };
    }
  }

  return {
    take(partition, limit, windowMs, now) {
      return spendLeased(partition, limit, windowMs, now) ?? takeAfterLease(partition, limit, windowMs, now);
    },
    async stop() {
      await Promise.allSettled([...leasing.values()]);
      slices.clear();
    },
  };
}
