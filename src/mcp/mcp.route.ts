// The tool server's HTTP endpoint: MCP Streamable HTTP at /api/mcp, stateless (a new server
// and transport per request, no session id, so any API process can answer any request) with
// JSON responses. Checked in this order, before the body is read:
//   1. an Origin header → 403 `forbidden`: browsers always send one, so no web page can reach
//      the tool server (nor a DNS-rebinding page); assistants' HTTP clients send none;
//   2. the bearer API key → 401 `unauthenticated` with `WWW-Authenticate: Bearer` (no OAuth:
//      no discovery documents are served, so /.well-known/oauth-* are 404);
//   3. only POST carries messages: GET (a server-initiated stream) and DELETE (ending a
//      session) have nothing to serve on a stateless server → 405, as the SDK's stateless
//      example answers.
// Mounted before the API's JSON body parser, since both checks come before the body is read;
// the body is parsed here (the transport would otherwise re-read it as a web stream, which
// costs more than the tool call's own work) and protocol errors keep their JSON-RPC form.
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestContext, Services } from '../domain/context.js';
import { asDomainError, DomainError } from '../domain/errors.js';
import { apiKeyContext } from '../http/request-context.js';
import { createMcpServer, type McpServerOptions } from './mcp-server.js';

export const MCP_PATH = '/api/mcp';

/** The transport's own limit on a message body. */
const MAX_BODY = '4mb';

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** The SDK's answer to a method a stateless server does not serve. */
const METHOD_NOT_ALLOWED = jsonRpcError(-32000, 'Method not allowed.');

export function mcpRouter(services: Services, options: McpServerOptions = {}): Router {
  const router = Router();

  router.use((req, _res, next) => {
    if (req.headers.origin !== undefined) {
      next(new DomainError('forbidden', 'Requests carrying an Origin header are refused: browser-based clients cannot connect to the tool server'));
      return;
    }
    next();
  });

  router.all(
    '/',
    async (req: Request, res: Response, next: NextFunction) => {
      res.locals.mcpContext = await keyContext(services, req, res);
      if (req.method !== 'POST') {
        res.status(405).set('Allow', 'POST').json(METHOD_NOT_ALLOWED);
        return;
      }
      next();
    },
    // JSON bodies only; any other Content-Type is left unread for the transport to refuse (415).
    express.json({ limit: MAX_BODY, type: 'application/json' }),
    async (req: Request, res: Response) => {
      const server = createMcpServer(res.locals.mcpContext as RequestContext, options);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // A client gone before its answer: closing the server ends the tool call. After a sent
      // answer nothing is left open (no session, no stream, no timer) and both are garbage.
      res.on('close', () => {
        if (!res.writableFinished) void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );

  // A body that is not JSON, or too large: the transport's JSON-RPC answers.
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (error as { type?: string } | null)?.type;
    if (type === 'entity.parse.failed') res.status(400).json(jsonRpcError(-32700, 'Parse error: Invalid JSON'));
    else if (type === 'entity.too.large') res.status(413).json(jsonRpcError(-32000, `Payload too large: the body is ${MAX_BODY} at most`));
    else next(error);
  });

  return router;
}

/** The key's context; a 401 also tells the client the scheme (and nothing about OAuth). */
async function keyContext(services: Services, req: Request, res: Response): Promise<RequestContext> {
  try {
    return await apiKeyContext(services, req, res.locals.requestId as string);
  } catch (error) {
    if (asDomainError(error)?.code === 'unauthenticated') res.setHeader('WWW-Authenticate', 'Bearer');
    throw error;
  }
}
