// Applies telephony events (from the simulator in-process, or a provider through the signed
// endpoint). Each event is applied once (its id is recorded in the same transaction), and
// in any order: a late call.started never undoes an end, a second "ended" for one call is
// ignored, and an outcome older than lastCallAt is not counted (call-outcome.rules.ts).
import { randomUUID } from 'node:crypto';
import type { Services } from '../context.js';
import { DomainError } from '../errors.js';
import { loadAccountRules } from '../contacts/contacts.store.js';
import { directSql, type SqlClient } from '../../db/sql-client.js';
import type { TelephonyEventOf } from '../../calls/telephony/telephony.port.js';
import type { ProviderEvent, RemoteVoiceProvider } from '../../calls/telephony/voice-provider.port.js';
import { applyCallOutcome, FINAL_RESULTS } from './call-outcome.rules.js';
import {
  CONNECTED_RESULTS,
  DURATION_BUCKETS,
  durationBucket,
  NO_AGENT,
  REACHED_RESULTS,
} from '../workflows/workflow-results.rules.js';
import { normalizePhone } from '../../normalize/phone.js';
import { assertStorableText } from '../shared/storable-text.js';
import { prepareContactWrite } from '../contacts/contacts.rules.js';
import { upsertInTransaction } from '../contacts/contacts-write.service.js';
import {
  findAgentByPhoneNumber,
  findContactIdByPhone,
  flushCallWrites,
  insertInboundCall,
  lockCall,
  noCallWrites,
  recordEventsAndLockCall,
  writeCallEnded,
  writeInProgress,
  writeProviderCallId,
  writeReport,
  writeStartedAt,
  type CallRow,
  type CallWrites,
  type EnrollmentProgress,
  type EnrollmentRow,
  type LockedCallRows,
} from './call-events.store.js';

export type EventApplication = 'applied' | 'duplicate';

/** The durable domain event every ended call emits (consumed by the board trigger and webhooks). */
export interface CallEndedEvent {
  callId: string;
  contactId: string;
  accountId: string;
  workflowId: string | null;
  agentId: string | null;
  result: string;
  endReason: string;
  durationSeconds: number;
  lastCall: boolean;
  transferred: boolean;
  testCall: boolean;
  endedAt: string;
}

/** Where an event came from, when a provider's authenticated webhook delivered it. */
export interface EventSource {
  /** The Account whose credentials authenticated the webhook: its events touch only its calls and agents. */
  accountId: string;
  provider: RemoteVoiceProvider;
}

/**
 * Applies one event once (see the header). From a provider's webhook (`source`), it also
 * records the provider's call id and the recording, and a call or agent of another Account is
 * as unknown as a missing one.
 */
export async function applyTelephonyEvent(
  services: Pick<Services, 'db' | 'clock'>,
  event: ProviderEvent,
  source?: EventSource,
): Promise<EventApplication> {
  const [applied] = await applyTelephonyEvents(services, [event], source);
  return applied;
}

/**
 * Applies the events one provider message carries, in order, in one transaction: one commit
 * for the message (a Vapi end-of-call-report is call.ended and report.ready; a Retell
 * call_analyzed also repeats call.started and report.ready), and all of it or nothing when one
 * of them fails (the provider's retry then applies the message again).
 *
 * Round trips are what a webhook costs, so the first statement records every event id of the
 * message and, when they are all about one existing call, locks that call, its contact and (for
 * an end) its enrollment; each event then writes in one statement of its own.
 */
export async function applyTelephonyEvents(
  services: Pick<Services, 'db' | 'clock'>,
  events: ProviderEvent[],
  source?: EventSource,
): Promise<EventApplication[]> {
  if (events.length === 0) return [];
  // Whatever surface reported them: text the database cannot store is the reporter's 400.
  for (const [index, event] of events.entries())
    assertStorableText(event, events.length === 1 ? '' : `events[${index}]`);
  const now = services.clock.now();
  return services.db.sql.transaction(async (runner) => {
    const tx = directSql(runner);
    const { fresh, locked } = await recordAndLock(tx, events, now);
    const calls = new Map<string, LockedCall>(locked ? [[locked.call.id, locked]] : []);
    const applied: EventApplication[] = [];
    for (const event of events) {
      // Deleted once applied: the same id twice in one message applies once.
      if (!fresh.delete(event.eventId)) {
        applied.push('duplicate');
        continue;
      }
      if (event.type === 'call.inbound') {
        await startInboundCall(tx, event, now, source);
      } else {
        const call =
          calls.get(event.callId) ?? withNoWrites(await lockCall(tx, event.callId, event.type === 'call.ended'));
        // Thrown, so the event is not recorded as processed: the provider's retry can apply it.
        if (!call || (source && call.call.accountId !== source.accountId))
          throw new DomainError('not_found', `No call ${event.callId}`);
        calls.set(event.callId, call);
        // Two events of one kind for one call in a message write one after the other.
        if (call.kinds.has(event.type)) await flushWrites(tx, call);
        await applyToCall(tx, call, event, now);
      }
      applied.push('applied');
    }
    for (const call of calls.values()) await flushWrites(tx, call);
    return applied;
  });
}

/**
 * A call locked for its events, with its contact and (when an end was among them) its enrollment
 * (undefined: not read; enrollmentProgress reads it when an end needs it).
 */
interface LockedCall extends LockedCallRows {
  /** The kinds of event this message applied to the call since its writes were last sent. */
  kinds: Set<string>;
  /** What this message's events write to the call, not sent yet. */
  writes: CallWrites;
}

/** A call just locked, with no writes pending. */
function withNoWrites(rows: LockedCallRows | null): LockedCall | null {
  return rows && { ...rows, kinds: new Set(), writes: noCallWrites() };
}

/** Sends the call's pending writes as one statement. */
async function flushWrites(tx: SqlClient, locked: LockedCall): Promise<void> {
  await flushCallWrites(tx, locked.call.id, locked.writes);
  locked.kinds = new Set();
  locked.writes = noCallWrites();
}

/**
 * One round trip: records the message's event ids (the fresh ones come back) and, when every
 * event is about one call that already exists (no inbound call among them), locks it.
 */
async function recordAndLock(
  tx: SqlClient,
  events: ProviderEvent[],
  now: Date,
): Promise<{ fresh: Set<string>; locked: LockedCall | null }> {
  const callIds = new Set(events.map((e) => e.callId));
  const oneCall = callIds.size === 1 && !events.some((e) => e.type === 'call.inbound') ? events[0].callId : null;
  const withEnrollment = events.some((e) => e.type === 'call.ended');
  const { fresh, locked } = await recordEventsAndLockCall(tx, events, now, oneCall, withEnrollment);
  return { fresh, locked: withNoWrites(locked) };
}

/** One fresh event of a locked call, added to the call's pending writes; the locked state follows it. */
async function applyToCall(
  tx: SqlClient,
  locked: LockedCall,
  event: Exclude<ProviderEvent, { type: 'call.inbound' }>,
  now: Date,
): Promise<void> {
  const { call, writes } = locked;
  locked.kinds.add(event.type);
  // Only a call that has none yet (one the dialer placed has it since the provider's answer).
  if (event.providerCallId && call.providerCallId === null) {
    call.providerCallId = event.providerCallId;
    writeProviderCallId(writes, event.providerCallId);
  }
  if (event.type === 'call.started') markStarted(locked, new Date(event.occurredAt));
  else if (event.type === 'call.ended') await applyCallEnded(tx, locked, event, now);
  else storeReport(locked, event, event.recordingUrl ?? null);
}

/** A late call.started never undoes an end (the row is locked: its state in memory is the truth). */
function markStarted(locked: LockedCall, at: Date): void {
  const { call, writes } = locked;
  if (call.startedAt === null) {
    call.startedAt = at;
    writeStartedAt(writes, at);
  }
  if (['placing', 'queued', 'ringing'].includes(call.status)) {
    call.status = 'in_progress';
    writeInProgress(writes);
  }
}

/**
 * The outcome of an ended call, in the call's pending writes: the contact, the enrollment's
 * progress, the block list (do_not_call), the call itself and the durable call.ended event.
 */
async function applyCallEnded(
  tx: SqlClient,
  locked: LockedCall,
  event: TelephonyEventOf<'call.ended'>,
  now: Date,
): Promise<void> {
  const { call, contact } = locked;
  // One call ends once, whatever the number of "ended" events with different ids.
  if (call.status === 'ended') return;
  call.status = 'ended';
  const endedAt = new Date(event.occurredAt);
  const startedAt = call.startedAt ?? new Date(endedAt.getTime() - event.durationSeconds * 1000);
  const reportedNext = event.nextAttemptAt ? new Date(event.nextAttemptAt) : null;

  const { contact: updated } = applyCallOutcome(
    contact,
    { startedAt, result: event.result, language: event.language, nextAttemptAt: reportedNext },
    now,
  );
  const progress = await enrollmentProgress(
    tx,
    call,
    locked.enrollment,
    event,
    endedAt,
    reportedNext,
    contact.maxAttempts,
  );
  // An enrollment ending with this call clears nextCallAt; a call outside any active
  // enrollment (inbound, or a late report after its enrollment ended) keeps the reported time.
  if (progress.endsEnrollment) updated.nextCallAt = null;
  const payload: CallEndedEvent = {
    callId: call.id,
    contactId: call.contactId,
    accountId: call.accountId,
    workflowId: call.workflowId,
    agentId: call.agentId,
    result: event.result,
    endReason: event.endReason,
    durationSeconds: event.durationSeconds,
    lastCall: progress.lastCall,
    transferred: event.transferred ?? false,
    testCall: event.testCall ?? false,
    endedAt: endedAt.toISOString(),
  };
  writeCallEnded(locked.writes, {
    accountId: call.accountId,
    contact: updated,
    enrollment: progress.write,
    blockPhone: event.result === 'do_not_call' && contact.phone ? contact.phone : null,
    event: { id: randomUUID(), payload },
    rollUp: call.workflowId
      ? {
          callId: call.id,
          workflowId: call.workflowId,
          contactId: call.contactId,
          agentKey: call.agentId ?? NO_AGENT,
          startedAt,
          result: event.result,
          reached: REACHED_RESULTS.includes(event.result),
          durationBucket: CONNECTED_RESULTS.includes(event.result) ? durationBucket(event.durationSeconds) : null,
          reachedResults: REACHED_RESULTS,
          buckets: DURATION_BUCKETS.length,
        }
      : null,
    call: {
      result: event.result,
      endReason: event.endReason,
      startedAt,
      endedAt,
      durationSeconds: event.durationSeconds,
      language: event.language,
      lastCall: progress.lastCall,
      nextCallAt: reportedNext,
      transferred: event.transferred ?? false,
      testCall: event.testCall ?? false,
    },
    now,
  });
}

/**
 * Counts the attempt and schedules the next one, or ends the enrollment: after a final
 * result, or at the attempt limit (a requested callback may go past it). Returns whether
 * this was the contact's last call of the enrollment (also true for a call outside any active
 * enrollment: nothing follows it), whether this call ended the enrollment, and what it writes
 * to the enrollment.
 */
async function enrollmentProgress(
  tx: SqlClient,
  call: CallRow,
  /** The enrollment read (and locked) with the call; undefined: not read yet. */
  read: EnrollmentRow | null | undefined,
  event: TelephonyEventOf<'call.ended'>,
  endedAt: Date,
  reportedNext: Date | null,
  maxAttempts: number | null,
): Promise<{ lastCall: boolean; endsEnrollment: boolean; write: EnrollmentProgress | null }> {
  const nothing = null;
  if (!call.enrollmentId) return { lastCall: true, endsEnrollment: false, write: nothing };
  const enrollment = read !== undefined ? read : (await lockCall(tx, call.id, true))?.enrollment;
  if (!enrollment?.active) return { lastCall: true, endsEnrollment: false, write: nothing };
  const attempts = enrollment.attempts + 1;
  const limitReached = maxAttempts !== null && attempts >= maxAttempts;
  const continues =
    !FINAL_RESULTS.has(event.result) &&
    (!limitReached || (event.result === 'callback_requested' && reportedNext !== null));
  if (!continues) {
    const reason = FINAL_RESULTS.has(event.result) ? event.result : 'attempt_limit';
    const write = { enrollmentId: call.enrollmentId, attempts, endedAt, endReason: reason };
    return { lastCall: true, endsEnrollment: true, write };
  }
  const retryAt = reportedNext ?? new Date(endedAt.getTime() + (enrollment.retryDelayMinutes ?? 60) * 60_000);
  return { lastCall: false, endsEnrollment: false, write: { enrollmentId: call.enrollmentId, attempts, retryAt } };
}

/**
 * The transcript replaces any earlier one (a report with another event id), in the call's
 * pending writes: lines past the new last one removed, the others written over, the call marked
 * report-ready.
 */
function storeReport(locked: LockedCall, event: TelephonyEventOf<'report.ready'>, recordingUrl: string | null): void {
  writeReport(locked.writes, locked.call.id, event.utterances, recordingUrl);
}

/**
 * An inbound call to an agent's number: the caller is found by phone in the agent's Account,
 * or created with sourceKind `oneai`; the call is recorded and its later events apply as usual.
 */
async function startInboundCall(
  tx: SqlClient,
  event: ProviderEvent & { type: 'call.inbound' },
  now: Date,
  source?: EventSource,
): Promise<void> {
  const to = event.to ? normalizePhone(event.to, null) : null;
  if (!to?.ok)
    throw new DomainError(
      'bad_request',
      'call.inbound needs `to`: the agent number that was called, in international format',
    );
  const agent = await findAgentByPhoneNumber(tx, to.e164);
  if (!agent || (source && agent.accountId !== source.accountId))
    throw new DomainError('not_found', `No agent answers ${to.e164}`);
  const from = normalizePhone(event.from, null);
  if (!from.ok)
    throw new DomainError('bad_request', `call.inbound: "${event.from}" is not a phone number in international format`);
  const account = await loadAccountRules(tx, agent.accountId);
  let contactId = await findContactIdByPhone(tx, agent.accountId, from.e164);
  if (!contactId) {
    const write = { phone: from.e164, sourceKind: 'oneai' as const, externalId: null };
    // An Account keyed on fields an inbound caller cannot have keys the contact on its own id.
    const prepared = prepareContactWrite(write, account);
    const usable = prepared.ok ? prepared : prepareContactWrite(write, account, { keyFields: ['externalId'] });
    if (!usable.ok) throw new DomainError('bad_request', `call.inbound: cannot create a contact for ${from.e164}`);
    const [outcome] = await upsertInTransaction(tx, account, [usable.write], null, now);
    contactId = outcome.contact.id;
  }
  await insertInboundCall(
    tx,
    {
      id: event.callId,
      accountId: agent.accountId,
      contactId,
      agentId: agent.id,
      startedAt: new Date(event.occurredAt),
      provider: source?.provider ?? 'simulator',
      providerCallId: event.providerCallId ?? null,
    },
    now,
  );
}
