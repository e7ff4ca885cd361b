// Applies the committed SQL migrations under prisma/migrations, in name order, each in its
// own transaction. Records them in Prisma's own `_prisma_migrations` table, so
// `prisma migrate status` agrees with what this runner did.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlRunner } from './database.js';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma/migrations');

export interface MigrationResult {
  applied: string[];
  /** True when the database had no migrations before this run (a brand-new database). */
  wasEmpty: boolean;
}

/** The migrations this code ships (prisma/migrations/<name>/migration.sql), in the order they apply. */
export function migrationNames(dir = MIGRATIONS_DIR): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort();
}

/** SQL: the migrations a database has applied (finished, not rolled back). */
export const APPLIED_MIGRATIONS_SQL = `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;

export async function migrate(sql: SqlRunner, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  await sql.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  const done = await sql.query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL);
  const doneNames = new Set(done.rows.map((r) => r.migration_name));
  const names = migrationNames(dir);
  const applied: string[] = [];
  for (const name of names) {
    if (doneNames.has(name)) continue;
    const body = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
    const checksum = crypto.createHash('sha256').update(body).digest('hex');
    // Several statements in one simple query run as one implicit transaction: a failing
    // migration leaves no half-applied schema and no open transaction on the connection.
    await sql.exec(`${body}\n;INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
      VALUES ('${crypto.randomUUID()}', '${checksum}', now(), '${name.replace(/'/g, "''")}', 1);`);
    applied.push(name);
  }
  return { applied, wasEmpty: doneNames.size === 0 };
}
