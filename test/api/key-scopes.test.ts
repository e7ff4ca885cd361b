// Scoped and expiring API keys (docs/api-keys.md), through a listening server: a key runs only
// the operations of its scopes, on REST, the tool server (the official MCP client) and GraphQL
// alike, and an operation outside them is a 403 that names the scope and changes nothing; an
// expired key is a 401 like a revoked one; a key without scopes keeps every right. Keys are
// created the way the operator creates them (GraphQL), with bad scopes or expiries refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { testDatabaseKinds } from '../support/databases.js';
import { handClock } from '../support/clocks.js';
import { ADMIN_TOKEN, startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { uniquePhone } from '../support/api-helpers.js';
import { callError, callOk, connect } from '../mcp/mcp-helpers.js';

const HOUR = 3_600_000;

describe.each(testDatabaseKinds())('API key scopes and expiry on %s', (kind) => {
  let server: TestServer;
  let account: TestAccount;
  const clock = handClock();
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    account = await server.createAccount();
  });
  afterAll(() => server?.stop());

  const operator = (query: string, variables: Record<string, unknown>) =>
    server.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables });

  const CREATE = `mutation ($userId: String!, $name: String!, $scopes: [String!], $expiresAt: String) {
    createApiKey(userId: $userId, name: $name, scopes: $scopes, expiresAt: $expiresAt) {
      secret key { id scopes expiresAt }
    }
  }`;

  /** A new key of the suite's Account's user, with these scopes and expiry. */
  const keyWith = async (scopes: string[] | null, expiresAt: string | null = null) => {
    const res = await operator(CREATE, { userId: account.userId, name: 'scoped', scopes, expiresAt });
    expect(res.json.errors, res.text).toBeUndefined();
    return res.json.data.createApiKey as { secret: string; key: { id: string; scopes: string[] | null } };
  };

  const contactCount = async () =>
    Number(
      (
        await server.service.services.db.sql.query<{ n: string }>(
          'SELECT count(*) AS n FROM "Contact" WHERE "accountId" = $1::uuid',
          [account.accountId],
        )
      ).rows[0].n,
    );

  it('a key with contacts:read reads contacts, and is refused a write with 403 naming contacts:write; nothing is written', async () => {
    const { secret, key } = await keyWith(['contacts:read']);
    expect(key.scopes).toEqual(['contacts:read']);
    expect((await server.request(secret, 'GET', '/api/v1/contacts')).status).toBe(200);
    const before = await contactCount();
    const refused = await server.request(secret, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      firstName: 'Ada',
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json).toMatchObject({ code: 'forbidden', error: 'Forbidden', scope: 'contacts:write' });
    expect(refused.json.message).toContain('contacts:write');
    expect(refused.json.requestId).toEqual(expect.any(String));
    expect(await contactCount()).toBe(before);
    // Another kind of access altogether: webhooks.
    const webhooks = await server.request(secret, 'GET', '/api/v1/webhook-endpoints');
    expect(webhooks.status).toBe(403);
    expect(webhooks.json.scope).toBe('webhooks:manage');
  });

  it('a key with contacts:write writes, and cannot read back what it wrote', async () => {
    const { secret } = await keyWith(['contacts:write']);
    const written = await server.request(secret, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      firstName: 'Grace',
    });
    expect(written.status, written.text).toBe(201);
    const read = await server.request(secret, 'GET', `/api/v1/contacts/${written.json.id}`);
    expect(read.status).toBe(403);
    expect(read.json.scope).toBe('contacts:read');
  });

  it('a key without scopes has every scope', async () => {
    const { secret, key } = await keyWith(null);
    expect(key.scopes).toBeNull();
    const written = await server.request(secret, 'PUT', '/api/v1/contacts/upsert', { phone: uniquePhone() });
    expect(written.status, written.text).toBe(201);
    expect((await server.request(secret, 'GET', `/api/v1/contacts/${written.json.id}`)).status).toBe(200);
    expect((await server.request(secret, 'GET', '/api/v1/webhook-endpoints')).status).toBe(200);
    expect((await server.request(secret, 'GET', '/api/v1/calling-policy')).status).toBe(200);
  });

  it('the tool server: a tool outside the key’s scopes is an error result naming the scope', async () => {
    const { secret } = await keyWith(['calls:read']);
    const mcp = await connect(server, secret);
    try {
      const refused = await callError(mcp.client, 'contacts_search', {});
      expect(refused).toMatchObject({ code: 'forbidden', scope: 'contacts:read' });
      const externalId = randomUUID();
      const contact = { phone: uniquePhone(), sourceKind: 'hubspot', externalId };
      expect((await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', contact)).status).toBe(201);
      const calls = await callOk(mcp.client, 'contact_calls_list', { sourceKind: 'hubspot', externalId });
      expect(calls.data).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it('GraphQL: a field outside the key’s scopes is a forbidden error, and the data is null', async () => {
    const { secret } = await keyWith(['contacts:read']);
    const read = await server.request(secret, 'POST', '/graphql', { query: '{ contacts(limit: 1) { data { id } } }' });
    expect(read.json.errors, read.text).toBeUndefined();
    const refused = await server.request(secret, 'POST', '/graphql', { query: '{ webhookEndpoints { data { id } } }' });
    expect(refused.json.errors?.[0]?.extensions?.code, refused.text).toBe('forbidden');
    expect(refused.json.errors[0].message).toContain('webhooks:manage');
  });

  it('a 403 is not kept under its Idempotency-Key: the same request with a key that has the scope runs', async () => {
    const { secret } = await keyWith(['contacts:read']);
    const idempotencyKey = randomUUID();
    const body = { phone: uniquePhone(), firstName: 'Lin' };
    const refused = await server.request(secret, 'PUT', '/api/v1/contacts/upsert', body, {
      'idempotency-key': idempotencyKey,
    });
    expect(refused.status).toBe(403);
    const ran = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', body, {
      'idempotency-key': idempotencyKey,
    });
    expect(ran.status, ran.text).toBe(201);
  });

  it('an expired key is refused with 401 like a revoked one, on every surface', async () => {
    const { secret, key } = await keyWith(null, new Date(clock.now().getTime() + HOUR).toISOString());
    expect(key).toMatchObject({ expiresAt: expect.any(String) });
    expect((await server.request(secret, 'GET', '/api/v1/contacts')).status).toBe(200);
    clock.advance(2 * HOUR);
    const refused = await server.request(secret, 'GET', '/api/v1/contacts');
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('unauthenticated');
    expect((await server.request(secret, 'POST', '/graphql', { query: '{ workflows { data { id } } }' })).status).toBe(
      401,
    );
    await expect(connect(server, secret)).rejects.toThrow(/401|Unauthorized/i);
  });

  it('refuses a key with an unknown or empty list of scopes, or an expiry not in the future, and creates none', async () => {
    const keysBefore = await server.service.services.db.prisma.apiKey.count({ where: { userId: account.userId } });
    for (const variables of [
      { scopes: ['contacts:admin'] },
      { scopes: [] },
      { expiresAt: new Date(clock.now().getTime() - 60_000).toISOString() },
      { expiresAt: 'next tuesday' },
    ]) {
      const res = await operator(CREATE, { userId: account.userId, name: 'bad', ...variables });
      expect(res.json.errors?.[0]?.extensions?.code, `${JSON.stringify(variables)}: ${res.text}`).toBe('bad_request');
    }
    expect(await server.service.services.db.prisma.apiKey.count({ where: { userId: account.userId } })).toBe(
      keysBefore,
    );
  });
});
