// DATABASE_READ_URL: the heavy reads (lists and searches on REST and MCP, the CSV pages, a
// workflow's results) go to the read replica; reads by id and by external id, and every write,
// stay on the primary. The "replica" here is another database made from the migrated template
// holding other contacts, so each answer shows where it was read. A replica that stops
// answering makes a list a 503 `unavailable`, and a replica unreachable at start fails the start.
// PostgreSQL only (the embedded database has no replica).
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { expectError, listOk, uniquePhone, upsertOk } from '../support/api-helpers.js';
import { callError, callOk, connect } from '../mcp/mcp-helpers.js';
import { openDatabase } from '../../src/db/database.js';

/** A TCP proxy in front of PostgreSQL that a test can cut (every connection dropped, new ones refused). */
interface CuttableProxy {
  urlFor(url: string): string;
  cut(): Promise<void>;
  close(): Promise<void>;
}

async function cuttableProxy(): Promise<CuttableProxy> {
  const sockets = new Set<net.Socket>();
  let target = { host: '127.0.0.1', port: 5432 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    urlFor(url) {
      const u = new URL(url);
      target = { host: u.hostname, port: Number(u.port || 5432) };
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async cut() {
      await Promise.all([close(), ...[...sockets].map((s) => s.destroy())]);
    },
    close: () => (server.listening ? close() : Promise.resolve()),
  };
}

const POSTGRES = !!process.env.TEST_DATABASE_URL;

describe.skipIf(!POSTGRES)('DATABASE_READ_URL (PostgreSQL only: skipped without TEST_DATABASE_URL)', () => {
  let server: TestServer;
  let proxy: CuttableProxy;
  let account: TestAccount;
  let onPrimary: { id: string };
  let onReplicaId: string;
  let workflowId: string;

  beforeAll(async () => {
    proxy = await cuttableProxy();
    server = await startTestServer('postgres', { readDatabase: { through: async (url) => proxy.urlFor(url) } });
    account = await server.createAccount();
    workflowId = await server.createWorkflow(account.accountId);
    onPrimary = await upsertOk(server, account.apiKey, {
      phone: uniquePhone(),
      firstName: 'Pat',
      lastName: 'Primary',
      sourceKind: 'hubspot',
      externalId: 'on-primary',
    });
    // The "replica" holds the same Account with another contact, and an hour of enrollments.
    const replica = server.readDatabase!.db.prisma;
    const { dedupFields, ...accountRow } = await server.service.services.db.prisma.account.findUniqueOrThrow({
      where: { id: account.accountId },
    });
    await replica.account.create({ data: { ...accountRow, dedupFields: dedupFields as never } as never });
    onReplicaId = randomUUID();
    await replica.contact.create({
      data: {
        id: onReplicaId,
        accountId: account.accountId,
        firstName: 'Rita',
        lastName: 'Replica',
        sourceKind: 'hubspot',
        externalId: 'on-replica',
        createdAt: server.now(),
        updatedAt: server.now(),
        dedupKey: `replica-${onReplicaId}`,
      },
    });
    const workflow = await server.service.services.db.prisma.workflow.findUniqueOrThrow({ where: { id: workflowId } });
    await replica.workflow.create({ data: workflow as never });
    const hour = new Date(Math.floor(server.now().getTime() / 3_600_000) * 3_600_000 - 3_600_000);
    await replica.workflowEnrollmentHour.create({ data: { workflowId, hour, enrolled: 7 } });
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
  });

  const get = (path: string) => server.request(account.apiKey, 'GET', path);

  it('lists and searches read the replica', async () => {
    expect(server.service.services.db.reads.target).toBe('replica');
    expect((await listOk(server, account.apiKey)).data.map((c) => c.id)).toEqual([onReplicaId]);
    expect((await listOk(server, account.apiKey, 'searchTerm=Rita')).data.map((c) => c.id)).toEqual([onReplicaId]);
    expect((await listOk(server, account.apiKey, 'searchTerm=Pat')).data).toEqual([]);
    expect((await listOk(server, account.apiKey, 'sourceKind=hubspot')).data.map((c) => c.id)).toEqual([onReplicaId]);
  });

  it('the CSV pages read the replica', async () => {
    const csv = await get('/api/v1/contacts/csv');
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('Replica');
    expect(csv.text).not.toContain('Primary');
  });

  it("the MCP tool's search reads the replica; its reads by id the primary", async () => {
    const { client, close } = await connect(server, account.apiKey);
    try {
      expect((await callOk(client, 'contacts_search', {})).data.map((c: { id: string }) => c.id)).toEqual([
        onReplicaId,
      ]);
      expect((await callOk(client, 'contact_get', { id: onPrimary.id })).id).toBe(onPrimary.id);
      expect((await callError(client, 'contact_get', { id: onReplicaId })).code).toBe('not_found');
    } finally {
      await close();
    }
  });

  it('reads by id and by external id read the primary (a client reads what it wrote)', async () => {
    expect((await get(`/api/v1/contacts/${onPrimary.id}`)).status).toBe(200);
    expectError(await get(`/api/v1/contacts/${onReplicaId}`), 404, 'not_found');
    expect((await get('/api/v1/contacts/source/hubspot/external-id/on-primary')).status).toBe(200);
    expectError(await get('/api/v1/contacts/source/hubspot/external-id/on-replica'), 404, 'not_found');
  });

  it("a workflow's results are the replica's figures (the workflow itself read on the primary)", async () => {
    const res = await get(`/api/v1/workflows/${workflowId}/results`);
    expect(res.status, res.text).toBe(200);
    expect((res.json as { totals: { enrolled: number } }).totals.enrolled).toBe(7);
    expectError(await get(`/api/v1/workflows/${randomUUID()}/results`), 404, 'not_found');
  });

  it("/metrics reports the replica's lag (-1 here: the stand-in is not a standby)", async () => {
    const res = await server.request(ADMIN_TOKEN, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^contactline_db_replica_lag_seconds -1$/m);
  });

  it('a replica that stops answering: lists are 503 unavailable, reads by id and writes still work', async () => {
    await proxy.cut();
    const started = Date.now();
    expectError(await get('/api/v1/contacts'), 503, 'unavailable');
    expectError(await get(`/api/v1/workflows/${workflowId}/results`), 503, 'unavailable');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await get(`/api/v1/contacts/${onPrimary.id}`)).status).toBe(200);
    await upsertOk(server, account.apiKey, { phone: uniquePhone(), firstName: 'Later' });
  });

  it('a replica unreachable at start fails the start, naming DATABASE_READ_URL', async () => {
    const closed = await cuttableProxy();
    const url = closed.urlFor(process.env.TEST_DATABASE_URL!);
    await closed.cut();
    await expect(openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, readUrl: url })).rejects.toThrow(
      /read replica \(DATABASE_READ_URL\)/,
    );
  });
});

describe('DATABASE_READ_URL on the embedded database', () => {
  it('is refused', async () => {
    await expect(openDatabase({ inMemory: true, readUrl: 'postgres://127.0.0.1:1/x' })).rejects.toThrow(
      /need DATABASE_URL/,
    );
  });
});
