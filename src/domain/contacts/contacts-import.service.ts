// Bulk import: every item is validated and normalized before the 202, and the accepted ones are
// stored as one durable batch (contacts-batches.service.ts). The batch worker
// (src/jobs/import-batches.ts) writes them; writing them and marking the batch done share one
// transaction, so a batch is never applied twice. Its ImportJob (contact-jobs.store.ts) is
// stored by the statement that stores the batch, so the importId of a 202 always exists.
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { badRequest } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { resolveEnrollmentTarget } from '../workflows/workflows.service.js';
import type { Enrollment } from '../enrollment/enrollment.rules.js';
import { prepareContactWrite, type PreparedWrite } from './contacts.rules.js';
import { BulkImportBodySchema, BulkItemSchema } from './contacts.inputs.js';
import { enqueueBatch } from './contacts-batches.service.js';
import { importJobInsert } from './contact-jobs.store.js';
import { randomUUID } from 'node:crypto';
import { checkedConsents } from '../calling-rules/consent-writes.js';
import type { ConsentBody } from '../calling-rules/calling-rules.inputs.js';

export type RejectionReason = 'missing-dedup-field' | 'dedup-key-too-long' | 'invalid-phone';

export interface ImportResult {
  /** The import's job: GET /api/v1/imports/{id}. */
  importId: string;
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
  // Consents sent with the items are checked before anything is stored: a bad one is a 400.
  await checkedConsents(
    ctx,
    actor.accountId,
    items.flatMap((item, index) =>
      item.consent ? [{ body: item.consent, prefix: `contacts[${index}].consent.` }] : [],
    ),
  );

  const writes: PreparedWrite[] = [];
  const indexes: number[] = [];
  const consents: NonNullable<ImportPayload['consents']> = [];
  const rejected: ImportResult['rejected'] = [];
  items.forEach(({ consent, ...item }, index) => {
    const prepared = prepareContactWrite(item, actor.account);
    if (prepared.ok) {
      if (consent) consents.push({ position: writes.length, consent });
      writes.push(prepared.write);
      indexes.push(index);
    } else rejected.push({ reason: REASONS[prepared.reason], index });
  });
  const accepted = writes.length;
  if (accepted === 0) {
    // Nothing to write: the job is done as it is stored.
    const importId = randomUUID();
    const now = ctx.clock.now();
    await ctx.db.prisma.importJob.create({
      data: {
        id: importId,
        accountId: actor.accountId,
        accepted,
        rejected,
        status: 'done',
        createdAt: now,
        finishedAt: now,
      },
    });
    return { importId, accepted, rejected };
  }
  const payload: ImportPayload = { writes, indexes, enrollment, ...(consents.length > 0 ? { consents } : {}) };
  const importId = await enqueueBatch(ctx, 'import', payload, (batch) =>
    importJobInsert({ ...batch, accepted, rejected }),
  );
  return { importId, accepted, rejected };
}

/** Validates every item and reports every bad one (up to 20) in one 400. */
function parseAllItems(contacts: unknown[]) {
  const parsed = [];
  const problems: Array<{ path: string; message: string }> = [];
  for (let i = 0; i < contacts.length; i++) {
    try {
      parsed.push(parseInput(BulkItemSchema, contacts[i], `contacts[${i}]`));
    } catch (error) {
      problems.push(
        ...((error as { details?: { issues?: Array<{ path: string; message: string }> } }).details?.issues ?? []),
      );
      if (problems.length >= 20) break;
    }
  }
  if (problems.length > 0)
    throw badRequest(problems.map((p) => `${p.path}: ${p.message}`).join('; '), { issues: problems });
  return parsed;
}

/** What a stored bulk import holds: its items, prepared, and the enrollment they all get. */
export interface ImportPayload {
  writes: PreparedWrite[];
  /** Each write's index in the request (absent in batches stored before import jobs: then its position). */
  indexes?: number[];
  enrollment: Enrollment | null;
  /** Consents sent with the items: each stored for the contact its write (`position` in `writes`) lands on. */
  consents?: Array<{ position: number; consent: ConsentBody }>;
}
