// What an operator watches: the access line and request metrics of every request (observe,
// called by the front door for each one), and GET /readyz (readiness.ts) and GET /metrics
// (metrics.ts) in one router.
import type { IncomingMessage } from 'node:http';
import { Router } from 'express';
import type { Services } from '../domain/context.js';
import type { Logger } from 'pino';
import { logger as serviceLogger } from '../logger.js';
import { accessLog } from './access-log.js';
import { createMetrics, METRICS_PATH } from './metrics.js';
import { READINESS_PATH, readinessCheck } from './readiness.js';
import type { EdgeResponse } from './edge-response.js';

export interface ObservabilityOptions {
  adminToken?: string;
  /** Where access lines go (the service's logger unless a caller, a benchmark, passes its own). */
  logger?: Logger;
  /** Surfaces mounted as a middleware, not a route (the tool server): each one's path is its pattern. */
  endpoints?: readonly string[];
  /** The process's role (src/service.ts), shown by /metrics. */
  role?: string;
}

/** The probe paths: answered before the CORS policy and the rate limits, as a platform's probes expect. */
export const PROBE_PATHS: ReadonlySet<string> = new Set([READINESS_PATH, METRICS_PATH]);

export function observability(
  services: Services,
  options: ObservabilityOptions,
): { observe: (req: IncomingMessage, res: EdgeResponse) => void; router: Router } {
  const metrics = createMetrics(services, options.adminToken, { role: options.role });
  const router = Router();
  const logger = options.logger ?? serviceLogger;
  router.get(READINESS_PATH, readinessCheck(services));
  router.get(METRICS_PATH, metrics.endpoint);
  return { observe: accessLog({ logger, endpoints: options.endpoints, onFinished: metrics.observeRequest }), router };
}
