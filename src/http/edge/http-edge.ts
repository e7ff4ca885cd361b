// Builds the edge's parts from the settings: the rate limits on the right store for the
// database, and Express's trust proxy setting.
import type { IncomingMessage } from 'node:http';
import type { Services } from '../../domain/context.js';
import type { HttpEdgeEnv } from '../../config/http-edge-env.js';
import { RateLimits } from './rate-limit/rate-limits.js';
import { createMemoryQuotaStore } from './rate-limit/quota-store.js';
import { createPostgresQuotaStore } from './rate-limit/postgres-quota-store.js';

/**
 * The rate limits: on PostgreSQL counted in the database, so they hold across every process on
 * it; on the embedded database (one process by design) counted in memory.
 */
export function rateLimitsFor(
  services: Services,
  settings: HttpEdgeEnv,
  clientAddress: (req: IncomingMessage) => string,
): RateLimits {
  const store = services.db.kind === 'pglite' ? createMemoryQuotaStore() : createPostgresQuotaStore(services.db.sql);
  return new RateLimits(store, settings, services.clock, clientAddress);
}

/** TRUST_PROXY as Express reads it: true/false, a hop count, or addresses and subnets (comma-separated). */
export function trustProxySetting(value: string): boolean | number | string {
  const text = value.trim();
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d+$/.test(text)) return Number(text);
  return text;
}
