// The load figure: many connections at once for a fixed time, on upsert and on list, against
// the service as its users run it: `contactline serve` in a process of its own (the embedded
// database in a data directory, or PostgreSQL), with its access log on (written to /dev/null)
// and its rate limits on but raised far above the load (at the defaults one key may send 200
// requests a second). autocannon drives it from this process.
//
// Baseline: the raw driver in this process running the same statements from as many concurrent
// loops for the baseline time, on the same database (after the service has stopped: the embedded
// database has one owner at a time). The service's peak memory is its process's VmHWM, reset
// (/proc/<pid>/clear_refs) before each run; on PostgreSQL the database server's memory is not in it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openDatabase, type Database } from '../src/db/database.js';
import { listQuerySql } from '../src/domain/contacts/contacts-list.store.js';
import { ListQuerySchema } from '../src/domain/contacts/contacts.inputs.js';
import { createTestDatabase, type DatabaseKind } from '../test/support/databases.js';
import { rawRow, UPSERT_SQL } from './raw-statements.js';
import { prng } from './seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_TOKEN = 'bench-load-operator-token';

export interface LoadSettings {
  connections: number;
  /** Seconds of each load run. */
  seconds: number;
  /** Seconds of each baseline run. */
  baselineSeconds: number;
}

export interface LoadFigure {
  id: 'load-upsert' | 'load-list';
  name: string;
  connections: number;
  seconds: number;
  requests: number;
  /** Answers per second (mean over the run). */
  throughput: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, connection errors and timeouts: the target is 0. */
  errors: number;
  statusCodes: Record<string, number>;
  /** The service process's peak resident memory during the run (MiB). */
  peakMemoryMiB: number;
  baseline: { operations: number; throughput: number; p50: number; p99: number };
  /** Service throughput ÷ baseline throughput. */
  throughputRatio: number;
  target: string;
  pass: boolean;
}

const FIRST = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'Wei',
  'Priya',
  'Carlos',
  'Fatima',
];
const LAST = ['Smith', 'Johnson', 'Garcia', 'Nguyen', 'Patel', 'Kim', 'Okafor', 'Rossi', 'Müller', 'Brown'];

/**
 * The upsert a CRM sync sends: mostly new contacts, one in five a contact sent earlier (an
 * update). Numbers are +1 646 …, one counter per run, so the service and the baseline write alike.
 */
function upsertBodies(seed: number) {
  const rand = prng(seed);
  let next = 0;
  return () => {
    const n = next > 0 && rand() < 0.2 ? Math.floor(rand() * next) : next++;
    return {
      phone: `+1646${String(2_000_000 + n)}`,
      firstName: FIRST[Math.floor(rand() * FIRST.length)],
      lastName: LAST[Math.floor(rand() * LAST.length)],
    };
  };
}

/** The list pages of the list run, in turn: the first page, a name search, a source filter. */
const LIST_QUERIES: Array<Record<string, string>> = [
  {},
  { searchTerm: 'mar' },
  { sourceKind: 'api' },
  { searchTerm: 'smi' },
];

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `contactline serve` in its own process; resolves once /readyz answers 200. Its log (on
 * stderr: an access line per request) goes to a file, read back only to explain a failed start.
 */
export async function startServe(
  env: Record<string, string>,
  logFile: string,
  /** Node's own options for the child (a profiler's, say). */
  nodeArgs: string[] = [],
  /** Another checkout to run (an earlier version, for a before-and-after). */
  root: string = ROOT,
): Promise<{ child: ChildProcess; baseUrl: string; stop(): Promise<void> }> {
  const port = await freePort();
  const devNull = fs.openSync('/dev/null', 'w');
  const logFd = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeArgs, 'bin/contactline.js', 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ADMIN_TOKEN,
      RATE_LIMIT_PER_KEY: '100000000',
      RATE_LIMIT_PER_ADDRESS: '100000000',
      ...env,
    },
    stdio: ['ignore', devNull, logFd],
  });
  fs.closeSync(devNull);
  fs.closeSync(logFd);
  const stderr = () => fs.readFileSync(logFile, 'utf8').slice(-2000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`contactline serve exited (${child.exitCode}): ${stderr()}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`contactline serve not ready within 60 s: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    baseUrl,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** An Account with a key, created the way an operator does (GraphQL, operator token). */
export async function createAccount(baseUrl: string): Promise<{ accountId: string; apiKey: string }> {
  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: Record<string, Record<string, unknown>>; errors?: unknown };
    if (!body.data) throw new Error(`operator GraphQL: ${JSON.stringify(body.errors)}`);
    return body.data;
  };
  const { createAccount } = await graphql('mutation { createAccount(name: "Load", defaultLocation: "US") { id } }');
  const { createUser } = await graphql(
    'mutation ($a: String!, $e: String!) { createUser(accountId: $a, email: $e) { id } }',
    { a: createAccount.id, e: `load-${createAccount.id}@example.com` },
  );
  const { createApiKey } = await graphql(
    'mutation ($u: String!) { createApiKey(userId: $u, name: "load") { secret } }',
    { u: createUser.id },
  );
  return { accountId: createAccount.id as string, apiKey: createApiKey.secret as string };
}

/** Resets the peak resident memory of `pid` (Linux: writing 5 to clear_refs). */
export function resetPeakMemory(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** A memory figure of `pid` from /proc/<pid>/status (VmHWM: the peak since the last reset; VmRSS: now), in MiB. */
function statusMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/** The peak resident memory of `pid` since the last reset, in MiB. */
export const peakMemoryMiB = (pid: number) => statusMiB(pid, 'VmHWM');

/** The resident memory of `pid` now, in MiB. */
export const residentMemoryMiB = (pid: number) => statusMiB(pid, 'VmRSS');

type LoadRun = Omit<LoadFigure, 'name' | 'baseline' | 'throughputRatio' | 'target' | 'pass'>;

async function runLoad(
  id: LoadFigure['id'],
  serve: { child: ChildProcess; baseUrl: string },
  apiKey: string,
  settings: LoadSettings,
): Promise<LoadRun> {
  const nextUpsert = upsertBodies(1);
  let listTurn = 0;
  const request: autocannon.Request =
    id === 'load-upsert'
      ? {
          method: 'PUT',
          path: '/api/v1/contacts/upsert',
          setupRequest: (req) => ({ ...req, body: JSON.stringify(nextUpsert()) }),
        }
      : {
          method: 'GET',
          setupRequest: (req) => ({
            ...req,
            path: `/api/v1/contacts?${new URLSearchParams({ limit: '100', ...LIST_QUERIES[listTurn++ % LIST_QUERIES.length] })}`,
          }),
        };
  resetPeakMemory(serve.child.pid!);
  const result = await autocannon({
    url: serve.baseUrl,
    connections: settings.connections,
    duration: settings.seconds,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    requests: [request],
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat?.count ?? 0]),
  );
  return {
    id,
    connections: settings.connections,
    seconds: settings.seconds,
    requests: result.requests.total,
    throughput: Math.round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    statusCodes,
    peakMemoryMiB: peakMemoryMiB(serve.child.pid!),
  };
}

/** The raw driver running `operation` from `loops` concurrent loops for `seconds`. */
export async function runBaseline(
  loops: number,
  seconds: number,
  operation: () => Promise<unknown>,
): Promise<LoadFigure['baseline']> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await operation();
        times.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] * 100) / 100;
  return { operations: times.length, throughput: Math.round(times.length / elapsed), p50: q(0.5), p99: q(0.99) };
}

const NAMES: Record<LoadFigure['id'], string> = {
  'load-upsert': 'Upsert under load (PUT /contacts/upsert, one in five an update)',
  'load-list': 'List under load (GET /contacts?limit=100: first page, name searches, a source filter)',
};

/** Both load runs on a fresh database of `kind`, then their baselines on the same data. */
export async function benchLoad(
  kind: DatabaseKind,
  settings: LoadSettings,
  log: (message: string) => void,
): Promise<LoadFigure[]> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-bench-load-'));
  let dataDir: string | null = null;
  let pgDatabase: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
  let env: Record<string, string>;
  if (kind === 'pglite') {
    dataDir = path.join(workDir, 'data');
    env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  } else {
    pgDatabase = await createTestDatabase('postgres');
    env = { DATABASE_URL: pgDatabase.url! };
  }
  try {
    const serve = await startServe(env, path.join(workDir, 'serve.log'));
    let runs: LoadRun[];
    let accountId: string;
    let baselineAccountId: string;
    try {
      const account = await createAccount(serve.baseUrl);
      accountId = account.accountId;
      // The upsert baseline writes into an Account of its own, so the list baseline reads what the list run read.
      baselineAccountId = (await createAccount(serve.baseUrl)).accountId;
      log(`   load: ${settings.connections} connections for ${settings.seconds} s on upsert…`);
      const upsert = await runLoad('load-upsert', serve, account.apiKey, settings);
      log(`   load: ${settings.connections} connections for ${settings.seconds} s on list…`);
      const list = await runLoad('load-list', serve, account.apiKey, settings);
      runs = [upsert, list];
    } finally {
      await serve.stop();
    }

    const db: Database = pgDatabase ? pgDatabase.db : await openDatabase({ dataDir: dataDir! });
    try {
      log(
        `   load baselines: the raw driver from ${settings.connections} loops for ${settings.baselineSeconds} s each…`,
      );
      const nextUpsert = upsertBodies(1);
      const upsertBaseline = await runBaseline(settings.connections, settings.baselineSeconds, () => {
        const body = nextUpsert();
        return db.sql.query(UPSERT_SQL, rawRow(baselineAccountId, body.phone, body.firstName, body.lastName));
      });
      let turn = 0;
      const listBaseline = await runBaseline(settings.connections, settings.baselineSeconds, () => {
        const sql = listQuerySql(
          accountId,
          ListQuerySchema.parse({ limit: 100, ...LIST_QUERIES[turn++ % LIST_QUERIES.length] }),
        );
        return db.sql.query(sql.text, sql.values);
      });
      const baselines = { 'load-upsert': upsertBaseline, 'load-list': listBaseline };
      return runs.map((run) => {
        const baseline = baselines[run.id];
        return {
          ...run,
          name: NAMES[run.id],
          baseline,
          throughputRatio: Math.round((run.throughput / baseline.throughput) * 100) / 100,
          target: 'errors 0',
          pass: run.errors === 0,
        };
      });
    } finally {
      if (!pgDatabase) await db.close();
    }
  } finally {
    await pgDatabase?.drop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
