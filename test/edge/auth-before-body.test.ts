// Authenticate before reading: on every surface a request without a valid credential is refused
// from its headers, and its body is not read. The client declares a 9 MB body, sends 64 KB,
// reads the refusal, then offers the rest; the server's socket must have read under 1 MB (a
// server that reads or drains the body reads all 9 MB) and the answer closes the connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, everySurface, startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { exchangeWithLargeBody, trackConnections, type RawExchange } from '../support/raw-http.js';

const NINE_MB = 9 * 1024 * 1024;
const ONE_MB = 1024 * 1024;

describe.each(testDatabaseKinds())('credentials are checked before the body is read on %s', (kind) => {
  let server: TestServer;
  let accountId: string;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer(kind, everySurface());
    trackConnections(server.service.server);
    ({ accountId, apiKey } = await server.createAccount());
    // Vapi credentials for the provider webhook (without them that route is a 404, also unread).
    const set = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
      query: 'mutation ($i: JSON!) { setProviderCredentials(input: $i) { accountId } }',
      variables: {
        i: {
          accountId,
          provider: 'vapi',
          apiKey: 'vapi-private-key-5f1e2d3c4b5a6978',
          webhookSecret: 'vapi-hmac-secret-0a1b2c3d4e5f',
        },
      },
    });
    expect(set.json.errors, set.text).toBeUndefined();
  });
  afterAll(() => server?.stop());

  const json = { 'content-type': 'application/json' };
  const expectRefusedUnread = (answer: RawExchange, status: number) => {
    expect(answer.status, answer.body).toBe(status);
    expect(answer.headers.connection).toBe('close');
    expect(answer.serverBytesRead).toBeLessThan(ONE_MB);
  };

  it.each([
    ['REST upsert, no key', 'PUT', '/api/v1/contacts/upsert', {}],
    ['REST bulk, unknown key', 'POST', '/api/v1/contacts/bulk', { authorization: `Bearer svc_pk_${'A'.repeat(43)}` }],
    [
      'REST bulk-update, malformed Authorization',
      'POST',
      '/api/v1/contacts/bulk-update',
      { authorization: 'Basic abc' },
    ],
    ['REST PATCH, no key', 'PATCH', '/api/v1/contacts/source/api/external-id/x', {}],
    [
      'REST registry import (streamed), no key',
      'POST',
      '/api/v1/dnc-registries/us_national/imports?downloadedAt=2026-01-01',
      { 'content-type': 'text/plain' },
    ],
    ['GraphQL, no credential', 'POST', '/graphql', {}],
    ['GraphQL, wrong operator token', 'POST', '/graphql', { authorization: 'Bearer not-the-operator-token-000' }],
    ['MCP, no key', 'POST', '/api/mcp', { accept: 'application/json, text/event-stream' }],
  ])('%s: 401 in the error body, body not read', async (_name, method, path, headers) => {
    const answer = await exchangeWithLargeBody(server.service.server, method, path, { ...json, ...headers }, NINE_MB);
    expectRefusedUnread(answer, 401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'unauthenticated', error: 'Unauthorized' });
  });

  it("board app: a request without monday's token is a 401, body not read", async () => {
    const answer = await exchangeWithLargeBody(
      server.service.server,
      'POST',
      '/integrations/monday/actions/enroll',
      json,
      NINE_MB,
    );
    expectRefusedUnread(answer, 401);
  });

  it('telephony events: no signature, or a stale one, is a 401 before the body (2 MB limit) is read', async () => {
    for (const headers of [{}, { 'x-contactline-signature': `t=1,v1=${'0'.repeat(64)}` }] as Array<
      Record<string, string>
    >) {
      const answer = await exchangeWithLargeBody(
        server.service.server,
        'POST',
        '/api/telephony/events',
        { ...json, ...headers },
        NINE_MB,
      );
      expectRefusedUnread(answer, 401);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'unauthenticated' });
    }
  });

  it('provider webhook: no credential header is a 401 before the body is read', async () => {
    const answer = await exchangeWithLargeBody(
      server.service.server,
      'POST',
      `/api/telephony/vapi/${accountId}`,
      json,
      NINE_MB,
    );
    expectRefusedUnread(answer, 401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'unauthenticated' });
  });

  it('with a valid key the same route reads the body: the measure tells reading from refusing', async () => {
    const authorized = { ...json, authorization: `Bearer ${apiKey}` };
    // 9 MB that is not JSON, all sent before the answer: read to its end, then a 400.
    const read = await exchangeWithLargeBody(
      server.service.server,
      'PUT',
      '/api/v1/contacts/upsert',
      authorized,
      NINE_MB,
      NINE_MB,
    );
    expect(read.status, read.body).toBe(400);
    expect(read.serverBytesRead).toBeGreaterThanOrEqual(NINE_MB);
    // Over the 10 MB limit: refused from the declared length, unread, connection closed.
    const over = await exchangeWithLargeBody(
      server.service.server,
      'PUT',
      '/api/v1/contacts/upsert',
      authorized,
      11 * ONE_MB,
    );
    expectRefusedUnread(over, 413);
    expect(JSON.parse(over.body)).toMatchObject({ code: 'payload_too_large' });
  });
});
