// Opens the one database the service runs on: PGlite (embedded, in-process) when no
// DATABASE_URL is given, PostgreSQL otherwise. Same schema, same SQL, same migrations.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { lockDataDir } from './data-dir-lock.js';
import { takeTurnsFairly } from './pglite-fair-turns.js';
import { logger } from '../logger.js';

/** Connections each service process opens to PostgreSQL at most. */
const POOL_MAX = 10;

/** A plain SQL runner, shared by the migration runner and the job queue. */
export interface SqlRunner {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
  /** Runs several statements in one round trip, without parameters. */
  exec(text: string): Promise<void>;
  /** Like exec, returning each statement's rows. */
  execResults(text: string): Promise<Array<{ rows: unknown[] }>>;
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Pick<SqlRunner, 'query'>) => Promise<T>): Promise<T>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  prisma: PrismaClient;
  sql: SqlRunner;
  /**
   * Where the heavy reads go (contact lists and searches, their CSV pages, workflow results):
   * the read replica of DATABASE_READ_URL when set, else the primary itself (`sql`). Reads by
   * id and everything inside a write stay on `sql`. docs/read-replica.md.
   */
  reads: ReadView;
  /** PostgreSQL connection string, when kind is postgres (the queue opens its own pool). */
  connectionString?: string;
  /**
   * A direct (not pooled) connection string to the primary, for the work that needs a session
   * of its own (the process-liveness lock, LISTEN for change notices, migrations):
   * DATABASE_DIRECT_URL, else connectionString.
   */
  directConnectionString?: string;
  /** True when connectionString is a transaction pooler (DATABASE_DIRECT_URL is set): statements are unnamed. */
  pooled?: boolean;
  /** PGlite: delivers the notices of `channel` in-process; resolves to the function that stops it. */
  listen?(channel: string, onNotice: (payload: string) => void): Promise<() => Promise<void>>;
  /** The connection pool's use, on PostgreSQL (PGlite is one connection): for /metrics. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

/** The reads a replica may serve (Database.reads). */
export interface ReadView {
  /** `replica` when DATABASE_READ_URL is set; `primary` otherwise (the same runner as Database.sql). */
  target: 'primary' | 'replica';
  /**
   * Runs a read. On the replica, a failure to reach it (refused, dropped, timed out, shutting
   * down, or a query cancelled by a conflict with recovery) is a ReplicaUnavailableError.
   */
  sql: Pick<SqlRunner, 'query'>;
  /** The replica's replay delay in seconds (0 when it has replayed all it received); null when not a standby. */
  replicaLagSeconds?(): Promise<number | null>;
}

/** The read replica could not answer (unreachable, restarting, or a query cancelled by recovery): retry later. */
export class ReplicaUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The read replica did not answer: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'ReplicaUnavailableError';
  }
}

export interface PoolStats {
  max: number;
  /** Open connections, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/**
 * The buffer pool of a PGlite that runs a few statements and ends (a CLI command, a test's
 * database): starting PGlite initialises its whole pool, about half a second of CPU for the
 * default 128MB, and half that CPU for this.
 */
export const SHORT_LIVED_PGLITE_BUFFERS = '16MB';

export interface OpenDatabaseOptions {
  /** postgres://... ; when absent, PGlite is used. */
  databaseUrl?: string;
  /** A streaming replica of databaseUrl for the heavy reads (DATABASE_READ_URL); PostgreSQL only. */
  readUrl?: string;
  /**
   * A direct connection to the primary (DATABASE_DIRECT_URL); PostgreSQL only. When set,
   * databaseUrl is taken to be a transaction pooler (PgBouncer): no statement is named.
   */
  directUrl?: string;
  /** PGlite data directory; `memory://` (or undefined with inMemory) for a throwaway database. */
  dataDir?: string;
  inMemory?: boolean;
  /**
   * Starts PGlite from a data directory's dump (`PGlite.dumpDataDir`) instead of an empty one:
   * the tests start each database from one migrated copy, which skips initdb and the migrations.
   */
  pgliteLoadDataDir?: PGliteOptions['loadDataDir'];
  /** PGlite's buffer pool (its `shared_buffers`), e.g. SHORT_LIVED_PGLITE_BUFFERS; default 128MB. */
  pgliteSharedBuffers?: string;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  if (options.readUrl || options.directUrl)
    throw new Error(
      'DATABASE_READ_URL and DATABASE_DIRECT_URL need DATABASE_URL: the embedded database has no replica and no pooler',
    );
  return openPglite(options.inMemory ? undefined : (options.dataDir ?? './data'), options);
}

/** A pool that has reached its server once: a server it cannot reach fails the start, not the first request. */
async function openPool(connectionString: string, what: string, extra: pg.PoolConfig = {}): Promise<pg.Pool> {
  const pool = new pg.Pool({ ...withSessionOptions(connectionString), max: POOL_MAX, ...extra });
  // An idle connection the server closed (a restart, a terminated backend) is dropped from
  // the pool, which opens a new one when needed; unhandled, its 'error' would end the process.
  pool.on('error', (error) =>
    logger.warn({ err: error, database: what }, 'an idle database connection failed; the pool replaces it'),
  );
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`Cannot reach the ${what}: ${(error as Error).message}`, { cause: error });
  }
  return pool;
}

/** The session settings every connection of the service's pools starts with. */
const SESSION_OPTIONS = '-c jit=off';

/**
 * The pool's connection, with JIT compilation off. The planner compiles any plan it costs
 * above jit_above_cost, which a list or search on a big Account always is (more so without
 * statistics), and compiling took 50 ms to 5 s on each execution of statements that run in
 * milliseconds (docs/decisions/0050-no-jit.md). Options the URL already carries
 * (`?options=…`, which pg would prefer to ours) are kept, after ours. A transaction pooler
 * drops startup options: migration 20261212000000_no_jit sets the same on the database.
 */
function withSessionOptions(connectionString: string): { connectionString: string; options?: string } {
  try {
    const url = new URL(connectionString);
    const own = url.searchParams.get('options');
    url.searchParams.set('options', own ? `${SESSION_OPTIONS} ${own}` : SESSION_OPTIONS);
    return { connectionString: url.toString() };
  } catch {
    // Not a URL (key=value pairs): pg reads those itself, and takes our options beside them.
    return { connectionString, options: SESSION_OPTIONS };
  }
}

/**
 * A parameterized query. Named (prepared once per connection, by its text) so the hot paths
 * skip parsing and planning on every call, except through a transaction pooler: PgBouncer 1.18
 * hands each transaction any server connection, where a statement prepared on another is unknown.
 */
function runQuery(client: pg.Pool | pg.PoolClient, named: boolean, text: string, params?: unknown[]) {
  if (!params?.length) return client.query(text);
  return named
    ? client.query({ name: statementName(text), text, values: params })
    : client.query({ text, values: params });
}

/** SQLSTATEs of a query the replica could not serve now: connection exceptions, shutdowns, recovery conflicts. */
function replicaCouldNotAnswer(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
    return code.startsWith('08') || code.startsWith('57P') || code === '40001';
  // The socket's own failures (ECONNREFUSED, ECONNRESET, ETIMEDOUT, ENOTFOUND, …) and the
  // driver's (a connection timeout, a connection terminated while a query ran).
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true;
  return typeof message === 'string' && /connection|timeout|terminated/i.test(message);
}

async function openPostgres(connectionString: string, options: OpenDatabaseOptions): Promise<Database> {
  const pooled = !!options.directUrl;
  const named = !pooled;
  const pool = await openPool(connectionString, 'database (DATABASE_URL)');
  let replica: pg.Pool | undefined;
  try {
    // A replica that stops answering must fail a list within seconds, not hold it (and a
    // connection slot) until the client gives up.
    if (options.readUrl)
      replica = await openPool(options.readUrl, 'read replica (DATABASE_READ_URL)', { connectionTimeoutMillis: 5000 });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const query: SqlRunner['query'] = async (text, params) => {
    const result = await runQuery(pool, named, text, params);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };
  const reads: ReadView = replica
    ? replicaReads(replica, named)
    : {
        target: 'primary',
        sql: { query },
      };
  return {
    kind: 'postgres',
    prisma,
    reads,
    connectionString,
    directConnectionString: options.directUrl ?? connectionString,
    pooled,
    poolStats: () => ({ max: POOL_MAX, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    sql: {
      query,
      exec: async (text) => {
        await pool.query(text);
      },
      execResults: async (text) => {
        const result = (await pool.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
        return Array.isArray(result) ? result : [result];
      },
      transaction: async (work) => {
        const client = await pool.connect();
        // While checked out the pool no longer listens for the client's 'error': a connection
        // the server ends between two statements of this transaction would otherwise be an
        // unhandled 'error' that ends the process. The next statement fails instead, and the
        // broken client is discarded on release.
        let lost: Error | undefined;
        const onLost = (error: Error) => {
          lost = error;
          logger.warn({ err: error }, 'a database connection failed inside a transaction');
        };
        client.on('error', onLost);
        try {
          await client.query('BEGIN');
          const result = await work({
            query: async (text, params) => {
              const r = await runQuery(client, named, text, params);
              return { rows: r.rows, rowCount: r.rowCount ?? 0 };
            },
          });
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          client.removeListener('error', onLost);
          client.release(lost);
        }
      },
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
      await replica?.end();
    },
  };
}

/** SQL: the replica's replay delay in seconds; 0 when it has replayed all it received, null on a primary. */
const REPLICA_LAG_SQL = `SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
  ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END::float8 AS lag`;

function replicaReads(replica: pg.Pool, named: boolean): ReadView {
  return {
    target: 'replica',
    sql: {
      query: async (text, params) => {
        try {
          const result = await runQuery(replica, named, text, params);
          return { rows: result.rows, rowCount: result.rowCount ?? 0 };
        } catch (error) {
          throw replicaCouldNotAnswer(error) ? new ReplicaUnavailableError(error) : error;
        }
      },
    },
    async replicaLagSeconds() {
      const { rows } = await replica.query<{ lag: number | null }>(REPLICA_LAG_SQL);
      return rows[0]?.lag ?? null;
    },
  };
}

/**
 * The SQL runner over a PGlite instance (the service's, or a bare one such as the tests' template
 * builder). PGlite serializes transactions against every other statement, Prisma's included.
 */
export function pgliteSqlRunner(db: PGlite): SqlRunner {
  return {
    query: async (text, params) => {
      const result = await db.query(text, params);
      return { rows: result.rows as never[], rowCount: result.affectedRows ?? 0 };
    },
    exec: async (text) => {
      await db.exec(text);
    },
    execResults: async (text) => db.exec(text),
    transaction: async (work) =>
      db.transaction((tx) =>
        work({
          query: async (text, params) => {
            const r = await tx.query(text, params);
            return { rows: r.rows as never[], rowCount: r.affectedRows ?? 0 };
          },
        }),
      ),
  };
}

const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `cl_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    // Dynamic SQL (list filters) is bounded, but keep the memo bounded too.
    if (statementNames.size > 5000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

async function openPglite(
  dataDir: string | undefined,
  { pgliteLoadDataDir: loadDataDir, pgliteSharedBuffers }: OpenDatabaseOptions,
): Promise<Database> {
  if (dataDir) fs.mkdirSync(path.resolve(dataDir), { recursive: true });
  const unlock = dataDir ? lockDataDir(path.resolve(dataDir)) : () => {};
  const db = takeTurnsFairly(
    await PGlite.create({
      dataDir: dataDir ? path.resolve(dataDir) : undefined,
      extensions: { pg_trgm },
      ...(loadDataDir ? { loadDataDir } : {}),
      ...(pgliteSharedBuffers
        ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${pgliteSharedBuffers}`] }
        : {}),
    }),
  );
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) as never });
  // PGlite serializes query() against open transactions (its transaction mutex), so the
  // queue's statements never run inside a Prisma transaction; see test/api/pglite-sharing.
  const sql = pgliteSqlRunner(db);
  return {
    kind: 'pglite',
    prisma,
    listen: (channel, onNotice) => db.listen(channel, onNotice).then((unlisten) => () => unlisten()),
    sql,
    reads: { target: 'primary', sql },
    async close() {
      await prisma.$disconnect();
      await db.close();
      unlock();
    },
  };
}
