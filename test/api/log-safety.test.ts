// The service's log, read from a real service process's stderr: requests that fail with SQL
// errors carrying contact data (a trigger refuses some contacts, quoting their phone and name
// in its message, detail and hint; a bulk import's batch fails with all its rows as the
// statement's parameters) and ordinary requests (reads, a search by name, an external-id path)
// leave no phone, name, external id, custom field, key or token in any line. Each request
// writes exactly one access line with its route pattern, status, duration and Account. On
// PostgreSQL, the database dropped under the running process: /readyz and /healthz answer 503
// and the process stays up.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { SERVICE_CHILD_ARGS } from '../support/service-process.js';
import { generateSecret, hashSecret } from '../../src/domain/api-keys/api-keys.service.js';
import { createTestDatabase, testDatabaseKinds, type DatabaseKind } from '../support/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_TOKEN = 'log-safety-admin-token-0123456789';

/** Contact data the log must never show (each distinctive enough to search for). */
const SECRET = {
  refusedPhone: '+14155550177',
  refusedName: 'Philippazorn',
  refusedLastName: 'Zyxwarden',
  batchPhones: ['+14155550181', '+14155550182', '+14155550183'],
  batchName: 'Quillonmarch',
  phone: '+14155550178',
  firstName: 'Bartholomeux',
  lastName: 'Quinceywold',
  externalId: 'crm-secret-4471',
  customValue: 'platinum-secret-plan',
};

/** Makes contacts whose last name is the refused one fail in the database, quoting their data. */
const REFUSING_TRIGGER = `
CREATE FUNCTION cl_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."lastName" = '${SECRET.refusedLastName}' THEN
    RAISE EXCEPTION 'refusing % % with phone %', NEW."firstName", NEW."lastName", NEW.phone
      USING DETAIL = 'Key (phone)=(' || NEW.phone || ') is refused', HINT = 'contact ' || NEW."firstName";
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER cl_test_refuse BEFORE INSERT OR UPDATE ON "Contact" FOR EACH ROW EXECUTE FUNCTION cl_test_refuse();`;

interface Child {
  child: ChildProcess;
  baseUrl: string;
  stderr: () => string;
  lines: () => Array<Record<string, any>>;
}

function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, SERVICE_CHILD_ARGS, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ADMIN_TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const lines = () =>
    stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{')) resolve({ child, baseUrl: JSON.parse(line).baseUrl, stderr: () => stderr, lines });
    });
    child.on('exit', (code) => reject(new Error(`service exited (${code}) before listening: ${stderr}`)));
  });
}

async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(testDatabaseKinds())('log safety and access lines on %s', (kind: DatabaseKind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it('logs no contact data or secret, and one access line per request', async () => {
    let env: Record<string, string>;
    let seed: Awaited<ReturnType<typeof openDatabase>>;
    let databaseName = '';
    if (kind === 'pglite') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-logs-'));
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
      env = { DATA_DIR: dir, DATABASE_URL: '' };
      seed = await openDatabase({ dataDir: dir });
      await migrate(seed.sql);
    } else {
      const test = await createTestDatabase('postgres');
      env = { DATABASE_URL: test.url! };
      databaseName = new URL(test.url!).pathname.slice(1);
      seed = test.db;
      cleanups.push(async () => test.drop());
    }
    const now = new Date(0);
    const account = await seed.prisma.account.create({ data: { createdAt: now, name: 'logs' } });
    const user = await seed.prisma.user.create({
      data: { createdAt: now, accountId: account.id, email: 'logs@example.com' },
    });
    const key = generateSecret();
    await seed.prisma.apiKey.create({
      data: {
        createdAt: now,
        accountId: account.id,
        userId: user.id,
        name: 'k',
        secretHash: hashSecret(key),
        lastFour: key.slice(-4),
      },
    });
    await seed.sql.exec(REFUSING_TRIGGER);
    if (kind === 'pglite') await seed.close();

    const service = await startChild(env);
    cleanups.push(async () => {
      if (service.child.exitCode === null) {
        service.child.kill('SIGKILL');
        await new Promise((r) => service.child.once('exit', r));
      }
    });
    const call = (requestId: string, method: string, url: string, body?: unknown, token: string | null = key) =>
      fetch(service.baseUrl + url, {
        method,
        headers: {
          'x-request-id': requestId,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });

    // Failing with SQL errors that quote the contact's data.
    const refused = await call('obs-refused', 'PUT', '/api/v1/contacts/upsert', {
      phone: SECRET.refusedPhone,
      firstName: SECRET.refusedName,
      lastName: SECRET.refusedLastName,
    });
    expect(refused.status).toBe(500);
    const batch = await call('obs-batch', 'POST', '/api/v1/contacts/bulk', {
      contacts: SECRET.batchPhones.map((phone, i) => ({
        sourceKind: 'csv',
        externalId: null,
        phone,
        firstName: SECRET.batchName,
        lastName: i === 1 ? SECRET.refusedLastName : 'Plain',
      })),
    });
    expect(batch.status).toBe(202);
    // Ordinary requests carrying data in bodies, paths and queries.
    const created = await call('obs-create', 'PUT', '/api/v1/contacts/upsert', {
      phone: SECRET.phone,
      firstName: SECRET.firstName,
      lastName: SECRET.lastName,
      externalId: SECRET.externalId,
      customFields: { plan: SECRET.customValue },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await call('obs-get', 'GET', `/api/v1/contacts/${id}`)).status).toBe(200);
    expect((await call('obs-search', 'GET', `/api/v1/contacts?searchTerm=${SECRET.firstName}`)).status).toBe(200);
    expect(
      (await call('obs-external', 'GET', `/api/v1/contacts/source/api/external-id/${SECRET.externalId}`)).status,
    ).toBe(200);
    expect(
      (
        await call('obs-graphql', 'POST', '/graphql', {
          query: `{ contacts(searchTerm: "${SECRET.lastName}") { data { id } } }`,
        })
      ).status,
    ).toBe(200);
    expect((await call('obs-anonymous', 'GET', `/api/v1/contacts/${id}`, undefined, null)).status).toBe(401);
    expect((await call('obs-unknown', 'GET', `/nope/${SECRET.phone}`)).status).toBe(404);
    expect((await call('obs-metrics', 'GET', '/metrics', undefined, ADMIN_TOKEN)).status).toBe(200);

    // The batch fails after its 202, in the worker: its log line comes later.
    await until(() => service.lines().some((l) => l.batchId && l.err), "the failed batch's log line");
    await until(() => service.lines().filter((l) => l.msg === 'request').length >= 10, 'the access lines');

    const text = service.stderr();
    const forbidden = [
      SECRET.refusedPhone,
      SECRET.refusedName,
      SECRET.refusedLastName,
      ...SECRET.batchPhones,
      SECRET.batchName,
      SECRET.phone,
      SECRET.firstName,
      SECRET.lastName,
      SECRET.externalId,
      SECRET.customValue,
      key,
      ADMIN_TOKEN,
    ];
    for (const value of forbidden) expect(text, `the log shows ${value}`).not.toContain(value);
    for (const phone of [SECRET.refusedPhone, SECRET.phone, ...SECRET.batchPhones])
      expect(text).not.toContain(phone.slice(2));

    const lines = service.lines();
    // The request that failed: one error line with the request id, the error's type and SQL code.
    const failed = lines.filter((l) => l.requestId === 'obs-refused' && l.err);
    expect(failed).toHaveLength(1);
    expect(failed[0].err).toMatchObject({ message: expect.any(String), stack: expect.stringMatching(/\n\s+at /) });
    expect(JSON.stringify(failed[0].err)).toContain('P0001');

    const access = (requestId: string) => {
      const found = lines.filter((l) => l.msg === 'request' && l.requestId === requestId);
      expect(found, requestId).toHaveLength(1);
      return found[0];
    };
    expect(access('obs-get')).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: expect.any(Number),
      hostname: expect.any(String),
      msg: 'request',
      requestId: 'obs-get',
      method: 'GET',
      route: '/api/v1/contacts/:id',
      status: 200,
      durationMs: expect.any(Number),
      accountId: account.id,
    });
    expect(access('obs-refused')).toMatchObject({
      method: 'PUT',
      route: '/api/v1/contacts/upsert',
      status: 500,
      accountId: account.id,
    });
    expect(access('obs-batch')).toMatchObject({
      method: 'POST',
      route: '/api/v1/contacts/bulk',
      status: 202,
      accountId: account.id,
    });
    expect(access('obs-search')).toMatchObject({ route: '/api/v1/contacts', status: 200 });
    expect(access('obs-external')).toMatchObject({
      route: '/api/v1/contacts/source/:sourceKind/external-id/:externalId',
      status: 200,
    });
    expect(access('obs-graphql')).toMatchObject({
      method: 'POST',
      route: '/graphql',
      status: 200,
      accountId: account.id,
    });
    expect(access('obs-anonymous')).toMatchObject({ route: '/api/v1/contacts/:id', status: 401, accountId: null });
    expect(access('obs-unknown')).toMatchObject({ route: '(unmatched)', status: 404, accountId: null });
    expect(access('obs-metrics')).toMatchObject({ route: '/metrics', status: 200 });
    expect(access('obs-get').durationMs).toBeGreaterThanOrEqual(0);

    if (kind === 'postgres') {
      // The database goes away under the running process: not ready, not healthy, still up.
      expect((await call('ready-before', 'GET', '/readyz', undefined, null)).status).toBe(200);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE ${databaseName} WITH (FORCE)`);
      await admin.end();
      // On new connections: a kept-alive one may have been closed by the server while the drop
      // took its time, which would be the transport's event, not the service's answer.
      const ready = await getOnNewConnection(service, '/readyz', 'ready-after');
      expect(ready.status).toBe(503);
      expect(ready.json).toEqual({
        error: 'Service Unavailable',
        message: 'The database is unreachable',
        code: 'unavailable',
        requestId: 'ready-after',
      });
      expect((await getOnNewConnection(service, '/healthz', 'health-after')).status).toBe(503);
      expect(service.child.exitCode).toBe(null);
    }
  }, 120_000);
});

/** GET on a connection of its own; if the service is gone, the error says how it ended and what it last logged. */
function getOnNewConnection(
  service: Child,
  path: string,
  requestId: string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    http
      .get(service.baseUrl + path, { agent: false, headers: { 'x-request-id': requestId } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      })
      .on('error', (error) =>
        reject(
          new Error(
            `GET ${path}: ${error.message}; service exit code ${service.child.exitCode}, signal ${service.child.signalCode}; its log ends: ${service.stderr().slice(-1500)}`,
          ),
        ),
      );
  });
}
