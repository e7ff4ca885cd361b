// Applies telephony events (from the simulator in-process, or a provider through the signed
// endpoint). Each event is applied once (its id is recorded in the same transaction), and
// in any order: a late call.started never undoes an end, a second "ended" for one call is
// ignored, and an outcome older than lastCallAt is not counted (call-outcome.rules.ts).
import { randomUUID } from 'node:crypto';
import type { Services } from '../context.js';
import { DomainError } from '../errors.js';
import { directSql, updateContactsStatement, type SqlClient } from '../contacts/contacts.store.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { ContactRow } from '../contacts/contacts.rules.js';
import type { TelephonyEventOf } from '../../calls/telephony/telephony.port.js';
import type { ProviderEvent, RemoteVoiceProvider } from '../../calls/telephony/voice-provider.port.js';
import { applyCallOutcome, FINAL_RESULTS } from './call-outcome.rules.js';
import { normalizePhone } from '../../normalize/phone.js';
import { UUID_PATTERN } from '../shared/ids.js';
import { assertStorableText } from '../shared/storable-text.js';
import { prepareContactWrite } from '../contacts/contacts.rules.js';
import { upsertInTransaction } from '../contacts/contacts-write.service.js';
import { loadAccountRules } from '../contacts/contacts-import.service.js';

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

interface CallRow {
  id: string;
  accountId: string;
  contactId: string;
  workflowId: string | null;
  agentId: string | null;
  enrollmentId: string | null;
  status: string;
  startedAt: Date | null;
  providerCallId: string | null;
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
export async function applyTelephonyEvent(services: Pick<Services, 'db' | 'clock'>, event: ProviderEvent, source?: EventSource): Promise<EventApplication> {
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
export async function applyTelephonyEvents(services: Pick<Services, 'db' | 'clock'>, events: ProviderEvent[], source?: EventSource): Promise<EventApplication[]> {
  if (events.length === 0) return [];
  // Whatever surface reported them: text the database cannot store is the reporter's 400.
  events.forEach((event, index) => assertStorableText(event, events.length === 1 ? '' : `events[${index}]`));
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
        const call = calls.get(event.callId) ?? (await lockCall(tx, event.callId, event.type === 'call.ended'));
        // Thrown, so the event is not recorded as processed: the provider's retry can apply it.
        if (!call || (source && call.call.accountId !== source.accountId)) throw new DomainError('not_found', `No call ${event.callId}`);
        calls.set(event.callId, call);
        // Two events of one kind for one call in a message write one after the other.
        if (call.writes.kinds.has(event.type)) await flushWrites(tx, call);
        await applyToCall(tx, call, event, now);
      }
      applied.push('applied');
    }
    for (const call of calls.values()) await flushWrites(tx, call);
    return applied;
  });
}

/** A call locked for its events, with its contact and (when an end was among them) its enrollment. */
interface LockedCall {
  call: CallRow;
  contact: ContactRow;
  enrollment: EnrollmentRow | null | undefined;
  /** What this message's events write to the call, not sent yet. */
  writes: CallWrites;
}

/**
 * The writes of a message's events to one locked call, sent as one statement (flushWrites):
 * the other tables' writes as CTEs, and one UPDATE of the Call row with every column the
 * events set (a later event's value for a column replaces an earlier one's).
 */
interface CallWrites {
  kinds: Set<string>;
  ctes: Prisma.Sql[];
  callColumns: Map<string, Prisma.Sql>;
}

const noWrites = (): CallWrites => ({ kinds: new Set(), ctes: [], callColumns: new Map() });

async function flushWrites(tx: SqlClient, locked: LockedCall): Promise<void> {
  const { ctes, callColumns } = locked.writes;
  if (ctes.length === 0 && callColumns.size === 0) return;
  const withs = ctes.length > 0 ? Prisma.sql`WITH ${Prisma.join(ctes, ', ')} ` : Prisma.empty;
  const main = callColumns.size > 0
    ? Prisma.sql`UPDATE "Call" SET ${Prisma.join([...callColumns].map(([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`), ', ')} WHERE "id" = ${locked.call.id}::uuid`
    : Prisma.sql`SELECT 1`;
  await tx.$executeRaw`${withs}${main}`;
  locked.writes = noWrites();
}

interface EnrollmentRow {
  attempts: number;
  active: boolean;
  retryDelayMinutes: number | null;
}

interface LockedJson {
  call: (Omit<CallRow, 'startedAt'> & { startedAt: string | null }) | null;
  contact: ContactRow | null;
  enrollment: EnrollmentRow | null;
}

/** SQL: the call `callId` with its contact and (when `withEnrollment`) its enrollment, locked, as JSON columns call, contact, enrollment. */
function lockedCallSql(callId: string | null, withEnrollment: boolean, guard: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`locked AS (
      SELECT cl."id", cl."accountId", cl."contactId", cl."workflowId", cl."agentId", cl."enrollmentId", cl."status", cl."startedAt",
        cl."providerCallId", to_jsonb(ct) AS contact
      FROM "Call" cl JOIN "Contact" ct ON ct."id" = cl."contactId"
      WHERE cl."id" = ${callId}::uuid ${guard} FOR UPDATE OF cl, ct
    ),
    enrollment AS (
      SELECT e."attempts", e."active", a."retryDelayMinutes" FROM "Enrollment" e
        JOIN "Workflow" w ON w."id" = e."workflowId" LEFT JOIN "Agent" a ON a."id" = w."agentId"
      WHERE ${withEnrollment}::boolean AND e."id" = (SELECT "enrollmentId" FROM locked) FOR UPDATE OF e
    )`;
}

const LOCKED_COLUMNS = Prisma.sql`(SELECT to_jsonb(l) - 'contact' FROM locked l) AS call, (SELECT contact FROM locked) AS contact,
  (SELECT to_jsonb(x) FROM enrollment x) AS enrollment`;

function lockedOf(row: LockedJson, withEnrollment: boolean): LockedCall | null {
  if (!row.call || !row.contact) return null;
  return {
    call: { ...row.call, startedAt: row.call.startedAt ? new Date(row.call.startedAt) : null },
    contact: contactFromJson(row.contact),
    // undefined: not read (enrollmentProgress reads it when an end needs it).
    enrollment: withEnrollment ? row.enrollment : undefined,
    writes: noWrites(),
  };
}

/**
 * One round trip: records the message's event ids (the fresh ones come back) and, when every
 * event is about one call that already exists (no inbound call among them), locks it. A
 * message of duplicates only locks nothing: it writes nothing, and its commit waits for no WAL flush.
 */
async function recordAndLock(tx: SqlClient, events: ProviderEvent[], now: Date): Promise<{ fresh: Set<string>; locked: LockedCall | null }> {
  const callIds = new Set(events.map((e) => e.callId));
  const oneCall = callIds.size === 1 && !events.some((e) => e.type === 'call.inbound') ? uuidOrNull(events[0].callId) : null;
  const withEnrollment = events.some((e) => e.type === 'call.ended');
  const [row] = await tx.$queryRaw<Array<LockedJson & { fresh: string[] }>>`
    WITH fresh AS (INSERT INTO "ProcessedEvent" ("eventId", "receivedAt") SELECT id, ${now}::timestamptz FROM unnest(${events.map((e) => e.eventId)}::text[]) AS id
      ON CONFLICT DO NOTHING RETURNING "eventId"),
    ${lockedCallSql(oneCall, withEnrollment, Prisma.sql`AND EXISTS (SELECT 1 FROM fresh)`)}
    SELECT ARRAY(SELECT "eventId" FROM fresh) AS fresh, ${LOCKED_COLUMNS}`;
  return { fresh: new Set(row.fresh), locked: oneCall ? lockedOf(row, withEnrollment) : null };
}

/** Locks one call for its events (a message about several calls, or a call its inbound event just created). */
async function lockCall(tx: SqlClient, callId: string, withEnrollment: boolean): Promise<LockedCall | null> {
  const [row] = await tx.$queryRaw<LockedJson[]>`WITH ${lockedCallSql(uuidOrNull(callId), withEnrollment, Prisma.empty)} SELECT ${LOCKED_COLUMNS}`;
  return lockedOf(row, withEnrollment);
}

/** One fresh event of a locked call, added to the call's pending writes; the locked state follows it. */
async function applyToCall(tx: SqlClient, locked: LockedCall, event: Exclude<ProviderEvent, { type: 'call.inbound' }>, now: Date): Promise<void> {
  const { call, writes } = locked;
  writes.kinds.add(event.type);
  // Only a call that has none yet (one the dialer placed has it since the provider's answer).
  if (event.providerCallId && call.providerCallId === null) {
    call.providerCallId = event.providerCallId;
    writes.callColumns.set('providerCallId', Prisma.sql`${event.providerCallId}`);
  }
  if (event.type === 'call.started') markStarted(locked, new Date(event.occurredAt));
  else if (event.type === 'call.ended') await applyCallEnded(tx, locked, event, now);
  else storeReport(locked, event, event.recordingUrl ?? null);
}

/** A call id that is not a UUID matches no call (instead of failing the cast). */
const uuidOrNull = (id: string) => (UUID_PATTERN.test(id) ? id : null);

/** A contact read back through to_jsonb: timestamps arrive as strings. */
function contactFromJson(json: ContactRow): ContactRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return { ...json, lastCallAt: date(json.lastCallAt), nextCallAt: date(json.nextCallAt), createdAt: date(json.createdAt)!, updatedAt: date(json.updatedAt)! };
}

/** A late call.started never undoes an end (the row is locked: its state in memory is the truth). */
function markStarted(locked: LockedCall, at: Date): void {
  const { call, writes } = locked;
  if (call.startedAt === null) {
    call.startedAt = at;
    writes.callColumns.set('startedAt', Prisma.sql`${at}::timestamptz`);
  }
  if (['placing', 'queued', 'ringing'].includes(call.status)) {
    call.status = 'in_progress';
    writes.callColumns.set('status', Prisma.sql`'in_progress'`);
  }
}

/**
 * The outcome of an ended call, in the call's pending writes: the contact, the enrollment's
 * progress, the block list (do_not_call), the call itself and the durable call.ended event.
 */
async function applyCallEnded(tx: SqlClient, locked: LockedCall, event: TelephonyEventOf<'call.ended'>, now: Date): Promise<void> {
  const { call, contact } = locked;
  // One call ends once, whatever the number of "ended" events with different ids.
  if (call.status === 'ended') return;
  call.status = 'ended';
  const endedAt = new Date(event.occurredAt);
  const startedAt = call.startedAt ?? new Date(endedAt.getTime() - event.durationSeconds * 1000);
  const reportedNext = event.nextAttemptAt ? new Date(event.nextAttemptAt) : null;

  const { contact: updated } = applyCallOutcome(contact, { startedAt, result: event.result, language: event.language, nextAttemptAt: reportedNext }, now);
  const progress = await enrollmentProgress(tx, call, locked.enrollment, event, endedAt, reportedNext, contact.maxAttempts);
  // An enrollment ending with this call clears nextCallAt; a call outside any active
  // enrollment (inbound, or a late report after its enrollment ended) keeps the reported time.
  if (progress.endsEnrollment) updated.nextCallAt = null;
  const payload: CallEndedEvent = {
    callId: call.id, contactId: call.contactId, accountId: call.accountId, workflowId: call.workflowId, agentId: call.agentId,
    result: event.result, endReason: event.endReason, durationSeconds: event.durationSeconds, lastCall: progress.lastCall,
    transferred: event.transferred ?? false, testCall: event.testCall ?? false, endedAt: endedAt.toISOString(),
  };
  const { ctes, callColumns } = locked.writes;
  ctes.push(Prisma.sql`contact_update AS (${updateContactsStatement(call.accountId, [updated])})`);
  if (progress.statement) ctes.push(Prisma.sql`enrollment_update AS (${progress.statement})`);
  if (event.result === 'do_not_call' && contact.phone) {
    ctes.push(Prisma.sql`blocked AS (INSERT INTO "BlockedPhone" ("accountId", "phone", "reason", "createdAt")
      VALUES (${call.accountId}::uuid, ${contact.phone}, 'do_not_call result', ${now}::timestamptz) ON CONFLICT DO NOTHING)`);
  }
  ctes.push(Prisma.sql`ended_event AS (INSERT INTO "DomainEvent" ("id", "accountId", "type", "payload", "createdAt")
    VALUES (${randomUUID()}::uuid, ${call.accountId}::uuid, 'call.ended', ${JSON.stringify(payload)}::jsonb, ${now}::timestamptz))`);
  const columns: Array<[string, Prisma.Sql]> = [
    ['status', Prisma.sql`'ended'`], ['result', Prisma.sql`${event.result}`], ['endReason', Prisma.sql`${event.endReason}`],
    ['startedAt', Prisma.sql`${startedAt}::timestamptz`], ['endedAt', Prisma.sql`${endedAt}::timestamptz`],
    ['durationSeconds', Prisma.sql`${event.durationSeconds}::int`], ['language', Prisma.sql`${event.language}`],
    ['lastCall', Prisma.sql`${progress.lastCall}`], ['nextCallAt', Prisma.sql`${reportedNext}::timestamptz`],
    ['transferred', Prisma.sql`${event.transferred ?? false}`], ['testCall', Prisma.sql`${event.testCall ?? false}`],
  ];
  for (const [column, value] of columns) callColumns.set(column, value);
}

/**
 * Counts the attempt and schedules the next one, or ends the enrollment: after a final
 * result, or at the attempt limit (a requested callback may go past it). Returns whether
 * this was the contact's last call of the enrollment (also true for a call outside any active
 * enrollment: nothing follows it), whether this call ended the enrollment, and the UPDATE
 * that records it.
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
): Promise<{ lastCall: boolean; endsEnrollment: boolean; statement: Prisma.Sql | null }> {
  const nothing = null;
  if (!call.enrollmentId) return { lastCall: true, endsEnrollment: false, statement: nothing };
  const enrollment = read !== undefined ? read : (await lockCall(tx, call.id, true))?.enrollment;
  if (!enrollment?.active) return { lastCall: true, endsEnrollment: false, statement: nothing };
  const attempts = enrollment.attempts + 1;
  const limitReached = maxAttempts !== null && attempts >= maxAttempts;
  const continues = !FINAL_RESULTS.has(event.result) && (!limitReached || (event.result === 'callback_requested' && reportedNext !== null));
  if (!continues) {
    const reason = FINAL_RESULTS.has(event.result) ? event.result : 'attempt_limit';
    return {
      lastCall: true,
      endsEnrollment: true,
      statement: Prisma.sql`UPDATE "Enrollment" SET "attempts" = ${attempts}, "active" = false, "nextAttemptAt" = NULL,
        "endedAt" = ${endedAt}::timestamptz, "endReason" = ${reason} WHERE "id" = ${call.enrollmentId}::uuid`,
    };
  }
  const retryAt = reportedNext ?? new Date(endedAt.getTime() + (enrollment.retryDelayMinutes ?? 60) * 60_000);
  return {
    lastCall: false,
    endsEnrollment: false,
    statement: Prisma.sql`UPDATE "Enrollment" SET "attempts" = ${attempts}, "nextAttemptAt" = ${retryAt}::timestamptz WHERE "id" = ${call.enrollmentId}::uuid`,
  };
}

/**
 * The transcript replaces any earlier one (a report with another event id), in the call's
 * pending writes: lines past the new last one removed, the others written over, the call marked
 * report-ready.
 */
function storeReport(locked: LockedCall, event: TelephonyEventOf<'report.ready'>, recordingUrl: string | null): void {
  const { call, writes } = locked;
  const lines = event.utterances;
  writes.ctes.push(
    Prisma.sql`utterances_removed AS (DELETE FROM "CallUtterance" WHERE "callId" = ${call.id}::uuid AND "seq" > ${lines.length})`,
    Prisma.sql`utterances_written AS (INSERT INTO "CallUtterance" ("callId", "seq", "speaker", "content", "timestamp")
      SELECT ${call.id}::uuid, u.ord::int, u.speaker, u.content, u.ts
      FROM unnest(${lines.map((u) => u.speaker)}::text[], ${lines.map((u) => u.content)}::text[], ${lines.map((u) => u.timestamp)}::timestamptz[])
        WITH ORDINALITY AS u(speaker, content, ts, ord)
      ON CONFLICT ("callId", "seq") DO UPDATE SET "speaker" = excluded."speaker", "content" = excluded."content", "timestamp" = excluded."timestamp")`,
  );
  writes.callColumns.set('reportReady', Prisma.sql`true`);
  writes.callColumns.set('recordingUrl', Prisma.sql`COALESCE(${recordingUrl}, "recordingUrl")`);
}

/**
 * An inbound call to an agent's number: the caller is found by phone in the agent's Account,
 * or created with sourceKind `oneai`; the call is recorded and its later events apply as usual.
 */
async function startInboundCall(tx: SqlClient, event: ProviderEvent & { type: 'call.inbound' }, now: Date, source?: EventSource): Promise<void> {
  const to = event.to ? normalizePhone(event.to, null) : null;
  if (!to?.ok) throw new DomainError('bad_request', 'call.inbound needs `to`: the agent number that was called, in international format');
  const [agent] = await tx.$queryRaw<Array<{ id: string; accountId: string }>>`SELECT "id", "accountId" FROM "Agent" WHERE "phoneNumber" = ${to.e164}`;
  if (!agent || (source && agent.accountId !== source.accountId)) throw new DomainError('not_found', `No agent answers ${to.e164}`);
  const from = normalizePhone(event.from, null);
  if (!from.ok) throw new DomainError('bad_request', `call.inbound: "${event.from}" is not a phone number in international format`);
  const account = await loadAccountRules(tx, agent.accountId);
  const [known] = await tx.$queryRaw<Array<{ id: string }>>`SELECT "id" FROM "Contact" WHERE "accountId" = ${agent.accountId}::uuid AND "phone" = ${from.e164}
    ORDER BY "createdAt" LIMIT 1`;
  let contactId = known?.id;
  if (!contactId) {
    const write = { phone: from.e164, sourceKind: 'oneai' as const, externalId: null };
    // An Account keyed on fields an inbound caller cannot have keys the contact on its own id.
    const prepared = prepareContactWrite(write, account);
    const usable = prepared.ok ? prepared : prepareContactWrite(write, account, { keyFields: ['externalId'] });
    if (!usable.ok) throw new DomainError('bad_request', `call.inbound: cannot create a contact for ${from.e164}`);
    const [outcome] = await upsertInTransaction(tx, account, [usable.write], null, now);
    contactId = outcome.contact.id;
  }
  await tx.$executeRaw`INSERT INTO "Call" ("id", "accountId", "contactId", "agentId", "direction", "status", "startedAt", "createdAt", "provider", "providerCallId")
    VALUES (${event.callId}::uuid, ${agent.accountId}::uuid, ${contactId}::uuid, ${agent.id}::uuid, 'inbound', 'in_progress', ${new Date(event.occurredAt)}::timestamptz, ${now}::timestamptz,
      ${source?.provider ?? 'simulator'}::"VoiceProvider", ${event.providerCallId ?? null})
    ON CONFLICT ("id") DO NOTHING`;
}
