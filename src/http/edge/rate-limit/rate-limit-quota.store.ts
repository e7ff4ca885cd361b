// The statements of the shared rate-limit windows ("RateLimitQuota"; the leasing around them is
// postgres-quota-store.ts's).
import { Prisma } from '../../../generated/prisma/client.js';
import type { SqlClient } from '../../../db/sql-client.js';

export interface LeasedQuota {
  windowStart: Date;
  /** The window's use across every process, this lease included. */
  used: number;
  /** Requests this lease grants (0 when the window is used up). */
  granted: number;
}

/**
 * One atomic upsert that grants up to `size` requests of the partition's window, never past
 * `limit`: a window that started at or before `windowEndedBy` is over, and starts again at `now`.
 */
export async function leaseQuota(
  db: SqlClient,
  lease: { partition: string; now: Date; windowEndedBy: Date; size: number; limit: number },
): Promise<LeasedQuota> {
  const { partition, now, windowEndedBy: ended, size, limit } = lease;
  const rows = await db.$queryRaw<LeasedQuota[]>(Prisma.sql`
INSERT INTO "RateLimitQuota" AS q ("partition", "windowStart", "used", "granted")
VALUES (${partition}, ${now}::timestamptz, LEAST(${size}::int, ${limit}::int), LEAST(${size}::int, ${limit}::int))
ON CONFLICT ("partition") DO UPDATE SET
  "windowStart" = CASE WHEN q."windowStart" <= ${ended}::timestamptz THEN EXCLUDED."windowStart" ELSE q."windowStart" END,
  "granted" = LEAST(${size}::int, GREATEST(0, ${limit}::int - CASE WHEN q."windowStart" <= ${ended}::timestamptz THEN 0 ELSE q."used" END)),
  "used" = CASE WHEN q."windowStart" <= ${ended}::timestamptz THEN 0 ELSE q."used" END
         + LEAST(${size}::int, GREATEST(0, ${limit}::int - CASE WHEN q."windowStart" <= ${ended}::timestamptz THEN 0 ELSE q."used" END))
RETURNING "windowStart", "used", "granted"`);
  return rows[0];
}

/** Deletes the rows of windows that started at or before `endedBy` (they are over). */
export async function deleteEndedWindows(db: SqlClient, endedBy: Date): Promise<void> {
  await db.$executeRaw`DELETE FROM "RateLimitQuota" WHERE "windowStart" <= ${endedBy}::timestamptz`;
}
