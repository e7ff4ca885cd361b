// A workflow's enrollments: a page of them, newest first, and ending them (stop). Stopping is one
// statement that ends the matching active enrollments and takes them out of the dialer's work
// list (nextAttemptAt NULL, active false): the dialer claims only active enrollments with
// FOR UPDATE SKIP LOCKED, so once the statement commits no claim can take one of them, and a
// claim that took one first has committed its Call before the statement could lock the row
// (that call finishes and is recorded; its end no longer moves the enrollment).
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';
import { enrollmentEventsFrom } from '../webhooks/webhook-outbox.store.js';

export interface EnrollmentRow {
  id: string;
  /** null: the contact was erased (the enrollment stays, anonymous, ended). */
  contactId: string | null;
  workflowId: string;
  active: boolean;
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  endedAt: Date | null;
  endReason: string | null;
}

/** Up to `take` of the workflow's enrollments, newest first, after the cursor; `active` null: both states. */
export async function enrollmentPage(
  tx: SqlClient,
  workflowId: string,
  active: boolean | null,
  after: { createdAt: Date; id: string } | null,
  take: number,
): Promise<EnrollmentRow[]> {
  const conditions = [Prisma.sql`"workflowId" = ${workflowId}::uuid`];
  if (active !== null) conditions.push(Prisma.sql`"active" = ${active}`);
  if (after) conditions.push(Prisma.sql`("createdAt", "id") < (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  return tx.$queryRaw<EnrollmentRow[]>`SELECT "id", "contactId", "workflowId", "active", "attempts", "nextAttemptAt",
      "createdAt", "endedAt", "endReason"
    FROM "Enrollment" WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY "createdAt" DESC, "id" DESC LIMIT ${take}`;
}

/** The enrollments with these ids (the webhook fan-out renders enrollment events from them). */
export async function enrollmentsWithIds(tx: SqlClient, ids: readonly string[]): Promise<EnrollmentRow[]> {
  if (ids.length === 0) return [];
  return tx.$queryRaw<EnrollmentRow[]>`SELECT "id", "contactId", "workflowId", "active", "attempts", "nextAttemptAt",
      "createdAt", "endedAt", "endReason"
    FROM "Enrollment" WHERE "id" = ANY(${[...ids]}::uuid[])`;
}

/** The Account's contacts with these ids, as a condition on "Contact" c (for stopEnrollments). */
export function contactsWithIds(accountId: string, contactIds: readonly string[]): Prisma.Sql {
  return Prisma.sql`c."id" = ANY(${[...contactIds]}::uuid[]) AND c."accountId" = ${accountId}::uuid`;
}

/**
 * Ends the workflow's active enrollments of the contacts `contacts` selects (a condition on
 * "Contact" c), and clears those contacts' next call (only where one is set: writing a contact row
 * costs far more than an enrollment's, its indexes being many), and writes each ended enrollment's
 * enrollment.ended when the Account listens, in one statement. Returns the contacts whose
 * enrollment ended (`ids`: their ids; else only how many, so a stop of a million returns no list).
 */
export async function stopEnrollments(
  tx: SqlClient,
  accountId: string,
  workflowId: string,
  contacts: Prisma.Sql,
  now: Date,
  ids: boolean,
): Promise<{ count: number; contactIds: string[] }> {
  const stopped = Prisma.sql`WITH stopped AS (
      UPDATE "Enrollment" AS e
      SET "active" = false, "nextAttemptAt" = NULL, "dialingHold" = NULL, "endedAt" = ${now}::timestamptz, "endReason" = 'stopped'
      WHERE e."workflowId" = ${workflowId}::uuid AND e."accountId" = ${accountId}::uuid AND e."active"
        AND e."contactId" IN (SELECT c."id" FROM "Contact" c WHERE ${contacts})
      RETURNING e."id", e."contactId"
    ), stopped_events AS (${enrollmentEventsFrom('stopped', accountId, 'enrollment.ended', now)}
    ), cleared AS (
      UPDATE "Contact" AS k SET "nextCallAt" = NULL, "updatedAt" = ${now}::timestamptz
      WHERE k."accountId" = ${accountId}::uuid AND k."nextCallAt" IS NOT NULL AND k."id" IN (SELECT "contactId" FROM stopped)
    )`;
  if (ids) {
    const rows = await tx.$queryRaw<Array<{ contactId: string }>>`${stopped} SELECT "contactId" FROM stopped`;
    return { count: rows.length, contactIds: rows.map((r) => r.contactId) };
  }
  const [row] = await tx.$queryRaw<Array<{ n: number }>>`${stopped} SELECT count(*)::int AS n FROM stopped`;
  return { count: row.n, contactIds: [] };
}
