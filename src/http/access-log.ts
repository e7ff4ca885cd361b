// One structured access line per request, written when its answer is done (or the client
// went away): request id, method, route pattern, status, duration in milliseconds, and the
// Account of the credential that authenticated it. Never the raw path, query or headers
// (they carry contact data and keys): the log rule of src/logging/redaction.ts. The same
// moment feeds the request metrics, so a request is observed once.
// Why not pino-http: its line is the request and response objects (url, headers), which
// would have to be taken apart again by serializers on this hot path; this is one line.
import { performance } from 'node:perf_hooks';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { routePattern } from './route-pattern.js';
import type { EdgeResponse } from './edge-response.js';

export interface FinishedRequest {
  method: string;
  route: string;
  status: number;
  durationSeconds: number;
}

const accounts = new WeakMap<IncomingMessage, string>();

/** Records which Account a request acts for, where a credential is accepted; returns the actor. */
export function noteRequestAccount<A extends { accountId: string }>(req: IncomingMessage, actor: A): A {
  accounts.set(req, actor.accountId);
  return actor;
}

export function accessLog(options: {
  logger: Logger;
  endpoints?: readonly string[];
  onFinished?: (request: FinishedRequest) => void;
}) {
  const { logger, endpoints = [], onFinished } = options;
  /** Called once per request, first (src/http/front-door.ts). */
  return (req: IncomingMessage, res: EdgeResponse): void => {
    // A monotonic timer: a duration, never a time of day (the service's clock is ctx.clock).
    const started = performance.now();
    res.once('close', () => {
      const durationMs = performance.now() - started;
      const route = routePattern(req, endpoints);
      // A client that went away before the answer was sent: 499, as proxies log it.
      const status = res.writableFinished ? res.statusCode : 499;
      logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          route,
          status,
          durationMs: Math.round(durationMs * 1000) / 1000,
          accountId: accounts.get(req) ?? null,
        },
        'request',
      );
      onFinished?.({ method: req.method ?? 'GET', route, status, durationSeconds: durationMs / 1000 });
    });
  };
}
