// OPTIONS on a path the service serves: 204 No Content, an `Allow` header naming the methods
// that path answers, no body. Express's automatic answer (200 text/plain "GET, HEAD") is a
// body nobody asked for, and it adds the methods of every route whose pattern also matches,
// so /contacts/upsert would claim GET from /contacts/:id. No key is needed (a path's methods
// are public: the OpenAPI document lists them) and no CORS headers are sent: the service has
// no browser clients. An unknown path stays a 404 `not_found`, like any unknown route.
import type { Request, Response, Router } from 'express';

/**
 * Adds an OPTIONS route for each path that has routes in `router` or in a router mounted in
 * it. Call it once their routes are in place: routes added later are not seen. The first
 * route of a path decides where its OPTIONS route goes, so a fixed path (/contacts/csv)
 * registered before a pattern (/contacts/:id) keeps its own answer.
 */
export function answerOptionsRequests(router: Router): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const layer of router.stack) {
    if (layer.route) {
      const methods = methodsByPath.get(layer.route.path) ?? new Set<string>();
      for (const step of layer.route.stack) if (step.method) methods.add(step.method.toUpperCase());
      methodsByPath.set(layer.route.path, methods);
      continue;
    }
    const mounted = layer.handle as Partial<Router>;
    if (Array.isArray(mounted.stack)) answerOptionsRequests(mounted as Router);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = allowHeader(methods);
    router.options(path, (_req: Request, res: Response) => {
      res.status(204).set('Allow', allow).end();
    });
  }
}

/** The Allow header of a path with these methods: Express answers HEAD with its GET route, and every path answers OPTIONS. */
export function allowHeader(methods: Iterable<string>): string {
  const allowed = new Set([...methods, 'OPTIONS']);
  if (allowed.has('GET')) allowed.add('HEAD');
  return [...allowed].sort().join(', ');
}
