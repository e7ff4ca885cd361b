// Enrolling a workflow's existing contacts (POST /api/v1/workflows/{id}/enrollments): by id (1 to
// 1000) or every contact a list filter matches. The request is checked (the workflow must be the
// Account's, published and not paused), stored as a durable batch with its job row, and answered
// 202 with the job; the batch worker (src/jobs/import-batches.ts) applies it in chunks, each
// chunk's enrollments, counts and progress cursor committed together, so a crash or a retry never
// enrolls a contact twice. A filter's matches are those created up to the request: contacts added
// while the job runs are not part of it. Each contact not enrolled is counted with its reason
// (enrollment-jobs.rules.ts); the first NOT_ENROLLED_LISTED are listed.
import type { EnrollmentJob } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';
import type { RequestContext, Services } from '../context.js';
import { requireActor } from '../context.js';
import { notFound } from '../errors.js';
import { assertUuid } from '../shared/ids.js';
import { parseInput } from '../shared/validation.js';
import type { ContactRow } from '../contacts/contacts.rules.js';
import { findBlockedPhones, updateContacts } from '../contacts/contacts.store.js';
import { listFilterCondition } from '../contacts/contacts-list.store.js';
import { runChunkedBatch, type ChunkBounds } from '../contacts/batch-chunks.js';
import { BatchBusy, enqueueBatch } from '../contacts/contacts-batches.service.js';
import { lockBatch, markBatchDone, saveBatchPayload } from '../contacts/contacts-batches.store.js';
import { decideForSubjects } from '../calling-rules/dialing-facts.js';
import { RULE_SET } from '../calling-rules/rule-set.js';
import { accountWorkflow, resolveEnrollmentTarget } from '../workflows/workflows.service.js';
import { applyEnrollment, type Enrollment } from './enrollment.rules.js';
import { startEnrollments } from './enrollment.store.js';
import { EnrollContactsSchema, type ContactSelection } from './workflow-enrollments.inputs.js';
import {
  NOT_ENROLLED_LISTED,
  NOT_ENROLLED_REASONS,
  notEnrolledReason,
  type NotEnrolledReason,
} from './enrollment-jobs.rules.js';
import {
  enrollmentJobInsert,
  lockContactsWithIds,
  lockMatching,
  recordEnrollmentChunk,
  scanWindow,
  workflowForChunk,
  workflowHistoryOf,
  type EnrollmentChunk,
} from './enrollment-jobs.store.js';

interface EnrollmentPayload {
  workflowId: string;
  contactIds?: string[];
  filter?: ContactSelection['filter'];
  reEnroll: boolean;
  enforceCallNow: boolean;
  /** The request's time: a filter selects the contacts created up to it. */
  until: string;
  /** Progress of a filter's job: the last contact looked at, in (createdAt, id) order. */
  after?: { createdAt: string; id: string };
  /** How many contacts not enrolled are listed so far (at most NOT_ENROLLED_LISTED). */
  listed?: number;
}

/** A job as GET /api/v1/enrollment-jobs/{id} answers it. */
export interface EnrollmentJobView {
  id: string;
  workflowId: string;
  status: EnrollmentJob['status'];
  reEnroll: boolean;
  enforceCallNow: boolean;
  matched: number;
  enrolled: number;
  notEnrolledCount: number;
  /** Every reason with its count, zeros included, in NOT_ENROLLED_REASONS order. */
  reasons: Array<{ reason: NotEnrolledReason; count: number }>;
  notEnrolled: Array<{ contactId: string; reason: NotEnrolledReason }>;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export function enrollmentJobView(job: EnrollmentJob): EnrollmentJobView {
  const counts = job.reasonCounts as Record<string, number>;
  return {
    id: job.id,
    workflowId: job.workflowId,
    status: job.status,
    reEnroll: job.reEnroll,
    enforceCallNow: job.enforceCallNow,
    matched: job.matched,
    enrolled: job.enrolled,
    notEnrolledCount: job.notEnrolledCount,
    reasons: NOT_ENROLLED_REASONS.map((reason) => ({ reason, count: counts[reason] ?? 0 })),
    notEnrolled: job.notEnrolled as unknown as EnrollmentJobView['notEnrolled'],
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}

/** One enrollment job of the key's Account (404 for an unknown one, or another Account's). */
export async function getEnrollmentJob(ctx: RequestContext, id: string): Promise<EnrollmentJobView> {
  const { accountId } = requireActor(ctx);
  const job = await ctx.db.prisma.enrollmentJob.findFirst({ where: { id: assertUuid(id, 'id'), accountId } });
  if (!job) throw notFound(`No enrollment job ${id}`);
  return enrollmentJobView(job);
}

/**
 * Accepts an enrollment of existing contacts: 400 for a bad body or a workflow that is a draft,
 * archived or paused; 404 for an unknown workflow or another Account's. Nothing is written on a
 * refusal. Answers the job as it stands once stored (it runs on in the background).
 */
export async function enrollWorkflowContacts(
  ctx: RequestContext,
  workflowId: string,
  body: unknown,
): Promise<EnrollmentJobView> {
  const input = parseInput(EnrollContactsSchema, body);
  const { accountId } = requireActor(ctx);
  const workflow = await accountWorkflow(ctx, workflowId, 'workflowId');
  const options = { reEnroll: input.reEnroll ?? false, enforceCallNow: input.enforceCallNow ?? false };
  await resolveEnrollmentTarget(ctx, accountId, { workflowId: workflow.id, ...options }, 'workflowId');
  const payload: EnrollmentPayload = {
    workflowId: workflow.id,
    ...(input.contactIds ? { contactIds: [...new Set(input.contactIds)] } : { filter: input.filter }),
    ...options,
    until: ctx.clock.now().toISOString(),
  };
  const id = await enqueueBatch(ctx, 'enrollment', payload, (batch) =>
    enrollmentJobInsert(batch, { workflowId: workflow.id, ...options }),
  );
  return getEnrollmentJob(ctx, id);
}

/** Applies a stored enrollment batch, chunk by chunk (the batch worker, src/jobs/import-batches.ts). */
export async function processEnrollmentBatch(services: Services, batchId: string): Promise<void> {
  await runChunkedBatch(services, (tx, bounds) => enrollNextChunk(services, tx, batchId, bounds));
}

async function enrollNextChunk(
  services: Services,
  tx: SqlClient,
  batchId: string,
  bounds: ChunkBounds,
): Promise<{ finished: boolean; changed: number }> {
  const locked = await lockBatch<EnrollmentPayload>(tx, batchId);
  if (!locked) throw new BatchBusy(`batch ${batchId} is being processed elsewhere`);
  if (locked.status === 'done') return { finished: true, changed: 0 };
  const { accountId, payload } = locked;
  const now = services.clock.now();

  const selected = await selectChunk(tx, accountId, payload, bounds);
  const outcome = await enrollSelected(tx, accountId, payload, selected.contacts, now);
  const notFound = selected.notFound.map((contactId) => ({ contactId, reason: 'not_found' as const }));
  const refused = [...notFound, ...outcome.refused];
  const reasonCounts: Record<string, number> = {};
  for (const r of refused) reasonCounts[r.reason] = (reasonCounts[r.reason] ?? 0) + 1;
  const listedBefore = payload.listed ?? 0;
  const listed = refused.slice(0, Math.max(0, NOT_ENROLLED_LISTED - listedBefore));
  const chunk: EnrollmentChunk = {
    matched: selected.contacts.length + notFound.length,
    enrolled: outcome.enrolled,
    notEnrolled: refused.length,
    reasonCounts,
    listed,
    finished: selected.after === null,
  };
  await recordEnrollmentChunk(tx, batchId, chunk, now);
  if (selected.after === null) {
    await markBatchDone(tx, batchId, now, { enrolled: outcome.enrolled });
    return { finished: true, changed: outcome.enrolled };
  }
  await saveBatchPayload(tx, batchId, { ...payload, after: selected.after, listed: listedBefore + listed.length });
  return { finished: false, changed: outcome.enrolled };
}

/**
 * The chunk's contacts, locked: all the ids sent (one chunk), or a filter's matches in the next
 * window of the Account's contacts. `after`: where the next chunk starts (null: this is the last).
 */
async function selectChunk(
  tx: SqlClient,
  accountId: string,
  payload: EnrollmentPayload,
  bounds: ChunkBounds,
): Promise<{ contacts: ContactRow[]; notFound: string[]; after: { createdAt: string; id: string } | null }> {
  if (payload.contactIds) {
    const contacts = await lockContactsWithIds(tx, accountId, payload.contactIds);
    const found = new Set(contacts.map((c) => c.id));
    return { contacts, notFound: payload.contactIds.filter((id) => !found.has(id)), after: null };
  }
  const matches = listFilterCondition(accountId, payload.filter ?? {});
  const window = await scanWindow(tx, accountId, matches, new Date(payload.until), payload.after, bounds.scan);
  // The window ends early at the `write`-th match: no chunk writes more than that.
  const ids: string[] = [];
  let end = window.at(-1);
  for (const row of window) {
    if (!row.matches) continue;
    ids.push(row.id);
    if (ids.length === bounds.write) {
      end = row;
      break;
    }
  }
  const last = !end || (end === window.at(-1) && window.length < bounds.scan);
  // Read again and locked: a contact changed since the window may no longer match.
  const contacts = await lockMatching(tx, ids, matches);
  const after = last || !end ? null : { createdAt: new Date(end.createdAt).toISOString(), id: end.id };
  return { contacts, notFound: [], after };
}

/** Enrolls the chunk's contacts that may be, and says why each other one is not. */
async function enrollSelected(
  tx: SqlClient,
  accountId: string,
  payload: EnrollmentPayload,
  contacts: ContactRow[],
  now: Date,
): Promise<{ enrolled: number; refused: Array<{ contactId: string; reason: NotEnrolledReason }> }> {
  if (contacts.length === 0) return { enrolled: 0, refused: [] };
  const workflow = await workflowForChunk(tx, payload.workflowId);
  const workflowOpen = workflow !== null && workflow.status === 'published' && !workflow.paused;
  const ids = contacts.map((c) => c.id);
  const history = await workflowHistoryOf(tx, payload.workflowId, ids);
  const phones = contacts.flatMap((c) => (c.phone ? [c.phone] : []));
  const blockedPhones = await findBlockedPhones(tx, accountId, phones);
  // The dialing decision says what lasts until someone acts (a block, a missing consent): the
  // same rule the dialer applies to these contacts for this workflow.
  const decisions = await decideForSubjects(
    tx,
    RULE_SET,
    contacts.map((c) => ({
      accountId,
      contactId: c.id,
      phone: c.phone,
      location: c.location,
      locationDefaulted: c.locationDefaulted,
      timezone: c.timezone,
      dnc: c.status === 'dnc',
      blocked: c.phone !== null && blockedPhones.has(c.phone),
      enrollment: {
        workflowId: payload.workflowId,
        workingHours: {},
        hoursTimeZone: 'UTC',
        immediate: true,
        dueAt: now,
        holds: [],
      },
    })),
    now,
  );
  const refused: Array<{ contactId: string; reason: NotEnrolledReason }> = [];
  const toEnroll: ContactRow[] = [];
  contacts.forEach((contact, i) => {
    const codes = new Set(decisions[i].reasons.map((r) => r.code));
    const reason = notEnrolledReason({
      workflowOpen,
      activeInWorkflow: history.active.has(contact.id),
      calledByWorkflow: history.called.has(contact.id),
      reEnroll: payload.reEnroll,
      blocked: codes.has('phone_blocked') || codes.has('contact_dnc'),
      consentRequired: codes.has('consent_required'),
    });
    if (reason) refused.push({ contactId: contact.id, reason });
    else toEnroll.push(contact);
  });
  if (toEnroll.length > 0 && workflow) {
    const enrollment: Enrollment = {
      workflowId: payload.workflowId,
      attemptLimit: workflow.attemptLimit,
      reEnroll: payload.reEnroll,
      enforceCallNow: payload.enforceCallNow,
    };
    const rows = toEnroll.map((c) => ({ ...applyEnrollment(c, enrollment), updatedAt: now }));
    await updateContacts(tx, accountId, rows);
    await startEnrollments(
      tx,
      accountId,
      rows.map((r) => r.id),
      enrollment,
      now,
    );
  }
  return { enrolled: toEnroll.length, refused };
}
