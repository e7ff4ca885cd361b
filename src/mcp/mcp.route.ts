// The tool server's HTTP endpoint: MCP Streamable HTTP at /api/mcp, stateless (a new server
// and transport per request, no session id, so any API process can answer any request) with
// JSON responses. Checked in this order, before the body is read:
//   1. an Origin header → 403 `forbidden`: browsers always send one, so no web page can reach
//      the tool server (nor a DNS-rebinding page); assistants' HTTP clients send none;
//   2. the bearer: an API key, or an OAuth access token for this resource (docs/oauth.md) →
//      401 `unauthenticated` without one, with `WWW-Authenticate: Bearer resource_metadata=…,
//      scope=…` naming where an assistant starts OAuth (RFC 9728 §5.1) when it is served;
//   3. only POST carries messages: GET (a server-initiated stream) and DELETE (ending a
//      session) have nothing to serve on a stateless server → 405, as the SDK's stateless
//      example answers.
// Mounted before the API's JSON body parser, since both checks come before the body is read.
// Then the Streamable HTTP rules of the SDK's transport, answer for answer (status, JSON-RPC
// error code and message; test/mcp/transport-parity.test.ts): Accept must list
// application/json and text/event-stream (406); the body must be JSON (415, 400 -32700, 413)
// holding JSON-RPC messages (at most a batch of 100; 400); initialize comes alone (400 -32600);
// a request after it names a protocol version this SDK speaks, or none (400); only
// notifications → 202. Beyond the SDK: a charset other than UTF-8 is a 415, and gzip and
// deflate bodies are inflated. The SDK's Server handles the messages through a
// JsonResponseTransport (why not the SDK's HTTP transport: see that file).
import { STATUS_CODES } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  MAX_BATCH_SIZE,
  requestBodyTooLargeMessage,
} from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext, Services } from '../domain/context.js';
import { asDomainError, DomainError, FAILURES, MCP_SERVER_ERROR } from '../domain/errors.js';
import { bearerToken, keyedRequestContext } from '../http/request-context.js';
import { noteRequestAccount } from '../http/access-log.js';
import { spendKeyQuota } from '../http/edge/rate-limit/rate-limits.js';
import { authenticateAccessToken, isAccessToken } from '../domain/oauth/oauth.service.js';
import { OAUTH_SCOPES } from '../domain/oauth/oauth.rules.js';
import { type ServedOAuth, servedOAuth } from '../http/oauth-issuer.js';
import { JsonResponseTransport } from './json-response-transport.js';
import { createMcpServer, type McpServerOptions } from './mcp-server.js';

export const MCP_PATH = '/api/mcp';

/** The SDK transport's limit on a message body, in bytes (4 MiB). */
const MAX_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE;

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * A refusal whose code the failure table gives the JSON-RPC form (src/domain/errors.ts): the
 * code's status, and the SDK transport's error with the refusal's message.
 */
function answerAsJsonRpc(res: Response, failure: DomainError): void {
  if (FAILURES[failure.code].mcp !== 'json_rpc') throw failure;
  res.status(failure.status).json(jsonRpcError(MCP_SERVER_ERROR, failure.message));
}

/** The body over the transport's limit, as the SDK's transport words it. */
const bodyTooLarge = () => new DomainError('payload_too_large', requestBodyTooLargeMessage(MAX_BODY));

/** The SDK's answer to a method a stateless server does not serve. */
const METHOD_NOT_ALLOWED = jsonRpcError(-32000, 'Method not allowed.');

/** The tool server, to mount at MCP_PATH: one handler (this path is hot; no router layers). */
export function mcpEndpoint(services: Services, options: McpServerOptions = {}): RequestHandler {
  // Only JSON bodies are read; any other Content-Type was already refused (415).
  const parseJson = express.json({ limit: MAX_BODY, type: () => true });

  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.origin !== undefined) {
      throw new DomainError(
        'forbidden',
        'Requests carrying an Origin header are refused: browser-based clients cannot connect to the tool server',
      );
    }
    // Only the mount path itself is the tool server; anything below it is an unknown route.
    if (req.path !== '/') {
      next();
      return;
    }
    const ctx = await bearerContext(services, req, res);
    if (req.method !== 'POST') {
      res.status(405).set('Allow', 'POST').json(METHOD_NOT_ALLOWED);
      return;
    }
    const accept = req.headers.accept;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
      res
        .status(406)
        .json(jsonRpcError(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream'));
      return;
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      res.status(415).json(jsonRpcError(-32000, 'Unsupported Media Type: Content-Type must be application/json'));
      return;
    }
    if (req.headers['content-length'] === '0') {
      // An empty body (which the parser would read as {}): what JSON.parse('') answers in the SDK's transport.
      res.status(400).json(jsonRpcError(-32700, 'Parse error: Invalid JSON'));
      return;
    }
    // Refused from the declared length, unread (the parser would read it to its end first).
    if (Number(req.headers['content-length']) > MAX_BODY) {
      answerAsJsonRpc(res, bodyTooLarge());
      return;
    }
    const bodyError = await new Promise<unknown>((resolve) => parseJson(req, res, resolve));
    if (bodyError) {
      const { type, status, message } = bodyError as { type?: string; status?: number; message?: string };
      if (type === 'entity.parse.failed') res.status(400).json(jsonRpcError(-32700, 'Parse error: Invalid JSON'));
      else if (type === 'entity.too.large') answerAsJsonRpc(res, bodyTooLarge());
      // A charset other than UTF-8, an unknown Content-Encoding, a body that fails to inflate.
      else if (status !== undefined && status >= 400 && status < 500)
        res.status(status).json(jsonRpcError(-32000, `${STATUS_CODES[status]}: ${message}`));
      else throw bodyError;
      return;
    }
    const messages = jsonRpcMessages(req.body, req.headers['mcp-protocol-version']);
    if (!Array.isArray(messages)) {
      res.status(messages.status).json(jsonRpcError(messages.code, messages.message));
      return;
    }

    const server = createMcpServer(ctx, options);
    const transport = new JsonResponseTransport();
    // A client gone before its answer: closing the server aborts the tool call. After a sent
    // answer nothing is left open (no session, no stream, no timer) and both are garbage.
    res.on('close', () => {
      if (!res.writableFinished) void server.close();
    });
    await server.connect(transport);
    const answers = await transport.exchange(messages);
    if (answers.length === 0) res.status(202).end();
    // One answer as a single message, like the SDK's transport; a batch's answers as an array.
    else res.json(answers.length === 1 ? answers[0] : answers);
  };
}

interface Refusal {
  status: number;
  code: number;
  message: string;
}

/** The body's JSON-RPC messages, or the Streamable HTTP refusal of them. */
function jsonRpcMessages(body: unknown, protocolVersion: string | string[] | undefined): JSONRPCMessage[] | Refusal {
  const batch = Array.isArray(body);
  if (batch && body.length > MAX_BATCH_SIZE)
    return { status: 400, code: -32600, message: `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages` };
  const messages: JSONRPCMessage[] = [];
  for (const item of batch ? body : [body]) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return { status: 400, code: -32700, message: 'Parse error: Invalid JSON-RPC message' };
    messages.push(parsed.data);
  }
  if (messages.some(isInitializeRequest)) {
    if (messages.length > 1)
      return { status: 400, code: -32600, message: 'Invalid Request: Only one initialization request is allowed' };
  } else if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(protocolVersion))) {
    return {
      status: 400,
      code: -32000,
      message: `Bad Request: Unsupported protocol version: ${protocolVersion} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    };
  }
  return messages;
}

/**
 * The caller's context: an OAuth access token's (bound to this tool server's address), or an API
 * key's; then the caller's rate limit. A 401 also tells the client where OAuth starts.
 */
async function bearerContext(services: Services, req: Request, res: Response): Promise<RequestContext> {
  const oauth = servedOAuth(services.oauth);
  const bearer = bearerToken(req.headers.authorization);
  try {
    if (!oauth || !isAccessToken(bearer)) return await keyedRequestContext(services, req, res);
    const { actor, grantId } = await authenticateAccessToken(services, bearer as string, oauth.resource);
    noteRequestAccount(req, actor);
    // A connected application's requests are counted like a key's, per grant.
    await spendKeyQuota(res, `oauth:${grantId}`);
    return { ...services, requestId: res.locals.requestId as string, actor, isAdmin: false };
  } catch (error) {
    if (asDomainError(error)?.code === 'unauthenticated') res.setHeader('WWW-Authenticate', challenge(oauth, bearer));
    throw error;
  }
}

/** RFC 6750 §3 and RFC 9728 §5.1: the scheme, and with OAuth served, its metadata and scopes. */
function challenge(oauth: ServedOAuth | null, bearer: string | undefined): string {
  if (!oauth) return 'Bearer';
  const params = [
    `resource_metadata="${oauth.resourceMetadataUrl}"`,
    `scope="${OAUTH_SCOPES.join(' ')}"`,
    ...(bearer ? ['error="invalid_token"'] : []),
  ];
  return `Bearer ${params.join(', ')}`;
}
