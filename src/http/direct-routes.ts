// Routes the front door (front-door.ts) answers itself, without Express: the reads that are most
// of an integration's traffic. Each is also an Express route, registered by its router with the
// same handler, so the Express app still knows it (its OPTIONS answer, the check that every
// route is documented); the front door only takes its GETs and HEADs first.
//
// Paths match as Express matches a route in a router mounted at `mount`: the same library
// (path-to-regexp) with Express's defaults, case-insensitive and a trailing slash allowed, and a
// parameter that is not valid percent-encoding is a 400. Routes are tried in the order added,
// which must be the order of their router, so that a fixed path added before a pattern
// (/contacts/csv before /contacts/:id) keeps its own route here too.
import { match, type MatchFunction } from 'path-to-regexp';
import { badRequest } from '../domain/errors.js';
import type { EdgeResponse } from './edge-response.js';
import type { RoutedRequest } from './route-pattern.js';

export type Params = Record<string, string>;
export type Query = Record<string, unknown>;

/** A route's handler, over Node's request and response: Express gives it req.params and req.query. */
export type DirectHandler = (req: RoutedRequest, res: EdgeResponse, params: Params, query: Query) => Promise<void>;

interface DirectRoute {
  /** The route's own path, as its router has it (`/contacts/:id`): the access line's pattern. */
  path: string;
  match: MatchFunction<Params>;
  handler: DirectHandler;
}

function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw badRequest(`Failed to decode param '${value}'`);
  }
}

export class DirectRoutes {
  private readonly routes: DirectRoute[] = [];

  constructor(private readonly mount: string) {}

  /** Adds a GET route (HEAD too); `path` as its router has it. */
  get(path: string, handler: DirectHandler): void {
    const full = `${this.mount}${path}`;
    this.routes.push({
      path,
      handler,
      match: match<Params>(full, { sensitive: false, end: true, trailing: true, decode: decodeParam }),
    });
  }

  /** The route answering `method` on `path` (the URL without its query), with its parameters. */
  find(method: string | undefined, path: string): { route: DirectRoute; params: Params } | undefined {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    for (const route of this.routes) {
      const found = route.match(path);
      if (found) return { route, params: found.params };
    }
    return undefined;
  }
}
