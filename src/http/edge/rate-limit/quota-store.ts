// Where rate-limit windows are counted. A window opens at a partition's first request and lasts
// the policy's window; `take` spends one request of it, or says when it reopens. Two stores:
// this one in memory (the embedded database: one process serves it all, so counting in that
// process is exact and costs nothing), and the leasing store on PostgreSQL
// (./postgres-quota-store.ts), shared by every process on the database.

export interface QuotaDecision {
  allowed: boolean;
  /** Requests left in the window after this one (the RateLimit field's r). */
  remaining: number;
  /** Whole seconds until the window reopens (the field's t; Retry-After on a 429). */
  resetSeconds: number;
}

export interface QuotaStore {
  take(partition: string, limit: number, windowMs: number, now: Date): QuotaDecision | Promise<QuotaDecision>;
  stop(): Promise<void>;
}

export const secondsUntil = (endsAt: number, now: number) => Math.max(0, Math.ceil((endsAt - now) / 1000));

/** Past this many partitions, ended windows are dropped (a flood of addresses cannot grow the map for ever). */
const SWEEP_ABOVE = 10_000;

export function createMemoryQuotaStore(): QuotaStore {
  const windows = new Map<string, { endsAt: number; used: number }>();
  const sweep = (now: number) => {
    for (const [partition, window] of windows) if (window.endsAt <= now) windows.delete(partition);
  };
  return {
    take(partition, limit, windowMs, now) {
      const at = now.getTime();
      let window = windows.get(partition);
      if (!window || window.endsAt <= at) {
        if (windows.size >= SWEEP_ABOVE) sweep(at);
        window = { endsAt: at + windowMs, used: 0 };
        windows.set(partition, window);
      }
      const resetSeconds = secondsUntil(window.endsAt, at);
      if (window.used >= limit) return { allowed: false, remaining: 0, resetSeconds };
      window.used += 1;
      return { allowed: true, remaining: limit - window.used, resetSeconds };
    },
    async stop() {
      windows.clear();
    },
  };
}
