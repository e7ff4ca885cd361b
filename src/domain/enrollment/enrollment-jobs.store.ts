// The SQL of enrolling a workflow's existing contacts: the job row (EnrollmentJob, stored with
// its batch), a chunk's contacts (ids sent, or a window of the Account's contacts checked
// against the list filter and the matches locked), what the workflow already has of them, and
// each chunk's counts, committed with the chunk.
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';
import type { ContactRow } from '../contacts/contacts.rules.js';
import { CONTACT_COLUMNS } from '../contacts/contacts.store.js';

/** The job's row, inserted by the statement that stores its batch (contacts-batches.store.ts). */
export function enrollmentJobInsert(
  job: { id: string; accountId: string; createdAt: Date },
  options: { workflowId: string; reEnroll: boolean; enforceCallNow: boolean },
): Prisma.Sql {
  return Prisma.sql`INSERT INTO "EnrollmentJob" ("id", "accountId", "workflowId", "reEnroll", "enforceCallNow", "createdAt")
    VALUES (${job.id}::uuid, ${job.accountId}::uuid, ${options.workflowId}::uuid, ${options.reEnroll}, ${options.enforceCallNow}, ${job.createdAt})`;
}

/** The workflow as a chunk needs it, held (FOR SHARE) until the chunk commits; null: deleted. */
export async function workflowForChunk(
  tx: SqlClient,
  workflowId: string,
): Promise<{ status: string; paused: boolean; attemptLimit: number | null } | null> {
  const [row] = await tx.$queryRaw<Array<{ status: string; paused: boolean; attemptLimit: number | null }>>`
    SELECT w."status"::text AS "status", w."paused", a."attemptLimit"
    FROM "Workflow" w LEFT JOIN "Agent" a ON a."id" = w."agentId"
    WHERE w."id" = ${workflowId}::uuid FOR SHARE OF w`;
  return row ?? null;
}

/** The Account's contacts with these ids, locked, in (createdAt, id) order. */
export async function lockContactsWithIds(tx: SqlClient, accountId: string, ids: string[]): Promise<ContactRow[]> {
  return tx.$queryRaw<ContactRow[]>`SELECT ${CONTACT_COLUMNS} FROM "Contact"
    WHERE "accountId" = ${accountId}::uuid AND "id" = ANY(${ids}::uuid[]) ORDER BY "createdAt", "id" FOR UPDATE`;
}

/**
 * Up to `limit` of the Account's contacts created at or before `until`, after the cursor, in
 * (createdAt, id) order, each with whether `matches` (a condition on the contact) holds: a
 * window whose cost does not depend on how many contacts the filter matches.
 */
export async function scanWindow(
  tx: SqlClient,
  accountId: string,
  matches: Prisma.Sql,
  until: Date,
  after: { createdAt: string; id: string } | undefined,
  limit: number,
): Promise<Array<{ createdAt: Date; id: string; matches: boolean | null }>> {
  const afterCursor = after
    ? Prisma.sql`AND ("createdAt", "id") > (${new Date(after.createdAt)}::timestamptz, ${after.id}::uuid)`
    : Prisma.empty;
  return tx.$queryRaw`SELECT "createdAt", "id", (${matches}) AS "matches" FROM "Contact"
    WHERE "accountId" = ${accountId}::uuid AND "createdAt" <= ${until}::timestamptz ${afterCursor}
    ORDER BY "createdAt", "id" LIMIT ${limit}`;
}

/** Of `ids`, the contacts `matches` still holds for, locked, in (createdAt, id) order. */
export async function lockMatching(tx: SqlClient, ids: string[], matches: Prisma.Sql): Promise<ContactRow[]> {
  if (ids.length === 0) return [];
  return tx.$queryRaw<ContactRow[]>`SELECT ${CONTACT_COLUMNS} FROM "Contact"
    WHERE "id" = ANY(${ids}::uuid[]) AND (${matches}) ORDER BY "createdAt", "id" FOR UPDATE`;
}

/** Of `contactIds`, those enrolled in the workflow now, and those the workflow has called. */
export async function workflowHistoryOf(
  tx: SqlClient,
  workflowId: string,
  contactIds: string[],
): Promise<{ active: Set<string>; called: Set<string> }> {
  if (contactIds.length === 0) return { active: new Set(), called: new Set() };
  const rows = await tx.$queryRaw<Array<{ id: string; active: boolean; called: boolean }>>`
    SELECT c."id",
      EXISTS (SELECT 1 FROM "Enrollment" e WHERE e."contactId" = c."id" AND e."workflowId" = ${workflowId}::uuid AND e."active") AS "active",
      EXISTS (SELECT 1 FROM "Call" k WHERE k."workflowId" = ${workflowId}::uuid AND k."contactId" = c."id") AS "called"
    FROM unnest(${contactIds}::uuid[]) AS c("id")`;
  return {
    active: new Set(rows.filter((r) => r.active).map((r) => r.id)),
    called: new Set(rows.filter((r) => r.called).map((r) => r.id)),
  };
}

/** One chunk's part of the job's counts. */
export interface EnrollmentChunk {
  matched: number;
  enrolled: number;
  notEnrolled: number;
  /** { reason: count } of this chunk's contacts not enrolled. */
  reasonCounts: Record<string, number>;
  /** The contacts not enrolled to add to the job's list (the caller keeps it within its limit). */
  listed: Array<{ contactId: string; reason: string }>;
  finished: boolean;
}

/** Adds a chunk's counts to the job (in the chunk's transaction: counted once, when it commits). */
export async function recordEnrollmentChunk(
  tx: SqlClient,
  id: string,
  chunk: EnrollmentChunk,
  now: Date,
): Promise<void> {
  const status = chunk.finished ? 'done' : 'running';
  const finishedAt = chunk.finished ? now : null;
  await tx.$executeRaw`UPDATE "EnrollmentJob" SET "status" = ${status}::"JobStatus",
      "matched" = "matched" + ${chunk.matched}, "enrolled" = "enrolled" + ${chunk.enrolled},
      "notEnrolledCount" = "notEnrolledCount" + ${chunk.notEnrolled},
      "reasonCounts" = (SELECT COALESCE(jsonb_object_agg(k, n), '{}'::jsonb) FROM (
          SELECT k, sum(n)::int AS n FROM (
            SELECT key AS k, value::int AS n FROM jsonb_each_text("reasonCounts")
            UNION ALL SELECT key, value::int FROM jsonb_each_text(${JSON.stringify(chunk.reasonCounts)}::jsonb)
          ) AS both_counts GROUP BY k) AS summed),
      "notEnrolled" = "notEnrolled" || ${JSON.stringify(chunk.listed)}::jsonb,
      "startedAt" = COALESCE("startedAt", ${now}), "finishedAt" = ${finishedAt}::timestamptz
    WHERE "id" = ${id}::uuid`;
}
