// Bulk-update: the same change to every contact matching a filter. Answered with 202 once
// the request is stored as a durable batch; applied oldest first in chunks, each chunk and
// its progress cursor committed together, so a restart resumes without applying twice.
import { Prisma } from '../../generated/prisma/client.js';
import type { RequestContext, Services } from '../context.js';
import { requireActor } from '../context.js';
import { badRequest } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { prepareContactWrite, type PreparedWrite } from './contact-rules.js';
import { BulkUpdateBodySchema, type BulkUpdateFilter } from './contacts.inputs.js';
import { CONTACT_COLUMNS, directSql } from './contacts.store.js';
import { changeStoredContact } from './contacts-write.service.js';
import type { ContactRow } from './contact-rules.js';
import { enqueueBatch, loadAccountRules } from './contacts-import.service.js';

const CHUNK = 500;

interface BulkUpdatePayload {
  filter: BulkUpdateFilter;
  write: PreparedWrite;
  /** Progress: the last contact handled, in (createdAt, id) order. */
  after?: { createdAt: string; id: string };
  updated?: number;
  skipped?: number;
}

export async function bulkUpdateContacts(ctx: RequestContext, body: unknown): Promise<Record<string, never>> {
  const actor = requireActor(ctx);
  const { filter, data } = parseInput(BulkUpdateBodySchema, body);
  const prepared = prepareContactWrite(data, actor.account, { keyFields: null });
  if (!prepared.ok) throw badRequest('data.phone cannot be read as a phone number for its country; include the country code');
  await enqueueBatch(ctx, 'bulk-update', { filter, write: prepared.write } satisfies BulkUpdatePayload);
  return {};
}

function filterSql(accountId: string, filter: BulkUpdateFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`"accountId" = ${accountId}::uuid`];
  if (filter.firstName !== undefined) conditions.push(Prisma.sql`"firstName" = ${filter.firstName}`);
  if (filter.lastName !== undefined) conditions.push(Prisma.sql`"lastName" = ${filter.lastName}`);
  if (filter.phone !== undefined) conditions.push(Prisma.sql`"phone" = ${filter.phone}`);
  if (filter.sourceKind !== undefined) conditions.push(Prisma.sql`"sourceKind" = ${filter.sourceKind}::"SourceKind"`);
  if (filter.externalId !== undefined) conditions.push(Prisma.sql`"externalId" = ${filter.externalId.replace(/ +$/, '')}`);
  for (const { key, value } of filter.customFields ?? []) conditions.push(Prisma.sql`"customFields" ->> ${key} = ${value}`);
  return Prisma.join(conditions, ' AND ');
}

/** Applies a stored bulk-update batch, chunk by chunk (called by processBatch). */
export async function processBulkUpdateBatch(services: Services, batchId: string): Promise<void> {
  for (;;) {
    let changed = 0;
    const finished = await services.db.sql.transaction(async (txRunner) => {
      changed = 0;
      const tx = directSql(txRunner);
      const locked = await tx.$queryRaw<Array<{ accountId: string; payload: BulkUpdatePayload; status: string }>>`
        SELECT "accountId", "payload", "status"::text AS "status" FROM "ImportBatch" WHERE "id" = ${batchId}::uuid FOR UPDATE SKIP LOCKED`;
      if (locked.length === 0) throw new Error(`batch ${batchId} is being processed elsewhere`);
      const [{ accountId, payload, status }] = locked;
      if (status === 'done') return true;
      const account = await loadAccountRules(tx, accountId);
      const after = payload.after
        ? Prisma.sql`AND ("createdAt", "id") > (${new Date(payload.after.createdAt)}::timestamptz, ${payload.after.id}::uuid)`
        : Prisma.empty;
      const chunk = await tx.$queryRaw<ContactRow[]>`SELECT ${CONTACT_COLUMNS} FROM "Contact"
        WHERE ${filterSql(accountId, payload.filter)} ${after} ORDER BY "createdAt", "id" LIMIT ${CHUNK} FOR UPDATE`;
      let updated = payload.updated ?? 0;
      let skipped = payload.skipped ?? 0;
      for (const contact of chunk) {
        const result = await changeStoredContact(tx, account, contact, payload.write, 'bulk-update', services.clock.now());
        if (result.ok) {
          updated++;
          changed++;
        } else skipped++;
      }
      const last = chunk.at(-1);
      const done = chunk.length < CHUNK;
      const next: BulkUpdatePayload = { ...payload, updated, skipped, after: last ? { createdAt: last.createdAt.toISOString(), id: last.id } : payload.after };
      if (done) {
        await tx.$executeRaw`UPDATE "ImportBatch" SET "status" = 'done', "doneAt" = ${services.clock.now()}::timestamptz, "payload" = '{}'::jsonb,
          "result" = ${JSON.stringify({ updated, skipped })}::jsonb WHERE "id" = ${batchId}::uuid`;
      } else {
        await tx.$executeRaw`UPDATE "ImportBatch" SET "payload" = ${JSON.stringify(next)}::jsonb WHERE "id" = ${batchId}::uuid`;
      }
      return done;
    });
    services.statistics?.wrote(changed);
    if (finished) return;
  }
}
