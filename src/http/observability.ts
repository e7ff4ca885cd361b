// What an operator watches, mounted at the top of the app in one router: the access line and
// request metrics of every request, GET /readyz (readiness.ts) and GET /metrics (metrics.ts).
import { Router } from 'express';
import type { Services } from '../domain/context.js';
import type { Logger } from 'pino';
import { logger as serviceLogger } from '../logger.js';
import { accessLog } from './access-log.js';
import { createMetrics, METRICS_PATH } from './metrics.js';
import { READINESS_PATH, readinessCheck } from './readiness.js';

export interface ObservabilityOptions {
  adminToken?: string;
  /** Where access lines go (the service's logger unless a caller, a benchmark, passes its own). */
  logger?: Logger;
  /** Surfaces mounted as a middleware, not a route (the tool server): each one's path is its pattern. */
  endpoints?: readonly string[];
  /** The process's role (src/service.ts), shown by /metrics. */
  role?: string;
}

export function observabilityRouter(services: Services, options: ObservabilityOptions): Router {
  const metrics = createMetrics(services, options.adminToken, { role: options.role });
  const router = Router();
  const logger = options.logger ?? serviceLogger;
  router.use(accessLog({ logger, endpoints: options.endpoints, onFinished: metrics.observeRequest }));
  router.get(READINESS_PATH, readinessCheck(services));
  router.get(METRICS_PATH, metrics.endpoint);
  return router;
}
