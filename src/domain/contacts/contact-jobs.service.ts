// Reading back bulk imports and bulk-updates (their job rows: contact-jobs.store.ts), scoped to
// the key's Account: another Account's job is indistinguishable from an unknown one (404).
import type { BulkUpdateJob, ImportJob } from '../../generated/prisma/client.js';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { notFound } from '../errors.js';
import { newestFirstPage, newestFirstPageOf, PageQuerySchema } from '../shared/cursor.js';
import { assertUuid } from '../shared/ids.js';
import { parseInput } from '../shared/validation.js';

import type { SkippedContact } from './contact-jobs.store.js';

export type { BulkUpdateJob, ImportJob };

export async function getImportJob(ctx: RequestContext, id: string): Promise<ImportJob> {
  const actor = requireActor(ctx);
  const job = await ctx.db.prisma.importJob.findFirst({
    where: { id: assertUuid(id, 'id'), accountId: actor.accountId },
  });
  if (!job) throw notFound(`No import ${id}`);
  return job;
}

/** One page of the Account's imports, newest first (createdAt, then id), with an opaque token. */
export async function listImportJobs(
  ctx: RequestContext,
  input: unknown,
): Promise<{ data: ImportJob[]; nextToken: string | null }> {
  const actor = requireActor(ctx);
  const page = parseInput(PageQuerySchema, input);
  const { after, orderBy, take } = newestFirstPage(page);
  const rows = await ctx.db.prisma.importJob.findMany({
    where: { accountId: actor.accountId, ...after },
    orderBy,
    take,
  });
  return newestFirstPageOf(rows, page.limit);
}

export async function getBulkUpdateJob(ctx: RequestContext, id: string): Promise<BulkUpdateJob> {
  const actor = requireActor(ctx);
  const job = await ctx.db.prisma.bulkUpdateJob.findFirst({
    where: { id: assertUuid(id, 'id'), accountId: actor.accountId },
  });
  if (!job) throw notFound(`No bulk-update ${id}`);
  return job;
}

/** An import as GET /api/v1/imports/{id} answers it (the import.completed webhook's data). */
export function importJobResponse(job: ImportJob) {
  const { id, status, accepted, created, updated, rejected, createdAt, finishedAt } = job;
  return { id, status, accepted, created, updated, rejected, createdAt, finishedAt };
}

/** A bulk-update as GET /api/v1/bulk-updates/{id} answers it (the bulk_update.completed webhook's data). */
export function bulkUpdateJobResponse(job: BulkUpdateJob) {
  const { id, status, matched, changed, skippedCount, createdAt, finishedAt } = job;
  const skipped = (job.skipped as unknown as SkippedContact[]).map((s) => ({
    contactId: s.contactId,
    reason: s.reason,
    conflictsWith: s.conflictsWith ?? null,
  }));
  return { id, status, matched, changed, skipped, skippedCount, createdAt, finishedAt };
}
