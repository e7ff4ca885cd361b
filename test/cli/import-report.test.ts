// `contactline import` of a messy CSV against a real service on each database: bad phones
// spread over three chunks (28 in the first, more than the 20 items one 400 names), a number
// the service rejects after parsing it, a record with too many fields, and an unclosed quote
// on the last line. Exactly the bad rows are reported, each once with its row, line and
// reason, in text and in --json, and every other row is stored. And a 429 is waited out.
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/child-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/contactline.js');
const ROWS = 2500;
const BAD_FORMAT = new Set([3, ...Array.from({ length: 25 }, (_, i) => 100 + i), 998, 1000, 1001, 1500, 2450]);
const INVALID_NUMBER = 2000;
const TOO_MANY_FIELDS = 1200;
const UNCLOSED_QUOTE = ROWS;
const PHONE_FORMAT =
  'phone: must be digits with an optional leading + or 00, and only spaces, parentheses, dots or hyphens between them';

function messyCsv(): string {
  const lines = ['First Name,Last Name,Phone,External ID'];
  for (let row = 1; row <= ROWS; row++) {
    const phone = BAD_FORMAT.has(row) ? 'call-me' : row === INVALID_NUMBER ? '12' : `+1 415 ${7000000 + row}`;
    if (row === TOO_MANY_FIELDS) lines.push(`Name${row},Last${row},${phone},ext-${row},surplus`);
    else if (row === UNCLOSED_QUOTE) lines.push(`"Name${row},Last${row},${phone},ext-${row}`);
    else lines.push(`Name${row},Last${row},${phone},ext-${row}`);
  }
  return `${lines.join('\n')}\n`;
}

const expectedRejections = (): Array<{ row: number; line: number; reason: string; message?: string }> =>
  [
    ...[...BAD_FORMAT].map((row) => ({ row, line: row + 1, reason: 'invalid-field', message: PHONE_FORMAT })),
    { row: INVALID_NUMBER, line: INVALID_NUMBER + 1, reason: 'invalid-phone' },
    {
      row: TOO_MANY_FIELDS,
      line: TOO_MANY_FIELDS + 1,
      reason: 'malformed-record',
      message: 'the record has 5 fields; the header has 4',
    },
    {
      row: UNCLOSED_QUOTE,
      line: UNCLOSED_QUOTE + 1,
      reason: 'malformed-record',
      message: 'a quote opened on this line is never closed',
    },
  ].sort((a, b) => a.row - b.row);

describe.each(testDatabaseKinds())('CLI import of a messy CSV on %s', (kind) => {
  let server: TestServer;
  let apiKey: string;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ apiKey } = await server.createAccount({ defaultLocation: 'US' }));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-import-'));
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const importFile = (file: string, json: boolean) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
    delete env.CONTACTLINE_API_KEY;
    delete env.CONTACTLINE_URL;
    return runProcess(
      process.execPath,
      [BIN, 'import', file, '--key', apiKey, '--url', server.baseUrl, '--no-progress', ...(json ? ['--json'] : [])],
      { cwd: dir, env },
    );
  };

  const storedExternalIds = async (): Promise<string[]> => {
    const ids: string[] = [];
    let token: string | undefined;
    do {
      const res = await server.request(
        apiKey,
        'GET',
        `/api/v1/contacts?limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
      );
      expect(res.status).toBe(200);
      ids.push(...res.json.data.map((c: { externalId: string }) => c.externalId));
      token = res.json.nextToken;
    } while (token);
    return ids;
  };

  it('drops exactly the bad rows, reports each once, and stores the rest', async () => {
    const file = path.join(dir, 'messy.csv');
    fs.writeFileSync(file, messyCsv());
    const run = await importFile(file, true);
    expect(run.code, run.stderr).toBe(1); // rows were rejected
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]);
    const rejected = expectedRejections();
    expect(summary).toMatchObject({
      ok: false,
      rows: ROWS,
      sent: ROWS - 2,
      accepted: ROWS - rejected.length,
      failedChunks: [],
      notSent: 0,
      aborted: null,
    });
    expect(summary.rejected).toEqual(rejected);
    // One entry per rejected row, not one per row of a refused chunk.
    expect(run.stdout.length).toBeLessThan(15_000);

    const good = Array.from({ length: ROWS }, (_, i) => i + 1)
      .filter((row) => !rejected.some((r) => r.row === row))
      .map((row) => `ext-${row}`);
    const stored = await server.eventually(async () => {
      const ids = await storedExternalIds();
      return ids.length >= good.length ? ids : undefined;
    }, 30_000);
    expect(stored.sort()).toEqual(good.sort());
  }, 120_000);

  it('prints the same report as text: each rejected row once with its line and reason', async () => {
    const file = path.join(dir, 'messy-again.csv');
    fs.writeFileSync(file, messyCsv());
    const run = await importFile(file, false);
    expect(run.code).toBe(1);
    const rejected = expectedRejections();
    expect(run.stdout).toContain(
      `${ROWS} row(s), ${ROWS - 2} sent, ${ROWS - rejected.length} accepted, ${rejected.length} rejected.`,
    );
    const rowLines = run.stdout.split('\n').filter((line) => /^ {2}row \d+ /.test(line));
    expect(rowLines).toEqual(
      rejected.map((r) => `  row ${r.row} (line ${r.line}): ${r.reason}${r.message ? ` — ${r.message}` : ''}`),
    );
    expect(run.stdout).not.toMatch(/were not imported/);
    expect(run.stderr).toContain(`import finished with ${rejected.length} row(s) not imported`);
  }, 120_000);
});

describe('CLI import against a service that asks it to slow down', () => {
  it('sends a chunk again after the Retry-After of a 429, and counts it once', async () => {
    // A stand-in for the bulk endpoint: the first request is over the limit, the next accepted.
    const bodies: Array<{ contacts: unknown[] }> = [];
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        bodies.push(JSON.parse(text));
        if (bodies.length === 1) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
          res.end(
            JSON.stringify({ error: 'Too Many Requests', message: 'slow down', code: 'rate_limited', requestId: 'r' }),
          );
        } else {
          res.writeHead(202, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ accepted: bodies[bodies.length - 1].contacts.length, rejected: [] }));
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-import-429-'));
    try {
      const file = path.join(dir, 'two.csv');
      fs.writeFileSync(file, 'name,phone\nAda,+14155550101\nGrace,+14155550102\n');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await runProcess(
        process.execPath,
        [BIN, 'import', file, '--key', 'svc_pk_test', '--url', url, '--no-progress', '--json'],
        { cwd: dir, env: { ...process.env, LOG_LEVEL: 'silent' } },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        ok: true,
        rows: 2,
        sent: 2,
        accepted: 2,
        rejected: [],
        failedChunks: [],
      });
      expect(bodies).toHaveLength(2);
      expect(bodies[1]).toEqual(bodies[0]);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
