// Applies telephony events (from the simulator in-process, or a provider through the signed
// endpoint). Each event is applied once (its id is recorded in the same transaction), and
// in any order: a late call.started never undoes an end, a second "ended" for one call is
// ignored, and an outcome older than lastCallAt is not counted (call-outcome.rules.ts).
import { randomUUID } from 'node:crypto';
import type { Services } from '../context.js';
import { DomainError } from '../errors.js';
import { directSql, findContactById, updateContacts, type SqlClient } from '../contacts/contacts.store.js';
import type { TelephonyEvent, TelephonyEventOf } from '../../calls/telephony/telephony.port.js';
import { applyCallOutcome, FINAL_RESULTS } from './call-outcome.rules.js';
import { normalizePhone } from '../../normalize/phone.js';
import { prepareContactWrite } from '../contacts/contact-rules.js';
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
}

export async function applyTelephonyEvent(services: Pick<Services, 'db' | 'clock'>, event: TelephonyEvent): Promise<EventApplication> {
  return services.db.sql.transaction(async (runner) => {
    const tx = directSql(runner);
    const fresh = await tx.$queryRaw<Array<{ eventId: string }>>`INSERT INTO "ProcessedEvent" ("eventId") VALUES (${event.eventId})
      ON CONFLICT DO NOTHING RETURNING "eventId"`;
    if (fresh.length === 0) return 'duplicate';
    if (event.type === 'call.inbound') {
      await startInboundCall(tx, event, services.clock.now());
      return 'applied';
    }
    const [call] = await tx.$queryRaw<CallRow[]>`SELECT "id", "accountId", "contactId", "workflowId", "agentId", "enrollmentId", "status", "startedAt"
      FROM "Call" WHERE "id" = ${event.callId}::uuid FOR UPDATE`;
    // Thrown, so the event is not recorded as processed: the provider's retry can apply it.
    if (!call) throw new DomainError('not_found', `No call ${event.callId}`);
    if (event.type === 'call.started') await markStarted(tx, call, new Date(event.occurredAt));
    else if (event.type === 'call.ended') await applyCallEnded(tx, call, event, services.clock.now());
    else await storeReport(tx, call, event);
    return 'applied';
  });
}

async function markStarted(tx: SqlClient, call: CallRow, at: Date): Promise<void> {
  await tx.$executeRaw`UPDATE "Call" SET "startedAt" = COALESCE("startedAt", ${at}::timestamptz),
    "status" = CASE WHEN "status" IN ('queued', 'ringing') THEN 'in_progress' ELSE "status" END WHERE "id" = ${call.id}::uuid`;
}

async function applyCallEnded(tx: SqlClient, call: CallRow, event: TelephonyEventOf<'call.ended'>, now: Date): Promise<void> {
  // One call ends once, whatever the number of "ended" events with different ids.
  if (call.status === 'ended') return;
  const endedAt = new Date(event.occurredAt);
  const startedAt = call.startedAt ?? new Date(endedAt.getTime() - event.durationSeconds * 1000);
  const reportedNext = event.nextAttemptAt ? new Date(event.nextAttemptAt) : null;
  const contact = await findContactById(tx, call.accountId, call.contactId);
  if (!contact) return;

  const { contact: updated } = applyCallOutcome(contact, { startedAt, result: event.result, language: event.language, nextAttemptAt: reportedNext }, now);
  const lastCall = await advanceEnrollment(tx, call, event, endedAt, reportedNext, contact.maxAttempts);
  if (lastCall) updated.nextCallAt = null; // an enrollment ending clears nextCallAt
  await updateContacts(tx, call.accountId, [updated]);
  if (event.result === 'do_not_call' && contact.phone) {
    await tx.$executeRaw`INSERT INTO "BlockedPhone" ("accountId", "phone", "reason") VALUES (${call.accountId}::uuid, ${contact.phone}, 'do_not_call result')
      ON CONFLICT DO NOTHING`;
  }
  await tx.$executeRaw`UPDATE "Call" SET "status" = 'ended', "result" = ${event.result}, "endReason" = ${event.endReason},
      "startedAt" = ${startedAt}::timestamptz, "endedAt" = ${endedAt}::timestamptz, "durationSeconds" = ${event.durationSeconds},
      "language" = ${event.language}, "lastCall" = ${lastCall}, "nextCallAt" = ${reportedNext}::timestamptz,
      "transferred" = ${event.transferred ?? false}, "testCall" = ${event.testCall ?? false}
    WHERE "id" = ${call.id}::uuid`;
  const payload: CallEndedEvent = {
    callId: call.id, contactId: call.contactId, accountId: call.accountId, workflowId: call.workflowId, agentId: call.agentId,
    result: event.result, endReason: event.endReason, durationSeconds: event.durationSeconds, lastCall,
    transferred: event.transferred ?? false, testCall: event.testCall ?? false, endedAt: endedAt.toISOString(),
  };
  await tx.$executeRaw`INSERT INTO "DomainEvent" ("id", "accountId", "type", "payload")
    VALUES (${randomUUID()}::uuid, ${call.accountId}::uuid, 'call.ended', ${JSON.stringify(payload)}::jsonb)`;
}

/**
 * Counts the attempt and schedules the next one, or ends the enrollment: after a final
 * result, or at the attempt limit (a requested callback may go past it). Returns whether
 * this was the contact's last call of the enrollment.
 */
async function advanceEnrollment(
  tx: SqlClient,
  call: CallRow,
  event: TelephonyEventOf<'call.ended'>,
  endedAt: Date,
  reportedNext: Date | null,
  maxAttempts: number | null,
): Promise<boolean> {
  if (!call.enrollmentId) return true;
  const [enrollment] = await tx.$queryRaw<Array<{ attempts: number; active: boolean; retryDelayMinutes: number | null }>>`
    SELECT e."attempts", e."active", a."retryDelayMinutes" FROM "Enrollment" e
      LEFT JOIN "Workflow" w ON w."id" = e."workflowId" LEFT JOIN "Agent" a ON a."id" = w."agentId"
    WHERE e."id" = ${call.enrollmentId}::uuid FOR UPDATE OF e`;
  if (!enrollment?.active) return true;
  const attempts = enrollment.attempts + 1;
  const limitReached = maxAttempts !== null && attempts >= maxAttempts;
  const continues = !FINAL_RESULTS.has(event.result) && (!limitReached || (event.result === 'callback_requested' && reportedNext !== null));
  if (!continues) {
    await tx.$executeRaw`UPDATE "Enrollment" SET "attempts" = ${attempts}, "active" = false, "nextAttemptAt" = NULL,
      "endedAt" = ${endedAt}::timestamptz, "endReason" = ${FINAL_RESULTS.has(event.result) ? event.result : 'attempt_limit'} WHERE "id" = ${call.enrollmentId}::uuid`;
    return true;
  }
  const retryAt = reportedNext ?? new Date(endedAt.getTime() + (enrollment.retryDelayMinutes ?? 60) * 60_000);
  await tx.$executeRaw`UPDATE "Enrollment" SET "attempts" = ${attempts}, "nextAttemptAt" = ${retryAt}::timestamptz WHERE "id" = ${call.enrollmentId}::uuid`;
  return false;
}

async function storeReport(tx: SqlClient, call: CallRow, event: TelephonyEventOf<'report.ready'>): Promise<void> {
  await tx.$executeRaw`DELETE FROM "CallUtterance" WHERE "callId" = ${call.id}::uuid`;
  if (event.utterances.length > 0) {
    await tx.$executeRaw`INSERT INTO "CallUtterance" ("callId", "seq", "speaker", "content", "timestamp")
      SELECT ${call.id}::uuid, u.ord::int, u.speaker, u.content, u.ts
      FROM unnest(${event.utterances.map((u) => u.speaker)}::text[], ${event.utterances.map((u) => u.content)}::text[],
        ${event.utterances.map((u) => u.timestamp)}::timestamptz[]) WITH ORDINALITY AS u(speaker, content, ts, ord)`;
  }
  await tx.$executeRaw`UPDATE "Call" SET "reportReady" = true WHERE "id" = ${call.id}::uuid`;
}

/**
 * An inbound call to an agent's number: the caller is found by phone in the agent's Account,
 * or created with sourceKind `oneai`; the call is recorded and its later events apply as usual.
 */
async function startInboundCall(tx: SqlClient, event: TelephonyEventOf<'call.inbound'>, now: Date): Promise<void> {
  const to = event.to ? normalizePhone(event.to, null) : null;
  if (!to?.ok) throw new DomainError('bad_request', 'call.inbound needs `to`: the agent number that was called, in international format');
  const [agent] = await tx.$queryRaw<Array<{ id: string; accountId: string }>>`SELECT "id", "accountId" FROM "Agent" WHERE "phoneNumber" = ${to.e164}`;
  if (!agent) throw new DomainError('not_found', `No agent answers ${to.e164}`);
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
  await tx.$executeRaw`INSERT INTO "Call" ("id", "accountId", "contactId", "agentId", "direction", "status", "startedAt")
    VALUES (${event.callId}::uuid, ${agent.accountId}::uuid, ${contactId}::uuid, ${agent.id}::uuid, 'inbound', 'in_progress', ${new Date(event.occurredAt)}::timestamptz)
    ON CONFLICT ("id") DO NOTHING`;
}
