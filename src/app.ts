// Composes the HTTP service: the front door (the edge every request passes, and the direct
// routes), health, the REST API and its documentation, GraphQL, OPTIONS answers, and one error
// mapper. createApp takes its infrastructure so tests can pass their own.
import type { IncomingMessage, RequestListener } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import proxyaddr from 'proxy-addr';
import type { Logger } from 'pino';
import { createYoga } from 'graphql-yoga';
import type { Services } from './domain/context.js';
import { asDomainError, DomainError } from './domain/errors.js';
import { schema } from './domain/schema.js';
import { REST_API_PATH, restRouter } from './rest/rest.route.js';
import type { LogError } from './http/error-body.js';
import { sendError } from './http/answers.js';
import type { EdgeResponse } from './http/edge-response.js';
import type { DirectRoutes } from './http/direct-routes.js';
import { frontDoor } from './http/front-door.js';
import { openApiDocument } from './rest/openapi.js';
import { apiDocsRouter, OPENAPI_DOCUMENT_PATH } from './rest/api-docs.route.js';
import { logger } from './logger.js';
import { mondayRouter } from '../integration/monday/board-app.route.js';
import { consoleRouter } from './console/console.route.js';
import type { MondayConfig } from '../integration/monday/config.js';
import { TELEPHONY_EVENTS_PATH, telephonyEventsRouter } from './http/telephony-events.route.js';
import { PROVIDER_WEBHOOKS_PATH, providerWebhooksRouter } from './http/provider-webhooks.route.js';
import { MCP_PATH, mcpEndpoint } from './mcp/mcp.route.js';
import { authorizationServer, OAUTH_MOUNTS } from './mcp/authorization-server.js';
import { answerOptionsRequests } from './http/options.js';
import { observability } from './http/observability.js';
import { refuseTooDeepDocuments } from './http/graphql-parse-guard.js';
import { httpEdgeSettings, type HttpEdgeEnv } from './config/http-edge-env.js';
import { bodyTooLarge, refuseDeclaredOversize } from './http/edge/body-limits.js';
import { corsPolicy } from './http/edge/cors-policy.js';
import { rateLimitsFor, trustProxySetting } from './http/edge/http-edge.js';
import {
  GRAPHQL_BODY_LIMIT_BYTES,
  graphqlCaller,
  graphqlDocumentLimits,
  type GraphqlCaller,
} from './http/edge/graphql-guard.js';

export interface AppOptions {
  services: Services;
  /** The board app's configuration; absent: its routes are not served (404). */
  monday?: MondayConfig | null;
  adminToken?: string;
  /** Secrets for POST /api/telephony/events (several during a rotation); none: the endpoint answers 404. */
  telephonySecrets?: string[];
  logError?: LogError;
  /** Rate limits, GraphQL document limits, CORS origins, proxies (defaults: src/config/http-edge-env.ts). */
  edge?: Partial<HttpEdgeEnv>;
  /** Where the access lines go (default: the service's logger, on stderr). */
  accessLogger?: Logger;
  /**
   * `public` (default): everything. `probes`: /healthz, /readyz and /metrics only, every other
   * path 404 (a worker process, src/service.ts).
   */
  surface?: 'public' | 'probes';
  /** The process's role, shown by /metrics (`contactline_process_info`). */
  role?: string;
  /**
   * Whether the front door answers the direct routes itself (default true); false sends every
   * request through Express, so a test can hold the two answers side by side.
   */
  directRoutes?: boolean;
}

export function createApp({
  services,
  monday,
  adminToken,
  telephonySecrets,
  logError = defaultLogError,
  edge: edgeOptions,
  accessLogger,
  surface = 'public',
  role = 'all',
  directRoutes = true,
}: AppOptions): RequestListener {
  const edge = httpEdgeSettings(edgeOptions);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.set('etag', false);
  if (edge.TRUST_PROXY !== undefined) app.set('trust proxy', trustProxySetting(edge.TRUST_PROXY));
  // req.ip as Express computes it, for the requests the front door answers without Express too.
  const trust = app.get('trust proxy fn') as Parameters<typeof proxyaddr>[1];
  const clientAddress = (req: IncomingMessage) => proxyaddr(req, trust) ?? req.socket.remoteAddress ?? 'unknown';

  // GET /readyz and GET /metrics; the access line and metrics of every request are the front door's.
  const watched = observability(services, { adminToken, logger: accessLogger, endpoints: [MCP_PATH], role });
  app.use(watched.router);

  app.get('/healthz', async (_req, res) => {
    try {
      await services.db.sql.query('SELECT 1');
      res.json({ status: 'ok', database: services.db.kind });
    } catch {
      res.status(503).json({ status: 'unavailable', database: services.db.kind });
    }
  });

  const direct =
    surface === 'public'
      ? publicSurface(app, { services, monday, adminToken, telephonySecrets, logError, edge })
      : null;
  app.use((_req, _res, next) => next(new DomainError('not_found', 'No such operation')));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    sendError(res as EdgeResponse, error, logError, asDomainError(error) ?? fromBodyParser(error));
  });
  // The edge (src/http/edge/), for every request before any body is read: answers that leave a
  // body unread close the connection; one CORS policy (the tool server keeps its own: it
  // refuses any Origin); the rate limits and their headers on every answer.
  return frontDoor({
    observe: watched.observe,
    cors: corsPolicy(edge.CORS_ORIGINS, { outside: [MCP_PATH, ...OAUTH_MOUNTS] }),
    rateLimits: rateLimitsFor(services, edge, clientAddress),
    direct: directRoutes ? direct : null,
    parseQuery: app.get('query parser fn') as (queryString: string) => Record<string, unknown>,
    app,
    logError,
  });
}

/** The API, its documentation, GraphQL, the console, the webhooks received and the board app. */
function publicSurface(
  app: express.Express,
  {
    services,
    monday,
    adminToken,
    telephonySecrets,
    logError,
    edge,
  }: Pick<AppOptions, 'services' | 'monday' | 'adminToken' | 'telephonySecrets'> & {
    logError: LogError;
    edge: ReturnType<typeof httpEdgeSettings>;
  },
): DirectRoutes {
  app.get(OPENAPI_DOCUMENT_PATH, (_req, res) => {
    res.json(openApiDocument());
  });
  // GET /docs: Redoc over that document, everything served from here (src/rest/api-docs.route.ts).
  app.use(apiDocsRouter());

  // Before the JSON parser: the signature is checked over the raw body bytes.
  app.use(TELEPHONY_EVENTS_PATH, telephonyEventsRouter(services, telephonySecrets));
  // Vapi and Retell webhooks, authenticated with the Account's own credentials over the raw body.
  if (services.voice) app.use(PROVIDER_WEBHOOKS_PATH, providerWebhooksRouter(services));
  // Before the JSON parser too: origin and key are checked first, then the MCP transport reads the body.
  app.use(MCP_PATH, mcpEndpoint(services, { logError }));
  // OAuth 2.1 for the tool server: discovery, registration, authorization, tokens (docs/oauth.md).
  app.use(authorizationServer(services));
  const rest = restRouter(services);
  app.use(REST_API_PATH, rest.router);
  if (monday) app.use('/integrations/monday', mondayRouter(services, monday));
  app.use('/console', consoleRouter(services, { logError }));

  const yoga = createYoga<{ req: Request; res: Response }>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // CORS is the app's one policy (./http/edge/cors-policy.ts); yoga's default reflects any Origin.
    cors: false,
    plugins: [refuseTooDeepDocuments, graphqlDocumentLimits(edge)],
    // The caller was resolved from the headers before yoga read the body (./http/edge/graphql-guard.ts).
    context: ({ res }) => ({
      ...services,
      requestId: res.locals.requestId as string,
      ...(res.locals.graphqlCaller as GraphqlCaller),
    }),
  });
  // GET and POST only: another method is an unknown operation (404), as everywhere else.
  // Express answers HEAD with the GET route; yoga refuses HEAD, so it is shown the GET it
  // stands for (Node sends no body in answer to a HEAD).
  const graphql = (req: Request, res: Response) => {
    if (req.method === 'HEAD') req.method = 'GET';
    return yoga(req, res);
  };
  // The caller first (from the headers), then the body: JSON, GRAPHQL_BODY_LIMIT_BYTES at most.
  const caller = graphqlCaller(services, adminToken);
  const graphqlBody = express.json({ limit: GRAPHQL_BODY_LIMIT_BYTES, type: () => true });
  app
    .route('/graphql')
    .get(caller, graphql)
    .post(caller, refuseDeclaredOversize(GRAPHQL_BODY_LIMIT_BYTES), graphqlBody, graphql);

  answerOptionsRequests(app.router);
  return rest.direct;
}

/**
 * A body parser's own failures are the client's: too large is a 413, the others (malformed
 * JSON, aborted, an unsupported charset or encoding) a 400.
 */
function fromBodyParser(error: unknown): DomainError | undefined {
  const e = error as { type?: string; status?: number; message?: string; limit?: number };
  if (e?.type === 'entity.parse.failed') return new DomainError('bad_request', 'The body is not valid JSON');
  if (e?.type === 'entity.too.large') return bodyTooLarge(e.limit ?? 0);
  if (e?.status && e.status >= 400 && e.status < 500) return new DomainError('bad_request', e.message ?? 'Bad request');
  return undefined;
}

function defaultLogError(error: unknown, requestId: string): void {
  logger.error({ err: error, requestId }, 'request failed');
}
