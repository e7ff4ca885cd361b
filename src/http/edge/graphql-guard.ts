// What /graphql checks before yoga reads a body or runs a document.
//
// The caller, from the Authorization header alone: the operator token, or an API key (which
// then spends its rate limit). Every operation of the schema needs one of the two, so a
// request with neither, or with a bad one, is refused with 401 before its body is read; this
// also refuses anonymous introspection (the schema lists the operator mutations), while keys
// and the operator token may introspect.
//
// The document's shape, before execution (graphql-armor's validation rules): aliases, depth
// and cost over the configured limits are refused with a GraphQL error naming the limit. One
// request of 1,000 aliased `contacts(limit: 100)` used to run them all.
import type { NextFunction, Request, Response } from 'express';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { Services } from '../../domain/context.js';
import { asDomainError, DomainError } from '../../domain/errors.js';
import { safeEqual } from '../../domain/shared/safe-equal.js';
import type { HttpEdgeEnv } from '../../config/http-edge-env.js';
import { bearerToken, keyedRequestContext } from '../request-context.js';
import type { Actor } from '../../domain/context.js';

/** The largest /graphql body: documents and their variables are small (REST takes the large writes). */
export const GRAPHQL_BODY_LIMIT_BYTES = 1024 * 1024;

export interface GraphqlCaller {
  actor: Actor | null;
  isAdmin: boolean;
}

/** Middleware: sets res.locals.graphqlCaller, or fails with 401 (WWW-Authenticate: Bearer) or 429. */
export function graphqlCaller(services: Services, adminToken: string | undefined) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = bearerToken(req.headers.authorization);
    if (token && adminToken && safeEqual(token, adminToken)) {
      res.locals.graphqlCaller = { actor: null, isAdmin: true } satisfies GraphqlCaller;
      return next();
    }
    try {
      const { actor } = await keyedRequestContext(services, req, res);
      res.locals.graphqlCaller = { actor, isAdmin: false } satisfies GraphqlCaller;
    } catch (error) {
      if (asDomainError(error)?.code !== 'unauthenticated') throw error;
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new DomainError(
        'unauthenticated',
        'GraphQL needs an API key or the operator token: Authorization: Bearer <key or token>',
      );
    }
    next();
  };
}

/** The document limits, as a yoga (envelop) plugin. 0 turns a limit off. */
export function graphqlDocumentLimits(
  settings: Pick<HttpEdgeEnv, 'GRAPHQL_MAX_ALIASES' | 'GRAPHQL_MAX_DEPTH' | 'GRAPHQL_MAX_COST'>,
) {
  return EnvelopArmorPlugin({
    maxAliases: { enabled: settings.GRAPHQL_MAX_ALIASES > 0, n: settings.GRAPHQL_MAX_ALIASES },
    maxDepth: { enabled: settings.GRAPHQL_MAX_DEPTH > 0, n: settings.GRAPHQL_MAX_DEPTH },
    costLimit: { enabled: settings.GRAPHQL_MAX_COST > 0, maxCost: settings.GRAPHQL_MAX_COST },
  });
}
