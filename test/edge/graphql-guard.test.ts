// /graphql before execution: a credential is required (anonymous introspection included), and
// documents over the alias, depth and cost limits are refused with a GraphQL error, unrun.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { getIntrospectionQuery } from 'graphql';

describe.each(testDatabaseKinds())('GraphQL guard on %s', (kind) => {
  let server: TestServer;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ apiKey } = await server.createAccount());
  });
  afterAll(() => server?.stop());

  const graphql = (token: string | null, query: string) => server.request(token, 'POST', '/graphql', { query });

  it('introspection: refused without a credential (401), served to an API key and to the operator', async () => {
    const introspection = getIntrospectionQuery();
    const anonymous = await graphql(null, introspection);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ code: 'unauthenticated', error: 'Unauthorized' });
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.text).not.toContain('createAccount');
    const wrong = await graphql('svc_pk_not-a-real-key', '{ __schema { queryType { name } } }');
    expect(wrong.status).toBe(401);
    for (const token of [apiKey, ADMIN_TOKEN]) {
      const res = await graphql(token, introspection);
      expect(res.status, res.text).toBe(200);
      expect(res.json.errors).toBeUndefined();
      expect(res.json.data.__schema.mutationType.name).toBe('Mutation');
    }
  });

  it('1,000 aliases of contacts(limit: 100) are refused before execution, naming the limit', async () => {
    const aliases = Array.from({ length: 1000 }, (_, i) => `a${i}: contacts(limit: 100) { data { id } }`).join(' ');
    const res = await graphql(apiKey, `{ ${aliases} }`);
    expect(res.json.data).toBeUndefined();
    expect(res.json.errors[0].message).toMatch(/limit of \d+ exceeded/);
    // 16 small aliases: the alias limit itself.
    const sixteen = await graphql(
      apiKey,
      `{ ${Array.from({ length: 16 }, (_, i) => `w${i}: workflows { nextToken }`).join(' ')} }`,
    );
    expect(sixteen.json.data).toBeUndefined();
    expect(sixteen.json.errors[0].message).toMatch(/Aliases limit of 15 exceeded/);
    // Within the limit the same document runs.
    const ok = await graphql(
      apiKey,
      `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: contacts(limit: 1) { data { id } }`).join(' ')} }`,
    );
    expect(ok.json.errors, ok.text).toBeUndefined();
    expect(Object.keys(ok.json.data)).toHaveLength(15);
  });

  it('too deep and too costly documents are refused before execution (limits from the environment)', async () => {
    const strict = await startTestServer(kind, { edge: { GRAPHQL_MAX_DEPTH: 2, GRAPHQL_MAX_COST: 20 } });
    try {
      const { apiKey: key } = await strict.createAccount();
      const run = (query: string) => strict.request(key, 'POST', '/graphql', { query });
      const shallow = await run('{ workflows { nextToken } }');
      expect(shallow.json.errors, shallow.text).toBeUndefined();
      const deep = await run('{ contacts { data { id } } }');
      expect(deep.json.data).toBeUndefined();
      expect(deep.json.errors[0].message).toMatch(/depth limit of 2 exceeded/i);
      const costly = await run(
        `{ ${Array.from({ length: 10 }, (_, i) => `w${i}: workflows { nextToken }`).join(' ')} }`,
      );
      expect(costly.json.data).toBeUndefined();
      expect(costly.json.errors[0].message).toMatch(/cost limit of 20 exceeded/i);
    } finally {
      await strict.stop();
    }
  });
});
