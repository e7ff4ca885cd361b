// Keys kept in memory (src/domain/api-keys/active-keys.cache.ts) never outlive a change. A key
// revoked, or its Account's rules changed, through the service is seen on the next request, on
// every process: the write is answered only once its process has heard the database's notice.
// Changed by plain SQL, it is seen as soon as the notice arrives (a moment later). While a
// process cannot hear the notices it looks every key up.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startService, type RunningService } from '../../src/service.js';
import { testDatabaseKinds } from '../support/databases.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { uniquePhone } from '../support/api-helpers.js';

describe.each(testDatabaseKinds())('API keys kept in memory on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  const sql = (text: string, params: unknown[] = []) => server.service.services.db.sql.query(text, params);

  const operator = async (query: string, variables: Record<string, unknown>) => {
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables });
    expect(res.json.errors, res.text).toBeUndefined();
    return res.json.data;
  };

  it('a key revoked through the service is refused on its next request', async () => {
    const account = await server.createAccount();
    for (let i = 0; i < 3; i++)
      expect((await server.request(account.apiKey, 'GET', '/api/v1/contacts')).status).toBe(200);
    await operator('mutation ($id: String!) { revokeApiKey(id: $id) { revokedAt } }', { id: account.apiKeyId });
    expect((await server.request(account.apiKey, 'GET', '/api/v1/contacts')).status).toBe(401);
  });

  it('a key revoked by plain SQL is refused once the notice arrives', async () => {
    const account = await server.createAccount();
    for (let i = 0; i < 3; i++)
      expect((await server.request(account.apiKey, 'GET', '/api/v1/contacts')).status).toBe(200);
    await sql(`UPDATE "ApiKey" SET "revokedAt" = $1::timestamptz WHERE "id" = $2::uuid`, [
      server.now(),
      account.apiKeyId,
    ]);
    await server.eventually(
      async () => (await server.request(account.apiKey, 'GET', '/api/v1/contacts')).status === 401,
      2000,
    );
  });

  it("an Account's contact rules changed through the service apply to its next request", async () => {
    const account = await server.createAccount({ defaultLocation: 'US' });
    const upsert = (phone: string) =>
      server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone, firstName: 'Ada' });
    const first = await upsert(uniquePhone());
    expect(first.json.location, first.text).toBe('US');
    await operator('mutation ($id: String!) { updateAccount(id: $id, defaultLocation: "GB") { id } }', {
      id: account.accountId,
    });
    // A number without a country code: the Account's default location decides its country.
    const second = await upsert('020 7946 0958');
    expect(second.status, second.text).toBe(201);
    expect(second.json.location).toBe('GB');
  });

  it('a key created after an unknown one was tried works at once', async () => {
    const account = await server.createAccount();
    await sql(`UPDATE "ApiKey" SET "revokedAt" = $1::timestamptz WHERE "id" = $2::uuid`, [
      server.now(),
      account.apiKeyId,
    ]);
    expect((await server.request(account.apiKey, 'GET', '/api/v1/contacts')).status).toBe(401);
    await sql(`UPDATE "ApiKey" SET "revokedAt" = NULL WHERE "id" = $1::uuid`, [account.apiKeyId]);
    expect((await server.request(account.apiKey, 'GET', '/api/v1/contacts')).status).toBe(200);
  });
});

/**
 * A TCP proxy in front of PostgreSQL that holds back what the database sends by `delayMs`: a
 * process whose listening connection goes through it hears every notice late.
 */
async function slowProxy(target: URL, delayMs: number) {
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    for (const socket of [client, upstream]) socket.on('error', () => {});
    client.pipe(upstream);
    upstream.on('data', (chunk) => setTimeout(() => client.write(chunk), delayMs));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => setTimeout(() => client.destroy(), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return { url: url.toString(), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('API keys kept in memory by two processes on PostgreSQL', () => {
  let server: TestServer;
  let other: RunningService;
  let proxy: Awaited<ReturnType<typeof slowProxy>>;
  beforeAll(async () => {
    server = await startTestServer('postgres');
    const url = server.service.services.db.connectionString!;
    // The other process hears the database's notices 50 ms late (its direct connection, the one
    // that listens, goes through a slow proxy): later than a client's next request can reach it.
    proxy = await slowProxy(new URL(url), 50);
    other = await startService({
      env: {
        PORT: 0,
        HOST: '127.0.0.1',
        REGION: 'us',
        DATA_DIR: '',
        ADMIN_TOKEN,
        DATABASE_URL: url,
        DATABASE_DIRECT_URL: proxy.url,
      },
      dialer: false,
      monday: null,
      webhookDelivery: false,
    });
  });
  afterAll(async () => {
    await other?.stop();
    await server?.stop();
    await proxy?.close();
  });

  const onOther = (apiKey: string) =>
    fetch(`${other.baseUrl}/api/v1/contacts`, { headers: { authorization: `Bearer ${apiKey}` } }).then((r) => r.status);

  it('a key revoked through one process is refused by the other on its next request', async () => {
    // The revocation is answered only once the other process confirmed it heard the notice,
    // however late that is. A few rounds: each must hold.
    for (let round = 0; round < 5; round++) {
      const account = await server.createAccount();
      for (let i = 0; i < 3; i++) expect(await onOther(account.apiKey)).toBe(200);
      const revoked = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
        query: 'mutation ($id: String!) { revokeApiKey(id: $id) { revokedAt } }',
        variables: { id: account.apiKeyId },
      });
      expect(revoked.json.data?.revokeApiKey.revokedAt, revoked.text).toBeTruthy();
      expect(await onOther(account.apiKey), `round ${round}`).toBe(401);
    }
  });

  it('a process that lost its listening connection forgets what it kept, and listens again', async () => {
    const account = await server.createAccount();
    expect(await onOther(account.apiKey)).toBe(200);
    const admin = new pg.Client({ connectionString: server.service.services.db.connectionString });
    await admin.connect();
    try {
      const listeners = async () =>
        (
          await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE application_name = 'contactline-notices' AND datname = current_database()`,
          )
        ).rows.map((r) => r.pid);
      const before = await listeners();
      expect(before).toHaveLength(2);
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
      // Revoked while the processes' listening connections are being cut: whether a notice still
      // reaches a process or not, what it kept before the cut is not answered from memory again.
      await admin.query(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "id" = $1::uuid`, [account.apiKeyId]);
      // Both listen again (new connections), and keys are kept again.
      await server.eventually(async () => {
        const now = await listeners();
        return now.length === 2 && now.every((pid) => !before.includes(pid));
      });
      expect(await onOther(account.apiKey)).toBe(401);
      const fresh = await server.createAccount();
      expect(await onOther(fresh.apiKey)).toBe(200);
    } finally {
      await admin.end();
    }
  });
});
