// The route pattern of a request (`/api/v1/contacts/:id`), never its raw path: the path and
// query carry contact data (external ids, search terms), and a label per raw path would make
// the request metrics unbounded. Read when the answer is done: Express leaves `req.route` at
// the route that matched, even when its error went on to the app's error handler, and the
// front door sets it the same way for the routes it serves itself (src/http/front-door.ts).
import type { IncomingMessage } from 'node:http';

/** A request once routed: the route that matched, and the URL before a mount trimmed it. */
export type RoutedRequest = IncomingMessage & { route?: { path?: unknown }; originalUrl?: string };

/** Requests that matched no route (unknown paths, refused methods): one label for all. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The matched route's full pattern. A route inside a router mounted at a path only knows its
 * own part (`/contacts/:id`); the mount is the request path's leading segments before the
 * segments the route's pattern matched (one per pattern segment: our patterns have no
 * wildcards). `endpoints` names paths served by a middleware rather than a route (the tool
 * server), matched exactly.
 */
export function routePattern(req: RoutedRequest, endpoints: readonly string[] = []): string {
  const path = (req.originalUrl ?? req.url ?? '/').split('?')[0];
  const route = req.route;
  if (route && typeof route.path === 'string') {
    const own = route.path.split('/').filter(Boolean);
    const segments = path.split('/').filter(Boolean);
    const mount = segments.slice(0, Math.max(0, segments.length - own.length));
    return `/${[...mount, ...own].join('/')}`;
  }
  const bare = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return endpoints.includes(bare) ? bare : UNMATCHED_ROUTE;
}
