// The service's one request listener. Every request passes the edge here, in this order,
// before any route runs or any body is read:
//   1. its id (x-request-id) and its locals;
//   2. its access line and request metrics, written when its answer is done;
//   3. the probes (/readyz, /metrics) go straight to the app, outside the CORS policy and
//      the rate limits;
//   4. an answer that leaves the body unread closes the connection;
//   5. the CORS policy;
//   6. the address rate limit (a 429 here ends the request).
// Then the direct routes (direct-routes.ts: reading contacts, the bulk of an integration's
// traffic) are answered here, and every other request goes to the Express app. Express walks
// the app's middleware and routes in turn until one matches, and wraps the request and response
// in its own objects: on a read of one contact that was about an eighth of the service's CPU
// (docs/decisions/0046-direct-routes.md).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { sendError } from './answers.js';
import type { DirectRoutes, Query } from './direct-routes.js';
import type { LogError } from './error-body.js';
import { PROBE_PATHS } from './observability.js';
import { beginRequest } from './request-context.js';
import type { EdgeResponse } from './edge-response.js';
import type { RoutedRequest } from './route-pattern.js';
import { closeConnectionsWithUnreadBodies } from './edge/unread-body.js';
import type { RateLimits } from './edge/rate-limit/rate-limits.js';

export interface FrontDoorParts {
  observe: (req: IncomingMessage, res: EdgeResponse) => void;
  cors: (req: IncomingMessage, res: ServerResponse, path: string) => void;
  rateLimits: RateLimits;
  direct: DirectRoutes | null;
  /** The query parser the app uses (Express's `query parser fn`), so a query reads the same either way. */
  parseQuery: (queryString: string) => Query;
  app: RequestListener;
  logError: LogError;
}

export function frontDoor(parts: FrontDoorParts): RequestListener {
  const { observe, cors, rateLimits, direct, parseQuery, app, logError } = parts;

  function route(req: IncomingMessage, res: EdgeResponse, path: string, queryString: string): void {
    const found = direct?.find(req.method, path);
    if (!found) {
      app(req, res);
      return;
    }
    // As Express leaves it: the access line names the route's pattern (route-pattern.ts).
    (req as RoutedRequest).route = { path: found.route.path };
    found.route
      .handler(req, res, found.params, parseQuery(queryString))
      .catch((error) => sendError(res, error, logError));
  }

  return (req, plain) => {
    const res = beginRequest(req, plain);
    observe(req, res);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (PROBE_PATHS.has(path)) {
      app(req, res);
      return;
    }
    closeConnectionsWithUnreadBodies(req, res);
    cors(req, res, path);
    const queryString = q === -1 ? '' : url.slice(q + 1);
    try {
      const admitted = rateLimits.admit(req, res, path);
      if (admitted)
        admitted.then(() => route(req, res, path, queryString)).catch((error) => sendError(res, error, logError));
      else route(req, res, path, queryString);
    } catch (error) {
      sendError(res, error, logError);
    }
  };
}
