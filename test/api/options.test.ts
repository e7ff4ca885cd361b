// OPTIONS across the whole app (src/http/options.ts): 204, Allow, no body, no key and no CORS
// on every path the service serves; an unknown or switched-off path is a 404; the tool server
// keeps MCP's rules. The /api/v1 paths are checked against the OpenAPI document in
// openapi-conformance.test.ts.
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { everySurface } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, useServerWithAccount } from '../support/api-helpers.js';
import { createApp } from '../../src/app.js';

const ORIGIN = { origin: 'https://app.example' };

describe.each(testDatabaseKinds())('OPTIONS and methods across the app on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind, everySurface());

  const accessControl = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

  it.each([
    ['/healthz', 'GET, HEAD, OPTIONS'],
    ['/openapi.json', 'GET, HEAD, OPTIONS'],
    ['/graphql', 'GET, HEAD, OPTIONS, POST'],
    ['/api/telephony/events', 'OPTIONS, POST'],
    ['/integrations/monday/install', 'GET, HEAD, OPTIONS, POST'],
    ['/integrations/monday/actions/enroll', 'OPTIONS, POST'],
    ['/integrations/monday/options/workflows', 'OPTIONS, POST'],
    ['/api/v1/contacts/upsert', 'OPTIONS, PUT'],
  ])('OPTIONS %s: 204, Allow: %s, no body, no CORS, no key needed', async (path, allow) => {
    for (const key of [null, account.apiKey]) {
      const res = await server.request(key, 'OPTIONS', path, undefined, ORIGIN);
      expect({
        status: res.status,
        allow: res.headers.get('allow'),
        type: res.headers.get('content-type'),
        body: res.text,
      }).toEqual({ status: 204, allow, type: null, body: '' });
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(accessControl(res.headers)).toEqual([]);
    }
  });

  it('OPTIONS on an unknown path is a 404 not_found', async () => {
    for (const path of ['/nope', '/api/v1/nope', '/graphql/x', '/integrations/monday/nope']) {
      expectError(await server.request(account.apiKey, 'OPTIONS', path), 404, 'not_found');
    }
  });

  it('a switched-off endpoint (telephony events, the board app) is a 404 for OPTIONS too', async () => {
    const app = createApp({ services: server.service.services });
    const listener = createServer(app).listen(0, '127.0.0.1');
    await once(listener, 'listening');
    try {
      const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      for (const path of ['/api/telephony/events', '/integrations/monday/actions/enroll']) {
        const res = await fetch(base + path, { method: 'OPTIONS' });
        expect(res.status, path).toBe(404);
        expect(await res.json()).toMatchObject({ code: 'not_found' });
      }
    } finally {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  it('the tool server answers OPTIONS by its own rules: 401 without a key, else 405 Allow: POST', async () => {
    expectError(await server.request(null, 'OPTIONS', '/api/mcp'), 401, 'unauthenticated');
    const res = await server.request(account.apiKey, 'OPTIONS', '/api/mcp');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('/graphql answers GET, HEAD and POST without CORS headers; another method is a 404', async () => {
    const query = '/graphql?query=%7B__typename%7D';
    const get = await server.request(account.apiKey, 'GET', query, undefined, ORIGIN);
    expect(get.json).toEqual({ data: { __typename: 'Query' } });
    expect(accessControl(get.headers)).toEqual([]);
    const post = await server.request(account.apiKey, 'POST', '/graphql', { query: '{ __typename }' }, ORIGIN);
    expect(post.json).toEqual({ data: { __typename: 'Query' } });
    expect(accessControl(post.headers)).toEqual([]);
    const head = await server.request(account.apiKey, 'HEAD', query);
    expect({ status: head.status, body: head.text }).toEqual({ status: 200, body: '' });
    for (const method of ['PUT', 'DELETE', 'PATCH'])
      expectError(
        await server.request(account.apiKey, method, '/graphql', { query: '{ __typename }' }),
        404,
        'not_found',
      );
  });
});
