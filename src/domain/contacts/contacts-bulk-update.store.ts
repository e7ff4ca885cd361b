// The SQL of a bulk-update chunk: a window of the Account's contacts in (createdAt, id) order,
// each checked against the filter, and the matches read again and locked.
import { Prisma } from '../../generated/prisma/client.js';
import type { ContactRow } from './contacts.rules.js';
import type { BulkUpdateFilter } from './contacts.inputs.js';
import { CONTACT_COLUMNS } from './contacts.store.js';
import type { SqlClient } from '../../db/sql-client.js';

/** A contact of a chunk's window: its place in the order, and whether the filter matches it. */
export interface ScannedContact {
  createdAt: Date;
  id: string;
  matches: boolean | null;
}

function filterSql(accountId: string, filter: BulkUpdateFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`"accountId" = ${accountId}::uuid`];
  if (filter.firstName !== undefined) conditions.push(Prisma.sql`"firstName" = ${filter.firstName}`);
  if (filter.lastName !== undefined) conditions.push(Prisma.sql`"lastName" = ${filter.lastName}`);
  if (filter.phone !== undefined) conditions.push(Prisma.sql`"phone" = ${filter.phone}`);
  if (filter.sourceKind !== undefined) conditions.push(Prisma.sql`"sourceKind" = ${filter.sourceKind}::"SourceKind"`);
  if (filter.externalId !== undefined)
    conditions.push(Prisma.sql`"externalId" = ${filter.externalId.replace(/ +$/, '')}`);
  for (const { key, value } of filter.customFields ?? [])
    conditions.push(Prisma.sql`"customFields" ->> ${key} = ${value}`);
  return Prisma.join(conditions, ' AND ');
}

/** Up to `limit` of the Account's contacts after `after` (from the first without it), in (createdAt, id) order. */
export async function scanContacts(
  tx: SqlClient,
  accountId: string,
  filter: BulkUpdateFilter,
  after: { createdAt: string; id: string } | undefined,
  limit: number,
): Promise<ScannedContact[]> {
  const afterCursor = after
    ? Prisma.sql`AND ("createdAt", "id") > (${new Date(after.createdAt)}::timestamptz, ${after.id}::uuid)`
    : Prisma.empty;
  return tx.$queryRaw<ScannedContact[]>`
    SELECT "createdAt", "id", (${filterSql(accountId, filter)}) AS "matches" FROM "Contact"
    WHERE "accountId" = ${accountId}::uuid ${afterCursor} ORDER BY "createdAt", "id" LIMIT ${limit}`;
}

/** Of `ids`, the contacts the filter still matches, locked, in (createdAt, id) order. */
export async function lockMatchingContacts(
  tx: SqlClient,
  accountId: string,
  filter: BulkUpdateFilter,
  ids: string[],
): Promise<ContactRow[]> {
  if (ids.length === 0) return [];
  return tx.$queryRaw<ContactRow[]>`SELECT ${CONTACT_COLUMNS} FROM "Contact"
    WHERE ${filterSql(accountId, filter)} AND "id" = ANY(${ids}::uuid[]) ORDER BY "createdAt", "id" FOR UPDATE`;
}
