// Set-based SQL for contact rows, shared by every write path (upsert, import, PATCH, bulk-update,
// call outcomes): one statement writes any number of rows through unnest(). The list's statement
// is contacts-list.store.ts's.
import { Prisma } from '../../generated/prisma/client.js';
import type { AccountRules, ContactRow } from './contacts.rules.js';
import type { SqlClient } from '../../db/sql-client.js';
import { contactEventsFrom } from '../webhooks/webhook-outbox.store.js';

/** The columns a contact response is read from, in CONTACT_RESPONSE_FIELDS order, then dedupKey and phoneDigits. */
export const CONTACT_COLUMNS = Prisma.raw(
  `"id", "accountId", "firstName", "lastName", "fullName", "phone", "location", "locationDefaulted", "timezone",
   "timezoneInferred", "language", "status"::text AS "status", "sourceKind"::text AS "sourceKind", "externalId",
   "customFields", "priority", "assignedWorkflowId", "callCount", "maxAttempts", "lastCallAt", "nextCallAt",
   "createdAt", "updatedAt", "dedupKey", "phoneDigits"`,
);

export async function findContactsByDedupKeys(
  db: SqlClient,
  accountId: string,
  keys: string[],
  forUpdate: boolean,
): Promise<ContactRow[]> {
  if (keys.length === 0) return [];
  // Locked in key order, so that writers of overlapping contacts queue rather than deadlock.
  const lock = forUpdate ? Prisma.raw('ORDER BY "dedupKey" FOR UPDATE') : Prisma.empty;
  return db.$queryRaw<ContactRow[]>`SELECT ${CONTACT_COLUMNS} FROM "Contact"
    WHERE "accountId" = ${accountId}::uuid AND "dedupKey" = ANY(${keys}::text[]) ${lock}`;
}

export async function findBlockedPhones(db: SqlClient, accountId: string, phones: string[]): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const rows = await db.$queryRaw<Array<{ phone: string }>>`SELECT "phone" FROM "BlockedPhone"
    WHERE "accountId" = ${accountId}::uuid AND "phone" = ANY(${phones}::text[])`;
  return new Set(rows.map((r) => r.phone));
}

function columnArrays(rows: ContactRow[]) {
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  return {
    id: rows.map((r) => r.id),
    firstName: rows.map((r) => r.firstName),
    lastName: rows.map((r) => r.lastName),
    fullName: rows.map((r) => r.fullName),
    phone: rows.map((r) => r.phone),
    location: rows.map((r) => r.location),
    locationDefaulted: rows.map((r) => r.locationDefaulted),
    timezone: rows.map((r) => r.timezone),
    timezoneInferred: rows.map((r) => r.timezoneInferred),
    language: rows.map((r) => r.language),
    status: rows.map((r) => r.status),
    sourceKind: rows.map((r) => r.sourceKind),
    externalId: rows.map((r) => r.externalId),
    customFields: rows.map((r) => json(r.customFields)),
    priority: rows.map((r) => r.priority),
    assignedWorkflowId: rows.map((r) => r.assignedWorkflowId),
    callCount: rows.map((r) => r.callCount),
    maxAttempts: rows.map((r) => r.maxAttempts),
    lastCallAt: rows.map((r) => r.lastCallAt?.toISOString() ?? null),
    nextCallAt: rows.map((r) => r.nextCallAt?.toISOString() ?? null),
    createdAt: rows.map((r) => r.createdAt.toISOString()),
    updatedAt: rows.map((r) => r.updatedAt.toISOString()),
    dedupKey: rows.map((r) => r.dedupKey),
    phoneDigits: rows.map((r) => r.phoneDigits),
  };
}

export interface WriteOptions {
  /**
   * false: the caller knows no endpoint of the Account listens to contact events (read in the
   * same round trip as the contact: findForUpsert), so the write skips the events' CTE, which
   * costs the single upsert about a millisecond to plan on the embedded database.
   */
  events?: boolean;
}

/**
 * Inserts new contacts in one statement. Rows whose dedup key another writer inserted in
 * the meantime are skipped (ON CONFLICT DO NOTHING); the caller sees which by their ids. The same
 * statement records their contact.created webhook events (when the Account listens).
 */
export async function insertContacts(
  db: SqlClient,
  accountId: string,
  rows: ContactRow[],
  options: WriteOptions = {},
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const c = columnArrays(rows);
  const insert = Prisma.sql`INSERT INTO "Contact" ("id", "accountId", "firstName", "lastName",
      "fullName", "phone", "location", "locationDefaulted", "timezone", "timezoneInferred", "language", "status", "sourceKind",
      "externalId", "customFields", "priority", "assignedWorkflowId", "callCount", "maxAttempts", "lastCallAt", "nextCallAt",
      "createdAt", "updatedAt", "dedupKey", "phoneDigits")
    SELECT u.id, ${accountId}::uuid, u."firstName", u."lastName", u."fullName", u.phone, u.location, u."locationDefaulted",
      u.timezone, u."timezoneInferred", u.language, u.status::"ContactStatus", u."sourceKind"::"SourceKind", u."externalId",
      u."customFields"::jsonb, u.priority, u."assignedWorkflowId", u."callCount", u."maxAttempts", u."lastCallAt", u."nextCallAt",
      u."createdAt", u."updatedAt", u."dedupKey", u."phoneDigits"
    FROM unnest(${c.id}::uuid[], ${c.firstName}::text[], ${c.lastName}::text[], ${c.fullName}::text[], ${c.phone}::text[],
      ${c.location}::text[], ${c.locationDefaulted}::boolean[], ${c.timezone}::text[], ${c.timezoneInferred}::boolean[],
      ${c.language}::text[], ${c.status}::text[], ${c.sourceKind}::text[], ${c.externalId}::text[], ${c.customFields}::text[],
      ${c.priority}::int[], ${c.assignedWorkflowId}::uuid[], ${c.callCount}::int[], ${c.maxAttempts}::int[],
      ${c.lastCallAt}::timestamptz[], ${c.nextCallAt}::timestamptz[], ${c.createdAt}::timestamptz[], ${c.updatedAt}::timestamptz[],
      ${c.dedupKey}::text[], ${c.phoneDigits}::text[])
      AS u(id, "firstName", "lastName", "fullName", phone, location, "locationDefaulted", timezone, "timezoneInferred", language,
        status, "sourceKind", "externalId", "customFields", priority, "assignedWorkflowId", "callCount", "maxAttempts",
        "lastCallAt", "nextCallAt", "createdAt", "updatedAt", "dedupKey", "phoneDigits")
    ON CONFLICT ("accountId", "dedupKey") DO NOTHING
    RETURNING "id", "updatedAt"`;
  const inserted = await db.$queryRaw<Array<{ id: string }>>(
    options.events === false
      ? insert
      : Prisma.sql`WITH written AS (${insert}),
          created_events AS (${contactEventsFrom('written', accountId, 'contact.created')})
        SELECT "id" FROM written`,
  );
  return new Set(inserted.map((r) => r.id));
}

/**
 * Writes every field of already-stored contacts in one statement; returns how many rows
 * changed. With `versions` (each row's xmin as read), a row changed since is left alone. The
 * same statement records their contact.updated webhook events (when the Account listens).
 */
export async function updateContacts(
  db: SqlClient,
  accountId: string,
  rows: ContactRow[],
  versions?: string[],
  options: WriteOptions = {},
): Promise<number> {
  if (rows.length === 0) return 0;
  if (options.events === false) return db.$executeRaw(updateContactsStatement(accountId, rows, versions));
  const [{ count }] = await db.$queryRaw<[{ count: number }]>`WITH written AS (
      ${updateContactsStatement(accountId, rows, versions)} RETURNING t."id", t."updatedAt"),
    updated_events AS (${contactEventsFrom('written', accountId, 'contact.updated')})
    SELECT count(*)::int AS "count" FROM written`;
  return count;
}

/**
 * The UPDATE behind updateContacts, to run on its own or inside a larger statement (a CTE): writes
 * these contacts back by id (the Account check guards tenancy). The Account test is
 * written IS NOT DISTINCT FROM, which no index serves, so the plan is always the primary key
 * lookup: with `=`, a planner whose statistics predate the Account (a new Account, autovacuum
 * off, the embedded database) estimates it at one row and scans the whole Account through an
 * (accountId, …) index for each contact written.
 */
export function updateContactsStatement(accountId: string, rows: ContactRow[], versions?: string[]): Prisma.Sql {
  const c = columnArrays(rows);
  const versionCheck = versions ? Prisma.sql`AND t.xmin::text = (${versions}::text[])[u.ord]` : Prisma.empty;
  return Prisma.sql`UPDATE "Contact" AS t SET "firstName" = u."firstName", "lastName" = u."lastName", "fullName" = u."fullName",
      "phone" = u.phone, "location" = u.location, "locationDefaulted" = u."locationDefaulted", "timezone" = u.timezone,
      "timezoneInferred" = u."timezoneInferred", "language" = u.language, "status" = u.status::"ContactStatus",
      "sourceKind" = u."sourceKind"::"SourceKind", "externalId" = u."externalId", "customFields" = u."customFields"::jsonb,
      "priority" = u.priority, "assignedWorkflowId" = u."assignedWorkflowId", "callCount" = u."callCount",
      "maxAttempts" = u."maxAttempts", "lastCallAt" = u."lastCallAt", "nextCallAt" = u."nextCallAt",
      "updatedAt" = u."updatedAt", "dedupKey" = u."dedupKey", "phoneDigits" = u."phoneDigits"
    FROM unnest(${c.id}::uuid[], ${c.firstName}::text[], ${c.lastName}::text[], ${c.fullName}::text[], ${c.phone}::text[],
      ${c.location}::text[], ${c.locationDefaulted}::boolean[], ${c.timezone}::text[], ${c.timezoneInferred}::boolean[],
      ${c.language}::text[], ${c.status}::text[], ${c.sourceKind}::text[], ${c.externalId}::text[], ${c.customFields}::text[],
      ${c.priority}::int[], ${c.assignedWorkflowId}::uuid[], ${c.callCount}::int[], ${c.maxAttempts}::int[],
      ${c.lastCallAt}::timestamptz[], ${c.nextCallAt}::timestamptz[], ${c.updatedAt}::timestamptz[],
      ${c.dedupKey}::text[], ${c.phoneDigits}::text[]) WITH ORDINALITY
      AS u(id, "firstName", "lastName", "fullName", phone, location, "locationDefaulted", timezone, "timezoneInferred", language,
        status, "sourceKind", "externalId", "customFields", priority, "assignedWorkflowId", "callCount", "maxAttempts",
        "lastCallAt", "nextCallAt", "updatedAt", "dedupKey", "phoneDigits", ord)
    WHERE t."id" = u.id AND t."accountId" IS NOT DISTINCT FROM ${accountId}::uuid ${versionCheck}`;
}

/**
 * One round trip for a single upsert: the contact holding the dedup key (if any), its row
 * version, whether the phone the write results in is on the block list, and whether an
 * endpoint of the Account listens to contact events (the write then records them).
 */
export async function findForUpsert(
  db: SqlClient,
  accountId: string,
  dedupKey: string,
  phone: { sent: boolean; value: string | null },
): Promise<{ contact: ContactRow | null; version: string | null; phoneBlocked: boolean; webhooksListen: boolean }> {
  const rows = await db.$queryRaw<
    Array<ContactRow & { rowVersion: string | null; phoneBlocked: boolean; webhooksListen: boolean }>
  >`
    SELECT c.*, EXISTS (SELECT 1 FROM "BlockedPhone" b WHERE b."accountId" = ${accountId}::uuid
        AND b."phone" = CASE WHEN ${phone.sent} THEN ${phone.value}::text ELSE c."phone" END) AS "phoneBlocked",
      EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."accountId" = ${accountId}::uuid AND NOT e."disabled"
        AND e."events" && ARRAY['contact.created', 'contact.updated']) AS "webhooksListen"
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT ${CONTACT_COLUMNS}, xmin::text AS "rowVersion" FROM "Contact"
      WHERE "accountId" = ${accountId}::uuid AND "dedupKey" = ${dedupKey}) AS c ON true`;
  const [row] = rows;
  const { rowVersion, phoneBlocked, webhooksListen, ...contact } = row;
  return { contact: contact.id ? (contact as ContactRow) : null, version: rowVersion, phoneBlocked, webhooksListen };
}

/** `forUpdate` locks the row until the transaction ends (read-modify-write paths). */
export async function findContactById(
  db: SqlClient,
  accountId: string,
  id: string,
  forUpdate = false,
): Promise<ContactRow | null> {
  const lock = forUpdate ? Prisma.raw('FOR UPDATE') : Prisma.empty;
  const rows = await db.$queryRaw<
    ContactRow[]
  >`SELECT ${CONTACT_COLUMNS} FROM "Contact" WHERE "accountId" = ${accountId}::uuid AND "id" = ${id}::uuid ${lock}`;
  return rows[0] ?? null;
}

/**
 * Case- and accent-sensitive. Trailing spaces are ignored: writes strip them and the
 * caller strips them from the lookup value, so a plain (indexed) equality suffices.
 */
export async function findContactsByExternalId(
  db: SqlClient,
  accountId: string,
  sourceKind: string,
  externalId: string,
  limit = 100,
  forUpdate = false,
): Promise<ContactRow[]> {
  const lock = forUpdate ? Prisma.raw('FOR UPDATE') : Prisma.empty;
  return db.$queryRaw<ContactRow[]>`SELECT ${CONTACT_COLUMNS} FROM "Contact"
    WHERE "accountId" = ${accountId}::uuid AND "sourceKind" = ${sourceKind}::"SourceKind"
      AND "externalId" = ${externalId}
    ORDER BY "createdAt", "id" LIMIT ${limit} ${lock}`;
}

/** The Account's contact rules (default location, dedup fields), read inside the caller's transaction. */
export async function loadAccountRules(tx: SqlClient, accountId: string): Promise<AccountRules> {
  const [account] = await tx.$queryRaw<
    AccountRules[]
  >`SELECT "id", "defaultLocation", "dedupFields" FROM "Account" WHERE "id" = ${accountId}::uuid`;
  return account;
}

/** A contact's values its dedup key is built from. */
export type DedupSourceRow = Pick<ContactRow, 'id' | 'phone' | 'sourceKind' | 'externalId' | 'customFields'>;

/** Every contact of the Account, as much as its dedup key needs (rebuilding the keys after new dedup fields). */
export async function findDedupSources(tx: SqlClient, accountId: string): Promise<DedupSourceRow[]> {
  return tx.$queryRaw<DedupSourceRow[]>`
    SELECT "id", "phone", "sourceKind"::text AS "sourceKind", "externalId", "customFields" FROM "Contact" WHERE "accountId" = ${accountId}::uuid`;
}

/** Gives every contact of the Account its new dedup key (`ids[i]` takes `keys[i]`). */
export async function replaceDedupKeys(tx: SqlClient, accountId: string, ids: string[], keys: string[]): Promise<void> {
  // Two steps, so that swapping keys between contacts never trips the unique index midway.
  await tx.$executeRaw`UPDATE "Contact" SET "dedupKey" = 'rekey:' || "id"::text WHERE "accountId" = ${accountId}::uuid`;
  await tx.$executeRaw`UPDATE "Contact" AS t SET "dedupKey" = u.key FROM unnest(${ids}::uuid[], ${keys}::text[]) AS u(id, key) WHERE t."id" = u.id`;
}

// One savepoint name: a statement retried row by row (contacts-change-many.service.ts) never nests another.
export async function setSavepoint(tx: SqlClient): Promise<void> {
  await tx.$executeRaw`SAVEPOINT change_many`;
}

export async function rollBackToSavepoint(tx: SqlClient): Promise<void> {
  await tx.$executeRaw`ROLLBACK TO SAVEPOINT change_many`;
}

export async function releaseSavepoint(tx: SqlClient): Promise<void> {
  await tx.$executeRaw`RELEASE SAVEPOINT change_many`;
}

/** Contacts by id, whichever Account (the caller scopes): for rendering events about them. */
export async function findContactsByIds(db: SqlClient, ids: string[]): Promise<ContactRow[]> {
  if (ids.length === 0) return [];
  return db.$queryRaw<ContactRow[]>`SELECT ${CONTACT_COLUMNS} FROM "Contact" WHERE "id" = ANY(${ids}::uuid[])`;
}
