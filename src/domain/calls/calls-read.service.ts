// Call reads: one contact's calls (oldest first) and one call's transcript, inside the key's
// Account. The contact is resolved by the external-ID lookup of the contacts module, so the
// calls list answers 404 and 409 (with `contacts`) exactly as GET by external ID does.
//
// transcriptAvailable: true when the call's report is ready AND the call has at least one
// utterance, i.e. exactly when GET /api/v1/calls/{id}/transcript returns a non-empty array.
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { notFound } from '../errors.js';
import { getContactByExternalId } from '../contacts/contacts.service.js';
import { decodeCursor, encodeCursor, PageQuerySchema } from '../shared/cursor.js';
import { assertUuid } from '../shared/ids.js';
import { parseInput } from '../shared/validation.js';
import { directSql } from '../../db/sql-client.js';
import { findCallsWithUtterances } from './calls.store.js';
import { callResultsOfWorkflow, type ResultCount } from './call-tallies.store.js';

/** A call as the REST API returns it (schema/openapi.json: CallRecord). */
export interface CallRecord {
  id: string;
  contactId: string;
  workflowId: string | null;
  agentId: string | null;
  direction: 'outbound' | 'inbound';
  status: string;
  result: string | null;
  endReason: string | null;
  startedAt: Date;
  endedAt: Date | null;
  durationSeconds: number | null;
  language: string | null;
  lastCall: boolean;
  transcriptAvailable: boolean;
  /** The recording's URL, as the provider reported it; null when there is none. */
  recordingUrl: string | null;
}

/** The stored fields a CallRecord is made of (with reportReady, for transcriptAvailable). */
export const CALL_RECORD_FIELDS = {
  id: true,
  contactId: true,
  workflowId: true,
  agentId: true,
  direction: true,
  status: true,
  result: true,
  endReason: true,
  startedAt: true,
  endedAt: true,
  durationSeconds: true,
  language: true,
  lastCall: true,
  reportReady: true,
  recordingUrl: true,
} as const;

type StoredCall = Omit<CallRecord, 'transcriptAvailable'> & { reportReady: boolean };

/** Calls as the API shows them: transcriptAvailable read for the reported ones in one query. */
export async function toCallRecords(ctx: Pick<RequestContext, 'db'>, calls: StoredCall[]): Promise<CallRecord[]> {
  const reported = calls.filter((c) => c.reportReady).map((c) => c.id);
  const withUtterances = await findCallsWithUtterances(directSql(ctx.db.sql), reported);
  return calls.map(({ reportReady, ...call }) => ({
    ...call,
    transcriptAvailable: reportReady && withUtterances.has(call.id),
  }));
}

export interface CallPage {
  data: CallRecord[];
  nextToken: string | null;
}

export interface Utterance {
  speaker: string | null;
  content: string | null;
  timestamp: Date | null;
}

export interface Transcript {
  utterances: Utterance[];
}

/**
 * One page of the calls of the contact with this sourceKind and externalId, in call order:
 * oldest first by (startedAt, id), whatever order their reports arrived in. 404 when no contact matches, 409 (with `contacts`) when several do.
 */
export async function listContactCalls(
  ctx: RequestContext,
  path: { sourceKind: string; externalId: string },
  query: { limit?: number; nextToken?: string },
): Promise<CallPage> {
  const actor = requireActor(ctx);
  // The query is checked first: a bad limit or token is a 400 whatever the path names.
  const { limit, nextToken } = parseInput(PageQuerySchema, query);
  const cursor = nextToken ? decodeCursor(nextToken) : null;
  const contact = await getContactByExternalId(ctx, path);
  const rows = await ctx.db.prisma.call.findMany({
    where: {
      accountId: actor.accountId,
      contactId: contact.id,
      ...(cursor
        ? { OR: [{ startedAt: { gt: cursor.createdAt } }, { startedAt: cursor.createdAt, id: { gt: cursor.id } }] }
        : {}),
    },
    orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
    // One row more than the page tells whether another page exists (the last page has no token).
    take: limit + 1,
    select: CALL_RECORD_FIELDS,
  });
  const page = rows.slice(0, limit);
  return {
    data: await toCallRecords(ctx, page),
    nextToken:
      rows.length > limit
        ? encodeCursor({ createdAt: page[page.length - 1].startedAt, id: page[page.length - 1].id })
        : null,
  };
}

/**
 * The transcript of one call of the key's Account, utterances in conversation (seq) order.
 * 400 for a malformed id; 404 for an unknown call or another Account's. Empty until the
 * call's report is ready, and for a call without utterances.
 */
export async function getCallTranscript(ctx: RequestContext, callId: string): Promise<Transcript> {
  const actor = requireActor(ctx);
  const id = assertUuid(callId, 'id');
  const call = await ctx.db.prisma.call.findFirst({
    where: { id, accountId: actor.accountId },
    select: { reportReady: true },
  });
  // Another Account's call is indistinguishable from an unknown one.
  if (!call) throw notFound(`No call ${callId}`);
  if (!call.reportReady) return { utterances: [] };
  const utterances = await ctx.db.prisma.callUtterance.findMany({
    where: { callId: id },
    orderBy: { seq: 'asc' },
    select: { speaker: true, content: true, timestamp: true },
  });
  return { utterances };
}

/**
 * A workflow's ended calls counted by result: its calls, plus those of erased contacts (kept
 * only as counts, AnonymousCallTally). The workflow was read within its Account already.
 */
export function workflowCallResults(
  ctx: RequestContext,
  workflow: { id: string; accountId: string },
): Promise<ResultCount[]> {
  return callResultsOfWorkflow(directSql(ctx.db.sql), workflow.accountId, workflow.id);
}
