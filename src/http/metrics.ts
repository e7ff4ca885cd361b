// Prometheus metrics (prom-client) served at GET /metrics to the operator token (ADMIN_TOKEN as
// a Bearer token; unset: refused): requests by route pattern, method and status with their
// latency; the stored work waiting (import batches, due and in-flight calls, trigger
// deliveries), read from the database on each scrape; the database pool; and Node's own
// metrics (event-loop lag, heap, GC) from prom-client's default collectors. Each service has
// its own registry, so several services in one process (tests) never share counters.
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Services } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import { safeEqual } from '../domain/shared/safe-equal.js';
import { readWorkSnapshot } from '../jobs/work-gauges.js';
import { logger } from '../logger.js';
import type { FinishedRequest } from './access-log.js';
import { bearerToken } from './request-context.js';

export const METRICS_PATH = '/metrics';

/** Latency buckets (seconds): from a cached read (~1 ms) to a slow bulk request (10 s). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface ServiceMetrics {
  registry: Registry;
  observeRequest(request: FinishedRequest): void;
  /** GET /metrics: the operator token, then the text exposition. */
  endpoint(req: Request, res: Response, next: NextFunction): Promise<void>;
}

export function createMetrics(
  services: Pick<Services, 'db' | 'clock'>,
  adminToken: string | undefined,
  { role = 'all' }: { role?: string } = {},
): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  // Which process answered the scrape: several share a port in a cluster (`serve --processes`).
  new Gauge({
    name: 'contactline_process_info',
    help: 'This process: its role (all, api, worker) and pid; always 1',
    labelNames: ['role', 'pid'] as const,
    registers,
  }).set({ role, pid: String(process.pid) }, 1);

  const requests = new Counter({
    name: 'contactline_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'contactline_http_request_duration_seconds',
    help: "Time from a request's arrival to its answer being sent, by method, route pattern and status",
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const databaseUp = new Gauge({
    name: 'contactline_database_up',
    help: '1 when the last scrape could read the database, 0 when it could not',
    registers,
  });
  const batchesWaiting = new Gauge({
    name: 'contactline_import_batches_waiting',
    help: 'Stored bulk imports and bulk-updates not yet applied, by kind',
    labelNames: ['kind'] as const,
    registers,
  });
  const oldestBatchAge = new Gauge({
    name: 'contactline_import_batch_oldest_waiting_seconds',
    help: 'Age of the oldest stored batch not yet applied (0 when none waits)',
    registers,
  });
  const dialerDue = new Gauge({
    name: 'contactline_dialer_due_enrollments',
    help: 'Active enrollments whose next attempt is due (counted up to 10000)',
    registers,
  });
  const callsInFlight = new Gauge({
    name: 'contactline_dialer_calls_in_flight',
    help: 'Calls placing, queued, ringing or in progress',
    registers,
  });
  const triggersWaiting = new Gauge({
    name: 'contactline_trigger_deliveries_waiting',
    help: 'Board-app trigger deliveries not yet delivered',
    registers,
  });
  const triggersFailing = new Gauge({
    name: 'contactline_trigger_deliveries_failing',
    help: 'Waiting trigger deliveries whose last attempt failed (retried with backoff)',
    registers,
  });
  const webhooksWaiting = new Gauge({
    name: 'contactline_webhook_deliveries_waiting',
    help: 'Outgoing webhook deliveries not yet delivered (of enabled and disabled endpoints)',
    registers,
  });
  const webhooksFailing = new Gauge({
    name: 'contactline_webhook_deliveries_failing',
    help: 'Waiting webhook deliveries whose last attempt failed (retried with backoff for 3 days)',
    registers,
  });
  const webhookEventsToFanOut = new Gauge({
    name: 'contactline_webhook_events_to_fan_out',
    help: 'Outbox events the webhook fan-out has not handled yet',
    registers,
  });
  const poolMax = new Gauge({
    name: 'contactline_db_pool_max_connections',
    help: 'Connections the service may open to the database (1 on the embedded database)',
    registers,
  });
  const poolConnections = new Gauge({
    name: 'contactline_db_pool_connections',
    help: 'Open database connections, by state (PostgreSQL)',
    labelNames: ['state'] as const,
    registers,
  });
  const poolWaiting = new Gauge({
    name: 'contactline_db_pool_waiting_requests',
    help: 'Queries waiting for a free connection (PostgreSQL)',
    registers,
  });
  // Registered only with a read replica (DATABASE_READ_URL): read at each scrape, one statement.
  const replicaLag = services.db.reads.replicaLagSeconds
    ? new Gauge({
        name: 'contactline_db_replica_lag_seconds',
        help: "How far the read replica's replay is behind (0: it has replayed all it received; -1: unreadable or not a standby)",
        registers,
      })
    : null;

  async function readReplicaLag(): Promise<void> {
    if (!replicaLag || !services.db.reads.replicaLagSeconds) return;
    try {
      replicaLag.set((await services.db.reads.replicaLagSeconds()) ?? -1);
    } catch (error) {
      replicaLag.set(-1);
      logger.warn({ err: error }, 'metrics: reading the read replica’s lag failed');
    }
  }

  async function readDatabaseGauges(): Promise<void> {
    await readReplicaLag();
    const pool = services.db.poolStats?.();
    poolMax.set(pool?.max ?? 1);
    if (pool) {
      poolConnections.set({ state: 'in_use' }, pool.total - pool.idle);
      poolConnections.set({ state: 'idle' }, pool.idle);
      poolWaiting.set(pool.waiting);
    }
    try {
      const now = services.clock.now();
      const work = await readWorkSnapshot(services.db, now);
      batchesWaiting.set({ kind: 'import' }, work.importBatchesWaiting);
      batchesWaiting.set({ kind: 'bulk-update' }, work.bulkUpdatesWaiting);
      oldestBatchAge.set(work.oldestBatchAt ? Math.max(0, (now.getTime() - work.oldestBatchAt.getTime()) / 1000) : 0);
      dialerDue.set(work.dialerDue);
      callsInFlight.set(work.callsInFlight);
      triggersWaiting.set(work.triggerDeliveriesWaiting);
      triggersFailing.set(work.triggerDeliveriesFailing);
      webhooksWaiting.set(work.webhookDeliveriesWaiting);
      webhooksFailing.set(work.webhookDeliveriesFailing);
      webhookEventsToFanOut.set(work.webhookEventsToFanOut);
      databaseUp.set(1);
    } catch (error) {
      // The scrape still answers (the process's own metrics are worth having); the work gauges
      // keep their last values and contactline_database_up says they are stale.
      databaseUp.set(0);
      logger.warn({ err: error }, 'metrics: reading the stored work failed');
    }
  }

  return {
    registry,
    observeRequest({ method, route, status, durationSeconds }) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, durationSeconds);
    },
    async endpoint(req, res, next) {
      try {
        const token = bearerToken(req.headers.authorization);
        if (!adminToken || !token || !safeEqual(token, adminToken)) {
          res.setHeader('WWW-Authenticate', 'Bearer');
          throw new DomainError(
            'unauthenticated',
            adminToken
              ? 'Send the operator token as a Bearer token'
              : 'Metrics are served only when ADMIN_TOKEN is set',
          );
        }
        await readDatabaseGauges();
        res.setHeader('Content-Type', registry.contentType);
        res.send(await registry.metrics());
      } catch (error) {
        next(error);
      }
    },
  };
}
