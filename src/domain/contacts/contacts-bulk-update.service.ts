// Bulk-update: the same change to every contact matching a filter. Answered with 202 once
// the request is stored as a durable batch; applied oldest first in chunks (a window of the
// Account's contacts each, written in one statement), each chunk and its progress cursor
// committed together, so a restart resumes without applying twice; between chunks the
// database is free for other requests. A change of nothing (`data: {}`) is done at once.
// Its BulkUpdateJob (contact-jobs.store.ts) is stored with the batch and counted chunk by
// chunk, each chunk's counts committed with the chunk.
import type { RequestContext, Services } from '../context.js';
import { requireActor } from '../context.js';
import { badRequest } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { prepareContactWrite, type PreparedWrite } from './contacts.rules.js';
import { BulkUpdateBodySchema, type BulkUpdateFilter } from './contacts.inputs.js';
import { loadAccountRules } from './contacts.store.js';
import type { SqlClient } from '../../db/sql-client.js';
import { runChunkedBatch, type ChunkBounds } from './batch-chunks.js';
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
  await runChunkedBatch(services, (tx, bounds) => applyNextChunk(services, tx, batchId, bounds));
}

async function applyNextChunk(
  services: Services,
  tx: SqlClient,
  batchId: string,
  bounds: ChunkBounds,
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
