// Text PostgreSQL cannot store (a NUL, a lone surrogate) and customFields beyond their limits,
// on every write path and surface: a 400 `bad_request` naming the field (for bulk, the item's
// path), nothing stored. And the operator operations: a malformed ID argument or an unstorable
// name is a bad_request naming the argument, never INTERNAL_SERVER_ERROR.
import { beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, uniquePhone, useServerWithAccount } from '../support/api-helpers.js';
import { CUSTOM_FIELDS_LIMITS } from '../../src/domain/contacts/custom-fields.rules.js';
import { DeepJson, toJson } from '../support/hostile-values.js';

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';

/** An object nested `levels` deep: {"k":{"k":…{"k":"v"}}}, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { k: 'v' };
  for (let i = 1; i < levels; i++) value = { k: value };
  return value;
}

describe.each(testDatabaseKinds())('hostile input on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);

  const prisma = () => server.service.services.db.prisma;
  const stored = async () => ({
    contacts: await prisma().contact.count({ where: { accountId: account.accountId } }),
    batches: await prisma().importBatch.count({ where: { accountId: account.accountId } }),
  });
  let before: { contacts: number; batches: number };
  beforeEach(async () => {
    before = await stored();
  });
  const nothingStored = async () => expect(await stored()).toEqual(before);

  const graphql = (token: string, query: string, variables?: Record<string, unknown>) =>
    server.request(token, 'POST', '/graphql', { query, variables });

  describe('text PostgreSQL cannot store', () => {
    it.each([
      ['NUL', NUL, 'must not contain the NUL character'],
      ['a lone surrogate', LONE_SURROGATE, 'well-formed Unicode'],
    ])('upsert: %s in firstName is a 400 naming firstName, nothing stored', async (_name, text, reason) => {
      const res = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        firstName: text,
      });
      expectError(res, 400, 'bad_request', ['issues']);
      expect(res.json.message).toContain('firstName');
      expect(res.json.message).toContain(reason);
      expect(res.json.issues).toEqual([{ path: 'firstName', message: expect.stringContaining(reason) }]);
      await nothingStored();
    });

    it('upsert: a NUL in a customFields key or a nested value names its path', async () => {
      const key = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        customFields: { [NUL]: 'x' },
      });
      expectError(key, 400, 'bad_request');
      expect(key.json.issues[0].path).toBe('customFields["a\\u0000b"]');
      const deep = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        customFields: { address: { lines: ['ok', LONE_SURROGATE] } },
      });
      expectError(deep, 400, 'bad_request');
      expect(deep.json.issues[0].path).toBe('customFields.address.lines[1]');
      await nothingStored();
    });

    it('bulk import: one bad item in 1000 is a 400 naming contacts[12].firstName; nothing stored', async () => {
      const contacts = Array.from({ length: 1000 }, (_, i) => ({
        sourceKind: 'csv',
        externalId: null,
        phone: uniquePhone(),
        firstName: i === 12 ? LONE_SURROGATE : `Item${i}`,
      }));
      const res = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk', { contacts });
      expectError(res, 400, 'bad_request');
      expect(res.json.message).toMatch(/^contacts\[12\]\.firstName: /);
      await nothingStored();
    });

    it('bulk-update: a NUL in the filter or the data is a 400 naming it; nothing queued', async () => {
      const inData = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk-update', {
        filter: { firstName: 'Ada' },
        data: { customFields: { plan: NUL } },
      });
      expectError(inData, 400, 'bad_request');
      expect(inData.json.issues[0].path).toBe('data.customFields.plan');
      const inFilter = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk-update', {
        filter: { customFields: [{ key: 'plan', value: NUL }] },
        data: { priority: 1 },
      });
      expectError(inFilter, 400, 'bad_request');
      expect(inFilter.json.issues[0].path).toBe('filter.customFields[0].value');
      await nothingStored();
    });

    it('PATCH, searchTerm and external-id path segments: a 400 naming the field', async () => {
      const externalId = `crm-${randomUUID()}`;
      const created = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        externalId,
        firstName: 'Ada',
      });
      expect(created.status).toBe(201);
      const patch = await server.request(
        account.apiKey,
        'PATCH',
        `/api/v1/contacts/source/api/external-id/${externalId}`,
        { lastName: NUL },
      );
      expectError(patch, 400, 'bad_request');
      expect(patch.json.issues[0].path).toBe('lastName');
      const search = await server.request(
        account.apiKey,
        'GET',
        `/api/v1/contacts?searchTerm=${encodeURIComponent(NUL)}`,
      );
      expectError(search, 400, 'bad_request');
      expect(search.json.message).toMatch(/^searchTerm: /);
      for (const path of [
        `/api/v1/contacts/source/api/external-id/a%00b`,
        `/api/v1/contacts/source/api/external-id/a%00b/calls`,
      ]) {
        const res = await server.request(account.apiKey, 'GET', path);
        expectError(res, 400, 'bad_request');
        expect(res.json.message).toMatch(/^externalId: /);
      }
      const patchPath = await server.request(account.apiKey, 'PATCH', '/api/v1/contacts/source/api/external-id/a%00b', {
        lastName: 'x',
      });
      expectError(patchPath, 400, 'bad_request');
      const unchanged = await server.request(account.apiKey, 'GET', `/api/v1/contacts/${created.json.id}`);
      expect(unchanged.json.lastName).toBeNull();
    });

    it('GraphQL: in a variable and in an inline literal, a bad_request naming the field', async () => {
      const viaVariable = await graphql(
        account.apiKey,
        'mutation($input: JSON!) { upsertContact(input: $input) { created } }',
        { input: { phone: uniquePhone(), firstName: NUL } },
      );
      expect(viaVariable.status).toBe(200);
      expect(viaVariable.json.errors[0]).toMatchObject({
        message: expect.stringMatching(/^firstName: /),
        extensions: { code: 'bad_request' },
      });
      const inline = await graphql(
        account.apiKey,
        `mutation { upsertContact(input: { phone: "${uniquePhone()}", firstName: "a\\u0000b" }) { created } }`,
      );
      expect(inline.json.errors[0]).toMatchObject({
        message: expect.stringMatching(/^firstName: /),
        extensions: { code: 'bad_request' },
      });
      const search = await graphql(account.apiKey, 'query($t: String) { contacts(searchTerm: $t) { nextToken } }', {
        t: LONE_SURROGATE,
      });
      expect(search.json.errors[0]).toMatchObject({
        message: expect.stringMatching(/^searchTerm: /),
        extensions: { code: 'bad_request' },
      });
      await nothingStored();
    });

    it('a single upsert no longer stores a lone surrogate as U+FFFD', async () => {
      const phone = uniquePhone();
      const res = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone,
        lastName: LONE_SURROGATE,
      });
      expect(res.status).toBe(400);
      expect(await prisma().contact.count({ where: { accountId: account.accountId, phone } })).toBe(0);
    });
  });

  describe('customFields limits', () => {
    const { maxBytes, maxDepth, maxKeys } = CUSTOM_FIELDS_LIMITS;
    const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, i]));
    const tooLarge = { blob: 'x'.repeat(9 * 1024 * 1024) };
    // As JSON text: the test process itself cannot JSON.stringify 4,500 levels.
    const send = (method: string, path: string, body: unknown) =>
      server.request(account.apiKey, method, path, toJson(body), { 'content-type': 'application/json' });

    it('accepts customFields exactly at every limit', async () => {
      const atDepth = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        customFields: nested(maxDepth),
      });
      expect(atDepth.status).toBe(201);
      const atKeys = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        customFields: manyKeys(maxKeys),
      });
      expect(atKeys.status).toBe(201);
      // {"blob":"…"} is 11 bytes around the string.
      const atSize = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        customFields: { blob: 'x'.repeat(maxBytes - 11) },
      });
      expect(atSize.status).toBe(201);
    });

    it.each([
      ['9 MB', tooLarge, `at most ${maxBytes} bytes`],
      ['one byte over the size', { blob: 'x'.repeat(maxBytes - 10) }, `at most ${maxBytes} bytes`],
      [`${maxDepth + 1} levels`, nested(maxDepth + 1), `at most ${maxDepth} levels`],
      ['4,500 levels', new DeepJson(4500, false), `at most ${maxDepth} levels`],
      [`${maxKeys + 1} keys`, manyKeys(maxKeys + 1), `at most ${maxKeys} keys`],
    ])(
      '%s: a 400 naming customFields on upsert, PATCH, bulk import and bulk-update; nothing stored',
      async (_name, customFields, reason) => {
        const upsert = await send('PUT', '/api/v1/contacts/upsert', { phone: uniquePhone(), customFields });
        expectError(upsert, 400, 'bad_request');
        expect(upsert.json.message).toContain(reason);
        expect(upsert.json.issues[0].path).toBe('customFields');

        const patch = await send('PATCH', '/api/v1/contacts/source/api/external-id/nobody', { customFields });
        expectError(patch, 400, 'bad_request');
        expect(patch.json.issues[0].path).toBe('customFields');

        const bulk = await send('POST', '/api/v1/contacts/bulk', {
          contacts: [
            { sourceKind: 'csv', externalId: null, phone: uniquePhone() },
            { sourceKind: 'csv', externalId: null, phone: uniquePhone(), customFields },
          ],
        });
        expectError(bulk, 400, 'bad_request');
        expect(bulk.json.issues[0].path).toBe('contacts[1].customFields');

        const bulkUpdate = await send('POST', '/api/v1/contacts/bulk-update', {
          filter: { firstName: 'Ada' },
          data: { customFields },
        });
        expectError(bulkUpdate, 400, 'bad_request');
        expect(bulkUpdate.json.issues[0].path).toBe('data.customFields');
        await nothingStored();
      },
    );

    it('GraphQL: a deeply nested inline JSON literal is a client error, never a 500', async () => {
      const literal = `${'{k:'.repeat(4500)}"v"${'}'.repeat(4500)}`;
      const res = await graphql(
        account.apiKey,
        `mutation { upsertContact(input: { phone: "${uniquePhone()}", customFields: ${literal} }) { created } }`,
      );
      expect(res.status).toBeLessThan(500);
      expect(res.json.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
      await nothingStored();
    });
  });

  describe('operator operations', () => {
    const operator = (query: string, variables?: Record<string, unknown>) => graphql(ADMIN_TOKEN, query, variables);

    it.each([
      ['revokeApiKey', 'mutation { revokeApiKey(id: "x") { id } }', 'id'],
      ['apiKeys', 'query { apiKeys(accountId: "x") { id } }', 'accountId'],
      ['updateWorkflow', 'mutation { updateWorkflow(id: "x", paused: true) { id } }', 'id'],
      ['updateAgent', 'mutation { updateAgent(id: "x", input: {}) { id } }', 'id'],
      ['updateAccount', 'mutation { updateAccount(id: "x", defaultLocation: "US") { id } }', 'id'],
      ['unblockPhone', 'mutation { unblockPhone(accountId: "x", phone: "+14155550100") }', 'accountId'],
      ['blockPhone', 'mutation { blockPhone(accountId: "not-a-uuid", phone: "+14155550100") { phone } }', 'accountId'],
      [
        'createWorkflow agentId',
        `mutation { createWorkflow(accountId: "${randomUUID()}", name: "w", agentId: "x") { id } }`,
        'agentId',
      ],
      ['providerCredentials', 'query { providerCredentials(accountId: "1") { provider } }', 'accountId'],
      ['createApiKey', 'mutation { createApiKey(userId: "x", name: "k") { secret } }', 'userId'],
    ])('%s with a malformed UUID: bad_request naming the argument', async (_name, query, argument) => {
      const res = await operator(query);
      expect(res.json.errors?.[0], JSON.stringify(res.json)).toMatchObject({
        message: `${argument} must be a UUID`,
        extensions: { code: 'bad_request' },
      });
    });

    it('createAccount with a NUL or a lone surrogate in its name: bad_request naming name, no Account', async () => {
      const accounts = await prisma().account.count();
      for (const name of [NUL, LONE_SURROGATE]) {
        const res = await operator('mutation($name: String!) { createAccount(name: $name) { id } }', { name });
        expect(res.json.errors?.[0], JSON.stringify(res.json)).toMatchObject({
          message: expect.stringMatching(/^name: /),
          extensions: { code: 'bad_request' },
        });
      }
      expect(await prisma().account.count()).toBe(accounts);
    });

    it('an upper-case UUID still names the resource', async () => {
      const res = await operator('query($id: String!) { apiKeys(accountId: $id) { accountId } }', {
        id: account.accountId.toUpperCase(),
      });
      expect(res.json.errors).toBeUndefined();
      expect(res.json.data.apiKeys[0].accountId).toBe(account.accountId);
    });
  });
});
