// SQL of an erasure (contacts-erase.service.ts): every row that holds the erased contact's
// personal data, deleted or scrubbed inside the erasure's transaction. Each statement names
// the rows by the contact's id (or its calls' ids) within its Account.
import type { SqlClient } from '../../db/sql-client.js';
import { moveContactsToDnc } from '../blocklist/blocklist.store.js';
import { enrollmentEventsFrom, subscribedSql } from '../webhooks/webhook-outbox.store.js';

/** The contact's calls, locked (a call event being applied to one of them finishes first, or waits). */
export async function lockCallsOfContact(tx: SqlClient, accountId: string, contactId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`SELECT "id" FROM "Call"
    WHERE "accountId" = ${accountId}::uuid AND "contactId" = ${contactId}::uuid ORDER BY "id" FOR UPDATE`;
  return rows.map((row) => row.id);
}

/**
 * Deletes the durable events that name the contact or one of its calls (call.ended carries
 * both). Run before the trigger deliveries are deleted: the board trigger's fan-out holds its
 * events' row locks until its deliveries commit, so this waits for it, and the deletion of
 * deliveries that follows sees what it wrote.
 */
export async function deleteEventsNaming(
  tx: SqlClient,
  accountId: string,
  contactId: string,
  callIds: string[],
): Promise<void> {
  await tx.$executeRaw`DELETE FROM "DomainEvent" WHERE "accountId" = ${accountId}::uuid
    AND ("payload"->>'contactId' = ${contactId} OR "payload"->>'callId' = ANY(${callIds}::text[]))`;
}

/**
 * Deletes the Account's webhook deliveries about the contact (contact events and its calls'
 * call.ended carry its data, sent or not) and any other naming it (a bulk-update's report listing
 * it as skipped): they leave the endpoints' logs, and one not sent yet is not sent.
 */
export async function deleteWebhookDeliveriesNaming(
  tx: SqlClient,
  accountId: string,
  contactId: string,
): Promise<void> {
  await tx.$executeRaw`DELETE FROM "WebhookDelivery" WHERE "accountId" = ${accountId}::uuid
    AND ("contactId" = ${contactId}::uuid OR "payload" LIKE ${`%${contactId}%`})`;
}

/** Deletes the board trigger's deliveries of these calls (their payloads carry the calls' outputs). */
export async function deleteTriggerDeliveriesOf(tx: SqlClient, callIds: string[]): Promise<void> {
  if (callIds.length === 0) return;
  await tx.$executeRaw`DELETE FROM "MondayTriggerDelivery" WHERE "callId" = ANY(${callIds}::uuid[])`;
}

/**
 * Deletes the records of the telephony events applied to these calls: their ids carry the
 * calls' ids, and their times are the calls'. A provider's late retry of one of them then finds
 * no call, and is refused as any event of an unknown call (not recorded).
 */
export async function deleteProcessedEventsOf(tx: SqlClient, callIds: string[]): Promise<void> {
  if (callIds.length === 0) return;
  await tx.$executeRaw`DELETE FROM "ProcessedEvent" WHERE "callId" = ANY(${callIds}::text[])`;
}

/** Deletes the calls' transcript lines, then the calls (recording URL, provider call id, outcome). */
export async function deleteCalls(tx: SqlClient, accountId: string, callIds: string[]): Promise<void> {
  if (callIds.length === 0) return;
  await tx.$executeRaw`DELETE FROM "CallUtterance" WHERE "callId" = ANY(${callIds}::uuid[])`;
  await tx.$executeRaw`DELETE FROM "Call" WHERE "accountId" = ${accountId}::uuid AND "id" = ANY(${callIds}::uuid[])`;
}

/**
 * Deletes the stored answers that carry the contact: the Account's Idempotency-Key answers (an
 * upsert's answer is the contact) and board action runs (the enroll action answers its
 * contactId) whose body names its id. A retry with such a key or actionUuid then runs again.
 */
export async function deleteStoredAnswersNaming(tx: SqlClient, accountId: string, contactId: string): Promise<void> {
  const pattern = `%${contactId}%`;
  await tx.$executeRaw`DELETE FROM "IdempotencyKey" WHERE "accountId" = ${accountId}::uuid AND "body" LIKE ${pattern}`;
  await tx.$executeRaw`DELETE FROM "MondayActionRun"
    WHERE "accountId" = ${accountId}::uuid AND "response"::text LIKE ${pattern}`;
}

/**
 * Drops the contact from the Account's bulk-update reports: an entry skipping it goes, and an
 * entry naming it as `conflictsWith` loses that field (skippedCount, a count, is kept).
 */
export async function scrubBulkUpdateReports(tx: SqlClient, accountId: string, contactId: string): Promise<void> {
  await tx.$executeRaw`UPDATE "BulkUpdateJob" SET "skipped" = COALESCE((
      SELECT jsonb_agg(CASE WHEN entry->>'conflictsWith' = ${contactId} THEN entry - 'conflictsWith' ELSE entry END ORDER BY n)
        FROM jsonb_array_elements("skipped") WITH ORDINALITY AS listed(entry, n)
        WHERE entry->>'contactId' IS DISTINCT FROM ${contactId}), '[]'::jsonb)
    WHERE "accountId" = ${accountId}::uuid AND "skipped"::text LIKE ${`%${contactId}%`}`;
}

/**
 * Ends the contact's active enrollment for its erasure (endReason 'contact_erased'), writing its
 * enrollment.ended when the Account listens (its data, rendered later, names no contact). Run
 * before deleteContactRow, which takes the contact off every enrollment of it.
 */
export async function endEnrollmentsOfErased(
  tx: SqlClient,
  accountId: string,
  contactId: string,
  now: Date,
): Promise<void> {
  await tx.$executeRaw`WITH erased AS (UPDATE "Enrollment"
      SET "active" = false, "nextAttemptAt" = NULL, "dialingHold" = NULL, "endedAt" = ${now}::timestamptz, "endReason" = 'contact_erased'
      WHERE "accountId" = ${accountId}::uuid AND "contactId" = ${contactId}::uuid AND "active" RETURNING "id"
    ) ${enrollmentEventsFrom('erased', accountId, 'enrollment.ended', now)}`;
}

/**
 * Deletes the contact's board item link, then the contact. Its enrollments stay, anonymous, for
 * their workflow's history: the contact's id and its copy of the contact's priority are cleared
 * first (ON DELETE SET NULL would clear the id too; said here, so the rule reads in one place).
 */
export async function deleteContactRow(tx: SqlClient, accountId: string, contactId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM "MondayItemLink" WHERE "accountId" = ${accountId}::uuid AND "contactId" = ${contactId}::uuid`;
  await tx.$executeRaw`UPDATE "Enrollment" SET "contactId" = NULL, "priority" = 0
    WHERE "accountId" = ${accountId}::uuid AND "contactId" = ${contactId}::uuid`;
  await tx.$executeRaw`DELETE FROM "Contact" WHERE "accountId" = ${accountId}::uuid AND "id" = ${contactId}::uuid`;
}

/** Puts the phone on the Account's block list; the Account's other contacts with it become `dnc`, as blockPhone does. */
export async function blockPhoneOfErased(tx: SqlClient, accountId: string, phone: string, now: Date): Promise<void> {
  await tx.$executeRaw`INSERT INTO "BlockedPhone" ("accountId", "phone", "reason", "createdAt")
    VALUES (${accountId}::uuid, ${phone}, 'erased contact', ${now}::timestamptz) ON CONFLICT DO NOTHING`;
  await moveContactsToDnc(tx, accountId, phone, now, 'erasure');
}

/** The contact.deleted event's payload: the only trace an erasure leaves of the contact. */
export interface ContactDeletedPayload {
  contactId: string;
  sourceKind: string;
  externalId: string | null;
  blocked: boolean;
  deletedAt: string;
}

/**
 * Writes the contact.deleted event into the outbox for the webhooks, when the Account has an
 * endpoint listening to it (like every webhook-only event: an Account that does not listen keeps
 * no trace of the contact at all).
 */
export async function insertContactDeletedEvent(
  tx: SqlClient,
  event: { id: string; accountId: string; payload: ContactDeletedPayload; now: Date },
): Promise<void> {
  await tx.$executeRaw`INSERT INTO "DomainEvent" ("id", "accountId", "type", "payload", "createdAt")
    SELECT ${event.id}::uuid, ${event.accountId}::uuid, 'contact.deleted', ${JSON.stringify(event.payload)}::jsonb,
      ${event.now}::timestamptz WHERE ${subscribedSql(event.accountId, 'contact.deleted')}`;
}
