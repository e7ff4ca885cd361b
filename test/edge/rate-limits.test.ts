// Rate limits per API key and per client address (src/http/edge/rate-limit/): the draft-IETF
// RateLimit-Policy and RateLimit fields on every answer, 429 `rate_limited` with Retry-After
// past a limit, on every surface; and, on PostgreSQL, one limit shared by two service processes.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { generateSecret, hashSecret } from '../../src/domain/api-keys/api-keys.service.js';
import { initializeMessage } from '../mcp/mcp-helpers.js';
import { killService, startServiceProcess } from '../support/service-process.js';

const WINDOW = 3600;
const ITEM = /^"(address|key)";r=(\d+);t=(\d+)$/;

/** The RateLimit field as { policy: { r, t } }. */
function rateLimitOf(headers: Headers): Record<string, { r: number; t: number }> {
  const value = headers.get('ratelimit');
  if (value === null) return {};
  return Object.fromEntries(
    value.split(', ').map((item) => {
      const match = ITEM.exec(item);
      if (!match) throw new Error(`not a RateLimit item: ${item}`);
      return [match[1], { r: Number(match[2]), t: Number(match[3]) }];
    }),
  );
}

describe.each(testDatabaseKinds())('rate limits in one process on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      edge: { RATE_LIMIT_PER_KEY: 5, RATE_LIMIT_PER_ADDRESS: 1000, RATE_LIMIT_WINDOW_SECONDS: WINDOW },
    });
  });
  afterAll(() => server?.stop());

  it('every answer carries RateLimit-Policy and RateLimit: successes, errors, OPTIONS, every surface', async () => {
    const { apiKey } = await server.createAccount();
    const answers = [
      await server.request(apiKey, 'GET', '/api/v1/contacts'),
      await server.request(null, 'GET', '/api/v1/contacts'),
      await server.request(apiKey, 'GET', '/api/v1/nope'),
      await server.request(null, 'OPTIONS', '/api/v1/contacts/upsert'),
      await server.request(apiKey, 'POST', '/graphql', { query: '{ __typename }' }),
      await server.request(ADMIN_TOKEN, 'POST', '/graphql', { query: '{ __typename }' }),
      await server.request(null, 'GET', '/openapi.json'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 204, 200, 200, 200]);
    for (const answer of answers) {
      const policy = answer.headers.get('ratelimit-policy');
      expect(
        policy === `"address";q=1000;w=${WINDOW}` || policy === `"address";q=1000;w=${WINDOW}, "key";q=5;w=${WINDOW}`,
        `${policy}`,
      ).toBe(true);
      const limits = rateLimitOf(answer.headers);
      expect(limits.address.t).toBeGreaterThan(0);
      expect(limits.address.t).toBeLessThanOrEqual(WINDOW);
    }
    // The key's own policy where a key was checked: 5 per window, counted down.
    expect(rateLimitOf(answers[0].headers).key.r).toBe(4);
    expect(rateLimitOf(answers[4].headers).key.r).toBe(3);
    expect(rateLimitOf(answers[1].headers).key).toBeUndefined();
    // The probes are never limited and carry no fields.
    const health = await server.request(null, 'GET', '/healthz');
    expect(health.headers.get('ratelimit')).toBeNull();
  });

  it("past the key's limit: 429 rate_limited with Retry-After on REST, MCP and GraphQL; other keys unaffected", async () => {
    const { apiKey } = await server.createAccount();
    const other = await server.createAccount();
    for (let i = 0; i < 5; i++) expect((await server.request(apiKey, 'GET', '/api/v1/workflows')).status).toBe(200);
    const refused = [
      await server.request(apiKey, 'GET', '/api/v1/workflows'),
      await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: '+14155550100' }),
      await server.request(apiKey, 'POST', '/api/mcp', initializeMessage(), {
        accept: 'application/json, text/event-stream',
      }),
      await server.request(apiKey, 'POST', '/graphql', { query: '{ __typename }' }),
    ];
    for (const res of refused) {
      expect(res.status, res.text).toBe(429);
      expect(Object.keys(res.json).sort()).toEqual(['code', 'error', 'message', 'requestId']);
      expect(res.json).toMatchObject({ code: 'rate_limited', error: 'Too Many Requests' });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(WINDOW);
      expect(rateLimitOf(res.headers).key).toEqual({ r: 0, t: retryAfter });
    }
    // Nothing was written by the refused upsert.
    expect(await server.service.services.db.prisma.contact.count({ where: { phone: '+14155550100' } })).toBe(0);
    expect((await server.request(other.apiKey, 'GET', '/api/v1/workflows')).status).toBe(200);
  });

  it('a burst of one key at once gets exactly its limit: none of the five refused early', async () => {
    const { apiKey } = await server.createAccount();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => server.request(apiKey, 'GET', '/api/v1/workflows').then((res) => res.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});

describe.each(testDatabaseKinds())('the per-address limit on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { edge: { RATE_LIMIT_PER_ADDRESS: 4, RATE_LIMIT_WINDOW_SECONDS: WINDOW } });
  });
  afterAll(() => server?.stop());

  it('counts every request of the address, with or without a key, and refuses before authenticating', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await server.request(null, 'GET', '/api/v1/contacts')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    const res = await server.request(null, 'PUT', '/api/v1/contacts/upsert', { phone: '+14155550100' });
    expect(res.status).toBe(429);
    expect(res.json.code).toBe('rate_limited');
    expect(rateLimitOf(res.headers).address.r).toBe(0);
    expect((await server.request(null, 'GET', '/healthz')).status).toBe(200);
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))('two service processes on one PostgreSQL', () => {
  let database: TestDatabase;
  const children: ChildProcess[] = [];
  let bases: string[] = [];
  let apiKey: string;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const prisma = database.db.prisma;
    const now = new Date();
    const account = await prisma.account.create({ data: { createdAt: now, name: 'Shared limits' } });
    const user = await prisma.user.create({
      data: { createdAt: now, accountId: account.id, email: 'limits@example.com' },
    });
    apiKey = generateSecret();
    await prisma.apiKey.create({
      data: {
        createdAt: now,
        accountId: account.id,
        userId: user.id,
        name: 'k',
        secretHash: hashSecret(apiKey),
        lastFour: apiKey.slice(-4),
      },
    });
    const env = {
      DATABASE_URL: database.url!,
      RATE_LIMIT_PER_KEY: '10',
      RATE_LIMIT_PER_ADDRESS: '100',
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
    };
    // Both started at once, as a deployment's processes are; one that fails to start must not
    // leave the other running after the suite.
    const settled = await Promise.allSettled([startServiceProcess(env), startServiceProcess(env)]);
    for (const s of settled) if (s.status === 'fulfilled') children.push(s.value.child);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    bases = settled.map((s) => (s as PromiseFulfilledResult<{ baseUrl: string }>).value.baseUrl);
  });
  afterAll(async () => {
    await Promise.all(children.map(killService));
    await database?.drop();
  });

  const get = (base: string, key: string | null) =>
    fetch(`${base}/api/v1/workflows`, { headers: key ? { authorization: `Bearer ${key}` } : {} }).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));

  it('a key gets its limit once across both processes, then 429 from either; so does the address', async () => {
    const byProcess: number[][] = [[], []];
    for (let i = 0; i < 30; i++) byProcess[i % 2].push((await get(bases[i % 2], apiKey)).status);
    const all = byProcess.flat();
    expect(all.filter((s) => s === 200)).toHaveLength(10);
    expect(all.filter((s) => s === 429)).toHaveLength(20);
    // Both processes served some and refused some: one shared count, not two of 10.
    for (const statuses of byProcess) {
      expect(statuses).toContain(200);
      expect(statuses).toContain(429);
    }
    // The address has spent 30 of its 100; 70 more pass (here as 401s), then 429 from both.
    const anonymous: number[] = [];
    for (let i = 0; i < 80; i++) anonymous.push((await get(bases[i % 2], null)).status);
    expect(anonymous.filter((s) => s === 401)).toHaveLength(70);
    expect(anonymous.slice(70)).toEqual(Array(10).fill(429));
  });
});
