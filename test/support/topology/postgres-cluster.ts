// A PostgreSQL primary and a streaming replica of it, each a cluster of its own in the harness's
// temp dir, run as the `postgres` OS user on free ports. The primary trusts every local and
// 127.0.0.1 connection, replication included (a test machine's throwaway cluster); the replica
// is a `pg_basebackup -R` copy that follows it. pg_ctl daemonizes both: stop() is
// `pg_ctl stop -m immediate`, which the harness calls even when a test failed.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PG_BIN } from './binaries.js';
import { freePort, runAsDbUser, waitUntil } from './processes.js';

/** The database the service runs on (in both clusters: the replica copies the primary). */
export const SERVICE_DATABASE = 'contactline';

export interface Cluster {
  name: string;
  dataDir: string;
  port: number;
  logFile: string;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /** One statement on a connection of its own. */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    database?: string,
  ): Promise<T[]>;
  stop(): Promise<void>;
}

function pgBin(name: string): string {
  return path.join(PG_BIN, name);
}

function clusterHandle(name: string, dataDir: string, port: number, logFile: string): Cluster {
  const url = (database = SERVICE_DATABASE) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    name,
    dataDir,
    port,
    logFile,
    url,
    async query(text, params = [], database = SERVICE_DATABASE) {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return (await client.query(text, params)).rows;
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (!fs.existsSync(path.join(dataDir, 'postmaster.pid'))) return;
      await runAsDbUser(pgBin('pg_ctl'), ['-D', dataDir, 'stop', '-m', 'immediate', '-w']).catch(() => undefined);
    },
  };
}

async function startCluster(dataDir: string, logFile: string): Promise<void> {
  await runAsDbUser(pgBin('pg_ctl'), ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
}

/**
 * initdb, configured for streaming replication (wal_level=replica, WAL senders), listening on
 * 127.0.0.1 and a socket in `dir` only; started, with the service's database created.
 */
export async function startPrimary(dir: string): Promise<Cluster> {
  const dataDir = path.join(dir, 'primary');
  const logFile = path.join(dir, 'primary.log');
  const port = await freePort();
  await runAsDbUser(pgBin('initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const settings = [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    'wal_level = replica',
    'max_wal_senders = 5',
    'wal_keep_size = 512MB',
    'hot_standby = on',
    // Three API processes and two workers, ten connections each and their job queues, the
    // pooler's 20, the test's own: far below 300.
    'max_connections = 300',
    // A test's throwaway cluster: no durability needed.
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
  ];
  fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), `\n# topology harness\n${settings.join('\n')}\n`);
  fs.writeFileSync(
    path.join(dataDir, 'pg_hba.conf'),
    [
      'local all all trust',
      'host all all 127.0.0.1/32 trust',
      'local replication all trust',
      'host replication all 127.0.0.1/32 trust',
      '',
    ].join('\n'),
  );
  await startCluster(dataDir, logFile);
  const primary = clusterHandle('primary', dataDir, port, logFile);
  await primary.query(`CREATE DATABASE ${SERVICE_DATABASE}`, [], 'postgres');
  return primary;
}

/**
 * A streaming replica of `primary` (`pg_basebackup -R`: standby.signal and primary_conninfo
 * written for it) on a port of its own; resolves once it is in recovery and replaying: a row
 * written on the primary after it started is visible on it.
 */
export async function startReplica(dir: string, primary: Cluster): Promise<Cluster> {
  const dataDir = path.join(dir, 'replica');
  const logFile = path.join(dir, 'replica.log');
  const port = await freePort();
  await runAsDbUser(pgBin('pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    '--no-sync',
  ]);
  // The copied postgresql.conf names the primary's port: the last setting wins.
  fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), `\n# topology harness: the replica\nport = ${port}\n`);
  await startCluster(dataDir, logFile);
  const replica = clusterHandle('replica', dataDir, port, logFile);
  await waitUntil('the replica in recovery', async () => {
    const [row] = await replica.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
    return row.recovering;
  });
  await waitForReplay(primary, replica);
  return replica;
}

/** Writes a fresh row on the primary and waits until the replica has replayed it. */
export async function waitForReplay(primary: Cluster, replica: Cluster, timeoutMs = 30_000): Promise<void> {
  await primary.query('CREATE TABLE IF NOT EXISTS topology_probe (token text PRIMARY KEY)', [], 'postgres');
  const token = `probe-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  await primary.query('INSERT INTO topology_probe (token) VALUES ($1)', [token], 'postgres');
  await waitUntil(
    `the replica replaying (row ${token})`,
    async () =>
      (await replica.query('SELECT 1 FROM topology_probe WHERE token = $1', [token], 'postgres')).length === 1,
    { timeoutMs },
  );
}
