// The SQL of applying telephony events (call-events.service.ts): a message's event ids recorded
// and its call locked in one round trip, and each call's writes gathered and sent as one
// statement (the other tables' writes as CTEs, then one UPDATE of the Call row).
import { Prisma } from '../../generated/prisma/client.js';
import type { ContactRow } from '../contacts/contacts.rules.js';
import type { Utterance } from '../../calls/telephony/telephony.port.js';
import { updateContactsStatement } from '../contacts/contacts.store.js';
import type { SqlClient } from '../../db/sql-client.js';
import { UUID_PATTERN } from '../shared/ids.js';
import { enrollmentEventsFrom } from '../webhooks/webhook-outbox.store.js';

export interface CallRow {
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

export interface EnrollmentRow {
  attempts: number;
  active: boolean;
  retryDelayMinutes: number | null;
}

/** A call locked for its events, with its contact and (when asked for) its enrollment. */
export interface LockedCallRows {
  call: CallRow;
  contact: ContactRow;
  /** undefined: not read (the enrollment was not asked for). */
  enrollment: EnrollmentRow | null | undefined;
}

interface LockedJson {
  call: (Omit<CallRow, 'startedAt'> & { startedAt: string | null }) | null;
  contact: ContactRow | null;
  enrollment: EnrollmentRow | null;
}

/**
 * SQL: the call `callId` with its contact and (when `withEnrollment`) its enrollment, locked, as
 * JSON columns call, contact, enrollment.
 */
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

function lockedOf(row: LockedJson, withEnrollment: boolean): LockedCallRows | null {
  if (!row.call || !row.contact) return null;
  return {
    call: { ...row.call, startedAt: row.call.startedAt ? new Date(row.call.startedAt) : null },
    contact: contactFromJson(row.contact),
    enrollment: withEnrollment ? row.enrollment : undefined,
  };
}

/** A call id that is not a UUID matches no call (instead of failing the cast). */
const uuidOrNull = (id: string) => (UUID_PATTERN.test(id) ? id : null);

/** A contact read back through to_jsonb: timestamps arrive as strings. */
function contactFromJson(json: ContactRow): ContactRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    ...json,
    lastCallAt: date(json.lastCallAt),
    nextCallAt: date(json.nextCallAt),
    createdAt: new Date(json.createdAt),
    updatedAt: new Date(json.updatedAt),
  };
}

/**
 * One round trip: records the events' ids with their calls' (those not seen before come back as
 * `fresh`; the call is kept so that an erasure deletes its calls' events) and, with `callId`,
 * locks that call when it exists and one of the ids was fresh. A message of duplicates only
 * locks nothing: it writes nothing, and its commit waits for no WAL flush.
 */
export async function recordEventsAndLockCall(
  tx: SqlClient,
  events: Array<{ eventId: string; callId: string }>,
  now: Date,
  callId: string | null,
  withEnrollment: boolean,
): Promise<{ fresh: Set<string>; locked: LockedCallRows | null }> {
  const oneCall = callId === null ? null : uuidOrNull(callId);
  const eventIds = events.map((event) => event.eventId);
  const callIds = events.map((event) => event.callId);
  const [row] = await tx.$queryRaw<Array<LockedJson & { fresh: string[] }>>`
    WITH fresh AS (INSERT INTO "ProcessedEvent" ("eventId", "callId", "receivedAt")
      SELECT e.id, e.call, ${now}::timestamptz FROM unnest(${eventIds}::text[], ${callIds}::text[]) AS e(id, call)
      ON CONFLICT DO NOTHING RETURNING "eventId"),
    ${lockedCallSql(oneCall, withEnrollment, Prisma.sql`AND EXISTS (SELECT 1 FROM fresh)`)}
    SELECT ARRAY(SELECT "eventId" FROM fresh) AS fresh, ${LOCKED_COLUMNS}`;
  return { fresh: new Set(row.fresh), locked: oneCall ? lockedOf(row, withEnrollment) : null };
}

/** Locks one call with its contact and (when `withEnrollment`) its enrollment; null: no such call. */
export async function lockCall(tx: SqlClient, callId: string, withEnrollment: boolean): Promise<LockedCallRows | null> {
  const [row] = await tx.$queryRaw<
    LockedJson[]
  >`WITH ${lockedCallSql(uuidOrNull(callId), withEnrollment, Prisma.empty)} SELECT ${LOCKED_COLUMNS}`;
  return lockedOf(row, withEnrollment);
}

/**
 * The writes of a message's events to one locked call, not sent yet (flushCallWrites): the other
 * tables' writes as CTEs, and every column of the Call row the events set (a later event's value
 * for a column replaces an earlier one's).
 */
export interface CallWrites {
  ctes: Prisma.Sql[];
  callColumns: Map<string, Prisma.Sql>;
}

export const noCallWrites = (): CallWrites => ({ ctes: [], callColumns: new Map() });

/** Sends a call's pending writes as one statement (nothing when there are none). */
export async function flushCallWrites(tx: SqlClient, callId: string, writes: CallWrites): Promise<void> {
  const { ctes, callColumns } = writes;
  if (ctes.length === 0 && callColumns.size === 0) return;
  const withs = ctes.length > 0 ? Prisma.sql`WITH ${Prisma.join(ctes, ', ')} ` : Prisma.empty;
  const main =
    callColumns.size > 0
      ? Prisma.sql`UPDATE "Call" SET ${Prisma.join(
          [...callColumns].map(([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`),
          ', ',
        )} WHERE "id" = ${callId}::uuid`
      : Prisma.sql`SELECT 1`;
  await tx.$executeRaw`${withs}${main}`;
}

export function writeProviderCallId(writes: CallWrites, providerCallId: string): void {
  writes.callColumns.set('providerCallId', Prisma.sql`${providerCallId}`);
}

export function writeStartedAt(writes: CallWrites, at: Date): void {
  writes.callColumns.set('startedAt', Prisma.sql`${at}::timestamptz`);
}

export function writeInProgress(writes: CallWrites): void {
  writes.callColumns.set('status', Prisma.sql`'in_progress'`);
}

/** What an ended call does to its enrollment: the attempt counted, then the next one due, or the enrollment ended. */
export type EnrollmentProgress =
  | { enrollmentId: string; attempts: number; retryAt: Date }
  | { enrollmentId: string; attempts: number; endedAt: Date; endReason: string };

/** The CTEs of an ended call's enrollment write; an enrollment it ends writes enrollment.ended (when listened to). */
function enrollmentProgressStatements(accountId: string, progress: EnrollmentProgress): Prisma.Sql[] {
  const { attempts, enrollmentId: id } = progress;
  if ('endReason' in progress) {
    return [
      Prisma.sql`enrollment_update AS (UPDATE "Enrollment" SET "attempts" = ${attempts}, "active" = false, "nextAttemptAt" = NULL,
        "endedAt" = ${progress.endedAt}::timestamptz, "endReason" = ${progress.endReason} WHERE "id" = ${id}::uuid RETURNING "id")`,
      Prisma.sql`enrollment_ended AS (${enrollmentEventsFrom('enrollment_update', accountId, 'enrollment.ended', progress.endedAt)})`,
    ];
  }
  return [
    Prisma.sql`enrollment_update AS (UPDATE "Enrollment" SET "attempts" = ${attempts}, "nextAttemptAt" = ${progress.retryAt}::timestamptz WHERE "id" = ${id}::uuid)`,
  ];
}

/** The writes of an ended call, among its pending writes. */
export interface CallEnded {
  accountId: string;
  /** The contact as the outcome leaves it. */
  contact: ContactRow;
  enrollment: EnrollmentProgress | null;
  /** A phone the call's result puts on the Account's block list. */
  blockPhone: string | null;
  /** The call.ended DomainEvent. */
  event: { id: string; payload: object };
  /** What the call adds to its workflow's result roll-ups (null: a call of no workflow). */
  rollUp: ResultRollUp | null;
  call: {
    result: string;
    endReason: string;
    startedAt: Date;
    endedAt: Date;
    durationSeconds: number;
    language: string | null;
    lastCall: boolean;
    nextCallAt: Date | null;
    transferred: boolean;
    testCall: boolean;
  };
  now: Date;
}

export function writeCallEnded(writes: CallWrites, ended: CallEnded): void {
  const { ctes, callColumns } = writes;
  const { accountId, call, now } = ended;
  ctes.push(Prisma.sql`contact_update AS (${updateContactsStatement(accountId, [ended.contact])})`);
  if (ended.enrollment) ctes.push(...enrollmentProgressStatements(accountId, ended.enrollment));
  if (ended.blockPhone) {
    ctes.push(Prisma.sql`blocked AS (INSERT INTO "BlockedPhone" ("accountId", "phone", "reason", "createdAt")
      VALUES (${accountId}::uuid, ${ended.blockPhone}, 'do_not_call result', ${now}::timestamptz) ON CONFLICT DO NOTHING)`);
    // A do-not-call request revokes every consent the person gave the Account.
    ctes.push(Prisma.sql`consents_revoked AS (UPDATE "Consent" SET "revokedAt" = ${now}::timestamptz, "revokedBy" = 'do_not_call_result'
      WHERE "accountId" = ${accountId}::uuid AND "revokedAt" IS NULL
        AND "contactId" IN (SELECT "id" FROM "Contact" WHERE "accountId" = ${accountId}::uuid AND "phone" = ${ended.blockPhone}))`);
  }
  if (ended.rollUp) ctes.push(...rollUpStatements(ended.rollUp));
  ctes.push(Prisma.sql`ended_event AS (INSERT INTO "DomainEvent" ("id", "accountId", "type", "payload", "createdAt")
    VALUES (${ended.event.id}::uuid, ${accountId}::uuid, 'call.ended', ${JSON.stringify(ended.event.payload)}::jsonb, ${now}::timestamptz))`);
  const columns: Array<[string, Prisma.Sql]> = [
    ['status', Prisma.sql`'ended'`],
    ['result', Prisma.sql`${call.result}`],
    ['endReason', Prisma.sql`${call.endReason}`],
    ['startedAt', Prisma.sql`${call.startedAt}::timestamptz`],
    ['endedAt', Prisma.sql`${call.endedAt}::timestamptz`],
    ['durationSeconds', Prisma.sql`${call.durationSeconds}::int`],
    ['language', Prisma.sql`${call.language}`],
    ['lastCall', Prisma.sql`${call.lastCall}`],
    ['nextCallAt', Prisma.sql`${call.nextCallAt}::timestamptz`],
    ['transferred', Prisma.sql`${call.transferred}`],
    ['testCall', Prisma.sql`${call.testCall}`],
  ];
  for (const [column, value] of columns) callColumns.set(column, value);
}

/** An ended call's part of its workflow's results (WorkflowResultHour, WorkflowDurationHour). */
export interface ResultRollUp {
  callId: string;
  workflowId: string;
  contactId: string;
  /** The agent, or the zero UUID for none. */
  agentKey: string;
  startedAt: Date;
  result: string;
  reached: boolean;
  /** null: not connected (no duration counted); else the 1-based bucket of its duration. */
  durationBucket: number | null;
  /** The results that reach a contact, to find whether an earlier call of the contact did. */
  reachedResults: readonly string[];
  /** How many buckets the histogram has. */
  buckets: number;
}

/** How many rows each roll-up is spread over (the migration workflow_rollup_shards). */
const ROLL_UP_SHARDS = 8;

/**
 * The row of a roll-up this call adds to: calls ending together mostly land on different rows,
 * so none waits for another's commit. From the id's last hex digits, which are random.
 */
function rollUpShard(callId: string): number {
  return Number.parseInt(callId.slice(-2), 16) % ROLL_UP_SHARDS;
}

/**
 * The CTEs adding an ended call to its workflow's roll-ups: its hour's and result's counts, and
 * whether it is the contact's first call of the workflow, its first reaching call, its first
 * conversion (with the calls up to it), read from the contact's other ended calls of the
 * workflow (the contact row is locked: its calls end one at a time); the duration of a
 * connected call in its hour's histogram.
 */
function rollUpStatements(r: ResultRollUp): Prisma.Sql[] {
  const hour = Prisma.sql`date_trunc('hour', ${r.startedAt}::timestamptz, 'UTC')`;
  const shard = rollUpShard(r.callId);
  const converted = r.result === 'converted';
  const statements = [
    Prisma.sql`prior_calls AS (SELECT count(*)::int AS calls,
        count(*) FILTER (WHERE "result" = ANY(${r.reachedResults as string[]}::text[]))::int AS reached,
        count(*) FILTER (WHERE "result" = 'converted')::int AS converted
      FROM "Call" WHERE "workflowId" = ${r.workflowId}::uuid AND "contactId" = ${r.contactId}::uuid
        AND "result" IS NOT NULL AND "id" <> ${r.callId}::uuid)`,
    Prisma.sql`result_hour AS (INSERT INTO "WorkflowResultHour" AS t ("workflowId", "agentId", "hour", "result", "shard", "calls",
        "firstCalls", "firstReached", "firstConversions", "convertedAfter")
      SELECT ${r.workflowId}::uuid, ${r.agentKey}::uuid, ${hour}, ${r.result}, ${shard}::smallint, 1, (p.calls = 0)::int,
        (${r.reached} AND p.reached = 0)::int, (${converted} AND p.converted = 0)::int,
        CASE WHEN ${converted} AND p.converted = 0 THEN p.calls + 1 ELSE 0 END
      FROM prior_calls p
      ON CONFLICT ("workflowId", "hour", "agentId", "result", "shard") DO UPDATE SET "calls" = t."calls" + 1,
        "firstCalls" = t."firstCalls" + excluded."firstCalls", "firstReached" = t."firstReached" + excluded."firstReached",
        "firstConversions" = t."firstConversions" + excluded."firstConversions",
        "convertedAfter" = t."convertedAfter" + excluded."convertedAfter")`,
  ];
  if (r.durationBucket !== null) {
    const first = Array.from({ length: r.buckets }, (_, i) => (i + 1 === r.durationBucket ? 1 : 0));
    statements.push(Prisma.sql`duration_hour AS (INSERT INTO "WorkflowDurationHour" AS t ("workflowId", "agentId", "hour", "shard", "durations")
      VALUES (${r.workflowId}::uuid, ${r.agentKey}::uuid, ${hour}, ${shard}::smallint, ${first}::int[])
      ON CONFLICT ("workflowId", "hour", "agentId", "shard") DO UPDATE
        SET "durations"[${r.durationBucket}::int] = t."durations"[${r.durationBucket}::int] + 1)`);
  }
  return statements;
}

/**
 * A report's transcript, among the call's pending writes: lines past the new last one removed,
 * the others written over, the call marked report-ready, its recording kept unless one is sent.
 */
export function writeReport(writes: CallWrites, callId: string, lines: Utterance[], recordingUrl: string | null): void {
  writes.ctes.push(
    Prisma.sql`utterances_removed AS (DELETE FROM "CallUtterance" WHERE "callId" = ${callId}::uuid AND "seq" > ${lines.length})`,
    Prisma.sql`utterances_written AS (INSERT INTO "CallUtterance" ("callId", "seq", "speaker", "content", "timestamp")
      SELECT ${callId}::uuid, u.ord::int, u.speaker, u.content, u.ts
      FROM unnest(${lines.map((u) => u.speaker)}::text[], ${lines.map((u) => u.content)}::text[], ${lines.map((u) => u.timestamp)}::timestamptz[])
        WITH ORDINALITY AS u(speaker, content, ts, ord)
      ON CONFLICT ("callId", "seq") DO UPDATE SET "speaker" = excluded."speaker", "content" = excluded."content", "timestamp" = excluded."timestamp")`,
  );
  writes.callColumns.set('reportReady', Prisma.sql`true`);
  writes.callColumns.set('recordingUrl', Prisma.sql`COALESCE(${recordingUrl}, "recordingUrl")`);
}

/** The agent whose own number this is (inbound calls); null: none. */
export async function findAgentByPhoneNumber(
  tx: SqlClient,
  phone: string,
): Promise<{ id: string; accountId: string } | null> {
  const [agent] = await tx.$queryRaw<
    Array<{ id: string; accountId: string }>
  >`SELECT "id", "accountId" FROM "Agent" WHERE "phoneNumber" = ${phone}`;
  return agent ?? null;
}

/** The Account's oldest contact with this phone; null: none. */
export async function findContactIdByPhone(tx: SqlClient, accountId: string, phone: string): Promise<string | null> {
  const [known] = await tx.$queryRaw<
    Array<{ id: string }>
  >`SELECT "id" FROM "Contact" WHERE "accountId" = ${accountId}::uuid AND "phone" = ${phone}
    ORDER BY "createdAt" LIMIT 1`;
  return known?.id ?? null;
}

/** Records an inbound call, in progress (a second event for the same call id records nothing). */
export async function insertInboundCall(
  tx: SqlClient,
  call: {
    id: string;
    accountId: string;
    contactId: string;
    agentId: string;
    startedAt: Date;
    provider: string;
    providerCallId: string | null;
  },
  now: Date,
): Promise<void> {
  await tx.$executeRaw`INSERT INTO "Call" ("id", "accountId", "contactId", "agentId", "direction", "status", "startedAt", "createdAt", "provider", "providerCallId")
    VALUES (${call.id}::uuid, ${call.accountId}::uuid, ${call.contactId}::uuid, ${call.agentId}::uuid, 'inbound', 'in_progress', ${call.startedAt}::timestamptz, ${now}::timestamptz,
      ${call.provider}::"VoiceProvider", ${call.providerCallId})
    ON CONFLICT ("id") DO NOTHING`;
}
