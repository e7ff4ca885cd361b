// The batch worker: runs stored batches (rows of ImportBatch, stored before their 202 by
// src/domain/contacts/contacts-batches.service.ts), from a queue job, from the run that the
// process which accepted a batch starts at once, and from the sweeper of stored work. A bulk
// import is written in one transaction that also marks its batch done, so it is never applied
// twice; a bulk-update and an enrollment of existing contacts are applied chunk by chunk, each
// chunk committed with its progress (contacts-bulk-update.service.ts, enrollment-jobs.service.ts).
import { consentRow } from '../domain/calling-rules/consent-writes.js';
import { storeConsents, type ConsentRow } from '../domain/calling-rules/dialing.store.js';
import type { Services } from '../domain/context.js';
import { BATCH_QUEUE, BatchBusy } from '../domain/contacts/contacts-batches.service.js';
import { findBatchHead, lockBatch, markBatchDone } from '../domain/contacts/contacts-batches.store.js';
import type { ImportPayload } from '../domain/contacts/contacts-import.service.js';
import { processBulkUpdateBatch } from '../domain/contacts/contacts-bulk-update.service.js';
import { processEnrollmentBatch } from '../domain/enrollment/enrollment-jobs.service.js';
import { upsertInTransaction, withConflictRetry } from '../domain/contacts/contacts-write.service.js';
import { loadAccountRules } from '../domain/contacts/contacts.store.js';
import { finishImportJob, markImportRunning } from '../domain/contacts/contact-jobs.store.js';
import { countImport } from '../domain/contacts/import-job.rules.js';
import { directSql } from '../db/sql-client.js';
import { logger } from '../logger.js';
import type { PeriodicWorker } from './periodic.js';
import { startStoredWorkSweeper } from './stored-work-sweeper.js';

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
  const head = await findBatchHead(directSql(services.db.sql), batchId);
  if (!head || head.status === 'done') return;
  if (head.kind === 'bulk-update') return processBulkUpdateBatch(services, batchId);
  if (head.kind === 'enrollment') return processEnrollmentBatch(services, batchId);
  let written = 0;
  // Running from here until the write commits (its job is done then): a statement of its own,
  // so a reader sees it while the write's transaction runs.
  await markImportRunning(directSql(services.db.sql), batchId, services.clock.now());
  await withConflictRetry(() =>
    services.db.sql.transaction(async (txRunner) => {
      const tx = directSql(txRunner);
      const batch = await lockBatch<ImportPayload | null>(tx, batchId, !known);
      if (!batch) throw new BatchBusy(`batch ${batchId} is being processed elsewhere`);
      if (batch.status === 'done') return;
      const payload = known ?? batch.payload;
      // Only a done batch drops its payload, and a done batch returned above.
      if (!payload) throw new Error(`import batch ${batchId} has no payload`);
      const account = await loadAccountRules(tx, batch.accountId);
      const now = services.clock.now();
      // Collected afresh by each attempt: a retried transaction counts its own items only.
      const skippedPositions: number[] = [];
      const outcomes = await upsertInTransaction(tx, account, payload.writes, payload.enrollment, now, {
        skipOverLimit: true,
        onSkip: (position) => skippedPositions.push(position),
      });
      // Items whose customFields, merged into their stored contact's, would pass the limits.
      const skipped = payload.writes.length - outcomes.length;
      if (skipped > 0)
        logger.warn(
          { batchId, skipped },
          'bulk import items skipped: their customFields merged with the stored ones would pass the limits',
        );
      await storeConsents(tx, batch.accountId, importedConsents(payload, skippedPositions, outcomes, now), now);
      await markBatchDone(tx, batchId, now, { written: outcomes.length, skipped });
      // Counted in the transaction that writes the items and marks the batch done: a batch
      // run again after a crash was either committed with its counts or not at all.
      await finishImportJob(tx, batchId, countImport(outcomes, skippedPositions, payload.indexes), now);
      written = outcomes.length;
    }),
  );
  services.statistics?.wrote(written);
}

/** The consents sent with a batch's items, for the contacts their writes landed on (skipped items have none). */
function importedConsents(
  payload: ImportPayload,
  skippedPositions: readonly number[],
  outcomes: ReadonlyArray<{ contact: { id: string; accountId: string } }>,
  now: Date,
): ConsentRow[] {
  if (!payload.consents?.length) return [];
  // Outcomes follow the writes, less the skipped ones.
  const contactAt = new Map<number, { id: string; accountId: string }>();
  let next = 0;
  payload.writes.forEach((_, position) => {
    if (!skippedPositions.includes(position)) contactAt.set(position, outcomes[next++].contact);
  });
  return payload.consents.flatMap(({ position, consent }) => {
    const contact = contactAt.get(position);
    return contact ? [consentRow(contact.accountId, contact.id, consent, now)] : [];
  });
}

/**
 * Registers the queue worker and starts the sweeper of stored batches (./stored-work-sweeper.ts),
 * whose first pass runs at once: batches a killed process left behind (pending, their jobs
 * perhaps still "active" in the queue) are claimed when this process starts, not when a job's
 * expiry or retry backoff comes round.
 */
export async function startBatchWorker(services: Services): Promise<PeriodicWorker> {
  // `held`: the payload of an import this process just accepted (contacts-batches.service.ts).
  await services.queue.work(BATCH_QUEUE, async (data, held) =>
    processBatch(services, String(data.batchId), held as ImportPayload | undefined),
  );
  return startStoredWorkSweeper(services, (batchId) => processBatch(services, batchId));
}
