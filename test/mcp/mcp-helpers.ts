// Helpers of the tool-server suites: the SDK's own Client over Streamable HTTP against a
// listening server, tool calls unpacked into their REST-comparable bodies, and raw HTTP.
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '../support/test-server.js';

export const MCP_PATH = '/api/mcp';

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

/**
 * A connected (initialized) SDK client sending `Authorization: Bearer <key>` plus `headers`.
 * It lists the tools once, so the client then checks every structured result against its tool's
 * output schema, as assistants' clients do.
 */
export async function connect(
  server: TestServer,
  apiKey: string | null,
  headers: Record<string, string> = {},
): Promise<Connected> {
  const client = new Client({ name: 'contactline-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, server.baseUrl), {
    requestInit: { headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers } },
  });
  await client.connect(transport);
  await client.listTools();
  return { client, transport, close: () => client.close() };
}

/** A successful tool call's structured result, after checking its text content is the same JSON. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`).toBeFalsy();
  expect(result.content).toHaveLength(1);
  expect(result.content[0].type).toBe('text');
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** A failed tool call's error body (the text of its tool error result). */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(
    result.isError,
    `${name} ${JSON.stringify(args)} should fail: ${JSON.stringify(result.structuredContent)}`,
  ).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result.content).toHaveLength(1);
  const body = JSON.parse((result.content[0] as { text: string }).text);
  for (const field of ['error', 'message', 'code', 'requestId'])
    expect(body, `error body field ${field}`).toHaveProperty(field);
  return body;
}

/** An error body without its requestId, for comparing one request's error with another's. */
export function withoutRequestId(body: Record<string, unknown>): Record<string, unknown> {
  const { requestId: _requestId, ...rest } = body;
  return rest;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** One HTTP request to the tool server, with the headers a Streamable HTTP client sends unless overridden. */
export async function rawMcp(
  server: TestServer,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawResponse> {
  return server.request(null, method, MCP_PATH, body, { accept: 'application/json, text/event-stream', ...headers });
}

export const initializeMessage = (id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'raw-http', version: '1.0.0' },
  },
});

export const toolCallMessage = (name: string, args: Record<string, unknown>, id = 2) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
