// `contactline dnc import` and `dnc list` against a real service on each database: a US file
// (in its several written forms) is streamed and stored, in text and in --json; a file of a
// million lines whose line 120,001 is malformed is refused naming that line, and nothing of it is
// stored, though the service answered while the file was still being sent; a bad key fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/child-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/contactline.js');

describe.each(testDatabaseKinds())('CLI dnc import on %s', (kind) => {
  let server: TestServer;
  let apiKey: string;
  let dir: string;
  let today: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ apiKey } = await server.createAccount());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-dnc-'));
    today = server.now().toISOString().slice(0, 10);
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[], key = apiKey) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
    delete env.CONTACTLINE_API_KEY;
    delete env.CONTACTLINE_URL;
    return runProcess(process.execPath, [BIN, 'dnc', ...args, '--key', key, '--url', server.baseUrl], {
      cwd: dir,
      env,
    });
  };
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('streams a registry file and prints what was stored, in --json and as text', async () => {
    const file = write('415.txt', '# area code 415\n4155550123\n415,5550124\n(415) 555-0125\n\n');
    const run = await cli([
      'import',
      '--registry',
      'us_national',
      '--downloaded-at',
      today,
      '--area-codes',
      '628',
      file,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: true,
      registry: 'us_national',
      downloadedAt: `${today}T00:00:00.000Z`,
      lines: 5,
      numbers: 3,
      scopes: ['415', '628'],
    });

    const text = await cli(['import', '--registry', 'us_national', '--downloaded-at', today, file]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`3 numbers of us_national downloaded ${today}T00:00:00.000Z`);
    expect(text.stdout).toContain('Copies replaced: 415.');
    expect(text.stdout).toMatch(/Stored: [\d,]+ bytes \([\d.]+ bytes a number\)\./);

    const list = await cli(['list']);
    expect(list.stdout.trim().split('\n')).toEqual([
      `us_national 415: 3 numbers, downloaded ${today}, fresh (until ${new Date(Date.parse(today) + 31 * 86_400_000).toISOString().slice(0, 10)})`,
      `us_national 628: 0 numbers, downloaded ${today}, fresh (until ${new Date(Date.parse(today) + 31 * 86_400_000).toISOString().slice(0, 10)})`,
    ]);
  });

  it('a malformed line deep in a large file: refused naming it, nothing stored', async () => {
    const before = await server.request(apiKey, 'GET', '/api/v1/dnc-registries');
    const lines = Array.from({ length: 1_000_000 }, (_, i) => `2125${String(i).padStart(6, '0')}`);
    lines[120_000] = '212555';
    const file = write('212.txt', `${lines.join('\n')}\n`);
    const run = await cli(['import', '--registry', 'us_national', '--downloaded-at', today, file, '--json']);
    expect(run.code, run.stderr).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(run.stderr).toContain('line 120001: 6 digits (expected ten: area code and number)');
    expect((await server.request(apiKey, 'GET', '/api/v1/dnc-registries')).json).toEqual(before.json);
  }, 120_000);

  it('a bad key, a file that is not there, a registry that is not one: each said plainly', async () => {
    const file = write('ok.txt', '4155550123\n');
    const unknownKey = await cli(['import', '--registry', 'us_national', '--downloaded-at', today, file], 'svc_pk_x');
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toMatch(/HTTP 401/);
    const missing = await cli(['import', '--registry', 'us_national', '--downloaded-at', today, 'nope.txt']);
    expect({ code: missing.code, stderr: missing.stderr }).toMatchObject({ code: 1, stderr: /No such file/ });
    const registry = await cli(['import', '--registry', 'us', '--downloaded-at', today, file]);
    expect(registry.code).toBe(2);
    expect(registry.stderr).toMatch(/us_national/);
  });
});
