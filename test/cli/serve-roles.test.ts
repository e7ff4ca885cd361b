// `contactline serve --role` and `--processes`, as an operator runs them: real CLI processes on
// one PostgreSQL database (docs/decisions/0043-process-roles.md).
// - An api process answers the API (an Account made over the operator's GraphQL, a bulk import
//   accepted) but runs no background work: the import waits until a worker starts.
// - A worker answers its probes and nothing else.
// - `--processes 2`: two children answer on one port; one killed is started again while the port
//   keeps answering; SIGTERM to the primary stops them all, exit 0.
// - Without DATABASE_URL, or with a bad role, serve refuses in one line.
// The PostgreSQL parts run when TEST_DATABASE_URL is set, and are skipped (shown as such) otherwise.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/child-process.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/contactline.js');
const ADMIN_TOKEN = 'serve-roles-admin-token-0123456789';
const postgres = !!process.env.TEST_DATABASE_URL;

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    // A primary's children follow it (their IPC channel closes).
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Served {
  child: ChildProcess;
  url: string;
  result: { url: string; role: string; processes: Array<{ pid: number; role: string }> };
  stdout: () => string;
  stderr: () => string;
}

/** Starts `contactline serve --json …args` and waits for its one result line. */
function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--json', ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (line && stdout.includes('\n')) {
        const result = JSON.parse(line);
        resolve({ child, url: result.url, result, stdout: () => stdout, stderr: () => stderr });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve ${args.join(' ')} exited ${code}: ${stderr}`)));
  });
}

/** Polls `check` until it returns a value other than undefined (or fails after `timeoutMs`). */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A GET on a connection of its own (the cluster's primary hands each new connection to the next child). */
function getFresh(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** The pid and role that answered a scrape of /metrics (contactline_process_info). */
async function answeringProcess(url: string): Promise<{ pid: number; role: string }> {
  const { status, body } = await getFresh(`${url}/metrics`, { authorization: `Bearer ${ADMIN_TOKEN}` });
  expect(status).toBe(200);
  const match = /^contactline_process_info\{role="(\w+)",pid="(\d+)"\} 1$/m.exec(body);
  if (!match) throw new Error(`no contactline_process_info in /metrics:\n${body.slice(0, 500)}`);
  return { role: match[1], pid: Number(match[2]) };
}

/** The pids of `pid`'s children. */
function childPids(pid: number): number[] {
  const ps = spawnSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  return code as number | null;
}

async function postgresDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase('postgres');
  cleanups.push(() => database.drop());
  return database;
}

describe('serve refuses what the embedded database cannot do, and bad values', () => {
  it('refuses --role api and --processes 2 without DATABASE_URL, and a role it does not know, in one line', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-serve-roles-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    const run = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      runProcess(process.execPath, [BIN, 'serve', ...args], { cwd: ROOT, env: { ...env, ...extra } });
    const [api, processes, badRole, badEnvRole] = await Promise.all([
      run(['--role', 'api']),
      run(['--processes', '2']),
      run(['--role', 'boss']),
      run([], { SERVICE_ROLE: 'boss' }),
    ]);
    expect(api.code, api.stderr).toBe(2);
    expect(api.stderr.trimEnd().split('\n')).toEqual([
      'error: --role api needs PostgreSQL (set DATABASE_URL): the embedded database is opened by one process only, which runs everything (--role all, one process).',
    ]);
    expect(processes.code, processes.stderr).toBe(2);
    expect(processes.stderr).toMatch(/^error: --processes 2 needs PostgreSQL \(set DATABASE_URL\)/);
    expect(badRole.code, badRole.stderr).toBe(2);
    expect(badRole.stderr).toContain(
      "error: option '--role <role>' argument 'boss' is invalid. Allowed choices are all, api, worker.",
    );
    expect(badEnvRole.code, badEnvRole.stderr).toBe(2);
    expect(badEnvRole.stderr).toContain('SERVICE_ROLE: SERVICE_ROLE must be all, api or worker');
    // Nothing was opened: the data directory is as it was.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

// Each test starts three service processes; on a busy 2-core machine one takes up to 5 s to listen.
describe.skipIf(!postgres)('serve on PostgreSQL (TEST_DATABASE_URL)', () => {
  it('an api process accepts an import and leaves it; a worker started later runs it and answers only its probes', async () => {
    const database = await postgresDatabase();
    const env = { DATABASE_URL: database.url! };
    const api = await serve(['--role', 'api'], env);
    expect(api.result).toMatchObject({ role: 'api', processes: [{ pid: api.child.pid, role: 'api' }] });

    // The operator's GraphQL makes an Account, a user and a key.
    const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await fetch(`${api.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: Record<string, Record<string, string>>; errors?: unknown };
      if (!body.data) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
      return body.data;
    };
    const { createAccount } = await graphql('mutation { createAccount(name: "Roles", defaultLocation: "US") { id } }');
    const { createUser } = await graphql(
      'mutation ($a: String!) { createUser(accountId: $a, email: "roles@example.com") { id } }',
      { a: createAccount.id },
    );
    const { createApiKey } = await graphql(
      'mutation ($u: String!) { createApiKey(userId: $u, name: "r") { secret } }',
      {
        u: createUser.id,
      },
    );
    const rest = (method: string, route: string, body?: unknown) =>
      fetch(`${api.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${createApiKey.secret}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const listed = await rest('GET', '/api/v1/contacts');
    expect(listed.status).toBe(200);
    const accepted = await rest('POST', '/api/v1/contacts/bulk', {
      contacts: Array.from({ length: 3 }, (_, i) => ({
        sourceKind: 'api',
        externalId: `roles-${i}`,
        phone: `+1415555267${i}`,
      })),
    });
    expect(accepted.status).toBe(202);
    const { importId } = (await accepted.json()) as { importId: string };
    const importStatus = async () =>
      ((await (await rest('GET', `/api/v1/imports/${importId}`)).json()) as { status: string }).status;

    // Not run while only the api process runs: an `all` process would have written it at once,
    // a worker within a second; 1.5 s of watching (three queue polls) sees it waiting throughout.
    const watchedUntil = Date.now() + 1500;
    while (Date.now() < watchedUntil) {
      expect(await importStatus()).not.toBe('done');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const waiting = await database.db.prisma.importBatch.findUnique({ where: { id: importId } });
    expect(waiting?.status).toBe('pending');

    // A worker on the same database takes it.
    const worker = await serve(['--role', 'worker'], env);
    expect(worker.result).toMatchObject({ role: 'worker', processes: [{ pid: worker.child.pid, role: 'worker' }] });
    await until('the import to be done', async () => ((await importStatus()) === 'done' ? true : undefined));
    const imported = (await (await rest('GET', '/api/v1/contacts?limit=10')).json()) as { data: unknown[] };
    expect(imported.data).toHaveLength(3);

    // The worker answers its probes, and nothing else.
    const health = await fetch(`${worker.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'postgres' });
    expect((await fetch(`${worker.url}/readyz`)).status).toBe(200);
    expect(await answeringProcess(worker.url)).toEqual({ pid: worker.child.pid, role: 'worker' });
    for (const route of ['/api/v1/contacts', '/graphql', '/console/', '/docs']) {
      const res = await fetch(`${worker.url}${route}`, { headers: { authorization: `Bearer ${createApiKey.secret}` } });
      expect(res.status, route).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
    expect(await answeringProcess(api.url)).toEqual({ pid: api.child.pid, role: 'api' });

    const [apiCode, workerCode] = await Promise.all([stop(api.child), stop(worker.child)]);
    expect(apiCode, api.stderr()).toBe(0);
    expect(workerCode, worker.stderr()).toBe(0);
  }, 60_000);

  it('runs two children on one port, starts a killed one again, and stops them all on SIGTERM', async () => {
    const database = await postgresDatabase();
    const primary = await serve(['--processes', '2'], { DATABASE_URL: database.url! });
    const primaryPid = primary.child.pid!;
    // One result line for the cluster: the first child runs everything, the second the API.
    expect(primary.result.role).toBe('all');
    expect(primary.result.processes.map((p) => p.role)).toEqual(['all', 'api']);
    const started = primary.result.processes.map((p) => p.pid).sort((a, b) => a - b);
    expect(childPids(primaryPid)).toEqual(started);

    // Both children answer on the port (each new connection goes to the next child).
    const answered = new Set<number>();
    await until('both children to answer', async () => {
      answered.add((await answeringProcess(primary.url)).pid);
      return answered.size === 2 ? true : undefined;
    });
    expect([...answered].sort((a, b) => a - b)).toEqual(started);

    // Killed, the api child is started again; the port answers all along.
    const victim = primary.result.processes.find((p) => p.role === 'api')!.pid;
    const survivor = primary.result.processes.find((p) => p.role === 'all')!.pid;
    process.kill(victim, 'SIGKILL');
    await until('the killed child to be gone', async () => (childPids(primaryPid).includes(victim) ? undefined : true));
    const replacement = await until('a new child', async () => {
      expect((await getFresh(`${primary.url}/healthz`)).status).toBe(200);
      const pids = childPids(primaryPid);
      return pids.length === 2 ? pids.find((pid) => pid !== survivor) : undefined;
    });
    expect(replacement).not.toBe(victim);
    await until('the new child to answer', async () => {
      const { pid, role } = await answeringProcess(primary.url);
      return pid === replacement ? role : undefined;
    }).then((role) => expect(role).toBe('api'));
    expect(primary.stderr()).toContain('cluster: a process exited unexpectedly; starting another');

    // SIGTERM to the primary stops every child, and the primary exits 0.
    expect(await stop(primary.child), primary.stderr()).toBe(0);
    expect(primary.stderr()).toContain('SIGTERM: stopping 2 processes');
    expect([survivor, replacement].filter(alive)).toEqual([]);
    // One result on stdout, for the cluster (the children print nothing there).
    expect(primary.stdout().trimEnd().split('\n')).toHaveLength(1);
  }, 60_000);
});
