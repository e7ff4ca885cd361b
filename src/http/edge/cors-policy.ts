// The one CORS policy of the service: no cross-origin access unless CORS_ORIGINS lists the
// origin. For a listed origin, every answer (errors included) allows that origin and exposes
// the headers a client reads; a preflight is answered with the methods the path serves (the
// Allow header src/http/options.ts computes), the request headers the API reads, and a
// 10-minute cache. An unlisted origin gets no CORS header at all, so a browser lets no page
// read anything. Credentials are never allowed, for any origin: the API authenticates with a
// bearer header, never with cookies, so no page needs a browser's ambient credentials.
// A path given in `outside` is not under the policy: the tool server (its path given by
// src/app.ts) refuses every request carrying an Origin (403), whether listed or not, so that no
// browser page can call it (docs/mcp.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import vary from 'vary';
import { onBeforeHeaders } from './before-headers.js';

/** Response headers a browser client may read. */
const EXPOSED_HEADERS = 'x-request-id, x-next-token, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed';
/** Request headers the API reads (Content-Type beyond the CORS-safelisted values needs a preflight). */
const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, X-Request-Id, Idempotency-Key';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** `outside`: the mount paths (and everything under them) that keep CORS rules of their own. */
export function corsPolicy(allowedOrigins: readonly string[], { outside = [] }: { outside?: readonly string[] } = {}) {
  const listed = new Set(allowedOrigins);
  const isOutside = (path: string) => outside.some((mount) => path === mount || path.startsWith(`${mount}/`));
  /** For every request but the probes, given its path (the URL without its query). */
  return (req: IncomingMessage, res: ServerResponse, path: string): void => {
    if (isOutside(path)) return;
    // Answers differ by Origin once any origin is listed: caches must keep them apart.
    if (listed.size > 0) vary(res, 'Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !listed.has(origin)) return;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
      // The methods are the path's own, known once its OPTIONS route has set Allow.
      onBeforeHeaders(res, () => {
        const allow = res.getHeader('Allow');
        if (allow !== undefined) res.setHeader('Access-Control-Allow-Methods', String(allow));
      });
    }
  };
}
