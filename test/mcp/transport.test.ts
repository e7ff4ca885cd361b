// The tool server's HTTP side through a real listening server: initialize and tools/list with
// the SDK's Client, stateless JSON responses, the 401s (missing, unknown, revoked key), the 403
// for an Origin header on every method, 405 for GET and DELETE, and the 401's pointer to OAuth (none without an https or loopback address).
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testDatabaseKinds } from '../support/databases.js';
import { useServerWithAccount, UUID_RE } from '../support/api-helpers.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { CONTACT_STATUSES, SOURCE_KINDS } from '../../src/domain/contacts/contacts.inputs.js';
import { connect, initializeMessage, MCP_PATH, rawMcp, toolCallMessage, type RawResponse } from './mcp-helpers.js';

const TOOL_NAMES = [
  'bulk_update_get',
  'call_transcript_get',
  'contact_calls_list',
  'contact_consents_list',
  'contact_dialing_get',
  'contact_get',
  'contact_get_by_external_id',
  'contacts_search',
  'enrollment_job_get',
  'import_get',
  'imports_list',
  'webhook_deliveries_list',
  'webhook_endpoints_list',
  'workflow_enrollments_list',
  'workflow_results_get',
  'workflows_list',
];

describe.each(testDatabaseKinds())('tool server transport on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  /** The API's error body, exactly, with requestId equal to the x-request-id header. */
  function expectErrorBody(res: RawResponse, status: number, code: string, error: string) {
    expect({ status: res.status, body: res.json }, res.text).toMatchObject({ status, body: { code, error } });
    expect(Object.keys(res.json).sort()).toEqual(['code', 'error', 'message', 'requestId']);
    expect(res.json.message.length).toBeGreaterThan(0);
    expect(res.json.requestId).toBe(res.headers.get('x-request-id'));
  }

  describe('initialize and tools/list with the SDK client', () => {
    it('initializes statelessly: server info, tools capability, instructions, no session id', async () => {
      const { client, transport, close } = await connect(server, account.apiKey);
      try {
        expect(client.getServerVersion()).toMatchObject({ name: 'contactline', version: expect.any(String) });
        expect(client.getServerCapabilities()?.tools).toBeDefined();
        expect(client.getServerCapabilities()?.resources).toBeUndefined();
        expect(client.getServerCapabilities()?.prompts).toBeUndefined();
        const instructions = client.getInstructions() ?? '';
        for (const name of ['contacts_search', 'contact_calls_list', 'call_transcript_get'])
          expect(instructions).toContain(name);
        expect(transport.sessionId).toBeUndefined();
        expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
      } finally {
        await close();
      }
    });

    it('lists exactly the tools, each read-only with input and output schemas', async () => {
      const { client, close } = await connect(server, account.apiKey);
      try {
        const { tools, nextCursor } = await client.listTools();
        expect(nextCursor).toBeUndefined();
        expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
        for (const tool of tools) {
          expect(tool.annotations, tool.name).toMatchObject({
            readOnlyHint: true,
            destructiveHint: false,
            idempotentHint: true,
            openWorldHint: false,
          });
          expect(tool.title, tool.name).toBeTruthy();
          expect(tool.description!.length, tool.name).toBeGreaterThan(40);
          expect(tool.inputSchema.type).toBe('object');
          expect(tool.outputSchema?.type, tool.name).toBe('object');
          // Every argument tells an assistant what to send.
          for (const [arg, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
            expect(
              (schema as { description?: string }).description?.length ?? 0,
              `${tool.name}.${arg}`,
            ).toBeGreaterThan(20);
          }
        }
      } finally {
        await close();
      }
    });

    it('input schemas carry the documented bounds, formats and enum values', async () => {
      const { client, close } = await connect(server, account.apiKey);
      try {
        const { tools } = await client.listTools();
        const tool = (name: string) => tools.find((t) => t.name === name) as Tool;
        const props = (name: string) => tool(name).inputSchema.properties as Record<string, any>;
        const search = props('contacts_search');
        expect(Object.keys(search).sort()).toEqual([
          'addedBefore',
          'addedSince',
          'assignedWorkflowId',
          'limit',
          'nextToken',
          'searchTerm',
          'sourceKind',
          'status',
        ]);
        expect(search.searchTerm).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
        expect(search.status).toMatchObject({
          type: 'array',
          minItems: 1,
          items: { type: 'string', enum: [...CONTACT_STATUSES] },
        });
        expect(search.sourceKind).toMatchObject({ type: 'array', items: { enum: [...SOURCE_KINDS] } });
        expect(search.addedSince).toMatchObject({ type: 'string', format: 'date-time' });
        expect(search.assignedWorkflowId).toMatchObject({ type: 'string', pattern: expect.any(String) });
        expect(tool('contacts_search').inputSchema.required ?? []).toEqual([]);
        for (const name of ['contacts_search', 'contact_calls_list', 'workflows_list']) {
          expect(props(name).limit, name).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
          expect(props(name).nextToken, name).toMatchObject({ type: 'string' });
        }
        expect(tool('contact_get').inputSchema.required).toEqual(['id']);
        expect(props('contact_get').id).toMatchObject({ type: 'string', pattern: expect.any(String) });
        for (const name of ['contact_get_by_external_id', 'contact_calls_list']) {
          expect(tool(name).inputSchema.required, name).toEqual(['sourceKind', 'externalId']);
          expect(props(name).sourceKind, name).toMatchObject({ type: 'string', enum: [...SOURCE_KINDS] });
          expect(props(name).externalId, name).toMatchObject({ type: 'string', minLength: 1, maxLength: 256 });
        }
        expect(tool('call_transcript_get').inputSchema.required).toEqual(['callId']);
        // Output schemas name the REST fields.
        const contactProps = Object.keys(
          tool('contact_get').outputSchema!.properties as Record<string, unknown>,
        ).sort();
        expect(contactProps).toHaveLength(23);
        expect((tool('call_transcript_get').outputSchema!.properties as any).utterances.type).toBe('array');
      } finally {
        await close();
      }
    });

    it('an unknown tool is a protocol error naming the tools', async () => {
      const { client, close } = await connect(server, account.apiKey);
      try {
        await expect(client.callTool({ name: 'contacts_delete', arguments: {} })).rejects.toMatchObject({
          code: -32602,
          message: expect.stringContaining('contacts_search'),
        });
      } finally {
        await close();
      }
    });
  });

  describe('stateless Streamable HTTP with JSON responses', () => {
    it('answers initialize with JSON, no session id, and an x-request-id', async () => {
      const res = await rawMcp(server, 'POST', bearer(account.apiKey), initializeMessage());
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      expect(res.headers.get('x-request-id')).toMatch(UUID_RE);
      expect(res.json).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: LATEST_PROTOCOL_VERSION, serverInfo: { name: 'contactline' } },
      });
    });

    it('serves a tools/call with no initialize before it (any process can answer any request)', async () => {
      const res = await rawMcp(
        server,
        'POST',
        { ...bearer(account.apiKey), 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
        toolCallMessage('workflows_list', {}),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json.result.structuredContent).toEqual({ data: [], nextToken: null });
    });

    it('a notification is accepted with 202', async () => {
      const res = await rawMcp(
        server,
        'POST',
        { ...bearer(account.apiKey), 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      );
      expect(res.status).toBe(202);
    });

    it('a malformed body is a JSON-RPC parse error (after the key was checked)', async () => {
      const res = await rawMcp(server, 'POST', bearer(account.apiKey), '{not json');
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
      expect((await rawMcp(server, 'POST', {}, '{not json')).status).toBe(401);
    });

    it("other protocol errors keep the transport's JSON-RPC form", async () => {
      const key = bearer(account.apiKey);
      const notJson = await rawMcp(
        server,
        'POST',
        { ...key, 'content-type': 'text/plain' },
        JSON.stringify(initializeMessage()),
      );
      expect(notJson.status).toBe(415);
      expect(notJson.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
      const jsonOnly = await rawMcp(server, 'POST', { ...key, accept: 'application/json' }, initializeMessage());
      expect(jsonOnly.status).toBe(406);
      const tooLarge = await rawMcp(server, 'POST', key, {
        ...initializeMessage(),
        padding: 'x'.repeat(5 * 1024 * 1024),
      });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
      const notRpc = await rawMcp(server, 'POST', key, { hello: 'world' });
      expect(notRpc.status).toBe(400);
      expect(notRpc.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
      for (const res of [notJson, jsonOnly, tooLarge, notRpc]) expect(res.headers.get('x-request-id')).toBeTruthy();
    });

    it('reads UTF-8 JSON only, gzip- or deflate-encoded too; other bodies keep the JSON-RPC form', async () => {
      const headers = {
        ...bearer(account.apiKey),
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      };
      const post = async (extra: Record<string, string>, body: string | Uint8Array<ArrayBuffer>) => {
        const res = await fetch(server.baseUrl + MCP_PATH, { method: 'POST', headers: { ...headers, ...extra }, body });
        return { status: res.status, json: await res.json() };
      };
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(
        await post({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, new Uint8Array(gzipSync(ping))),
      ).toEqual({ status: 200, json: { jsonrpc: '2.0', id: 1, result: {} } });
      expect(await post({ 'content-type': 'application/json; charset=koi8-r' }, ping)).toMatchObject({
        status: 415,
        json: {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: expect.stringMatching(/^Unsupported Media Type: unsupported charset/) },
        },
      });
      expect(await post({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, ping)).toMatchObject({
        status: 400,
        json: { jsonrpc: '2.0', error: { code: -32000 } },
      });
    });

    it("GET and DELETE answer 405 as the SDK's stateless server does, after the key check", async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await rawMcp(server, method, { ...bearer(account.apiKey), accept: 'text/event-stream' });
        expect(res.status, method).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
        expect(res.headers.get('x-request-id')).toBeTruthy();
        expectErrorBody(await rawMcp(server, method, {}), 401, 'unauthenticated', 'Unauthorized');
      }
    });

    it('paths under /api/mcp are not the tool server: 404', async () => {
      const res = await server.request(account.apiKey, 'POST', `${MCP_PATH}/tools`, initializeMessage());
      expectErrorBody(res as RawResponse, 404, 'not_found', 'Not Found');
    });
  });

  describe('401: a missing, unknown or revoked key fails the whole request', () => {
    it('answers 401 with the error body and WWW-Authenticate naming where OAuth starts, on every method', async () => {
      const challenge = `Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/api/mcp", scope="contacts:read calls:read workflows:read webhooks:manage"`;
      const cases: Array<[string, Record<string, string>]> = [
        ['missing', {}],
        ['malformed', { authorization: 'Basic dXNlcjpwYXNz' }],
        ['unknown', bearer('svc_pk_0000000000000000000000000000000000000000000')],
        ['not a key', bearer('some-oauth-access-token')],
      ];
      for (const [what, headers] of cases) {
        for (const method of ['POST', 'GET', 'DELETE']) {
          const res = await rawMcp(server, method, headers, method === 'POST' ? initializeMessage() : undefined);
          expectErrorBody(res, 401, 'unauthenticated', 'Unauthorized');
          // A bearer that is not valid is told so (RFC 6750 §3.1); a request without one is not.
          const sentBearer = headers.authorization?.startsWith('Bearer ');
          expect(res.headers.get('www-authenticate'), `${what} ${method}`).toBe(
            sentBearer ? `${challenge}, error="invalid_token"` : challenge,
          );
        }
      }
    });

    it('the SDK client cannot connect without a valid key', async () => {
      for (const key of [null, 'svc_pk_0000000000000000000000000000000000000000000']) {
        const attempt = connect(server, key);
        await expect(attempt).rejects.toBeInstanceOf(StreamableHTTPError);
        await expect(attempt).rejects.toMatchObject({ code: 401 });
      }
    });

    it('a revoked key is refused on its next request, even by a client connected before', async () => {
      const fresh = await server.createAccount();
      const connected = await connect(server, fresh.apiKey);
      try {
        expect((await connected.client.callTool({ name: 'workflows_list', arguments: {} })).isError).toBeFalsy();
        // Revoked as an operator does (the console's settings run the same operation).
        const revoked = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
          query: 'mutation ($id: String!) { revokeApiKey(id: $id) { revokedAt } }',
          variables: { id: fresh.apiKeyId },
        });
        expect(revoked.json.data?.revokeApiKey.revokedAt, revoked.text).toBeTruthy();
        await expect(connected.client.callTool({ name: 'workflows_list', arguments: {} })).rejects.toMatchObject({
          code: 401,
        });
        const res = await rawMcp(server, 'POST', bearer(fresh.apiKey), initializeMessage());
        expectErrorBody(res, 401, 'unauthenticated', 'Unauthorized');
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=".*", error="invalid_token"$/);
      } finally {
        await connected.close();
      }
    });
  });

  describe('403: any request carrying an Origin header', () => {
    it('is refused before anything else, on every method, whatever the key and body', async () => {
      const origins = ['https://evil.example', 'http://127.0.0.1:3000', 'null', ''];
      const keys: Array<Record<string, string>> = [bearer(account.apiKey), {}, bearer('svc_pk_unknown')];
      for (const method of ['POST', 'GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
        for (const origin of origins) {
          for (const key of keys) {
            const body = method === 'POST' ? initializeMessage() : method === 'PUT' ? '{not json' : undefined;
            const res = await rawMcp(server, method, { ...key, origin }, body);
            expectErrorBody(res, 403, 'forbidden', 'Forbidden');
            expect(res.headers.get('www-authenticate')).toBeNull();
            expect(res.headers.get('access-control-allow-origin')).toBeNull();
          }
        }
      }
    });

    it('the SDK client sending an Origin header cannot connect', async () => {
      const attempt = connect(server, account.apiKey, { origin: 'https://evil.example' });
      await expect(attempt).rejects.toMatchObject({ code: 403 });
    });

    it('an established client is refused as soon as a request carries one', async () => {
      const res = await rawMcp(
        server,
        'POST',
        { ...bearer(account.apiKey), 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, origin: 'https://evil.example' },
        toolCallMessage('workflows_list', {}),
      );
      expectErrorBody(res, 403, 'forbidden', 'Forbidden');
    });
  });

  // OAuth is served only from an issuer the MCP SDK accepts: https, or a loopback address
  // (docs/oauth.md). Behind a plain-http public address there is none, and nothing hints at it.
  describe('no OAuth without an https or loopback public address', () => {
    let plain: TestServer;
    beforeAll(async () => {
      plain = await startTestServer(kind, { publicBaseUrl: 'http://contactline.example' });
    });
    afterAll(() => plain?.stop());

    it('serves no discovery documents', async () => {
      for (const path of [
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/api/mcp',
        '/.well-known/oauth-authorization-server',
        '/.well-known/oauth-authorization-server/api/mcp',
        '/.well-known/openid-configuration',
        '/api/mcp/.well-known/oauth-protected-resource',
        '/oauth/register',
        '/oauth/authorize',
        '/oauth/token',
        '/register',
        '/authorize',
        '/token',
      ]) {
        const res = await plain.request(null, 'GET', path);
        expect(res.status, path).toBe(404);
        expect(res.json?.code, path).toBe('not_found');
      }
    });

    it('the 401 points to no authorization server', async () => {
      const res = await rawMcp(plain, 'POST', {}, initializeMessage());
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });
  });
});
