// The databases the API suites run on: PGlite in memory always, and a real PostgreSQL when
// TEST_DATABASE_URL is set (CI sets it). Each call gets a brand-new, migrated database, copied
// from one migrated template instead of running initdb and the migrations again:
//
// - PGlite: a dump of a migrated data directory (`dumpDataDir`), kept as a file under the
//   system's temporary folder and loaded into each new in-memory database (initdb alone costs
//   seconds per database; loading the dump a fraction of that).
// - PostgreSQL: a template database, `CREATE DATABASE … TEMPLATE cl_tpl_<hash>`.
// - PGlite data directories for service processes: a copy of a migrated (or only initialized)
//   directory.
//
// Every template is named by a hash of the migrations and the PGlite version, so a changed
// migration builds a new one; workers that race to build the same template each build their own
// copy and the first rename wins (the others are thrown away), so no lock is needed.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { openDatabase, pgliteSqlRunner, SHORT_LIVED_PGLITE_BUFFERS, type Database } from '../../src/db/database.js';
import { migrate, migrationNames } from '../../src/db/migrate.js';

export type DatabaseKind = 'pglite' | 'postgres';

const KINDS: readonly DatabaseKind[] = ['pglite', 'postgres'];

/**
 * PGlite always, and PostgreSQL too when TEST_DATABASE_URL is set. TEST_DATABASE_KINDS (a comma
 * list: `postgres`, `pglite`) narrows that: CI runs most files on PostgreSQL at the real date and
 * on PGlite with the clock moved, so no file runs twice on one database (see `.ci/run`).
 */
export function testDatabaseKinds(): DatabaseKind[] {
  const available: readonly DatabaseKind[] = process.env.TEST_DATABASE_URL ? KINDS : ['pglite'];
  const wanted = process.env.TEST_DATABASE_KINDS?.trim();
  if (!wanted) return [...available];
  const kinds = wanted.split(',').map((k) => k.trim());
  for (const kind of kinds) {
    if (!KINDS.includes(kind as DatabaseKind))
      throw new Error(`TEST_DATABASE_KINDS: unknown database "${kind}" (expected ${KINDS.join(', ')})`);
    if (!available.includes(kind as DatabaseKind))
      throw new Error(`TEST_DATABASE_KINDS asks for ${kind}, which needs TEST_DATABASE_URL`);
  }
  return available.filter((k) => kinds.includes(k));
}

export interface TestDatabase {
  db: Database;
  /** Connection string of the fresh PostgreSQL database (postgres only). */
  url?: string;
  drop(): Promise<void>;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../prisma/migrations');

/** Names the templates: the migrations' names and SQL, and the PGlite release that made them. */
function templateHash(): string {
  const hash = createHash('sha256');
  for (const name of migrationNames(MIGRATIONS_DIR)) {
    hash.update(name);
    hash.update(fs.readFileSync(path.join(MIGRATIONS_DIR, name, 'migration.sql')));
  }
  const pglitePackage = path.resolve(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json');
  hash.update(JSON.parse(fs.readFileSync(pglitePackage, 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}

let hashMemo: string | undefined;
const hashOf = () => (hashMemo ??= templateHash());

/** The folder the PGlite templates live in, shared by every worker and run on the machine. */
function templateFolder(): string {
  const dir = path.join(os.tmpdir(), 'contactline-test-templates', hashOf());
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Moves a finished build into place unless another worker's build got there first. */
function publish(built: string, target: string): void {
  try {
    fs.renameSync(built, target);
  } catch {
    // A directory cannot replace a non-empty one: the other build won; its copy is the same.
    fs.rmSync(built, { recursive: true, force: true });
  }
}

/**
 * A dump held in memory whose arrayBuffer() is one copy. PGlite reads the dump with
 * arrayBuffer(); Node's own Blob streams its bytes in small chunks and joins them, which for the
 * 42 MB dump costs about half a second of CPU at each database a test opens.
 */
class DumpInMemory extends Blob {
  constructor(private readonly contents: ArrayBuffer) {
    super([]);
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.contents.slice(0);
  }
}

let pgliteDump: Promise<Blob> | undefined;

/** The migrated PGlite data directory's dump: read from the cache, or built once and cached. */
function migratedPgliteDump(): Promise<Blob> {
  pgliteDump ??= (async (): Promise<Blob> => {
    const file = path.join(templateFolder(), 'pglite-migrated.tar');
    if (!fs.existsSync(file)) {
      const db = await PGlite.create({ extensions: { pg_trgm } });
      await migrate(pgliteSqlRunner(db));
      const dump = await db.dumpDataDir('none');
      await db.close();
      const built = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      fs.writeFileSync(built, Buffer.from(await dump.arrayBuffer()));
      publish(built, file);
    }
    const bytes = fs.readFileSync(file);
    return new DumpInMemory(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  })();
  return pgliteDump;
}

/**
 * A new PGlite data directory under `parent` for a service process: migrated (with no Account,
 * as after `contactline migrate`), or only initialized (a brand-new database, for suites about
 * the first start). Copied from a template directory built once.
 */
export async function pgliteDataDir(parent: string, state: 'migrated' | 'initialized'): Promise<string> {
  const template = path.join(templateFolder(), `pglite-dir-${state}`);
  if (!fs.existsSync(template)) {
    const built = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const db = await openDatabase({ dataDir: built });
    if (state === 'migrated') await migrate(db.sql);
    await db.close(); // also removes its lock file: a copy must not look in use
    publish(built, template);
  }
  const dir = fs.mkdtempSync(path.join(parent, 'data-'));
  fs.cpSync(template, dir, { recursive: true });
  return dir;
}

/** Runs one statement on the PostgreSQL server as TEST_DATABASE_URL's user, on a connection of its own. */
async function adminQuery(adminUrl: string, text: string, params?: unknown[]): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await admin.query(text, params);
  } finally {
    await admin.end();
  }
}

/** The connection string of database `name` on the server of `adminUrl`. */
function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let postgresTemplate: Promise<string> | undefined;

/** The migrated template database on the PostgreSQL server: found, or built once. */
function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `cl_tpl_${hashOf()}`;
    const found = await adminQuery(adminUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;
    const building = `cl_tpl_build_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${building}`);
    const db = await openDatabase({ databaseUrl: databaseUrl(adminUrl, building) });
    await migrate(db.sql);
    await db.close();
    try {
      await adminQuery(adminUrl, `ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch {
      // Another worker's template got the name first: it is the same schema.
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    }
    return name;
  })();
  return postgresTemplate;
}

/** How the service's Database reaches a new PostgreSQL database (ignored on PGlite). */
export interface TestDatabaseConnection {
  /** DATABASE_READ_URL: another database standing in for the read replica. */
  readUrl?: string;
  /**
   * The URL the service opens instead of the new database's own (a pooler in front of it, given
   * the database's name and URL); the own URL is then its DATABASE_DIRECT_URL.
   */
  through?: (name: string, url: string) => Promise<string>;
}

export async function createTestDatabase(
  kind: DatabaseKind,
  connection: TestDatabaseConnection = {},
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    // A test's database holds little, and starts faster with a small buffer pool.
    const db = await openDatabase({
      inMemory: true,
      pgliteLoadDataDir: await migratedPgliteDump(),
      pgliteSharedBuffers: SHORT_LIVED_PGLITE_BUFFERS,
    });
    return { db, drop: () => db.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const template = await migratedPostgresTemplate(adminUrl);
  const name = `cl_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const url = databaseUrl(adminUrl, name);
  const pooledUrl = connection.through ? await connection.through(name, url) : undefined;
  const db = await openDatabase({
    databaseUrl: pooledUrl ?? url,
    readUrl: connection.readUrl,
    directUrl: pooledUrl ? url : undefined,
  });
  return {
    db,
    url,
    async drop() {
      await db.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
