// `contactline calling-policy get` and `set`: the real bin, as processes, on each database (an
// embedded data directory, or a PostgreSQL database), then the real service on the same database:
// what the operator set is what the API reads, with `operator` as who changed it. On PostgreSQL
// the operator also changes the policy while the service runs, and the API sees it at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { generateSecret, hashSecret } from '../../src/domain/api-keys/api-keys.service.js';
import { runProcess, type ProcessRun } from '../support/child-process.js';
import { createTestDatabase, pgliteDataDir, testDatabaseKinds } from '../support/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/contactline.js');

describe.each(testDatabaseKinds())('contactline calling-policy on %s', (kind) => {
  const cleanups: Array<() => Promise<void>> = [];
  let databaseEnv: Record<string, string>;
  let workDir: string;
  let accountId: string;
  let apiKey: string;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-calling-policy-'));
    cleanups.push(async () => fs.rmSync(workDir, { recursive: true, force: true }));
    let db: Awaited<ReturnType<typeof openDatabase>>;
    if (kind === 'pglite') {
      const dir = await pgliteDataDir(workDir, 'migrated');
      databaseEnv = { DATA_DIR: dir };
      db = await openDatabase({ dataDir: dir });
    } else {
      const test = await createTestDatabase('postgres');
      databaseEnv = { DATABASE_URL: test.url as string };
      db = test.db;
      cleanups.push(() => test.drop());
    }
    // An Account with a user and an API key, for the service's API at the end.
    const account = await db.prisma.account.create({ data: { createdAt: new Date(), name: 'Calling policy CLI' } });
    const user = await db.prisma.user.create({
      data: { createdAt: new Date(), accountId: account.id, email: `ops-${randomUUID()}@example.com` },
    });
    apiKey = generateSecret();
    await db.prisma.apiKey.create({
      data: {
        createdAt: new Date(),
        accountId: account.id,
        userId: user.id,
        name: 'k',
        secretHash: hashSecret(apiKey),
        lastFour: apiKey.slice(-4),
      },
    });
    accountId = account.id;
    // The embedded database's directory is one process's at a time: the CLI's, then the service's.
    if (kind === 'pglite') await db.close();
  });

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    }
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const out: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...databaseEnv, ...extra };
    if (kind === 'pglite') delete out.DATABASE_URL;
    return out;
  }

  const cli = (args: string[]): Promise<ProcessRun> =>
    runProcess(process.execPath, [BIN, ...args], { cwd: workDir, env: env() });

  /** A --json run: its one JSON object (stdout holds nothing else), after checking its exit code. */
  async function cliJson(args: string[], expectCode = 0): Promise<any> {
    const run = await cli([...args, '--json']);
    expect(run.code, `${args.join(' ')}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(expectCode);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    return { ...JSON.parse(lines[0]), stderr: run.stderr };
  }

  it('refuses bad arguments before opening the database (exit 2, the reason on stderr)', async () => {
    const runs = await Promise.all([
      cli(['calling-policy', 'set', '--account', accountId, '--attempt-cap', '3/day']),
      cli(['calling-policy', 'set', '--account', accountId]),
      cli(['calling-policy', 'set', '--account', accountId, '--purpose', 'sales']),
      cli(['calling-policy', 'set', '--account', accountId, '--require-written-consent', 'maybe']),
      cli([
        'calling-policy',
        'set',
        '--account',
        accountId,
        '--disable-jurisdiction',
        'US-FL',
        '--enable-jurisdiction',
        'us-fl',
      ]),
      cli(['calling-policy', 'get', '--account', 'not-a-uuid']),
    ]);
    const [badCap, nothing, badPurpose, badBoolean, both, badId] = runs;
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
    }
    expect(badCap.stderr).toMatch(/--attempt-cap .*must be <calls>\/<hours>h, e\.g\. 3\/24h/);
    expect(nothing.stderr).toMatch(/give at least one option to change/);
    expect(badPurpose.stderr).toMatch(/telemarketing, informational/);
    expect(badBoolean.stderr).toMatch(/true, false/);
    expect(both.stderr).toMatch(/US-FL is both disabled and enabled/);
    expect(badId.stderr).toMatch(/must be a UUID/);
  }, 60_000);

  it('gets the defaults, sets each field, turns jurisdictions off and back on, and lists the changes', async () => {
    const defaults = await cliJson(['calling-policy', 'get', '--account', accountId]);
    expect(defaults).toMatchObject({
      ok: true,
      accountId,
      policy: {
        purpose: 'telemarketing',
        requireWrittenConsent: false,
        attemptCap: null,
        disabledJurisdictions: [],
        updatedAt: null,
      },
      changes: [],
    });
    expect(defaults.policy.jurisdictions).toEqual(expect.arrayContaining(['US', 'US-FL', 'FR']));

    const set = await cliJson([
      'calling-policy',
      'set',
      '--account',
      accountId,
      '--purpose',
      'informational',
      '--require-written-consent',
      'true',
      '--attempt-cap',
      '3/24h',
      '--disable-jurisdiction',
      'us-fl',
      '--disable-jurisdiction',
      'US-TX,GB',
    ]);
    expect(set.policy).toMatchObject({
      purpose: 'informational',
      requireWrittenConsent: true,
      attemptCap: { max: 3, periodHours: 24 },
      updatedBy: 'operator',
    });
    expect(set.policy.disabledJurisdictions.map((d: { jurisdiction: string }) => d.jurisdiction)).toEqual([
      'GB',
      'US-FL',
      'US-TX',
    ]);
    expect(set.policy.disabledJurisdictions[0].disabledBy).toBe('operator');
    expect(set.stderr).toMatch(/no longer applies the rules of US-FL, US-TX, GB .*the Account's responsibility/);

    // Florida back on, the cap removed; the other fields and jurisdictions keep their values.
    const changed = await cliJson([
      'calling-policy',
      'set',
      '--account',
      accountId,
      '--enable-jurisdiction',
      'US-FL',
      '--attempt-cap',
      'none',
    ]);
    expect(changed.policy).toMatchObject({ purpose: 'informational', requireWrittenConsent: true, attemptCap: null });
    expect(changed.policy.disabledJurisdictions.map((d: { jurisdiction: string }) => d.jurisdiction)).toEqual([
      'GB',
      'US-TX',
    ]);
    // Who turned a jurisdiction off, and when, stays as it was.
    expect(changed.policy.disabledJurisdictions[1]).toEqual(set.policy.disabledJurisdictions[2]);

    const read = await cliJson(['calling-policy', 'get', '--account', accountId]);
    expect(read.policy).toEqual(changed.policy);
    expect(read.changes).toEqual([
      {
        at: changed.policy.updatedAt,
        actor: 'operator',
        change: {
          attemptCap: { from: { max: 3, periodHours: 24 }, to: null },
          disabledJurisdictions: { from: ['GB', 'US-FL', 'US-TX'], to: ['GB', 'US-TX'] },
        },
      },
      {
        at: set.policy.updatedAt,
        actor: 'operator',
        change: {
          purpose: { from: 'telemarketing', to: 'informational' },
          requireWrittenConsent: { from: false, to: true },
          attemptCap: { from: null, to: { max: 3, periodHours: 24 } },
          disabledJurisdictions: { from: [], to: ['GB', 'US-FL', 'US-TX'] },
        },
      },
    ]);

    // Without --json: the policy in lines, then the changes.
    const human = await cli(['calling-policy', 'get', '--account', accountId]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`Calling policy of account ${accountId}`);
    expect(human.stdout).toMatch(/purpose: +informational/);
    expect(human.stdout).toMatch(/own attempt cap: +none/);
    expect(human.stdout).toMatch(/jurisdictions off: +GB \(since .*, by operator\), US-TX/);
    expect(human.stdout).toContain('attemptCap {"max":3,"periodHours":24} → null');
  }, 120_000);

  it("reports the domain's refusals with their code (exit 1), changing nothing", async () => {
    const [unknownJurisdiction, zeroCap, unknownAccount] = await (async () => {
      // One at a time: an embedded database is opened by one process at once.
      const out = [];
      out.push(await cliJson(['calling-policy', 'set', '--account', accountId, '--disable-jurisdiction', 'XX-YY'], 1));
      out.push(await cliJson(['calling-policy', 'set', '--account', accountId, '--attempt-cap', '0/24h'], 1));
      out.push(await cliJson(['calling-policy', 'get', '--account', randomUUID()], 1));
      return out;
    })();
    expect(unknownJurisdiction).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(unknownJurisdiction.error.message).toMatch(/^disabledJurisdictions\[\d\]: unknown jurisdiction/);
    expect(zeroCap.error).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^attemptCap\.max: /) });
    expect(unknownAccount.error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/^No account /) });
    // Nothing was recorded: the service's API below still lists the two changes.
  }, 120_000);

  it('the service on the same database reads what the operator set, as the operator’s change', async () => {
    server = spawn(process.execPath, [BIN, 'serve', '--json'], {
      cwd: workDir,
      env: env({ PORT: '0', HOST: '127.0.0.1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let serverErr = '';
    server.stderr?.on('data', (d) => {
      serverErr += d;
    });
    const started = await new Promise<{ url: string }>((resolve, reject) => {
      let buffer = '';
      server?.stdout?.on('data', (d) => {
        buffer += d;
        if (buffer.includes('\n')) resolve(JSON.parse(buffer.split('\n')[0]));
      });
      server?.once('exit', (code) => reject(new Error(`serve exited ${code}: ${serverErr}`)));
    });
    const api = async (route: string) => {
      const res = await fetch(`${started.url}/api/v1${route}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(res.status, route).toBe(200);
      return (await res.json()) as any;
    };
    expect(await api('/calling-policy')).toMatchObject({
      purpose: 'informational',
      requireWrittenConsent: true,
      attemptCap: null,
      disabledJurisdictions: [{ jurisdiction: 'GB' }, { jurisdiction: 'US-TX' }],
      updatedBy: 'operator',
    });
    const changes = (await api('/calling-policy/changes')).data;
    expect(changes.map((c: { actor: string }) => c.actor)).toEqual(['operator', 'operator']);
    expect(Object.keys(changes[1].change).sort()).toEqual([
      'attemptCap',
      'disabledJurisdictions',
      'purpose',
      'requireWrittenConsent',
    ]);

    if (kind === 'postgres') {
      // PostgreSQL takes both processes: a change while the service runs is what its next request reads.
      const set = await cliJson(['calling-policy', 'set', '--account', accountId, '--purpose', 'telemarketing']);
      expect(set.policy.purpose).toBe('telemarketing');
      expect((await api('/calling-policy')).purpose).toBe('telemarketing');
      expect((await api('/calling-policy/changes')).data).toHaveLength(3);
    } else {
      // The embedded database is the service's while it runs: the operator is told so.
      const locked = await cli(['calling-policy', 'get', '--account', accountId]);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toMatch(/in use by process \d+/);
    }
    const exited = new Promise<number | null>((resolve) => server?.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
