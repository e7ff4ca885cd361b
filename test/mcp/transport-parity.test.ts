// The tool server answers HTTP as the SDK's own Streamable HTTP transport would. /api/mcp hands
// messages to the SDK's Server through a lighter transport of ours (src/mcp/json-response-transport.ts);
// each request below goes both to the listening server and to the SDK's
// WebStandardStreamableHTTPServerTransport (stateless, JSON responses) in front of the same
// Server, and the two answers must match: status, media type and JSON body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { Request as ExpressRequest } from 'express';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { apiKeyContext } from '../../src/http/request-context.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { initializeMessage, MCP_PATH, rawMcp, toolCallMessage } from './mcp-helpers.js';

interface Answer {
  status: number;
  /** The media type (Express adds `; charset=utf-8` to JSON, which the SDK leaves implied). */
  mediaType: string | undefined;
  body: unknown;
}

const mediaType = (headers: Headers) => headers.get('content-type')?.split(';')[0];

const parse = (text: string): unknown => (text === '' ? undefined : JSON.parse(text));

describe('tool server transport matches the SDK transport', () => {
  let server: TestServer;
  let account: TestAccount;
  beforeAll(async () => {
    server = await startTestServer('pglite');
    account = await server.createAccount();
    await server.createWorkflow(account.accountId, { status: 'published' });
  });
  afterAll(() => server?.stop());

  async function ours(headers: Record<string, string>, body: unknown): Promise<Answer> {
    const res = await rawMcp(server, 'POST', { authorization: `Bearer ${account.apiKey}`, ...headers }, body);
    return { status: res.status, mediaType: mediaType(res.headers), body: parse(res.text) };
  }

  async function sdk(headers: Record<string, string>, body: unknown): Promise<Answer> {
    const allHeaders: Record<string, string> = {
      authorization: `Bearer ${account.apiKey}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    };
    const ctx = await apiKeyContext(
      server.service.services,
      { headers: allHeaders } as unknown as ExpressRequest,
      'parity',
    );
    const mcp = createMcpServer(ctx);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await mcp.connect(transport);
    const request = new Request(new URL(MCP_PATH, server.baseUrl), {
      method: 'POST',
      headers: allHeaders,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const response = await transport.handleRequest(request);
    const text = await response.text();
    await mcp.close();
    return { status: response.status, mediaType: mediaType(response.headers), body: parse(text) };
  }

  const version = { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
  const cases: Array<[string, Record<string, string>, unknown, number]> = [
    ['initialize', {}, initializeMessage(), 200],
    ['tools/list', version, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, 200],
    ['a tool call', version, toolCallMessage('workflows_list', { limit: 5 }), 200],
    [
      'a batch of requests, answered in order',
      version,
      [ping(3), { jsonrpc: '2.0', id: 'b', method: 'tools/list' }, ping(1)],
      200,
    ],
    ['a batch of one', version, [ping(9)], 200],
    ['an unknown method', version, { jsonrpc: '2.0', id: 4, method: 'resources/list' }, 200],
    ['an unknown tool', version, toolCallMessage('no_such_tool', {}), 200],
    ['a tools/call without a name', version, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: {} }, 200],
    ['a notification', version, { jsonrpc: '2.0', method: 'notifications/initialized' }, 202],
    [
      'a batch of notifications',
      version,
      [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      ],
      202,
    ],
    ['an empty batch', version, [], 202],
    ['Accept without text/event-stream', { accept: 'application/json' }, initializeMessage(), 406],
    ['Accept without application/json', { accept: 'text/event-stream' }, initializeMessage(), 406],
    ['a Content-Type other than JSON', { 'content-type': 'text/plain' }, JSON.stringify(initializeMessage()), 415],
    [
      'a Content-Type only resembling JSON',
      { 'content-type': 'application/jsonx' },
      JSON.stringify(initializeMessage()),
      415,
    ],
    ['JSON with a charset', { 'content-type': 'application/json; charset=utf-8' }, initializeMessage(), 200],
    ['a body that is not JSON', {}, '{not json', 400],
    ['an empty body', {}, '', 400],
    ['a body over 4 MiB', {}, { ...initializeMessage(), padding: 'x'.repeat(4 * 1024 * 1024) }, 413],
    ['JSON that is not JSON-RPC', {}, { hello: 'world' }, 400],
    ['a batch holding a non-message', version, [ping(1), 42], 400],
    ['a batch over 100 messages', version, Array.from({ length: 101 }, (_, i) => ping(i)), 400],
    ['two initializations in one batch', {}, [initializeMessage(1), initializeMessage(2)], 400],
    ['initialize batched with another request', {}, [initializeMessage(1), ping(2)], 400],
    [
      'an unsupported protocol version',
      { 'mcp-protocol-version': '1999-01-01' },
      toolCallMessage('workflows_list', {}),
      400,
    ],
    [
      'an unsupported protocol version on initialize (negotiated instead)',
      { 'mcp-protocol-version': '1999-01-01' },
      initializeMessage(),
      200,
    ],
    ['an older supported protocol version', { 'mcp-protocol-version': '2025-03-26' }, ping(2), 200],
  ];

  it.each(cases)('%s', async (_name, headers, body, status) => {
    const expected = await sdk(headers, body);
    const actual = await ours(headers, body);
    expect(expected.status, JSON.stringify(expected.body)).toBe(status);
    expect(actual).toEqual(expected);
  });
});
