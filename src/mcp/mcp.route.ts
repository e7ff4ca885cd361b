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
// Mounted before the API's JSON body parser, since both checks come before the body is read.
// The SDK's web-standard transport does the protocol; this file bridges Express to it: the body
// is parsed here and handed over (the transport reading it as a web stream is measurably
// slower), and the JSON answer goes out in one write with its length (the SDK's Node wrapper
// streams it in chunks). Protocol errors keep the transport's JSON-RPC form.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
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

/** The tool server, to mount at MCP_PATH: one handler (this path is hot; no router layers). */
export function mcpEndpoint(services: Services, options: McpServerOptions = {}): RequestHandler {
  // JSON bodies only; any other Content-Type is left unread for the transport to refuse (415).
  const parseJson = express.json({ limit: MAX_BODY, type: 'application/json' });

  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.origin !== undefined) {
      throw new DomainError('forbidden', 'Requests carrying an Origin header are refused: browser-based clients cannot connect to the tool server');
    }
    // Only the mount path itself is the tool server; anything below it is an unknown route.
    if (req.path !== '/') {
      next();
      return;
    }
    const ctx = await keyContext(services, req, res);
    if (req.method !== 'POST') {
      res.status(405).set('Allow', 'POST').json(METHOD_NOT_ALLOWED);
      return;
    }
    const bodyError = await new Promise<unknown>((resolve) => parseJson(req, res, resolve));
    if (bodyError) {
      // A body that is not JSON, or too large: the transport's JSON-RPC answers.
      const type = (bodyError as { type?: string }).type;
      if (type === 'entity.parse.failed') res.status(400).json(jsonRpcError(-32700, 'Parse error: Invalid JSON'));
      else if (type === 'entity.too.large') res.status(413).json(jsonRpcError(-32000, `Payload too large: the body is ${MAX_BODY} at most`));
      else throw bodyError;
      return;
    }
    const server = createMcpServer(ctx, options);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // A client gone before its answer: closing the server ends the tool call. After a sent
    // answer nothing is left open (no session, no stream, no timer) and both are garbage.
    res.on('close', () => {
      if (!res.writableFinished) void server.close();
    });
    await server.connect(transport);
    const response = await transport.handleRequest(toWebRequest(req), { parsedBody: req.body });
    await sendWebResponse(res, response);
  };
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

/** The request as the web-standard transport reads it: method, URL and headers (the body is passed parsed). */
function toWebRequest(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (value) for (const item of value) headers.append(name, item);
  }
  // The URL only reaches handlers as request info (unused here), so no client-sent Host goes into it.
  return new globalThis.Request(new URL(req.originalUrl, 'http://localhost'), { method: req.method, headers });
}

/** Sends the transport's answer (JSON or empty, never a stream: JSON responses are on) in one write. */
async function sendWebResponse(res: Response, response: globalThis.Response): Promise<void> {
  const body = response.body ? await response.text() : undefined;
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(body);
}
