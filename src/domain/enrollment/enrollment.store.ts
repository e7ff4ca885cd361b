// Enrollment rows: the dialer's work list. One active enrollment per contact (a partial
// unique index); starting one ends the contact's previous one.
import type { Enrollment } from './enrollment.rules.js';
import type { SqlClient } from '../../db/sql-client.js';
import { enrollmentEventsFrom } from '../webhooks/webhook-outbox.store.js';

/** Of `contactIds`, those the workflow has already called (re-enrollment needs reEnroll). */
export async function findContactsCalledBy(
  tx: SqlClient,
  workflowId: string,
  contactIds: string[],
): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const rows = await tx.$queryRaw<Array<{ contactId: string }>>`SELECT DISTINCT "contactId" FROM "Call"
    WHERE "workflowId" = ${workflowId}::uuid AND "contactId" = ANY(${contactIds}::uuid[])`;
  return new Set(rows.map((r) => r.contactId));
}

/**
 * Ends the contacts' active enrollments and starts new ones in the workflow, due now (the
 * dialer applies working hours, enforceCallNow and the agent's call-immediately option). Each
 * enrollment ended writes enrollment.ended, each started enrollment.started, in the statement
 * that ends or starts it, when the Account listens (webhook-outbox.store.ts).
 */
export async function startEnrollments(
  tx: SqlClient,
  accountId: string,
  contactIds: string[],
  enrollment: Enrollment,
  now: Date,
): Promise<void> {
  await tx.$executeRaw`WITH ended AS (UPDATE "Enrollment" SET "active" = false, "endedAt" = ${now}::timestamptz, "endReason" = 're-enrolled'
      WHERE "contactId" = ANY(${contactIds}::uuid[]) AND "active" RETURNING "id"
    ) ${enrollmentEventsFrom('ended', accountId, 'enrollment.ended', now)}`;
  // The workflow's enrollments of this hour are counted with them (its results' `enrolled`).
  await tx.$executeRaw`WITH started AS (INSERT INTO "Enrollment" ("id", "accountId", "contactId", "workflowId", "active", "priority", "attempts", "nextAttemptAt", "reEnroll", "enforceCallNow", "createdAt")
    SELECT gen_random_uuid(), ${accountId}::uuid, c."id", ${enrollment.workflowId}::uuid, true, c."priority", 0, ${now}::timestamptz,
      ${enrollment.reEnroll}, ${enrollment.enforceCallNow}, ${now}::timestamptz
    FROM "Contact" c WHERE c."id" = ANY(${contactIds}::uuid[]) RETURNING "id"),
    started_events AS (${enrollmentEventsFrom('started', accountId, 'enrollment.started', now)})
    INSERT INTO "WorkflowEnrollmentHour" AS t ("workflowId", "hour", "enrolled")
      SELECT ${enrollment.workflowId}::uuid, date_trunc('hour', ${now}::timestamptz, 'UTC'), count(*)::int FROM started HAVING count(*) > 0
    ON CONFLICT ("workflowId", "hour") DO UPDATE SET "enrolled" = t."enrolled" + excluded."enrolled"`;
}

/**
 * Status `connecting` restarts a contact's call sequence, a finished one included: its latest
 * enrollment becomes active again with no attempts, due now. An ended enrollment made active
 * again is a start: it writes enrollment.started (the same enrollment id, its startedAt
 * unchanged), so a receiver that saw it end learns it is called again; restarting one still
 * active starts nothing. It is not counted again in the workflow's `enrolled`.
 */
export async function restartSequences(
  tx: SqlClient,
  accountId: string,
  contactIds: string[],
  now: Date,
): Promise<void> {
  if (contactIds.length === 0) return;
  await tx.$executeRaw`WITH restarted AS (UPDATE "Enrollment" AS e SET "active" = true, "attempts" = 0, "nextAttemptAt" = ${now}::timestamptz,
      "endedAt" = NULL, "endReason" = NULL
    FROM (SELECT DISTINCT ON ("contactId") "id", "active" FROM "Enrollment"
          WHERE "contactId" = ANY(${contactIds}::uuid[]) AND "accountId" = ${accountId}::uuid
          ORDER BY "contactId", "createdAt" DESC) AS latest
    WHERE e."id" = latest."id"
    RETURNING e."id", latest."active" AS "wasActive"),
    started AS (SELECT "id" FROM restarted WHERE NOT "wasActive")
    ${enrollmentEventsFrom('started', accountId, 'enrollment.started', now)}`;
}

/** Keeps the dialer's copy of a contact's priority current (only for contacts whose priority changed). */
export async function syncEnrollmentPriority(
  tx: SqlClient,
  changes: Array<{ id: string; priority: number }>,
): Promise<void> {
  if (changes.length === 0) return;
  await tx.$executeRaw`UPDATE "Enrollment" AS e SET "priority" = u.priority
    FROM unnest(${changes.map((c) => c.id)}::uuid[], ${changes.map((c) => c.priority)}::int[]) AS u(id, priority)
    WHERE e."contactId" = u.id AND e."active"`;
}
