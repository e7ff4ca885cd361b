// `contactline serve` children of the topology, as production runs them: an API process or a
// worker (SERVICE_ROLE / --role), its DATABASE_URL through PgBouncer, DATABASE_DIRECT_URL to the
// primary (migrations, the per-process session advisory lock), DATABASE_READ_URL to the replica
// (lists, searches, CSV pages, workflow results). Each is ready once its /readyz answers 200.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, runChecked, spawnLogged, waitUntil, type LoggedChild } from './processes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = path.join(ROOT, 'bin/contactline.js');

/** The roles of `contactline serve --role` (env SERVICE_ROLE). */
export type ServiceRole = 'api' | 'worker' | 'all';

/** A process's role: the flag of `serve --role` (SERVICE_ROLE would say the same). */
function roleSettings(role: ServiceRole): { args: string[]; env: Record<string, string> } {
  return { args: ['--role', role], env: {} };
}

/** How every process of one topology reaches the databases. */
export interface DatabaseUrls {
  /** The pooler (PgBouncer, transaction mode) in front of the primary. */
  pooled: string;
  /** The primary itself. */
  direct: string;
  /** The streaming replica. */
  read: string;
}

/** The database variables of a service process. */
export function databaseEnv(urls: DatabaseUrls): Record<string, string> {
  return {
    DATABASE_URL: urls.pooled,
    DATABASE_DIRECT_URL: urls.direct,
    DATABASE_READ_URL: urls.read,
  };
}

/** Settings every process of one topology shares (the operator token, the webhook secrets' key). */
export interface SharedSettings {
  adminToken: string;
  webhookSecretsKey: string;
  /** More variables for every process (rate limits, the simulator's speed…). */
  env: Record<string, string>;
}

export function sharedSettings(env: Record<string, string> = {}): SharedSettings {
  return {
    adminToken: `topology-operator-${randomBytes(12).toString('hex')}`,
    webhookSecretsKey: randomBytes(32).toString('base64'),
    env,
  };
}

export interface ServiceProcess {
  name: string;
  role: ServiceRole;
  port: number;
  baseUrl: string;
  process: LoggedChild;
  pid: number;
  /** SIGKILL: the process dies with whatever it was doing. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** `contactline migrate` on the primary (directly: migrations need a session). */
export async function migrate(urls: DatabaseUrls, logDir: string): Promise<void> {
  const run = await runChecked(process.execPath, [CLI, 'migrate'], {
    ...process.env,
    DATABASE_URL: urls.direct,
    DATA_DIR: logDir,
    LOG_LEVEL: 'warn',
  });
  fs.writeFileSync(path.join(logDir, 'migrate.log'), run.stdout + run.stderr);
}

/** Starts `contactline serve` in the role and waits until its /readyz answers 200. */
export async function startServiceProcess(options: {
  name: string;
  role: ServiceRole;
  urls: DatabaseUrls;
  shared: SharedSettings;
  dir: string;
  port?: number;
  timeoutMs?: number;
}): Promise<ServiceProcess> {
  const { name, role, urls, shared, dir } = options;
  const port = options.port ?? (await freePort());
  const dataDir = path.join(dir, `${name}-data`);
  fs.mkdirSync(dataDir, { recursive: true });
  const settings = roleSettings(role);
  const child = spawnLogged(process.execPath, [CLI, 'serve', ...settings.args], path.join(dir, `${name}.log`), {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...shared.env,
      ...databaseEnv(urls),
      ...settings.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_TOKEN: shared.adminToken,
      WEBHOOK_SECRETS_KEY: shared.webhookSecretsKey,
      // The test's webhook receiver listens on 127.0.0.1 over plain http.
      WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(
    `${name} (${role}) ready`,
    async () => {
      if (child.exited())
        throw new Error(`exited (${child.child.exitCode ?? child.child.signalCode}): ${child.tail()}`);
      const res = await fetch(`${baseUrl}/readyz`);
      await res.arrayBuffer();
      return res.status === 200;
    },
    { timeoutMs: options.timeoutMs ?? 60_000, everyMs: 150 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n--- ${name} log ---\n${child.tail()}`);
  });
  return {
    name,
    role,
    port,
    baseUrl,
    process: child,
    pid: child.child.pid!,
    async kill() {
      await child.stop('SIGKILL');
    },
    stop: () => child.stop('SIGTERM', 10_000),
  };
}
