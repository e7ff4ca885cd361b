// Malformed request params are JSON-RPC -32602 (invalid params), never -32603 (internal
// error): the client's message is wrong, the server is fine. Sent raw (the SDK's Client would
// refuse to build them), to a listening server; the official client then still works.
import { describe, expect, it } from 'vitest';
import { ErrorCode, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { useServerWithAccount } from '../support/api-helpers.js';
import { testDatabaseKinds } from '../support/databases.js';
import { callOk, connect, initializeMessage, rawMcp } from './mcp-helpers.js';

describe.each(testDatabaseKinds())('tool server: malformed params on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);

  const send = (message: unknown) =>
    rawMcp(
      server,
      'POST',
      { authorization: `Bearer ${account.apiKey}`, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
      message,
    );
  const call = (params: unknown, id = 7) => send({ jsonrpc: '2.0', id, method: 'tools/call', params });

  it.each([
    ['arguments as a string', { name: 'workflows_list', arguments: 'x' }, 'arguments'],
    ['arguments as an array', { name: 'workflows_list', arguments: [1, 2] }, 'arguments'],
    ['name as an array', { name: ['workflows_list'], arguments: {} }, 'name'],
    ['name as a number', { name: 42 }, 'name'],
    ['no name', {}, 'name'],
  ])('tools/call with %s: -32602 naming the param', async (_name, params, param) => {
    const res = await call(params);
    expect(res.status).toBe(200);
    expect(res.json, res.text).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: ErrorCode.InvalidParams } });
    expect(res.json.error.message).toContain(param);
  });

  it.each([
    ['an object as protocolVersion', { ...initializeMessage().params, protocolVersion: { v: 1 } }],
    ['no clientInfo', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {} }],
    ['capabilities as a string', { ...initializeMessage().params, capabilities: 'all' }],
  ])('initialize with %s: -32602', async (_name, params) => {
    const res = await send({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
    expect(res.json, res.text).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: ErrorCode.InvalidParams } });
  });

  it('tools/list with a cursor that is not a string: -32602', async () => {
    const res = await send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: { a: 1 } } });
    expect(res.json, res.text).toMatchObject({ id: 3, error: { code: ErrorCode.InvalidParams } });
  });

  it('a batch answers the malformed request with -32602 and the others normally, in order', async () => {
    const res = await send([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'workflows_list', arguments: 'x' } },
      { jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'workflows_list', arguments: {} } },
    ]);
    expect(res.json.map((m: { id: string }) => m.id)).toEqual(['a', 'b', 'c']);
    expect(res.json[0]).toMatchObject({ result: {} });
    expect(res.json[1]).toMatchObject({ error: { code: ErrorCode.InvalidParams } });
    expect(res.json[2].result.isError).toBeFalsy();
  });

  it('well-formed requests from the official client still work', async () => {
    const { client, close } = await connect(server, account.apiKey);
    try {
      expect(await callOk(client, 'workflows_list', { limit: 5 })).toMatchObject({ data: [], nextToken: null });
    } finally {
      await close();
    }
  });
});
