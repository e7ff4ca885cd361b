// The SQL of the dialing decision's inputs, read for a batch of contacts at once (the dialer's
// claim reads 100 at a time; GET /contacts/{id}/dialing reads one): the Accounts' policies, the
// contacts' live consents, the calls placed to them within the longest cap period, and their
// numbers' do-not-call registry listings with the date of the copy that covers each. Plus the
// writes that set enrollments aside until someone acts, and bring them back.
import type { SqlClient } from '../../db/sql-client.js';
import type { ConsentKind, DncRegistry } from './calling-rule.types.js';

export type PolicyRow = {
  accountId: string;
  purpose: string;
  requireWrittenConsent: boolean;
  attemptCapMax: number | null;
  attemptCapPeriodHours: number | null;
  disabledJurisdictions: unknown;
  updatedAt: Date;
  updatedBy: string;
};

export async function policiesOf(tx: SqlClient, accountIds: readonly string[]): Promise<Map<string, PolicyRow>> {
  if (accountIds.length === 0) return new Map();
  const rows = await tx.$queryRaw<
    PolicyRow[]
  >`SELECT * FROM "CallingPolicy" WHERE "accountId" = ANY(${[...new Set(accountIds)]}::uuid[])`;
  return new Map(rows.map((r) => [r.accountId, r]));
}

export type LiveConsent = {
  id: string;
  contactId: string;
  kind: ConsentKind;
  workflowId: string | null;
  obtainedAt: Date;
};

/** The contacts' consents not revoked. */
export async function liveConsentsOf(tx: SqlClient, contactIds: readonly string[]): Promise<LiveConsent[]> {
  if (contactIds.length === 0) return [];
  return tx.$queryRaw<LiveConsent[]>`SELECT "id", "contactId", "kind", "workflowId", "obtainedAt" FROM "Consent"
    WHERE "contactId" = ANY(${[...new Set(contactIds)]}::uuid[]) AND "revokedAt" IS NULL`;
}

/** When each outbound call to these contacts was placed, since `since` (test calls aside). */
export async function callsPlacedSince(
  tx: SqlClient,
  contactIds: readonly string[],
  since: Date,
): Promise<Array<{ contactId: string; startedAt: Date }>> {
  if (contactIds.length === 0) return [];
  return tx.$queryRaw<Array<{ contactId: string; startedAt: Date }>>`SELECT "contactId", "startedAt" FROM "Call"
    WHERE "contactId" = ANY(${[...new Set(contactIds)]}::uuid[]) AND "startedAt" > ${since}::timestamptz
      AND "direction" = 'outbound' AND NOT "testCall"`;
}

/** A registry question: is `phone` (E.164) listed in the Account's copy of `registry`, and how old is the copy covering `scope`? */
export interface RegistryQuestion {
  accountId: string;
  registry: DncRegistry;
  scope: string;
  phone: string;
}

/**
 * For each question, in order: whether the number is listed, and when the covering copy was
 * downloaded (null: no copy). The copy names the import whose blocks answer; a block is a bitmap
 * (1,250 bytes: get_bit) or the listed numbers' 2-byte codes (position finds one only at a
 * code's start): dnc-registries.rules.ts encodeBlock.
 */
export async function registryAnswers(
  tx: SqlClient,
  questions: readonly RegistryQuestion[],
): Promise<Array<{ listed: boolean; copyDownloadedAt: Date | null }>> {
  if (questions.length === 0) return [];
  const digits = questions.map((q) => q.phone.replace(/\D/g, ''));
  const rows = await tx.$queryRaw<Array<{ i: number; downloadedAt: Date | null; listed: boolean }>>`
    SELECT u.i::int AS i, c."downloadedAt",
      COALESCE(CASE WHEN length(b."bits") = 1250 THEN get_bit(b."bits", u.line) = 1
        ELSE position(set_byte(set_byte(decode('0000', 'hex'), 0, 128 | (u.line >> 7)), 1, u.line & 127) IN b."bits") > 0
      END, false) AS listed
    FROM unnest(${questions.map((q) => q.accountId)}::uuid[], ${questions.map((q) => q.registry)}::text[],
      ${questions.map((q) => q.scope)}::text[], ${digits.map((d) => d.slice(0, -4))}::text[],
      ${digits.map((d) => Number(d.slice(-4)))}::int[]) WITH ORDINALITY AS u(account, registry, scope, prefix, line, i)
      LEFT JOIN "DncRegistryCopy" c ON c."accountId" = u.account AND c."registry" = u.registry AND c."scope" = u.scope
      LEFT JOIN "DncRegistryBlock" b ON b."importId" = c."importId" AND b."prefix" = u.prefix
    ORDER BY u.i`;
  return rows.map((r) => ({ listed: r.listed, copyDownloadedAt: r.downloadedAt }));
}

/** A contact's current enrollment with its workflow and agent, as GET /contacts/{id}/dialing reads it. */
export type CurrentEnrollmentRow = {
  workflowId: string;
  attempts: number;
  enforceCallNow: boolean;
  nextAttemptAt: Date | null;
  dialingHold: string | null;
  workflowStatus: string;
  workflowPaused: boolean;
  agentId: string | null;
  hasAgent: boolean;
  agentStatus: string | null;
  agentTimezone: string | null;
  workingHours: unknown;
  callNewContactsImmediately: boolean | null;
};

/**
 * Whether the contact's phone is on the Account's block list, and its newest active enrollment
 * (null: none) with its workflow and agent: one statement, where three Prisma reads took a
 * round trip each.
 */
export async function blockAndCurrentEnrollment(
  tx: SqlClient,
  accountId: string,
  contactId: string,
  phone: string | null,
): Promise<{ blocked: boolean; enrollment: CurrentEnrollmentRow | null }> {
  const [row] = await tx.$queryRaw<Array<CurrentEnrollmentRow & { blocked: boolean; found: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM "BlockedPhone" b WHERE b."accountId" = ${accountId}::uuid AND b."phone" = ${phone}::text) AS "blocked",
      x."workflowId" IS NOT NULL AS "found", x.*
    FROM (SELECT 1) AS one LEFT JOIN LATERAL (
      SELECT e."workflowId", e."attempts", e."enforceCallNow", e."nextAttemptAt", e."dialingHold",
        w."status"::text AS "workflowStatus", w."paused" AS "workflowPaused", w."agentId",
        a."id" IS NOT NULL AS "hasAgent", a."status"::text AS "agentStatus", a."timezone" AS "agentTimezone",
        a."workingHours", a."callNewContactsImmediately"
      FROM "Enrollment" e JOIN "Workflow" w ON w."id" = e."workflowId" LEFT JOIN "Agent" a ON a."id" = w."agentId"
      WHERE e."contactId" = ${contactId}::uuid AND e."accountId" = ${accountId}::uuid AND e."active"
      ORDER BY e."createdAt" DESC LIMIT 1
    ) AS x ON true`;
  const { blocked, found, ...enrollment } = row;
  return { blocked: phone !== null && blocked, enrollment: found ? enrollment : null };
}

/** Locks the Account's policy row (when it has one) for a change. */
export async function lockPolicy(tx: SqlClient, accountId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "CallingPolicy" WHERE "accountId" = ${accountId}::uuid FOR UPDATE`;
}

/**
 * Brings back the enrollments the dialer set aside until someone acted (dialingHold): of these
 * contacts, or of the whole Account (null). They are due at once, and the dialer decides again.
 */
export async function releaseHeldEnrollments(
  tx: SqlClient,
  accountId: string,
  contactIds: readonly string[] | null,
  now: Date,
): Promise<number> {
  if (contactIds === null)
    return tx.$executeRaw`UPDATE "Enrollment" SET "nextAttemptAt" = ${now}::timestamptz, "dialingHold" = NULL
      WHERE "accountId" = ${accountId}::uuid AND "active" AND "dialingHold" IS NOT NULL`;
  if (contactIds.length === 0) return 0;
  return tx.$executeRaw`UPDATE "Enrollment" SET "nextAttemptAt" = ${now}::timestamptz, "dialingHold" = NULL
    WHERE "accountId" = ${accountId}::uuid AND "contactId" = ANY(${[...contactIds]}::uuid[]) AND "active" AND "dialingHold" IS NOT NULL`;
}

/** Revokes the live consents of the Account's contacts with this phone (a do-not-call request, the block list). */
export async function revokeConsentsOfPhone(
  tx: SqlClient,
  accountId: string,
  phone: string,
  now: Date,
  by: 'do_not_call_result' | 'block_list' | 'erasure',
): Promise<number> {
  return tx.$executeRaw`UPDATE "Consent" SET "revokedAt" = ${now}::timestamptz, "revokedBy" = ${by}
    WHERE "accountId" = ${accountId}::uuid AND "revokedAt" IS NULL
      AND "contactId" IN (SELECT "id" FROM "Contact" WHERE "accountId" = ${accountId}::uuid AND "phone" = ${phone})`;
}

/** A consent row to store. */
export interface ConsentRow {
  id: string;
  accountId: string;
  contactId: string;
  kind: string;
  workflowId: string | null;
  method: string;
  evidence: string | null;
  obtainedAt: Date;
  createdAt: Date;
}

/** Stores consents of one Account's contacts, and brings back their enrollments set aside for want of one. */
export async function storeConsents(
  tx: SqlClient,
  accountId: string,
  rows: readonly ConsentRow[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`INSERT INTO "Consent" ("id", "accountId", "contactId", "kind", "workflowId", "method", "evidence", "obtainedAt", "createdAt")
    SELECT * FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.accountId)}::uuid[], ${rows.map((r) => r.contactId)}::uuid[],
      ${rows.map((r) => r.kind)}::text[], ${rows.map((r) => r.workflowId)}::uuid[], ${rows.map((r) => r.method)}::text[],
      ${rows.map((r) => r.evidence)}::text[], ${rows.map((r) => r.obtainedAt)}::timestamptz[], ${rows.map((r) => r.createdAt)}::timestamptz[])`;
  await releaseHeldEnrollments(
    tx,
    accountId,
    rows.map((r) => r.contactId),
    now,
  );
}
