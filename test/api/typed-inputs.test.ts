// The typed twins of the JSON-input writes over POST /graphql: the same input gives the same
// result as the REST route (or the JSON-input operation), a value zod refuses is the same
// `bad_request` with its `issues`, "left out" and "sent as null" keep their meanings, and a
// value of the wrong GraphQL type is refused before anything runs, with nothing stored.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectContactShape, uniquePhone, useServerWithAccount } from '../support/api-helpers.js';

interface GraphqlAnswer {
  data?: any;
  errors?: Array<{ message: string; extensions?: { code?: string; issues?: Array<{ path: string }> } }>;
}

const CONTACT = `id accountId firstName lastName fullName phone location locationDefaulted timezone timezoneInferred
  language status sourceKind externalId customFields priority assignedWorkflowId callCount maxAttempts
  lastCallAt nextCallAt createdAt updatedAt`;
const UPSERT = `mutation ($input: UpsertContactInput!) {
  upsertContactTyped(input: $input) { created contact { ${CONTACT} } } }`;
const PATCH = `mutation ($s: String!, $e: String!, $input: PatchContactInput!) {
  patchContactByExternalIdTyped(sourceKind: $s, externalId: $e, input: $input) {
    firstName lastName customFields priority } }`;
const IMPORT = `mutation ($input: ImportContactsInput!) {
  importContactsTyped(input: $input) { importId accepted rejected { index reason } } }`;
const BULK_UPDATE = `mutation ($input: BulkUpdateContactsInput!) { bulkUpdateContactsTyped(input: $input) }`;
const CREATE_AGENT = `mutation ($input: CreateAgentInput!) {
  createAgentTyped(input: $input) { id name status workingHours attemptLimit } }`;
const UPDATE_AGENT = `mutation ($id: String!, $input: UpdateAgentInput!) {
  updateAgentTyped(id: $id, input: $input) { id attemptLimit workingHours } }`;
const SET_CREDENTIALS = `mutation ($input: SetProviderCredentialsInput!) {
  setProviderCredentialsTyped(input: $input) { provider apiKeyLastFour webhookSecretSet } }`;

describe.each(testDatabaseKinds())('typed GraphQL inputs on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);
  const prisma = () => server.service.services.db.prisma;
  const contactWithPhone = (phone: string) =>
    prisma().contact.findFirst({ where: { accountId: account.accountId, phone } });

  /** The answer of an operation that ran (HTTP 200), or of a request refused before it ran (yoga's 400). */
  const graphql = async (query: string, variables: Record<string, unknown>, token = account.apiKey) => {
    const res = await server.request(token, 'POST', '/graphql', { query, variables });
    expect([200, 400]).toContain(res.status);
    return res.json as GraphqlAnswer;
  };

  it('upsertContactTyped writes what the REST upsert writes, and updates the same contact', async () => {
    const phone = uniquePhone();
    const input = {
      phone,
      fullName: 'Ada Lovelace',
      status: 'new',
      sourceKind: 'hubspot',
      externalId: 'typed-1',
      customFields: { team: 'a' },
    };
    const created = await graphql(UPSERT, { input });
    expect(created.errors).toBeUndefined();
    expect(created.data.upsertContactTyped.created).toBe(true);
    const contact = created.data.upsertContactTyped.contact;
    expectContactShape(contact);
    const rest = await server.request(account.apiKey, 'GET', `/api/v1/contacts/${contact.id}`);
    expect(rest.json).toEqual(contact);
    expect(rest.json).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', phone, customFields: { team: 'a' } });

    const again = await graphql(UPSERT, { input: { phone, priority: 7 } });
    expect(again.data.upsertContactTyped).toMatchObject({ created: false, contact: { id: contact.id, priority: 7 } });
  });

  it('a value zod refuses is the REST 400, with its issues; nothing is stored', async () => {
    const before = await prisma().contact.count();
    const refused = await graphql(UPSERT, { input: { phone: 'call me', priority: 5000 } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('bad_request');
    expect(refused.errors?.[0]?.extensions?.issues?.map((i) => i.path).sort()).toEqual(['phone', 'priority']);
    const body = { phone: 'call me', priority: 5000 };
    const rest = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', body);
    expect(refused.errors?.[0]?.message).toBe(rest.json.message);
    expect(await prisma().contact.count()).toBe(before);
  });

  it('a value of the wrong GraphQL type or an unknown field is refused before the operation runs', async () => {
    const before = await prisma().contact.count();
    const inputs = [
      { phone: uniquePhone(), priority: '5' },
      { phone: uniquePhone(), phoneNumber: '+14155550100' },
      { status: 'nope' },
    ];
    for (const input of inputs) {
      const refused = await graphql(UPSERT, { input });
      expect(refused.data).toBeUndefined();
      expect(refused.errors?.length).toBeGreaterThan(0);
    }
    expect(await prisma().contact.count()).toBe(before);
  });

  it("takes literals too; unstorable text is the argument guard's 400 at the body's path", async () => {
    const phone = uniquePhone();
    const literal = await graphql(
      `mutation {
      upsertContactTyped(input: { phone: "${phone}", firstName: "Grace", customFields: { a: { b: 1 } } }) {
        contact { firstName customFields } } }`,
      {},
    );
    expect(literal.data.upsertContactTyped.contact).toEqual({ firstName: 'Grace', customFields: { a: { b: 1 } } });
    const nul = await graphql(UPSERT, { input: { phone: uniquePhone(), firstName: 'a\u0000b' } });
    expect(nul.errors?.[0]?.extensions).toMatchObject({ code: 'bad_request', issues: [{ path: 'firstName' }] });
  });

  it('patchContactByExternalIdTyped: a field left out is kept, one sent as null is cleared', async () => {
    const input = {
      phone: uniquePhone(),
      firstName: 'Alan',
      lastName: 'Turing',
      sourceKind: 'salesforce',
      externalId: 'typed-patch',
      customFields: { a: 1 },
    };
    await graphql(UPSERT, { input });
    const change = { lastName: null, customFields: null, priority: 3 };
    const patched = await graphql(PATCH, { s: 'salesforce', e: 'typed-patch', input: change });
    expect(patched.errors).toBeUndefined();
    expect(patched.data.patchContactByExternalIdTyped).toEqual({ firstName: 'Alan', ...change });
    const missing = await graphql(PATCH, { s: 'salesforce', e: 'nobody', input: { priority: 1 } });
    expect(missing.errors?.[0]?.extensions?.code).toBe('not_found');
  });

  it('importContactsTyped rejects an item it cannot write alone, and names a malformed one, as REST does', async () => {
    const good = uniquePhone();
    const items = (phone: string) => [
      { phone, firstName: 'Imported', sourceKind: 'csv', externalId: null },
      { phone: '555', sourceKind: 'csv', externalId: 'typed-bad' },
    ];
    const typed = await graphql(IMPORT, { input: { contacts: items(good) } });
    expect(typed.errors).toBeUndefined();
    const body = { contacts: items(uniquePhone()) };
    const rest = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk', body);
    // The same answer but for the import's id, each its own.
    const { importId: typedId, ...typedRest } = typed.data.importContactsTyped;
    const { importId: restId, ...restRest } = rest.json;
    expect([typedId, restId]).toEqual([expect.any(String), expect.any(String)]);
    expect(typedRest).toEqual(restRest);
    expect(restRest).toEqual({ accepted: 1, rejected: [{ index: 1, reason: 'invalid-phone' }] });
    await server.eventually(() => contactWithPhone(good));
    const malformed = { phone: 'call me', sourceKind: 'csv', externalId: null };
    const refused = await graphql(IMPORT, { input: { contacts: [malformed] } });
    const issues = [{ path: 'contacts[0].phone' }];
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'bad_request', issues });
  });

  it("bulkUpdateContactsTyped queues the change for the filter's contacts", async () => {
    const phone = uniquePhone();
    await graphql(UPSERT, { input: { phone, sourceKind: 'manual', externalId: 'typed-bulk' } });
    const filter = { sourceKind: 'manual', externalId: 'typed-bulk' };
    const queued = await graphql(BULK_UPDATE, { input: { filter, data: { priority: 42 } } });
    expect(queued.data).toEqual({ bulkUpdateContactsTyped: true });
    await server.eventually(async () => (await contactWithPhone(phone))?.priority === 42);
    const halfFilter = await graphql(BULK_UPDATE, { input: { filter: { sourceKind: 'manual' }, data: {} } });
    expect(halfFilter.errors?.[0]?.extensions?.code).toBe('bad_request');
  });

  it("createAgentTyped and updateAgentTyped: typed working hours, the operator's only", async () => {
    const hours = { mon: [{ start: '09:00', end: '12:00' }] };
    const input = { accountId: account.accountId, name: 'Typed agent', status: 'live', workingHours: hours };
    const asKey = await graphql(CREATE_AGENT, { input });
    expect(asKey.errors?.[0]?.extensions?.code).toBe('unauthenticated');
    const created = await graphql(CREATE_AGENT, { input }, ADMIN_TOKEN);
    expect(created.errors).toBeUndefined();
    expect(created.data.createAgentTyped).toMatchObject({ status: 'live', attemptLimit: 3, workingHours: hours });
    const id = created.data.createAgentTyped.id;
    const updated = await graphql(UPDATE_AGENT, { id, input: { attemptLimit: 5 } }, ADMIN_TOKEN);
    expect(updated.data.updateAgentTyped).toMatchObject({ attemptLimit: 5, workingHours: hours });
    const overlapping = {
      tue: [
        { start: '09:00', end: '12:00' },
        { start: '11:00', end: '13:00' },
      ],
    };
    const refused = await graphql(UPDATE_AGENT, { id, input: { workingHours: overlapping } }, ADMIN_TOKEN);
    expect(refused.errors?.[0]?.extensions?.code).toBe('bad_request');
  });

  it('setProviderCredentialsTyped stores a key as setProviderCredentials does', async () => {
    const input = { accountId: account.accountId, provider: 'retell', apiKey: 'retell-key-typed-1234' };
    const set = await graphql(SET_CREDENTIALS, { input }, ADMIN_TOKEN);
    expect(set.errors).toBeUndefined();
    const stored = { provider: 'retell', apiKeyLastFour: '1234', webhookSecretSet: false };
    expect(set.data.setProviderCredentialsTyped).toEqual(stored);
    const unknown = await graphql(SET_CREDENTIALS, { input: { ...input, provider: 'acme' } }, ADMIN_TOKEN);
    expect(unknown.errors?.[0]?.extensions?.code).toBe('bad_request');
  });
});
