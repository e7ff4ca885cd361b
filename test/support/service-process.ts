// Helpers that run the service in a child process (for crash, restart and log tests) and kill
// it. The child is service-child.ts, compiled as the `contactline` command is (bin/load-sources.js).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import { openDatabase } from '../../src/db/database.js';
import { generateSecret, hashSecret } from '../../src/domain/api-keys/api-keys.service.js';
import { createTestDatabase, pgliteDataDir, type DatabaseKind } from './databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  /** When the child said it was listening (Date.now() of this process). */
  listeningAt: number;
}

/** Node's arguments that run service-child.ts (from the repository root). */
export const SERVICE_CHILD_ARGS = [
  '--input-type=module',
  '-e',
  "import { loadSources } from './bin/load-sources.js'; await loadSources('test/support/service-child.ts');",
];

/** Starts the service in a child process with `env` and waits until it listens. */
export function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, SERVICE_CHILD_ARGS, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve({ child, baseUrl: JSON.parse(line).baseUrl, listeningAt: Date.now() });
    });
    child.on('exit', (code) => reject(new Error(`service exited (${code}) before listening: ${stderr}`)));
  });
}

/**
 * A database for service processes (a PGlite data directory, or a fresh PostgreSQL database),
 * migrated, with an Account, a user and an API key: the child's environment and the key. The
 * cleanups (drop the database, remove the directory) are pushed to `cleanups`.
 */
export async function databaseForServiceProcesses(
  kind: DatabaseKind,
  cleanups: Array<() => Promise<void>>,
  name: string,
): Promise<{ env: Record<string, string>; apiKey: string }> {
  let env: Record<string, string>;
  let seedDb: Awaited<ReturnType<typeof openDatabase>>;
  if (kind === 'pglite') {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), `cl-${name}-`));
    cleanups.push(async () => fs.rmSync(parent, { recursive: true, force: true }));
    const dir = await pgliteDataDir(parent, 'migrated');
    env = { DATA_DIR: dir, DATABASE_URL: '' };
    seedDb = await openDatabase({ dataDir: dir });
  } else {
    const test = await createTestDatabase('postgres');
    env = { DATABASE_URL: test.url! };
    seedDb = test.db;
    cleanups.push(async () => test.drop());
  }
  const account = await seedDb.prisma.account.create({ data: { createdAt: new Date(), name } });
  const user = await seedDb.prisma.user.create({
    data: { createdAt: new Date(), accountId: account.id, email: `${name}@example.com` },
  });
  const apiKey = generateSecret();
  await seedDb.prisma.apiKey.create({
    data: {
      createdAt: new Date(),
      accountId: account.id,
      userId: user.id,
      name: 'k',
      secretHash: hashSecret(apiKey),
      lastFour: apiKey.slice(-4),
    },
  });
  // The embedded database's directory is the child's alone (one process may open it).
  if (kind === 'pglite') await seedDb.close();
  return { env, apiKey };
}

/** Kills the child at once (SIGKILL: no shutdown code runs) and waits until it is gone. */
export async function killService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
