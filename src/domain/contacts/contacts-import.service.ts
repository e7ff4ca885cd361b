// Bulk import: every item is validated and normalized before the 202, the accepted ones are
// stored as one durable ImportBatch row, and a queue job (plus an immediate local run)
// writes them. A crash between the 202 and the write loses nothing: the batch stays
// pending and the job runs it after restart; writing it and marking it done share one
// transaction, so it is never applied twice.
import type { RequestContext, Services } from '../context.js';
import { requireActor } from '../context.js';
import { badRequest } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { resolveEnrollmentTarget } from '../workflows/workflows.service.js';
import type { Enrollment } from '../enrollment/enrollment.rules.js';
import { prepareContactWrite, type AccountRules, type PreparedWrite } from './contacts.rules.js';
import { BulkImportBodySchema, BulkItemSchema } from './contacts.inputs.js';
import { upsertInTransaction, withConflictRetry } from './contacts-write.service.js';
import { directSql, type SqlClient } from './contacts.store.js';
import { Prisma } from '../../generated/prisma/client.js';
import { randomUUID } from 'node:crypto';
import { processBulkUpdateBatch } from './contacts-bulk-update.service.js';
import { logger } from '../../logger.js';
import type { PeriodicWorker } from '../../jobs/periodic.js';
import { startStoredWorkSweeper } from '../../jobs/stored-work-sweeper.js';

export const BATCH_QUEUE = 'contacts.import';

export type RejectionReason = 'missing-dedup-field' | 'dedup-key-too-long' | 'invalid-phone';

export interface ImportResult {
  accepted: number;
  rejected: Array<{ reason: RejectionReason; index: number }>;
}

const REASONS: Record<string, RejectionReason> = {
  invalid_phone: 'invalid-phone',
  missing_dedup_field: 'missing-dedup-field',
  dedup_key_too_long: 'dedup-key-too-long',
};

export async function importContacts(ctx: RequestContext, body: unknown): Promise<ImportResult> {
  const actor = requireActor(ctx);
  const { contacts, assignmentOptions } = parseInput(BulkImportBodySchema, body);
  const items = parseAllItems(contacts);
  const enrollment = await resolveEnrollmentTarget(ctx, actor.accountId, assignmentOptions);

  const writes: PreparedWrite[] = [];
  const rejected: ImportResult['rejected'] = [];
  items.forEach((item, index) => {
    const prepared = prepareContactWrite(item, actor.account);
    if (prepared.ok) writes.push(prepared.write);
    else rejected.push({ reason: REASONS[prepared.reason], index });
  });
  if (writes.length > 0) await enqueueBatch(ctx, 'import', { writes, enrollment });
  return { accepted: writes.length, rejected };
}

/** Validates every item and reports every bad one (up to 20) in one 400. */
function parseAllItems(contacts: unknown[]) {
  const parsed = [];
  const problems: Array<{ path: string; message: string }> = [];
  for (let i = 0; i < contacts.length; i++) {
    try {
      parsed.push(parseInput(BulkItemSchema, contacts[i], `contacts[${i}]`));
    } catch (error) {
      problems.push(...((error as { details?: { issues?: Array<{ path: string; message: string }> } }).details?.issues ?? []));
      if (problems.length >= 20) break;
    }
  }
  if (problems.length > 0) throw badRequest(problems.map((p) => `${p.path}: ${p.message}`).join('; '), { issues: problems });
  return parsed;
}

/** Stores the batch durably, queues it, and starts it right away in this process. */
export async function enqueueBatch(ctx: RequestContext, kind: 'import' | 'bulk-update', payload: object): Promise<string> {
  const actor = requireActor(ctx);
  const batch = { id: randomUUID() };
  await ctx.db.sql.query(`INSERT INTO "ImportBatch" ("id", "accountId", "userId", "kind", "payload", "createdAt") VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::jsonb, $6)`, [
    batch.id, actor.accountId, actor.userId, kind, JSON.stringify(payload), ctx.clock.now(),
  ]);
  await ctx.queue.send(BATCH_QUEUE, { batchId: batch.id });
  // The queue job is the durable path; this local run only removes its polling delay (and,
  // holding the payload already, skips reading it back).
  setImmediate(() => {
    processBatch(ctx, batch.id, kind === 'import' ? (payload as ImportPayload) : undefined).catch((error) => {
      // The queued job retries; nothing is lost.
      logger.warn({ err: error, batchId: batch.id }, 'immediate batch run failed; the queue will retry');
    });
  });
  return batch.id;
}

interface ImportPayload {
  writes: PreparedWrite[];
  enrollment: Enrollment | null;
}

/** Thrown inside a batch's transaction when another process holds the batch (its row lock). */
export class BatchBusy extends Error {}

/** This process's runs in progress, by batch id: a second request for one joins the first. */
const runsInProgress = new Map<string, Promise<void>>();

/**
 * Writes one pending batch. Safe to call any number of times, from any process: the batch
 * row is locked, applied and marked done in one transaction (a bulk-update: each chunk and
 * its progress). `known` is the payload when the caller already holds it (the process that
 * accepted the batch). Within a process, calls for one batch share one run; a batch another
 * process is running is left to it (the sweeper of stored work comes back to it, so a
 * process that died holding it delays nothing beyond its connection's end).
 */
export function processBatch(services: Services, batchId: string, known?: ImportPayload): Promise<void> {
  const running = runsInProgress.get(batchId);
  if (running) return running;
  const run = runBatch(services, batchId, known)
    .catch((error) => {
      if (!(error instanceof BatchBusy)) throw error;
    })
    .finally(() => runsInProgress.delete(batchId));
  runsInProgress.set(batchId, run);
  return run;
}

async function runBatch(services: Services, batchId: string, known?: ImportPayload): Promise<void> {
  const [head] = (await services.db.sql.query<{ status: string; kind: string }>(`SELECT "status"::text AS "status", "kind" FROM "ImportBatch" WHERE "id" = $1::uuid`, [batchId])).rows;
  if (!head || head.status === 'done') return;
  if (head.kind === 'bulk-update') return processBulkUpdateBatch(services, batchId);
  let written = 0;
  await withConflictRetry(() =>
    services.db.sql.transaction(async (txRunner) => {
      const tx = directSql(txRunner);
      const payloadColumn = known ? Prisma.sql`NULL::jsonb AS "payload"` : Prisma.sql`"payload"`;
      const locked = await tx.$queryRaw<Array<{ accountId: string; payload: ImportPayload | null; status: string }>>`
        SELECT "accountId", ${payloadColumn}, "status"::text AS "status" FROM "ImportBatch" WHERE "id" = ${batchId}::uuid FOR UPDATE SKIP LOCKED`;
      if (locked.length === 0) throw new BatchBusy(`batch ${batchId} is being processed elsewhere`);
      const [batch] = locked;
      if (batch.status === 'done') return;
      const payload = known ?? batch.payload!;
      const account = await loadAccountRules(tx, batch.accountId);
      const now = services.clock.now();
      const outcomes = await upsertInTransaction(tx, account, payload.writes, payload.enrollment, now, { skipOverLimit: true });
      // Items whose customFields, merged into their stored contact's, would pass the limits.
      const skipped = payload.writes.length - outcomes.length;
      if (skipped > 0) logger.warn({ batchId, skipped }, 'bulk import items skipped: their customFields merged with the stored ones would pass the limits');
      await tx.$executeRaw`UPDATE "ImportBatch" SET "status" = 'done', "doneAt" = ${now}::timestamptz, "payload" = '{}'::jsonb,
        "result" = ${JSON.stringify({ written: outcomes.length, skipped })}::jsonb WHERE "id" = ${batchId}::uuid`;
      written = outcomes.length;
    }),
  );
  services.statistics?.wrote(written);
}

export async function loadAccountRules(tx: SqlClient, accountId: string): Promise<AccountRules> {
  const [account] = await tx.$queryRaw<AccountRules[]>`SELECT "id", "defaultLocation", "dedupFields" FROM "Account" WHERE "id" = ${accountId}::uuid`;
  return account;
}

/**
 * Registers the queue worker and starts the sweeper of stored batches (jobs/stored-work-sweeper.ts),
 * whose first pass runs at once: batches a killed process left behind (pending, their jobs
 * perhaps still "active" in the queue) are claimed when this process starts, not when a job's
 * expiry or retry backoff comes round.
 */
export async function startBatchWorker(services: Services): Promise<PeriodicWorker> {
  await services.queue.work(BATCH_QUEUE, async (data) => processBatch(services, String(data.batchId)));
  return startStoredWorkSweeper(services, (batchId) => processBatch(services, batchId));
}
