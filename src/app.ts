// Composes the HTTP service: request ids, health, the REST API and its documentation, GraphQL, OPTIONS answers, and
// one error mapper. createApp takes its infrastructure so tests can pass their own.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { createYoga } from 'graphql-yoga';
import type { Services } from './domain/context.js';
import { asDomainError, DomainError } from './domain/errors.js';
import { schema } from './domain/schema.js';
import { REST_API_PATH, restRouter } from './rest/rest.route.js';
import { errorBody, failureOf, type LogError } from './http/error-body.js';
import { requestIdFor } from './http/request-context.js';
import { noteRequestStarted } from './db/foreground-traffic.js';
import { openApiDocument } from './rest/openapi.js';
import { apiDocsRouter, OPENAPI_DOCUMENT_PATH } from './rest/api-docs.route.js';
import { logger } from './logger.js';
import { mondayRouter } from '../integration/monday/board-app.route.js';
import { consoleRouter } from './console/console.route.js';
import type { MondayConfig } from '../integration/monday/config.js';
import { TELEPHONY_EVENTS_PATH, telephonyEventsRouter } from './http/telephony-events.route.js';
import { PROVIDER_WEBHOOKS_PATH, providerWebhooksRouter } from './http/provider-webhooks.route.js';
import { MCP_PATH, mcpEndpoint } from './mcp/mcp.route.js';
import { answerOptionsRequests } from './http/options.js';
import { observabilityRouter } from './http/observability.js';
import { refuseTooDeepDocuments } from './http/graphql-parse-guard.js';
import { httpEdgeSettings, type HttpEdgeEnv } from './config/http-edge-env.js';
import { closeConnectionsWithUnreadBodies } from './http/edge/unread-body.js';
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
}: AppOptions): express.Express {
  const edge = httpEdgeSettings(edgeOptions);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.set('etag', false);
  if (edge.TRUST_PROXY !== undefined) app.set('trust proxy', trustProxySetting(edge.TRUST_PROXY));

  app.use((req, res, next) => {
    // Background work on the embedded database sizes its chunks by the requests coming (src/db/foreground-traffic.ts).
    noteRequestStarted();
    const requestId = requestIdFor(req.header('x-request-id'));
    res.locals.requestId = requestId;
    res.setHeader('x-request-id', requestId);
    next();
  });
  // The access line and request metrics of every request (429s included), GET /readyz and GET /metrics.
  app.use(observabilityRouter(services, { adminToken, logger: accessLogger, endpoints: [MCP_PATH], role }));
  // The edge (src/http/edge/): answers that leave a body unread close the connection; one CORS
  // policy (the tool server keeps its own: it refuses any Origin); the rate limits and their
  // headers on every answer. All before any body is read.
  app.use(closeConnectionsWithUnreadBodies);
  app.use(corsPolicy(edge.CORS_ORIGINS, { outside: [MCP_PATH] }));
  app.use(rateLimitsFor(services, edge).edge);

  app.get('/healthz', async (_req, res) => {
    try {
      await services.db.sql.query('SELECT 1');
      res.json({ status: 'ok', database: services.db.kind });
    } catch {
      res.status(503).json({ status: 'unavailable', database: services.db.kind });
    }
  });

  if (surface === 'public') publicSurface(app, { services, monday, adminToken, telephonySecrets, logError, edge });
  app.use((_req, _res, next) => next(new DomainError('not_found', 'No such operation')));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const requestId = res.locals.requestId as string;
    const mapped = failureOf(error, requestId, logError, asDomainError(error) ?? fromBodyParser(error));
    res.status(mapped.status).json(errorBody(mapped, requestId));
  });
  return app;
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
): void {
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
  app.use(REST_API_PATH, restRouter(services));
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
