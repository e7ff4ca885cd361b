// End-to-end tests of the `contactline` CLI: the real bin, a temporary embedded database,
// operator commands with --json, then `serve` in the background and a CSV `import`.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess, type ProcessRun } from '../support/child-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/contactline.js');

let dataDir: string;
let workDir: string;

function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra };
  delete env.DATABASE_URL;
  delete env.CONTACTLINE_API_KEY;
  delete env.CONTACTLINE_URL;
  return env;
}

type Run = ProcessRun;

/** Runs the bin from an unrelated working directory (the bin must not depend on cwd). */
function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], { cwd: workDir, env: cliEnv(extraEnv) });
}

/** Runs a --json command and returns its one JSON object (stdout must hold nothing else). */
async function cliJson(args: string[], expectCode = 0): Promise<any> {
  const run = await cli([...args, '--json']);
  if (run.code !== expectCode)
    throw new Error(`${args.join(' ')} exited ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contactline-cli-data-'));
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contactline-cli-cwd-'));
});

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('contactline CLI', () => {
  const ids: { accountId?: string; userId?: string; keyId?: string; secret?: string; workflowId?: string } = {};
  let server: ChildProcess | undefined;
  let baseUrl = '';

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await new Promise((r) => server!.once('exit', r));
    }
  });

  it('compiles its sources into its cache from any working directory', async () => {
    // The CLI's bundle is rebuilt from the filesystem's root: a source path taken relative to
    // the caller's cwd but resolved against the repository would not exist. (Other files running
    // the CLI meanwhile see a missing manifest and rebuild too; writes are atomic.)
    const cache = path.join(ROOT, 'node_modules/.cache/contactline');
    const entry = path.join(ROOT, 'src/cli/main.ts');
    const name = `main-${crypto.createHash('sha256').update(entry).digest('hex').slice(0, 8)}`;
    fs.rmSync(path.join(cache, `${name}.build.json`), { force: true });
    const run = await runProcess(process.execPath, [BIN, '--help'], { cwd: '/', env: cliEnv() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: contactline/);
    const built = JSON.parse(fs.readFileSync(path.join(cache, `${name}.build.json`), 'utf8'));
    const inputs = Object.keys(built.inputs);
    expect(inputs).toContain(entry);
    for (const file of inputs) expect(fs.existsSync(file), file).toBe(true);
    expect(fs.existsSync(path.join(cache, built.entry))).toBe(true);
  });

  it('migrates a new embedded database; bad arguments exit non-zero with a message on stderr', async () => {
    // The argument checks never open the database, so they run alongside the migration.
    const [migrated, unknown, missing, badId, badRegion] = await Promise.all([
      cliJson(['migrate']),
      cli(['frobnicate']),
      cli(['accounts', 'create']),
      cli(['keys', 'revoke', 'not-a-uuid']),
      cli(['accounts', 'create', '--name', 'X', '--region', 'mars']),
    ]);
    expect(migrated).toMatchObject({ ok: true, database: 'pglite', dataDir });
    expect(migrated.applied.length).toBeGreaterThan(0);

    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--name/);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/must be a UUID/);
    expect(badRegion.code).toBe(2);
    expect(badRegion.stderr).toMatch(/us, eu/);
    for (const run of [unknown, missing, badId, badRegion]) expect(run.stdout).toBe('');
  }, 120_000);

  it('creates and configures an account, a user, a key and a workflow', async () => {
    const account = await cliJson(['accounts', 'create', '--name', 'CLI test', '--default-location', 'US']);
    expect(account.account).toMatchObject({ name: 'CLI test', defaultLocation: 'US' });
    ids.accountId = account.accountId;

    // With externalId as a dedup field every row would have a key (a null externalId gets
    // the contact's id), so use a custom field: a row with neither phone nor crm is missing one.
    const updated = await cliJson(['accounts', 'update', ids.accountId!, '--dedup-fields', 'phone,customFields.crm']);
    expect(updated.account.dedupFields).toEqual(['phone', 'customFields.crm']);

    const user = await cliJson([
      'users',
      'create',
      '--account',
      ids.accountId!,
      '--email',
      'ops@example.com',
      '--name',
      'Ops',
    ]);
    expect(user.user).toMatchObject({ accountId: ids.accountId, email: 'ops@example.com' });
    ids.userId = user.userId;

    const key = await cliJson(['keys', 'create', '--user', ids.userId!, '--name', 'importer']);
    expect(key.secret).toMatch(/^svc_pk_/);
    expect(key.key.lastFour).toBe(key.secret.slice(-4));
    ids.keyId = key.keyId;
    ids.secret = key.secret;

    const agent = await cliJson([
      'agents',
      'create',
      '--account',
      ids.accountId!,
      '--name',
      'Ava',
      '--status',
      'live',
      '--timezone',
      'Europe/Paris',
      '--attempt-limit',
      '4',
      '--working-hours',
      '{"mon":[{"start":"09:00","end":"12:00"}]}',
    ]);
    expect(agent.agent).toMatchObject({
      name: 'Ava',
      status: 'live',
      timezone: 'Europe/Paris',
      attemptLimit: 4,
      workingHours: { mon: [{ start: '09:00', end: '12:00' }] },
    });
    const updatedAgent = await cliJson([
      'agents',
      'update',
      agent.agentId,
      '--retry-delay',
      '30',
      '--call-immediately',
    ]);
    expect(updatedAgent.agent).toMatchObject({
      retryDelayMinutes: 30,
      callNewContactsImmediately: true,
      attemptLimit: 4,
    });
    const badZone = await cli([
      'agents',
      'create',
      '--account',
      ids.accountId!,
      '--name',
      'X',
      '--timezone',
      'Mars/Base',
      '--json',
    ]);
    expect(badZone.code).toBe(1);
    expect(badZone.stdout).toContain('bad_request');

    const workflow = await cliJson([
      'workflows',
      'create',
      '--account',
      ids.accountId!,
      '--name',
      'Outreach',
      '--agent',
      agent.agentId,
    ]);
    expect(workflow.workflow).toMatchObject({ status: 'draft', paused: false, agentId: agent.agentId });
    ids.workflowId = workflow.workflowId;

    const published = await cliJson(['workflows', 'publish', ids.workflowId!]);
    expect(published.workflow.status).toBe('published');
    const paused = await cliJson(['workflows', 'pause', ids.workflowId!]);
    expect(paused.workflow.paused).toBe(true);

    const blocked = await cliJson([
      'blocklist',
      'add',
      '--account',
      ids.accountId!,
      '--phone',
      '+1 415 555 0100',
      '--reason',
      'asked',
    ]);
    expect(blocked).toMatchObject({ ok: true, accountId: ids.accountId, phone: '+14155550100' });
  }, 180_000);

  it('stores, shows and removes provider credentials, never printing a secret; an agent on Retell', async () => {
    const env = { PROVIDER_CREDENTIALS_KEY: Buffer.alloc(32, 3).toString('base64') };
    const secretKey = 'key_retell_live_7c1f00d2e8a94b3f';
    const set = await cli(
      [
        'providers',
        'set',
        '--account',
        ids.accountId!,
        '--provider',
        'retell',
        '--max-concurrent-calls',
        '5',
        '--json',
      ],
      { ...env, PROVIDER_API_KEY: secretKey },
    );
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).credentials).toMatchObject({
      provider: 'retell',
      apiKeyLastFour: '4b3f',
      webhookSecretSet: false,
      maxConcurrentCalls: 5,
    });
    const shown = await cli(['providers', 'show', '--account', ids.accountId!], env);
    expect(shown.stdout).toContain('retell: key …4b3f');
    expect(shown.stdout + set.stdout).not.toContain(secretKey.slice(0, -4));
    const agent = await cli(
      [
        'agents',
        'create',
        '--account',
        ids.accountId!,
        '--name',
        'Rita',
        '--provider',
        'retell',
        '--provider-agent-id',
        'agent_abc',
        '--provider-phone-number',
        '+14155550123',
        '--json',
      ],
      env,
    );
    expect(JSON.parse(agent.stdout).agent).toMatchObject({
      provider: 'retell',
      providerAgentId: 'agent_abc',
      providerPhoneNumber: '+14155550123',
    });
    // Without the configured key nothing can be stored: a clear error, exit 1.
    const noKey = await cli([
      'providers',
      'set',
      '--account',
      ids.accountId!,
      '--provider',
      'vapi',
      '--api-key',
      'vapi-key-0123456789',
      '--webhook-secret',
      'secret-0123456789',
    ]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/PROVIDER_CREDENTIALS_KEY/);
    const removed = await cli(
      ['providers', 'remove', '--account', ids.accountId!, '--provider', 'retell', '--json'],
      env,
    );
    expect(JSON.parse(removed.stdout)).toMatchObject({ ok: true, removed: true });
  }, 120_000);

  it('reports domain errors with their message and exit code 1', async () => {
    const run = await cli(['workflows', 'resume', '00000000-0000-4000-8000-000000000000', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No workflow/);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('serves, and imports a CSV through the bulk API', async () => {
    server = spawn(process.execPath, [BIN, 'serve', '--json'], {
      cwd: workDir,
      env: cliEnv({ PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let serverErr = '';
    server.stderr!.on('data', (d) => (serverErr += d));
    const started = await new Promise<any>((resolve, reject) => {
      let buffer = '';
      server!.stdout!.on('data', (d) => {
        buffer += d;
        if (buffer.includes('\n')) resolve(JSON.parse(buffer.split('\n')[0]));
      });
      server!.once('exit', (code) => reject(new Error(`serve exited ${code}: ${serverErr}`)));
    });
    expect(started).toMatchObject({ ok: true, database: 'pglite', demo: null });
    baseUrl = started.url;

    // While the server holds the embedded database, operator commands say so.
    const locked = await cli(['keys', 'list', '--account', ids.accountId!]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/in use by process \d+/);

    const csv = path.join(workDir, 'contacts.csv');
    fs.writeFileSync(
      csv,
      '\ufeffFirst Name,Last Name,Phone Number,Country,External ID,Priority,Company,CRM\n' +
        'Ada,Lovelace,+1 415 555 2671,US,crm-1,5,Analytical,c1\n' +
        'Bad,Phone,12,US,crm-2,,Nowhere,c2\n' +
        'No,Dedup,,US,crm-3,,Ghost,\n' +
        'Grace,Hopper,(202) 555-0143,,crm-4,,Navy,c4\n',
    );
    const run = await cli([
      'import',
      csv,
      '--key',
      ids.secret!,
      '--url',
      baseUrl,
      '--json',
      '--map',
      'CRM=customFields.crm',
    ]);
    expect(run.code).toBe(1); // rows were rejected
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]);
    expect(summary).toMatchObject({ ok: false, rows: 4, sent: 4, accepted: 2, failedChunks: [], aborted: null });
    expect(summary.rejected).toEqual([
      { row: 2, line: 3, reason: 'invalid-phone' },
      { row: 3, line: 4, reason: 'missing-dedup-field' },
    ]);
    expect(summary.mapping).toMatchObject({
      'First Name': 'firstName',
      'Phone Number': 'phone',
      'External ID': 'externalId',
      Company: 'customFields.Company',
      CRM: 'customFields.crm',
    });
    expect(run.stderr).toMatch(/4\/4 rows/); // the progress bar, on stderr

    // The bulk write lands shortly after the 202.
    let contacts: any[] = [];
    for (let i = 0; i < 40 && contacts.length < 2; i++) {
      const res = await fetch(`${baseUrl}/api/v1/contacts?sourceKind=csv`, {
        headers: { authorization: `Bearer ${ids.secret}` },
      });
      expect(res.status).toBe(200);
      contacts = ((await res.json()) as { data: any[] }).data;
      if (contacts.length < 2) await new Promise((r) => setTimeout(r, 250));
    }
    const byExternalId = Object.fromEntries(contacts.map((c) => [c.externalId, c]));
    expect(byExternalId['crm-1']).toMatchObject({
      firstName: 'Ada',
      phone: '+14155552671',
      priority: 5,
      customFields: { Company: 'Analytical', crm: 'c1' },
    });
    expect(byExternalId['crm-4']).toMatchObject({ firstName: 'Grace', phone: '+12025550143' });

    // A 400 naming one row (an unknown status): that row is reported with the API's reason,
    // and the rest of its chunk is sent again and imported.
    const bad = path.join(workDir, 'bad.csv');
    fs.writeFileSync(bad, 'name,phone,status\nX,+14155550111,bogus\nY,+14155550112,new\n');
    const badRun = await cli(['import', bad, '--key', ids.secret!, '--url', baseUrl, '--json', '--no-progress']);
    expect(badRun.code).toBe(1);
    const badSummary = JSON.parse(badRun.stdout);
    expect(badSummary).toMatchObject({ rows: 2, sent: 2, accepted: 1, failedChunks: [] });
    expect(badSummary.rejected).toEqual([
      { row: 1, line: 2, reason: 'invalid-field', message: expect.stringMatching(/^status: /) },
    ]);

    // A chunk the service refuses as a whole (an unknown workflow would; a wrong path does
    // here: 404) is reported once, with its rows' range, and stops the import.
    const wrongUrl = await cli([
      'import',
      bad,
      '--key',
      ids.secret!,
      '--url',
      `${baseUrl}/nowhere`,
      '--json',
      '--no-progress',
    ]);
    expect(wrongUrl.code).toBe(1);
    const wrongSummary = JSON.parse(wrongUrl.stdout);
    expect(wrongSummary).toMatchObject({
      accepted: 0,
      rejected: [],
      failedChunks: [{ fromRow: 1, toRow: 2, rows: 2, status: 404, code: 'not_found' }],
    });
    expect(wrongSummary.aborted).toBeTruthy();

    // Graceful stop on SIGTERM.
    const exited = new Promise<number | null>((r) => server!.once('exit', (code) => r(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 180_000);

  it('revokes and lists keys once the server is stopped', async () => {
    const revoked = await cliJson(['keys', 'revoke', ids.keyId!]);
    expect(revoked.key.revokedAt).toBeTruthy();
    const list = await cliJson(['keys', 'list', '--account', ids.accountId!]);
    expect(list.keys).toEqual([expect.objectContaining({ id: ids.keyId, revokedAt: expect.any(String) })]);

    // A key with scopes and an expiry; an unknown scope is refused and creates nothing.
    const scoped = await cli([
      'keys',
      'create',
      '--user',
      ids.userId!,
      '--name',
      'reader',
      '--scope',
      'calls:read',
      '--scope',
      'contacts:read',
      '--expires',
      '2099-01-01T00:00:00Z',
    ]);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(scoped.stdout).toContain('Scopes: contacts:read, calls:read; expires: 2099-01-01T00:00:00.000Z');
    const refused = await cli(['keys', 'create', '--user', ids.userId!, '--name', 'x', '--scope', 'contacts:admin']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/a scope is one of contacts:read/);
    const both = await cli(['keys', 'list', '--account', ids.accountId!]);
    expect(both.stdout).toMatch(/reader .* contacts:read,calls:read {2}expires 2099-01-01T00:00:00\.000Z/);
    expect((await cliJson(['keys', 'list', '--account', ids.accountId!])).keys).toHaveLength(2);

    // Removing the user revokes the keys they still hold.
    const removed = await cli(['users', 'remove', '--user', ids.userId!]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/^Removed user [0-9a-f-]{36} \(.+\) from account /);
    const after = (await cliJson(['keys', 'list', '--account', ids.accountId!])).keys as Array<{
      revokedAt: string | null;
    }>;
    expect(after.every((key) => key.revokedAt !== null)).toBe(true);
    expect((await cli(['users', 'remove', '--user', 'not-a-uuid'])).code).not.toBe(0);
  }, 120_000);
});
