// Batches applied in chunks (a bulk-update, enrolling a workflow's contacts): each chunk is one
// transaction that also commits the batch's progress, so a run stopped anywhere resumes after the
// last committed chunk and applies nothing twice. Between chunks the database is free for other
// requests; on the embedded database a chunk's size follows the time it takes while requests come.
import type { Services } from '../context.js';
import type { Database } from '../../db/database.js';
import { directSql, type SqlClient } from '../../db/sql-client.js';
import { afterPendingReads, requestsStarted } from '../../db/foreground-traffic.js';
import { withConflictRetry } from './contacts-write.service.js';

/** How many of the Account's contacts a chunk may look at (`scan`), and write (`write`). */
export interface ChunkBounds {
  scan: number;
  write: number;
}

/**
 * The bounds of one chunk: it looks at no more than `scan` of the Account's contacts, in
 * (createdAt, id) order after the cursor (a range of the list index), and writes no more than
 * `write` of those the filter matches, in one statement. So no statement's cost depends on the
 * Account's size or on the filter, and a filter that matches few contacts still passes over
 * the rest quickly. On the embedded database a chunk holds the one connection and every other
 * request waits for it: there chunks are small (writing a contact with its indexes costs about
 * 0.3 ms there), these are the largest, and their size follows the time they take
 * (nextEmbeddedBounds); on PostgreSQL other requests have connections of their own.
 */
export const CHUNK_BOUNDS: Record<Database['kind'], ChunkBounds> = {
  pglite: { scan: 5000, write: 250 },
  postgres: { scan: 20000, write: 2000 },
};
/**
 * On the embedded database a request that arrives during a chunk waits for the rest of it, so
 * while requests are coming a chunk is sized by time: its bounds shrink or grow (between a
 * twenty-fifth of CHUNK_BOUNDS.pglite and all of it) so that a chunk takes about this
 * long. A fixed 250 took 100 to 200 ms on a busy machine, and a plain read waited 100 ms (p50)
 * behind it; at 10 ms it waits about 10 ms more than when idle. While no request comes, chunks
 * are the largest, so an update nobody waits on runs at full speed.
 */
const EMBEDDED_CHUNK_TARGET_MS = 10;

/** The bounds of the chunk after one that took `elapsedMs` with `bounds` (embedded database). */
export function nextEmbeddedBounds(bounds: ChunkBounds, elapsedMs: number): ChunkBounds {
  // Proportional, but by at most half or double per chunk: one slow chunk (a pause of the
  // machine) does not collapse the size, one fast one does not overshoot.
  const factor = Math.min(2, Math.max(0.5, EMBEDDED_CHUNK_TARGET_MS / Math.max(elapsedMs, 1)));
  return embeddedBounds(bounds.write * factor);
}

/** `write` (within a twenty-fifth of CHUNK_BOUNDS.pglite and all of it) and the scan in proportion. */
function embeddedBounds(write: number): ChunkBounds {
  const max = CHUNK_BOUNDS.pglite;
  const bounded = Math.round(Math.min(max.write, Math.max(max.write / 25, write)));
  return { write: bounded, scan: Math.round((bounded * max.scan) / max.write) };
}

/** One chunk: applied in `tx` with its progress; `finished` once the batch is done. */
export type ChunkStep = (tx: SqlClient, bounds: ChunkBounds) => Promise<{ finished: boolean; changed: number }>;

/**
 * Runs `step` chunk after chunk, each in a transaction of its own (retried on a write conflict),
 * until one says the batch is finished. `changed` feeds the table statistics.
 */
export async function runChunkedBatch(services: Services, step: ChunkStep): Promise<void> {
  const embedded = services.db.kind === 'pglite';
  // On the embedded database the first chunk starts small; then chunks follow the requests.
  let bounds = embedded ? embeddedBounds(0) : CHUNK_BOUNDS.postgres;
  for (;;) {
    const requestsBefore = requestsStarted();
    const started = performance.now();
    const done = await withConflictRetry(() =>
      services.db.sql.transaction((txRunner) => step(directSql(txRunner), bounds)),
    );
    const chunkMs = performance.now() - started;
    services.statistics?.wrote(done.changed);
    if (done.finished) return;
    if (!embedded) {
      // Other requests have connections of their own.
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    // The requests that arrived during the chunk are read now, and queue their statements
    // ahead of the next chunk's (every statement lets the event loop turn first:
    // src/db/pglite-fair-turns.ts). While requests come, chunks are sized by time; while none
    // does, they grow to the largest.
    await afterPendingReads();
    bounds =
      requestsStarted() !== requestsBefore ? nextEmbeddedBounds(bounds, chunkMs) : embeddedBounds(bounds.write * 2);
  }
}
