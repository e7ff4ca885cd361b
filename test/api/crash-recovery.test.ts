// A bulk import whose process is killed (SIGKILL) right after the 202 finishes after a
// restart, with nothing lost and nothing doubled.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { generateSecret, hashSecret } from '../../src/domain/api-keys/api-keys.service.js';
import { createTestDatabase, testDatabaseKinds, type DatabaseKind } from '../support/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/service-process.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve({ child, baseUrl: JSON.parse(line).baseUrl });
    });
    child.on('exit', (code) => reject(new Error(`service exited (${code}) before listening: ${stderr}`)));
  });
}

function contactsBatch(batch: number) {
  return Array.from({ length: 1000 }, (_, i) => ({
    sourceKind: 'csv',
    externalId: `b${batch}-${i}`,
    firstName: `Name${i}`,
    phone: `+1415${batch + 1}${String(i).padStart(6, '0')}`,
  }));
}

describe.each(testDatabaseKinds())('bulk import survives a crash on %s', (kind: DatabaseKind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it('finishes every accepted batch after a SIGKILL and restart', async () => {
    let env: Record<string, string>;
    let seedDb;
    if (kind === 'pglite') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-crash-'));
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
      env = { DATA_DIR: dir, DATABASE_URL: '' };
      seedDb = await openDatabase({ dataDir: dir });
      await migrate(seedDb.sql);
    } else {
      const test = await createTestDatabase('postgres');
      env = { DATABASE_URL: test.url! };
      seedDb = test.db;
      cleanups.push(async () => test.drop());
    }
    const account = await seedDb.prisma.account.create({ data: { createdAt: new Date(), name: 'crash' } });
    const user = await seedDb.prisma.user.create({ data: { createdAt: new Date(), accountId: account.id, email: 'c@example.com' } });
    const key = generateSecret();
    await seedDb.prisma.apiKey.create({ data: { createdAt: new Date(), accountId: account.id, userId: user.id, name: 'k', secretHash: hashSecret(key), lastFour: key.slice(-4) } });
    if (kind === 'pglite') await seedDb.close();

    const first = await startChild(env);
    const post = (batch: number) =>
      fetch(`${first.baseUrl}/api/v1/contacts/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ contacts: contactsBatch(batch) }),
      }).then((r) => r.json() as Promise<{ accepted: number }>);
    // Three batches at once; the process is killed the moment the last 202 arrives, while
    // at least one batch is still being written or waiting.
    const answers = await Promise.all([post(1), post(2), post(3)]);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const accepted = answers.reduce((n, a) => n + a.accepted, 0);
    expect(accepted).toBe(3000);

    const second = await startChild(env);
    try {
      const deadline = Date.now() + 20_000;
      let count = 0;
      for (;;) {
        const res = await fetch(`${second.baseUrl}/api/v1/contacts?limit=1&searchTerm=Name`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        const db = kind === 'postgres' ? seedDb : null;
        if (db) {
          const rows = await db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "Contact" WHERE "accountId" = $1`, [account.id]);
          count = Number(rows.rows[0].n);
        } else {
          // PGlite is owned by the child: count through the API's pages.
          count = await countThroughApi(second.baseUrl, key);
        }
        if (count >= 3000 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(count).toBe(3000);
      const externalIds = new Set<string>();
      let token: string | undefined;
      do {
        const res = await fetch(`${second.baseUrl}/api/v1/contacts?limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
        const page = (await res.json()) as { data: Array<{ externalId: string }>; nextToken?: string };
        for (const c of page.data) externalIds.add(c.externalId);
        token = page.nextToken;
      } while (token);
      expect(externalIds.size).toBe(3000);
    } finally {
      second.child.kill('SIGKILL');
      await new Promise((r) => second.child.once('exit', r));
    }
  }, 90_000);
});

async function countThroughApi(baseUrl: string, key: string): Promise<number> {
  let n = 0;
  let token: string | undefined;
  do {
    const res = await fetch(`${baseUrl}/api/v1/contacts?limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
    const page = (await res.json()) as { data: unknown[]; nextToken?: string };
    n += page.data.length;
    token = page.nextToken;
  } while (token);
  return n;
}
