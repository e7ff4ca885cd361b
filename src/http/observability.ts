// What an operator watches, mounted at the top of the app in one router: the access line and
// request metrics of every request, GET /readyz (readiness.ts) and GET /metrics (metrics.ts).
import { Router } from 'express';
import type { Services } from '../domain/context.js';
import type { Logger } from 'pino';
import { logger as serviceLogger } from '../logger.js';
import { MCP_PATH } from '../mcp/mcp.route.js';
import { accessLog } from './access-log.js';
import { createMetrics, METRICS_PATH } from './metrics.js';
import { READINESS_PATH, readinessCheck } from './readiness.js';

/** `options.logger`: where access lines go (the service's logger unless a caller, a benchmark, passes its own). */
export function observabilityRouter(services: Services, options: { adminToken?: string; logger?: Logger }): Router {
  const metrics = createMetrics(services, options.adminToken);
  const router = Router();
  // The tool server is a middleware, not a route: its path is its pattern.
  router.use(accessLog({ logger: options.logger ?? serviceLogger, endpoints: [MCP_PATH], onFinished: metrics.observeRequest }));
  router.get(READINESS_PATH, readinessCheck(services));
  router.get(METRICS_PATH, metrics.endpoint);
  return router;
}
