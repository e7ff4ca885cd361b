// One CORS policy (src/http/edge/cors-policy.ts), the matrix on every surface: a listed origin,
// an unlisted one and none; a simple request and a preflight. Only a listed origin gets
// Access-Control-* headers, never Allow-Credentials; the tool server refuses every Origin (403).
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, everySurface } from '../support/test-server.js';
import { useServerWithAccount } from '../support/api-helpers.js';
import { testDatabaseKinds } from '../support/databases.js';
import { initializeMessage } from '../mcp/mcp-helpers.js';

const LISTED = 'https://crm.example.com';
const UNLISTED = 'https://evil.example.net';

describe.each(testDatabaseKinds())('the CORS policy on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind, {
    ...everySurface(),
    edge: { CORS_ORIGINS: [LISTED, 'http://localhost:5173'] },
  });

  const accessControl = (headers: Headers) =>
    Object.fromEntries([...headers].filter(([name]) => name.startsWith('access-control-')));

  // Each surface: a simple request (method, path, credential, body) and the methods its path serves.
  const surfaces: Array<{
    name: string;
    method: string;
    path: string;
    token: () => string | null;
    body?: unknown;
    allow: string;
  }> = [
    { name: 'REST', method: 'GET', path: '/api/v1/contacts', token: () => account.apiKey, allow: 'GET, HEAD, OPTIONS' },
    {
      name: 'GraphQL (key)',
      method: 'POST',
      path: '/graphql',
      token: () => account.apiKey,
      body: { query: '{ __typename }' },
      allow: 'GET, HEAD, OPTIONS, POST',
    },
    {
      name: 'GraphQL (operator)',
      method: 'POST',
      path: '/graphql',
      token: () => ADMIN_TOKEN,
      body: { query: '{ __typename }' },
      allow: 'GET, HEAD, OPTIONS, POST',
    },
    { name: 'OpenAPI document', method: 'GET', path: '/openapi.json', token: () => null, allow: 'GET, HEAD, OPTIONS' },
    {
      name: 'board app',
      method: 'POST',
      path: '/integrations/monday/options/workflows',
      token: () => null,
      body: {},
      allow: 'OPTIONS, POST',
    },
    {
      name: 'telephony events',
      method: 'POST',
      path: '/api/telephony/events',
      token: () => null,
      body: {},
      allow: 'OPTIONS, POST',
    },
  ];

  describe.each(surfaces)('$name', (surface) => {
    const simple = (origin?: string) =>
      server.request(surface.token(), surface.method, surface.path, surface.body, origin ? { origin } : {});
    const preflight = (origin?: string) =>
      server.request(null, 'OPTIONS', surface.path, undefined, {
        ...(origin ? { origin } : {}),
        'access-control-request-method': surface.method,
        'access-control-request-headers': 'authorization, content-type',
      });

    it('a listed origin: allowed, headers exposed, no credentials', async () => {
      const res = await simple(LISTED);
      expect(accessControl(res.headers)).toEqual({
        'access-control-allow-origin': LISTED,
        'access-control-expose-headers':
          'x-request-id, x-next-token, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed',
      });
      expect(res.headers.get('vary')).toMatch(/Origin/);
    });

    it("a listed origin's preflight: 204 with the path's methods and the API's request headers", async () => {
      const res = await preflight(LISTED);
      expect(res.status).toBe(204);
      expect(accessControl(res.headers)).toEqual({
        'access-control-allow-origin': LISTED,
        'access-control-allow-methods': surface.allow,
        'access-control-allow-headers': 'Authorization, Content-Type, X-Request-Id, Idempotency-Key',
        'access-control-expose-headers':
          'x-request-id, x-next-token, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed',
        'access-control-max-age': '600',
      });
    });

    it('an unlisted origin and no origin: no CORS header on the answer or the preflight', async () => {
      for (const origin of [UNLISTED, `${LISTED}.evil.net`, 'null', undefined]) {
        const res = await simple(origin);
        expect(accessControl(res.headers), `${origin}`).toEqual({});
        const pre = await preflight(origin);
        expect(pre.status).toBe(204);
        expect(accessControl(pre.headers), `${origin}`).toEqual({});
      }
    });
  });

  it('the tool server refuses any Origin, listed or not, also on a preflight (403, no CORS header)', async () => {
    for (const origin of [LISTED, UNLISTED]) {
      for (const method of ['POST', 'OPTIONS']) {
        const res = await server.request(
          account.apiKey,
          method,
          '/api/mcp',
          method === 'POST' ? initializeMessage() : undefined,
          {
            origin,
            accept: 'application/json, text/event-stream',
            'access-control-request-method': 'POST',
          },
        );
        expect(res.status, `${method} ${origin}`).toBe(403);
        expect(res.json).toMatchObject({ code: 'forbidden' });
        expect(accessControl(res.headers)).toEqual({});
      }
    }
    // Without an Origin it answers as usual.
    const res = await server.request(account.apiKey, 'POST', '/api/mcp', initializeMessage(), {
      accept: 'application/json, text/event-stream',
    });
    expect(res.status).toBe(200);
    expect(res.json.result.serverInfo).toBeTruthy();
  });

  it('an error answer to a listed origin is readable too (401 with the error body)', async () => {
    const res = await server.request(null, 'GET', '/api/v1/contacts', undefined, { origin: LISTED });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(res.json).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('CORS_ORIGINS is validated at start-up', () => {
  it('accepts origins, refuses anything with a path or another scheme', async () => {
    const { loadEnv } = await import('../../src/config/env.js');
    expect(loadEnv({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(loadEnv({}).CORS_ORIGINS).toEqual([]);
    for (const bad of ['https://a.example/', 'https://a.example/app', 'ftp://a.example', '*', 'a.example']) {
      expect(() => loadEnv({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });
});
