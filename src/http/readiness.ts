// GET /readyz: may a load balancer send this process traffic? Ready when the database answers
// and has applied every migration this code ships (compared by name with prisma/migrations);
// otherwise 503 in the API's error body (`unavailable`), naming what is missing. A
// database that takes longer than READINESS_TIMEOUT_MS to answer counts as unreachable, so a
// probe never hangs on a pool waiting for a server that is gone. /healthz stays the liveness
// check (is the process serving at all), which a restart cannot fix when the database is down.
// No credential: probes carry none, and the answer names no data.
import type { NextFunction, Request, Response } from 'express';
import type { Services } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import { APPLIED_MIGRATIONS_SQL, migrationNames } from '../db/migrate.js';

export const READINESS_PATH = '/readyz';
export const READINESS_TIMEOUT_MS = 2000;

/** PostgreSQL's "undefined table": a database never migrated has no _prisma_migrations. */
const UNDEFINED_TABLE = '42P01';

export function readinessCheck(
  services: Pick<Services, 'db'>,
  options: { migrationsDir?: string; timeoutMs?: number } = {},
) {
  // The migrations ship with the code: read once.
  const shipped = migrationNames(options.migrationsDir);
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const missing = await missingMigrations(services, shipped, timeoutMs);
      if (missing.length > 0) {
        const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? `, … (${missing.length - 5} more)` : '');
        throw new DomainError(
          'unavailable',
          `The database lacks ${missing.length} migration(s) this version needs (${shown}): run \`contactline migrate\``,
        );
      }
      res.json({ status: 'ready', database: services.db.kind, migrations: shipped.length });
    } catch (error) {
      next(error);
    }
  };
}

async function missingMigrations(
  services: Pick<Services, 'db'>,
  shipped: string[],
  timeoutMs: number,
): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DomainError('unavailable', `The database did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const { rows } = await Promise.race([
      services.db.sql.query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL),
      timeout,
    ]);
    const applied = new Set(rows.map((r) => r.migration_name));
    return shipped.filter((name) => !applied.has(name));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return shipped;
    // An expected state for a probe: answered 503, without a log line on every probe.
    throw new DomainError('unavailable', 'The database is unreachable');
  } finally {
    clearTimeout(timer);
  }
}
