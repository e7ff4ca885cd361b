// An Account's voice provider credentials through operator GraphQL: stored encrypted, rotated,
// removed, never readable back in full (only the key's last four characters, on any operation),
// and agents that run on a provider name its references.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, TEST_CREDENTIALS_KEY, startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { decryptSecret } from '../../src/domain/shared/secret-box.js';

const API_KEY = 'vapi-private-key-5f1e2d3c4b5a6978';
const WEBHOOK_SECRET = 'vapi-hmac-secret-0a1b2c3d4e5f';
const ROTATED_KEY = 'vapi-private-key-rotated-9999';

describe.each(testDatabaseKinds())('voice provider credentials on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  const graphql = async (
    query: string,
    variables: Record<string, unknown> = {},
    token: string | null = ADMIN_TOKEN,
  ) => {
    const res = await server.request(token, 'POST', '/graphql', { query, variables });
    return res.json as { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  };
  const SET =
    'mutation ($i: JSON!) { setProviderCredentials(input: $i) { accountId provider apiKeyLastFour webhookSecretSet maxConcurrentCalls createdAt updatedAt } }';

  it('stores a key encrypted, shows only its last four characters, rotates and removes it', async () => {
    const { accountId, apiKey } = await server.createAccount();
    const set = await graphql(SET, {
      i: { accountId, provider: 'vapi', apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET, maxConcurrentCalls: 4 },
    });
    expect(set.errors).toBeUndefined();
    expect(set.data.setProviderCredentials).toMatchObject({
      accountId,
      provider: 'vapi',
      apiKeyLastFour: '6978',
      webhookSecretSet: true,
      maxConcurrentCalls: 4,
    });

    // At rest: neither secret in clear, both decrypt with the configured key.
    const row = await server.service.services.db.prisma.providerCredential.findUniqueOrThrow({
      where: { accountId_provider: { accountId, provider: 'vapi' } },
    });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(API_KEY);
    expect(stored).not.toContain(WEBHOOK_SECRET);
    const key = Buffer.from(TEST_CREDENTIALS_KEY, 'base64');
    expect(decryptSecret(row.apiKeyEncrypted, key)).toBe(API_KEY);
    expect(decryptSecret(row.webhookSecretEncrypted!, key)).toBe(WEBHOOK_SECRET);

    // No operation gives a secret back: the whole introspected type, listed.
    const listed = await graphql(
      'query ($a: String!) { providerCredentials(accountId: $a) { accountId provider apiKeyLastFour webhookSecretSet maxConcurrentCalls createdAt updatedAt } }',
      { a: accountId },
    );
    expect(JSON.stringify(listed)).not.toContain(API_KEY.slice(0, -4));
    expect(JSON.stringify(listed)).not.toContain(WEBHOOK_SECRET);
    expect(listed.data.providerCredentials).toHaveLength(1);
    const fields = await graphql('{ __type(name: "ProviderCredential") { fields { name } } }');
    expect(fields.data.__type.fields.map((f: { name: string }) => f.name).sort()).toEqual([
      'accountId',
      'apiKeyLastFour',
      'createdAt',
      'maxConcurrentCalls',
      'provider',
      'updatedAt',
      'webhookSecretSet',
    ]);

    // Rotation replaces the key; a key sees nothing of it; removal forgets it.
    const rotated = await graphql(SET, {
      i: { accountId, provider: 'vapi', apiKey: ROTATED_KEY, webhookSecret: WEBHOOK_SECRET },
    });
    expect(rotated.data.setProviderCredentials).toMatchObject({ apiKeyLastFour: '9999', maxConcurrentCalls: 4 });
    expect(rotated.data.setProviderCredentials.createdAt).toBe(set.data.setProviderCredentials.createdAt);
    const asKey = await graphql(
      'query ($a: String!) { providerCredentials(accountId: $a) { apiKeyLastFour } }',
      { a: accountId },
      apiKey,
    );
    expect(asKey.errors?.[0]?.extensions?.code).toBe('unauthenticated');
    const removed = await graphql(
      'mutation ($a: String!) { removeProviderCredentials(accountId: $a, provider: "vapi") }',
      { a: accountId },
    );
    expect(removed.data.removeProviderCredentials).toBe(true);
    expect(
      (await graphql('query ($a: String!) { providerCredentials(accountId: $a) { provider } }', { a: accountId })).data
        .providerCredentials,
    ).toEqual([]);
  });

  it('refuses what it cannot use: a Vapi key without its webhook secret, an unknown provider or Account', async () => {
    const { accountId } = await server.createAccount();
    const noSecret = await graphql(SET, { i: { accountId, provider: 'vapi', apiKey: API_KEY } });
    expect(noSecret.errors?.[0]).toMatchObject({ extensions: { code: 'bad_request' } });
    expect(noSecret.errors?.[0].message).toMatch(/webhookSecret/);
    const unknown = await graphql(SET, { i: { accountId, provider: 'twilio', apiKey: API_KEY } });
    expect(unknown.errors?.[0]).toMatchObject({ extensions: { code: 'bad_request' } });
    const nobody = await graphql(SET, {
      i: { accountId: '00000000-0000-4000-8000-000000000000', provider: 'retell', apiKey: API_KEY },
    });
    expect(nobody.errors?.[0]).toMatchObject({ extensions: { code: 'not_found' } });
    // Retell signs webhooks with an API key: the webhook secret is optional.
    const retell = await graphql(SET, { i: { accountId, provider: 'retell', apiKey: 'key_retell_0123456789abcd' } });
    expect(retell.data.setProviderCredentials).toMatchObject({
      provider: 'retell',
      apiKeyLastFour: 'abcd',
      webhookSecretSet: false,
    });
  });

  it('an agent on a provider names its references; the simulator needs none', async () => {
    const { accountId } = await server.createAccount();
    const CREATE =
      'mutation ($i: JSON!) { createAgent(input: $i) { id provider providerAgentId providerPhoneNumber maxConcurrentCalls } }';
    const missing = await graphql(CREATE, { i: { accountId, name: 'V', provider: 'vapi', providerAgentId: 'asst_1' } });
    expect(missing.errors?.[0].message).toMatch(/providerPhoneNumber/);
    const badNumber = await graphql(CREATE, {
      i: { accountId, name: 'R', provider: 'retell', providerAgentId: 'agent_1', providerPhoneNumber: 'not a number' },
    });
    expect(badNumber.errors?.[0].message).toMatch(/providerPhoneNumber/);
    const retell = await graphql(CREATE, {
      i: {
        accountId,
        name: 'R',
        provider: 'retell',
        providerAgentId: 'agent_1',
        providerPhoneNumber: '+1 (415) 555-0100',
        maxConcurrentCalls: 3,
      },
    });
    expect(retell.data.createAgent).toMatchObject({
      provider: 'retell',
      providerAgentId: 'agent_1',
      providerPhoneNumber: '+14155550100',
      maxConcurrentCalls: 3,
    });
    const simulated = await graphql(CREATE, { i: { accountId, name: 'S' } });
    expect(simulated.data.createAgent).toMatchObject({ provider: 'simulator', providerAgentId: null });
    // Switching the simulated agent to Vapi checks the references it will have.
    const switched = await graphql(
      'mutation ($id: String!, $i: JSON!) { updateAgent(id: $id, input: $i) { provider } }',
      { id: simulated.data.createAgent.id, i: { provider: 'vapi' } },
    );
    expect(switched.errors?.[0].message).toMatch(/providerAgentId, providerPhoneNumber/);
  });
});
