// The tool server's transport under the SDK's Server, without HTTP: answers collected in request
// order whatever order they finish in, nothing awaited for notifications, one use only, and
// closing it (the HTTP client went away) aborts the running handlers and settles the exchange.
import { describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonResponseTransport } from '../../src/mcp/json-response-transport.js';

const request = (id: number | string, method: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method });

function serverWith(listTools: (signal: AbortSignal) => Promise<void>): Server {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    await listTools(extra.signal);
    return { tools: [] };
  });
  return server;
}

describe('JsonResponseTransport', () => {
  it('answers a batch in request order, once every request is answered', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = serverWith(() => slow);
    const transport = new JsonResponseTransport();
    await server.connect(transport);
    const answers = transport.exchange([request('slow', 'tools/list'), request(2, 'ping'), request(3, 'no/such')]);
    let settled = false;
    void answers.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    release();
    expect(await answers).toEqual([
      { jsonrpc: '2.0', id: 'slow', result: { tools: [] } },
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: 3, error: expect.objectContaining({ code: -32601 }) },
    ]);
  });

  it('awaits nothing for notifications', async () => {
    const server = serverWith(async () => {});
    const transport = new JsonResponseTransport();
    await server.connect(transport);
    expect(await transport.exchange([{ jsonrpc: '2.0', method: 'notifications/initialized' }])).toEqual([]);
  });

  it('serves one exchange only (stateless: a transport per HTTP request)', async () => {
    const server = serverWith(async () => {});
    const transport = new JsonResponseTransport();
    await server.connect(transport);
    await transport.exchange([request(1, 'ping')]);
    expect(() => transport.exchange([request(2, 'ping')])).toThrow(/one HTTP request/);
  });

  it('closing it aborts the running handler and settles the exchange without its answer', async () => {
    let aborted = false;
    const server = serverWith(
      (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          }),
        ),
    );
    const transport = new JsonResponseTransport();
    await server.connect(transport);
    const answers = transport.exchange([request(1, 'tools/list')]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await server.close();
    expect(await answers).toEqual([]);
    expect(aborted).toBe(true);
  });
});
