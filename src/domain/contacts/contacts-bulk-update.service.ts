// Bulk-update: the same change to every contact matching a filter. Answered with 202 once
// the request is stored as a durable batch; applied oldest first in chunks (a window of the
// Account's contacts each, written in one statement), each chunk and its progress cursor
// committed together, so a restart resumes without applying twice; between chunks the
// database is free for other requests. A change of nothing (`data: {}`) is done at once.
// Its BulkUpdateJob (contact-jobs.store.ts) is stored with the batch and counted chunk by
// chunk, each chunk's counts committed with the chunk.
import type { RequestContext, Services } from '../context.js';
import type { Database } from '../../db/database.js';
import { requireActor } from '../context.js';
import { badRequest } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { prepareContactWrite, type PreparedWrite } from './contacts.rules.js';
import { BulkUpdateBodySchema, type BulkUpdateFilter } from './contacts.inputs.js';
import { loadAccountRules } from './contacts.store.js';
import { directSql, type SqlClient } from '../../db/sql-client.js';
import { withConflictRetry } from './contacts-write.service.js';
import { afterPendingReads, requestsStarted } from '../../db/foreground-traffic.js';
import { changeStoredContacts } from './contacts-change-many.service.js';
import { BatchBusy, enqueueBatch } from './contacts-batches.service.js';
import { lockBatch, markBatchDone, saveBatchPayload } from './contacts-batches.store.js';
import { lockMatchingContacts, scanContacts } from './contacts-bulk-update.store.js';
import { bulkUpdateJobInsert, recordBulkUpdateChunk } from './contact-jobs.store.js';
import { randomUUID } from 'node:crypto';

/**
 * The skipped contacts a bulk-update lists (skippedCount counts them all): a change that
 * collides for most of a large Account would otherwise store a list as large as the Account.
 */
export const SKIPPED_LISTED = 1000;

interface BulkUpdatePayload {
  filter: BulkUpdateFilter;
  write: PreparedWrite;
  /** Progress: the last contact handled, in (createdAt, id) order. */
  after?: { createdAt: string; id: string };
  updated?: number;
  skipped?: number;
}

/** The 202's body: the bulk-update's job (GET /api/v1/bulk-updates/{id}). */
export interface BulkUpdateAccepted {
  updateId: string;
}

export async function bulkUpdateContacts(ctx: RequestContext, body: unknown): Promise<BulkUpdateAccepted> {
  const actor = requireActor(ctx);
  const { filter, data } = parseInput(BulkUpdateBodySchema, body);
  const prepared = prepareContactWrite(data, actor.account, { keyFields: null });
  if (!prepared.ok)
    throw badRequest('data.phone cannot be read as a phone number for its country; include the country code');
  // A change of nothing is done at once: no batch, no contact read (its job matched nothing).
  if (writesNothing(prepared.write)) {
    const updateId = randomUUID();
    const now = ctx.clock.now();
    await ctx.db.prisma.bulkUpdateJob.create({
      data: { id: updateId, accountId: actor.accountId, status: 'done', createdAt: now, finishedAt: now },
    });
    return { updateId };
  }
  const payload: BulkUpdatePayload = { filter, write: prepared.write };
  return { updateId: await enqueueBatch(ctx, 'bulk-update', payload, bulkUpdateJobInsert) };
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
export const BULK_UPDATE_CHUNK: Record<Database['kind'], { scan: number; write: number }> = {
  pglite: { scan: 5000, write: 250 },
  postgres: { scan: 20000, write: 2000 },
};
/**
 * On the embedded database a request that arrives during a chunk waits for the rest of it, so
 * while requests are coming a chunk is sized by time: its bounds shrink or grow (between a
 * twenty-fifth of BULK_UPDATE_CHUNK.pglite and all of it) so that a chunk takes about this
 * long. A fixed 250 took 100 to 200 ms on a busy machine, and a plain read waited 100 ms (p50)
 * behind it; at 10 ms it waits about 10 ms more than when idle. While no request comes, chunks
 * are the largest, so an update nobody waits on runs at full speed.
 */
const EMBEDDED_CHUNK_TARGET_MS = 10;

/** The bounds of the chunk after one that took `elapsedMs` with `bounds` (embedded database). */
export function nextEmbeddedBounds(
  bounds: { scan: number; write: number },
  elapsedMs: number,
): { scan: number; write: number } {
  // Proportional, but by at most half or double per chunk: one slow chunk (a pause of the
  // machine) does not collapse the size, one fast one does not overshoot.
  const factor = Math.min(2, Math.max(0.5, EMBEDDED_CHUNK_TARGET_MS / Math.max(elapsedMs, 1)));
  return embeddedBounds(bounds.write * factor);
}

/** `write` (within a twenty-fifth of BULK_UPDATE_CHUNK.pglite and all of it) and the scan in proportion. */
function embeddedBounds(write: number): { scan: number; write: number } {
  const max = BULK_UPDATE_CHUNK.pglite;
  const bounded = Math.round(Math.min(max.write, Math.max(max.write / 25, write)));
  return { write: bounded, scan: Math.round((bounded * max.scan) / max.write) };
}

/** True when the write sets no field at all (`data: {}`): it changes nothing. */
export function writesNothing(write: PreparedWrite): boolean {
  return Object.keys(write).every((key) => key === 'newId' || key === 'dedup');
}

/**
 * Applies a stored bulk-update batch, chunk by chunk (called by the batch worker,
 * src/jobs/import-batches.ts). Each chunk and the batch's progress cursor commit together, so a
 * run stopped anywhere (a crash) resumes after the last committed chunk, and no contact is
 * changed twice.
 */
export async function processBulkUpdateBatch(services: Services, batchId: string): Promise<void> {
  const embedded = services.db.kind === 'pglite';
  // On the embedded database the first chunk starts small; then chunks follow the requests.
  let bounds = embedded ? embeddedBounds(0) : BULK_UPDATE_CHUNK.postgres;
  for (;;) {
    const requestsBefore = requestsStarted();
    const started = performance.now();
    const step = await withConflictRetry(() =>
      services.db.sql.transaction((txRunner) => applyNextChunk(services, directSql(txRunner), batchId, bounds)),
    );
    const chunkMs = performance.now() - started;
    services.statistics?.wrote(step.changed);
    if (step.finished) return;
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

async function applyNextChunk(
  services: Services,
  tx: SqlClient,
  batchId: string,
  bounds: { scan: number; write: number },
): Promise<{ finished: boolean; changed: number }> {
  const locked = await lockBatch<BulkUpdatePayload>(tx, batchId);
  if (!locked) throw new BatchBusy(`batch ${batchId} is being processed elsewhere`);
  const { accountId, payload, status } = locked;
  if (status === 'done') return { finished: true, changed: 0 };
  const now = services.clock.now();
  let updated = payload.updated ?? 0;
  let skipped = payload.skipped ?? 0;
  const finish = () => markBatchDone(tx, batchId, now, { updated, skipped });
  const noChunk = { matched: 0, changed: 0, skipped: 0, listed: [], finished: true };
  if (writesNothing(payload.write)) {
    await finish();
    await recordBulkUpdateChunk(tx, batchId, noChunk, now);
    return { finished: true, changed: 0 };
  }

  // The chunk's range: up to `scan` contacts after the cursor, ending early at the `write`-th
  // match. Its matches are then read again and locked, the filter checked on their current
  // version (a concurrent change may have made one stop matching).
  const scanned = await scanContacts(tx, accountId, payload.filter, payload.after, bounds.scan);
  const ids: string[] = [];
  let end = scanned.at(-1);
  for (const row of scanned) {
    if (!row.matches) continue;
    ids.push(row.id);
    if (ids.length === bounds.write) {
      end = row;
      break;
    }
  }
  const last = end === scanned.at(-1) && scanned.length < bounds.scan;
  const matches = await lockMatchingContacts(tx, accountId, payload.filter, ids);
  const account = await loadAccountRules(tx, accountId);
  const result = await changeStoredContacts(tx, account, matches, payload.write, 'bulk-update', now);
  // Listed up to SKIPPED_LISTED in all: `skipped` counts those of the chunks before this one.
  const listed = result.skipped.slice(0, Math.max(0, SKIPPED_LISTED - skipped));
  updated += result.updated;
  skipped += result.skipped.length;
  const finished = last || !end;
  const chunk = { matched: matches.length, changed: result.updated, skipped: result.skipped.length, listed, finished };
  await recordBulkUpdateChunk(tx, batchId, chunk, now);
  if (finished || !end) {
    await finish();
    return { finished: true, changed: result.updated };
  }
  const next: BulkUpdatePayload = {
    ...payload,
    updated,
    skipped,
    after: { createdAt: new Date(end.createdAt).toISOString(), id: end.id },
  };
  await saveBatchPayload(tx, batchId, next);
  return { finished: false, changed: result.updated };
}
