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
  /** PostgreSQL connection string, when kind is postgres (the queue opens its own pool). */
  connectionString?: string;
  /**
   * A connection string that gives a session of its own (LISTEN, session advisory locks), when
   * `connectionString` may not (a transaction pooler); absent: `connectionString` does.
   */
  sessionConnectionString?: string;
  /** PGlite: delivers the notices of `channel` in-process; resolves to the function that stops it. */
  listen?(channel: string, onNotice: (payload: string) => void): Promise<() => Promise<void>>;
  /** The connection pool's use, on PostgreSQL (PGlite is one connection): for /metrics. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
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
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.inMemory ? undefined : (options.dataDir ?? './data'), options);
}

async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: POOL_MAX });
  // An idle connection the server closed (a restart, a terminated backend) is dropped from
  // the pool, which opens a new one when needed; unhandled, its 'error' would end the process.
  pool.on('error', (error) => logger.warn({ err: error }, 'an idle database connection failed; the pool replaces it'));
  // A pool that cannot reach the server should fail here, not on the first request.
  const probe = await pool.connect();
  probe.release();
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: 'postgres',
    prisma,
    connectionString,
    poolStats: () => ({ max: POOL_MAX, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    sql: {
      query: async (text, params) => {
        // Parameterized statements are prepared once per connection (named by their text),
        // so the hot paths skip parsing and planning on every call.
        const result = params?.length
          ? await pool.query({ name: statementName(text), text, values: params as unknown[] })
          : await pool.query(text);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      },
      exec: async (text) => {
        await pool.query(text);
      },
      execResults: async (text) => {
        const result = (await pool.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
        return Array.isArray(result) ? result : [result];
      },
      transaction: async (work) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await work({
            query: async (text, params) => {
              const r = params?.length
                ? await client.query({ name: statementName(text), text, values: params as unknown[] })
                : await client.query(text);
              return { rows: r.rows, rowCount: r.rowCount ?? 0 };
            },
          });
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
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
  return {
    kind: 'pglite',
    prisma,
    listen: (channel, onNotice) => db.listen(channel, onNotice).then((unlisten) => () => unlisten()),
    // PGlite serializes query() against open transactions (its transaction mutex), so the
    // queue's statements never run inside a Prisma transaction; see test/api/pglite-sharing.
    sql: pgliteSqlRunner(db),
    async close() {
      await prisma.$disconnect();
      await db.close();
      unlock();
    },
  };
}
