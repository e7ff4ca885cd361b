// A PgBouncer in transaction pooling mode in front of one test database (Debian's package,
// /usr/sbin/pgbouncer): its configuration in a temporary folder, listening on a free port,
// trusting the user `postgres` (as the test server does). It refuses to run as root, so as root
// it runs as the `postgres` user (runuser), with the folder writable by it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** postgres://postgres@127.0.0.1:<port>/<database>: the database through the pooler. */
  url: string;
  /** Server connections open now, per SHOW SERVERS on the admin console. */
  serverConnections(): Promise<number>;
  /** The log so far (for a failure's message). */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts PgBouncer for `database` (on the server of `directUrl`), transaction pooling, `poolSize` server connections. */
export async function startPgBouncer(database: string, directUrl: string, poolSize = 5): Promise<PgBouncer> {
  const target = new URL(directUrl);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-pgbouncer-'));
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const logFile = path.join(dir, 'pgbouncer.log');
  fs.writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database} user=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      'max_client_conn = 200',
      `default_pool_size = ${poolSize}`,
      `max_db_connections = ${poolSize}`,
      // pg and Prisma may send these at connect; PgBouncer refuses unknown startup parameters.
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${logFile}`,
      '',
    ].join('\n'),
  );
  for (const file of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, file), 0o666);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, ini], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(PGBOUNCER, [ini], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const log = () => `${output}${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = `postgres://postgres@127.0.0.1:${port}/${database}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/pgbouncer` });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => {});
    }
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited at start:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`pgbouncer did not answer: ${(error as Error).message}\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    serverConnections: () =>
      admin(async (client) => {
        // The admin console speaks only the simple query protocol.
        const { rows } = await client.query('SHOW SERVERS');
        return rows.filter((row) => row.database === database).length;
      }),
    log,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
