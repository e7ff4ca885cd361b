// PgBouncer in transaction pooling mode in front of the primary, as the service's DATABASE_URL
// sees it in production: a client's transaction gets a server connection, its session does not
// (no named prepared statements, no session advisory locks, no SET outside a transaction). Runs
// as the `postgres` OS user (it refuses root) in the foreground; its pid file is what stop()
// signals, since runuser does not pass SIGKILL on.
import fs from 'node:fs';
import path from 'node:path';
import { PGBOUNCER } from './binaries.js';
import type { Cluster } from './postgres-cluster.js';
import { DB_OS_USER, dbOwner, freePort, signalPid, spawnLogged, waitUntil, type LoggedChild } from './processes.js';
import pg from 'pg';

export interface PgBouncer {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<database> through the pooler. */
  url(database?: string): string;
  process: LoggedChild;
  stop(): Promise<void>;
}

export async function startPgBouncer(dir: string, primary: Cluster, database: string): Promise<PgBouncer> {
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const authFile = path.join(dir, 'pgbouncer-users.txt');
  const pidFile = path.join(dir, 'pgbouncer.pid');
  fs.writeFileSync(authFile, '"postgres" ""\n');
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      `${database} = host=127.0.0.1 port=${primary.port} dbname=${database}`,
      '',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      `pidfile = ${pidFile}`,
      'auth_type = trust',
      `auth_file = ${authFile}`,
      'pool_mode = transaction',
      'default_pool_size = 20',
      'max_client_conn = 500',
      // node-postgres sends extra_float_digits; psql and drivers may send options.
      'ignore_startup_parameters = extra_float_digits,options',
      'server_reset_query =',
      'admin_users = postgres',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  fs.chownSync(authFile, ...dbOwner());
  fs.chownSync(ini, ...dbOwner());
  const child = spawnLogged('runuser', ['-u', DB_OS_USER, '--', PGBOUNCER, ini], path.join(dir, 'pgbouncer.log'));
  const url = (db = database) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  await waitUntil(
    'PgBouncer accepting queries',
    async () => {
      if (child.exited()) throw new Error(`pgbouncer exited: ${child.tail()}`);
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end();
      }
    },
    { timeoutMs: 20_000 },
  );
  return {
    port,
    url,
    process: child,
    async stop() {
      const pid = readPid(pidFile);
      if (pid !== null) signalPid(pid, 'SIGKILL');
      await child.stop('SIGTERM', 2_000);
    },
  };
}

function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
