// Where the topology harness finds PostgreSQL, PgBouncer and HAProxy (Debian's packages:
// postgresql-15, pgbouncer, haproxy), and whether this machine can run it at all.
import fs from 'node:fs';
import path from 'node:path';

/** PostgreSQL's server binaries (initdb, pg_ctl, pg_basebackup); TOPOLOGY_PG_BIN overrides. */
export const PG_BIN = process.env.TOPOLOGY_PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const PGBOUNCER = process.env.TOPOLOGY_PGBOUNCER ?? '/usr/sbin/pgbouncer';
export const HAPROXY = process.env.TOPOLOGY_HAPROXY ?? '/usr/sbin/haproxy';
const RUNUSER = '/usr/sbin/runuser';

/**
 * Why the harness cannot run here (a missing binary, not root), or null when it can. It runs
 * PostgreSQL and PgBouncer as the `postgres` OS user through runuser, which needs root.
 */
export function topologyUnavailable(): string | null {
  const needed = [
    ...['initdb', 'pg_ctl', 'pg_basebackup', 'postgres', 'psql'].map((name) => path.join(PG_BIN, name)),
    PGBOUNCER,
    HAPROXY,
    RUNUSER,
  ];
  const missing = needed.filter((file) => !isExecutable(file));
  if (missing.length > 0) return `missing ${missing.join(', ')}`;
  if (process.getuid?.() !== 0)
    return 'not root (PostgreSQL and PgBouncer are started as the postgres user with runuser)';
  return null;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
