// A workflow's enrollments: listed newest first, and stopped (for contacts by id or by the list
// operation's filter). Stopping is always allowed, whatever the workflow's status, and takes effect
// before the answer: no call is placed to a stopped contact for that workflow afterwards (see
// workflow-enrollments.store.ts); a call already in progress finishes and is recorded.
import { directSql, type SqlClient } from '../../db/sql-client.js';
import { CALL_RESULTS } from '../../calls/telephony/telephony.port.js';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { decodeCursor, encodeCursor } from '../shared/cursor.js';
import { accountWorkflow } from '../workflows/workflows.service.js';
import { parseInput } from '../shared/validation.js';
import { listFilterCondition } from '../contacts/contacts-list.store.js';
import {
  contactsWithIds,
  enrollmentPage,
  enrollmentsWithIds,
  stopEnrollments,
  type EnrollmentRow,
} from './workflow-enrollments.store.js';
import { ContactSelectionSchema, EnrollmentPageQuerySchema } from './workflow-enrollments.inputs.js';

/**
 * Why an enrollment ended: a final call result, the agent's attempt limit, a stop, a later
 * enrollment, the contact's erasure (the enrollment stays, with no contact).
 */
export const ENROLLMENT_END_REASONS = [
  'final_result',
  'attempt_limit',
  'stopped',
  're_enrolled',
  'contact_erased',
] as const;
export type EnrollmentEndReason = (typeof ENROLLMENT_END_REASONS)[number];

export interface EnrollmentView {
  id: string;
  /** null: the contact was erased (endReason contact_erased, or an enrollment that had ended before). */
  contactId: string | null;
  workflowId: string;
  state: 'active' | 'ended';
  startedAt: Date;
  endedAt: Date | null;
  endReason: EnrollmentEndReason | null;
  /** The call result that ended it, when endReason is final_result. */
  finalResult: string | null;
  attempts: number;
  /** When the dialer may next call (null: ended, or a call in progress). */
  nextCallAt: Date | null;
}

const RESULTS: ReadonlySet<string> = new Set(CALL_RESULTS);

/** Why an ended enrollment ended, from its stored reason (a call result: final_result). */
function endReasonOf(stored: string | null): EnrollmentEndReason {
  if (stored === 'attempt_limit' || stored === 'stopped' || stored === 'contact_erased') return stored;
  return stored !== null && RESULTS.has(stored) ? 'final_result' : 're_enrolled';
}

function enrollmentView(row: EnrollmentRow): EnrollmentView {
  const stored = row.endReason;
  const endReason = row.active ? null : endReasonOf(stored);
  return {
    id: row.id,
    contactId: row.contactId,
    workflowId: row.workflowId,
    state: row.active ? 'active' : 'ended',
    startedAt: row.createdAt,
    endedAt: row.endedAt,
    endReason,
    finalResult: endReason === 'final_result' ? stored : null,
    attempts: row.attempts,
    nextCallAt: row.active ? row.nextAttemptAt : null,
  };
}

/** The enrollments with these ids, as the list shows them (an enrollment event's data). */
export async function enrollmentViewsWithIds(db: SqlClient, ids: readonly string[]): Promise<EnrollmentView[]> {
  return (await enrollmentsWithIds(db, ids)).map(enrollmentView);
}

/** One page of the workflow's enrollments, newest first (`state`: active or ended only). */
export async function listWorkflowEnrollments(
  ctx: RequestContext,
  workflowId: string,
  input: unknown,
): Promise<{ data: EnrollmentView[]; nextToken: string | null }> {
  const query = parseInput(EnrollmentPageQuerySchema, input);
  const workflow = await accountWorkflow(ctx, workflowId, 'workflowId');
  const after = query.nextToken ? decodeCursor(query.nextToken) : null;
  const active = query.state === undefined ? null : query.state === 'active';
  const rows = await enrollmentPage(directSql(ctx.db.sql), workflow.id, active, after, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    data: page.map(enrollmentView),
    nextToken: rows.length > query.limit ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}

export interface StopResult {
  /** Contacts whose active enrollment in the workflow ended. */
  stopped: number;
  /** Of the contactIds sent, those with no active enrollment in the workflow (or not the Account's). */
  notActive: string[];
}

/** Ends the workflow's active enrollments of the contacts selected; answered once no call can follow. */
export async function stopWorkflowEnrollments(
  ctx: RequestContext,
  workflowId: string,
  input: unknown,
): Promise<StopResult> {
  const selection = parseInput(ContactSelectionSchema, input);
  const workflow = await accountWorkflow(ctx, workflowId, 'workflowId');
  const { accountId } = requireActor(ctx);
  const contacts = selection.contactIds
    ? contactsWithIds(accountId, selection.contactIds)
    : listFilterCondition(accountId, selection.filter ?? {});
  const now = ctx.clock.now();
  const byIds = selection.contactIds !== undefined;
  const stopped = await ctx.db.sql.transaction((runner) =>
    stopEnrollments(directSql(runner), accountId, workflow.id, contacts, now, byIds),
  );
  const ended = new Set(stopped.contactIds);
  return {
    stopped: stopped.count,
    notActive: byIds ? [...new Set(selection.contactIds)].filter((id) => !ended.has(id)) : [],
  };
}
