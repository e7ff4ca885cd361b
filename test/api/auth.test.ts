// Authentication, tenant isolation, request ids, the error body and unknown routes, through a
// real listening server; plus the admin GraphQL path that creates a working key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { ADMIN_TOKEN, startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, listAll, sleep, uniquePhone, upsertOk, UUID_RE } from '../support/api-helpers.js';

describe.each(testDatabaseKinds())('auth, isolation and errors on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(server.baseUrl + path, { method, headers, body }).then(async (r) => {
      const text = await r.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: r.status, headers: r.headers, text, json };
    });
  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables });
    expect(res.status, res.text).toBe(200);
    expect(res.json.errors, res.text).toBeUndefined();
    return res.json.data;
  };
  const expectExactErrorBody = (res: { json: any }) =>
    expect(Object.keys(res.json).sort()).toEqual(['code', 'error', 'message', 'requestId']);

  describe('401 unauthenticated', () => {
    const operations: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/contacts'],
      ['GET', '/api/v1/contacts/csv'],
      ['GET', '/api/v1/workflows'],
      ['GET', '/api/v1/contacts/6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'],
      ['GET', '/api/v1/contacts/source/api/external-id/x'],
      ['PATCH', '/api/v1/contacts/source/api/external-id/x', { firstName: 'X' }],
      ['PUT', '/api/v1/contacts/upsert', { phone: '+14155552671' }],
      ['POST', '/api/v1/contacts/bulk', { contacts: [{ sourceKind: 'api', externalId: null, phone: '+14155552671' }] }],
      ['POST', '/api/v1/contacts/bulk-update', { filter: {}, data: { priority: 1 } }],
    ];

    it('a missing key is a 401 on every operation', async () => {
      for (const [method, path, body] of operations) {
        const res = await server.request(null, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(401);
        expectError(res, 401, 'unauthenticated');
        expectExactErrorBody(res);
        expect(res.json.error).toBe('Unauthorized');
      }
    });

    it('a malformed Authorization header is a 401', async () => {
      const { apiKey } = await server.createAccount();
      for (const authorization of [
        apiKey,
        `Basic ${apiKey}`,
        'Bearer',
        'Bearer ',
        `Token ${apiKey}`,
        `Bearer ${apiKey} extra`,
        `Bearer ${apiKey.slice(0, -1)}`,
      ]) {
        const res = await raw('GET', '/api/v1/contacts', { authorization });
        expect(res.status, authorization).toBe(401);
        expectError(res, 401, 'unauthenticated');
      }
    });

    it('an unknown key is a 401', async () => {
      const unknown = `svc_pk_${'A'.repeat(43)}`;
      expectError(await server.request(unknown, 'GET', '/api/v1/contacts'), 401, 'unauthenticated');
      expectError(await server.request('sk_live_abcdef', 'GET', '/api/v1/contacts'), 401, 'unauthenticated');
      expectError(await server.request(ADMIN_TOKEN, 'GET', '/api/v1/contacts'), 401, 'unauthenticated');
    });

    it('a revoked key is a 401 on the next request (revokeApiKey mutation)', async () => {
      const acct = await server.createAccount();
      expect((await server.request(acct.apiKey, 'GET', '/api/v1/contacts')).status).toBe(200);
      const data = await graphql('mutation ($id: String!) { revokeApiKey(id: $id) { id revokedAt } }', {
        id: acct.apiKeyId,
      });
      expect(data.revokeApiKey.id).toBe(acct.apiKeyId);
      expect(data.revokeApiKey.revokedAt).toBeTruthy();
      const res = await server.request(acct.apiKey, 'GET', '/api/v1/contacts');
      expectError(res, 401, 'unauthenticated');
      expectError(
        await server.request(acct.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: uniquePhone() }),
        401,
        'unauthenticated',
      );
    });

    it('a key revoked in the database is a 401', async () => {
      const acct = await server.createAccount();
      await server.service.services.db.prisma.apiKey.update({
        where: { id: acct.apiKeyId },
        data: { revokedAt: new Date() },
      });
      expectError(await server.request(acct.apiKey, 'GET', '/api/v1/contacts'), 401, 'unauthenticated');
    });

    it('cookies alone are not accepted', async () => {
      const { apiKey } = await server.createAccount();
      for (const cookie of [`session=${apiKey}`, `apiKey=${apiKey}`, `authorization=Bearer%20${apiKey}`]) {
        const res = await raw('GET', '/api/v1/contacts', { cookie });
        expectError(res, 401, 'unauthenticated');
      }
    });

    it('a 401 writes nothing', async () => {
      const acct = await server.createAccount();
      const phone = uniquePhone();
      expect((await server.request(null, 'PUT', '/api/v1/contacts/upsert', { phone })).status).toBe(401);
      expect(await listAll(server, acct.apiKey)).toEqual([]);
      const count = await server.service.services.db.prisma.contact.count({ where: { phone } });
      expect(count).toBe(0);
    });
  });

  it('lastUsedAt is set after a request', async () => {
    const acct = await server.createAccount();
    const prisma = server.service.services.db.prisma;
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: acct.apiKeyId } })).lastUsedAt).toBeNull();
    const before = Date.now();
    expect((await server.request(acct.apiKey, 'GET', '/api/v1/contacts')).status).toBe(200);
    const used = await server.eventually(
      async () => (await prisma.apiKey.findUniqueOrThrow({ where: { id: acct.apiKeyId } })).lastUsedAt,
    );
    expect(used.getTime()).toBeGreaterThanOrEqual(before - 60_000);
    expect(used.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
    // The admin surface shows it too.
    const data = await graphql('query ($a: String!) { apiKeys(accountId: $a) { id lastUsedAt } }', {
      a: acct.accountId,
    });
    expect(data.apiKeys.find((k: { id: string }) => k.id === acct.apiKeyId).lastUsedAt).toBeTruthy();
  });

  describe('tenant isolation', () => {
    let a: TestAccount;
    let b: TestAccount;
    let aContact: any;
    let bContact: any;
    const sharedPhone = uniquePhone();
    beforeAll(async () => {
      a = await server.createAccount();
      b = await server.createAccount();
      aContact = await upsertOk(server, a.apiKey, {
        phone: sharedPhone,
        firstName: 'Alice',
        lastName: 'Anders',
        sourceKind: 'hubspot',
        externalId: 'iso-1',
        customFields: { team: 'x' },
      });
      bContact = await upsertOk(server, b.apiKey, {
        phone: uniquePhone(),
        firstName: 'Bob',
        sourceKind: 'hubspot',
        externalId: 'iso-b',
        customFields: { team: 'x' },
      });
    });

    it("B gets 404 for A's contact by id, by external ID and on PATCH", async () => {
      expectError(await server.request(b.apiKey, 'GET', `/api/v1/contacts/${aContact.id}`), 404, 'not_found');
      expectError(
        await server.request(b.apiKey, 'GET', '/api/v1/contacts/source/hubspot/external-id/iso-1'),
        404,
        'not_found',
      );
      expectError(
        await server.request(b.apiKey, 'PATCH', '/api/v1/contacts/source/hubspot/external-id/iso-1', {
          firstName: 'Hacked',
        }),
        404,
        'not_found',
      );
      const still = await server.request(a.apiKey, 'GET', `/api/v1/contacts/${aContact.id}`);
      expect(still.json.firstName).toBe('Alice');
    });

    it("B never sees A's contacts in list, search or CSV", async () => {
      const list = await listAll(server, b.apiKey);
      expect(list.map((c) => c.id)).toEqual([bContact.id]);
      expect(list.every((c) => c.accountId === b.accountId)).toBe(true);
      const search = await server.request(b.apiKey, 'GET', '/api/v1/contacts?searchTerm=alice');
      expect(search.json.data).toEqual([]);
      const digits = await server.request(b.apiKey, 'GET', `/api/v1/contacts?searchTerm=${sharedPhone.slice(-7)}`);
      expect(digits.json.data).toEqual([]);
      const csv = await server.request(b.apiKey, 'GET', '/api/v1/contacts/csv');
      const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
      expect(rows.map((r) => r.id)).toEqual([bContact.id]);
      expect(csv.text).not.toContain(aContact.id);
    });

    it("B's upsert with A's phone creates B's own contact and leaves A's alone", async () => {
      const res = await server.request(b.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: sharedPhone,
        firstName: 'Mallory',
      });
      expect(res.status).toBe(201);
      expect(res.json.id).not.toBe(aContact.id);
      expect(res.json.accountId).toBe(b.accountId);
      const aRead = await server.request(a.apiKey, 'GET', `/api/v1/contacts/${aContact.id}`);
      expect(aRead.json.firstName).toBe('Alice');
      expect(await listAll(server, a.apiKey)).toHaveLength(1);
    });

    it("B's bulk-update never touches A's contacts", async () => {
      const res = await server.request(b.apiKey, 'POST', '/api/v1/contacts/bulk-update', {
        filter: { customFields: [{ key: 'team', value: 'x' }] },
        data: { priority: 77, lastName: 'Bulk' },
      });
      expect(res.status).toBe(202);
      await server.eventually(
        async () => (await server.request(b.apiKey, 'GET', `/api/v1/contacts/${bContact.id}`)).json.priority === 77,
      );
      const res2 = await server.request(b.apiKey, 'POST', '/api/v1/contacts/bulk-update', {
        filter: { sourceKind: 'hubspot', externalId: 'iso-1' },
        data: { priority: 88 },
      });
      expect(res2.status).toBe(202);
      await sleep(700);
      const aRead = await server.request(a.apiKey, 'GET', `/api/v1/contacts/${aContact.id}`);
      expect(aRead.json).toMatchObject({ priority: 0, lastName: 'Anders', updatedAt: aContact.updatedAt });
    });

    it("B's bulk import with A's phone does not update A's contact", async () => {
      const res = await server.request(b.apiKey, 'POST', '/api/v1/contacts/bulk', {
        contacts: [{ sourceKind: 'api', externalId: null, phone: sharedPhone, lastName: 'FromB' }],
      });
      expect(res.json.accepted).toBe(1);
      await server.eventually(async () => (await listAll(server, b.apiKey)).some((c) => c.lastName === 'FromB'));
      const aRead = await server.request(a.apiKey, 'GET', `/api/v1/contacts/${aContact.id}`);
      expect(aRead.json.lastName).toBe('Anders');
    });

    it('workflows are listed per Account', async () => {
      const wfA = await server.createWorkflow(a.accountId, { name: 'A only' });
      const listB = await server.request(b.apiKey, 'GET', '/api/v1/workflows');
      expect(listB.json.data.map((w: { id: string }) => w.id)).not.toContain(wfA);
      const listA = await server.request(a.apiKey, 'GET', '/api/v1/workflows');
      expect(listA.json.data.map((w: { id: string }) => w.id)).toContain(wfA);
    });
  });

  describe('request ids and error bodies', () => {
    it('every response carries x-request-id, and error bodies repeat it as requestId', async () => {
      const { apiKey } = await server.createAccount();
      const ok = await server.request(apiKey, 'GET', '/api/v1/contacts');
      expect(ok.headers.get('x-request-id')).toMatch(/\S/);
      const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: uniquePhone() });
      expect(created.headers.get('x-request-id')).toMatch(/\S/);
      const csv = await server.request(apiKey, 'GET', '/api/v1/contacts/csv');
      expect(csv.headers.get('x-request-id')).toMatch(/\S/);
      const accepted = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk', {
        contacts: [{ sourceKind: 'api', externalId: null, phone: uniquePhone() }],
      });
      expect(accepted.status).toBe(202);
      expect(accepted.headers.get('x-request-id')).toMatch(/\S/);

      const errors = [
        await server.request(null, 'GET', '/api/v1/contacts'),
        await server.request(apiKey, 'GET', '/api/v1/contacts?limit=0'),
        await server.request(apiKey, 'GET', '/api/v1/contacts/6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'),
        await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: '+1 123' }),
        await server.request(apiKey, 'GET', '/api/v1/nope'),
      ];
      expect(errors.map((e) => e.status)).toEqual([401, 400, 404, 422, 404]);
      for (const e of errors) {
        expect(e.headers.get('x-request-id')).toMatch(/\S/);
        expect(e.json.requestId).toBe(e.headers.get('x-request-id'));
        expect(e.headers.get('content-type')).toMatch(/application\/json/);
      }
      // Each request gets its own id.
      expect(new Set(errors.map((e) => e.json.requestId)).size).toBe(errors.length);
      expect(errors[0].json.requestId).toMatch(UUID_RE);
    });

    it('the error field is the HTTP status text', async () => {
      const { apiKey } = await server.createAccount();
      expect((await server.request(apiKey, 'GET', '/api/v1/contacts?limit=0')).json.error).toBe('Bad Request');
      expect((await server.request(apiKey, 'GET', '/api/v1/nope')).json.error).toBe('Not Found');
      expect((await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: '+1 123' })).json.error).toBe(
        'Unprocessable Entity',
      );
    });

    it('an incoming x-request-id is echoed, on success and on error', async () => {
      const { apiKey } = await server.createAccount();
      const ok = await server.request(apiKey, 'GET', '/api/v1/contacts', undefined, {
        'x-request-id': 'client-req-123',
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-request-id')).toBe('client-req-123');
      const err = await server.request(null, 'GET', '/api/v1/contacts', undefined, {
        'x-request-id': 'client-req-456',
      });
      expect(err.status).toBe(401);
      expect(err.headers.get('x-request-id')).toBe('client-req-456');
      expect(err.json.requestId).toBe('client-req-456');
      const notFound = await server.request(apiKey, 'GET', '/api/v1/nope', undefined, {
        'x-request-id': 'client-req-789',
      });
      expect(notFound.json.requestId).toBe('client-req-789');
    });

    it('unknown routes and methods are a 404 not_found with the error body', async () => {
      const { apiKey } = await server.createAccount();
      const cases: Array<[string, string]> = [
        ['GET', '/api/v1/nope'],
        ['GET', '/api/v2/contacts'],
        ['DELETE', '/api/v1/contacts/6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'],
        ['POST', '/api/v1/contacts'],
        ['GET', '/api/v1/contacts/upsert/extra'],
        ['DELETE', '/api/v1/workflows'],
        ['GET', '/no-such-thing'],
      ];
      for (const [method, path] of cases) {
        const res = await server.request(apiKey, method, path);
        expect(res.status, `${method} ${path}`).toBe(404);
        expectError(res, 404, 'not_found');
        expectExactErrorBody(res);
      }
    });
  });

  describe('admin GraphQL', () => {
    it('creates an account, a user and a key whose secret starts with svc_pk_ and works on /api/v1', async () => {
      const { createAccount } = await graphql('mutation { createAccount(name: "Via GraphQL") { id dedupFields } }');
      expect(createAccount.id).toMatch(UUID_RE);
      expect(createAccount.dedupFields).toEqual(['phone']);
      const { createUser } = await graphql(
        'mutation ($a: String!) { createUser(accountId: $a, email: "dev@example.com") { id accountId } }',
        { a: createAccount.id },
      );
      expect(createUser.accountId).toBe(createAccount.id);
      const { createApiKey } = await graphql(
        'mutation ($u: String!) { createApiKey(userId: $u, name: "ci") { secret key { id name lastFour } } }',
        { u: createUser.id },
      );
      const secret: string = createApiKey.secret;
      expect(secret.startsWith('svc_pk_')).toBe(true);
      expect(secret.length).toBeGreaterThanOrEqual('svc_pk_'.length + 40);
      expect(createApiKey.key).toMatchObject({ name: 'ci', lastFour: secret.slice(-4) });

      const put = await server.request(secret, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        firstName: 'Gql',
      });
      expect(put.status).toBe(201);
      expect(put.json.accountId).toBe(createAccount.id);
      const list = await server.request(secret, 'GET', '/api/v1/contacts');
      expect(list.json.data.map((c: { firstName: string }) => c.firstName)).toEqual(['Gql']);
    });

    it('the admin mutations refuse an API key and no token', async () => {
      const { apiKey } = await server.createAccount();
      const asKey = await server.request(apiKey, 'POST', '/graphql', {
        query: 'mutation { createAccount(name: "Nope") { id } }',
      });
      expect(asKey.json?.data?.createAccount ?? null).toBeNull();
      expect(asKey.json?.errors?.length ?? (asKey.status >= 400 ? 1 : 0)).toBeGreaterThan(0);
      const anon = await server.request(null, 'POST', '/graphql', {
        query: 'mutation { createAccount(name: "Nope") { id } }',
      });
      expect(anon.json?.data?.createAccount ?? null).toBeNull();
    });
  });
});
