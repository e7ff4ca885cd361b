// List and search: one page of the Account's contacts, newest first, filtered in SQL.
// searchTerm: each of the first ten words must match the start of the first or last name
// (case-insensitive; btree on lower(name) text_pattern_ops, plus a name-words GIN index for
// several words) or, for a word of digits, digits anywhere in the phone (an index of the
// phone's 4-digit windows; trigrams for 3 digits).
import { Prisma } from '../../generated/prisma/client.js';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { decodeCursor, encodeCursor } from '../shared/cursor.js';
import { parseInput } from '../shared/validation.js';
import type { ContactRow } from './contact-rules.js';
import { ListQuerySchema, type ListQuery } from './contacts.inputs.js';
import { CONTACT_COLUMNS, directSql } from './contacts.store.js';

export interface ContactPage {
  data: ContactRow[];
  nextToken: string | null;
}

export const MAX_SEARCH_WORDS = 10;

export async function listContacts(ctx: RequestContext, query: unknown): Promise<ContactPage> {
  const actor = requireActor(ctx);
  const q = parseInput(ListQuerySchema, query);
  const cursor = q.nextToken ? decodeCursor(q.nextToken) : null;
  const conditions = [Prisma.sql`"accountId" = ${actor.accountId}::uuid`, ...filterConditions(q)];
  if (cursor) conditions.push(Prisma.sql`("createdAt", "id") < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`);
  // One row more than the page tells whether another page exists: the last page never
  // carries a nextToken.
  const rows = await directSql(ctx.db.sql).$queryRaw<ContactRow[]>`SELECT ${CONTACT_COLUMNS} FROM "Contact"
    WHERE ${Prisma.join(conditions, ' AND ')} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${q.limit + 1}`;
  const data = rows.slice(0, q.limit);
  return { data, nextToken: rows.length > q.limit ? encodeCursor(data[data.length - 1]) : null };
}

function filterConditions(q: ListQuery): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (q.status) out.push(Prisma.sql`"status"::text = ANY(${q.status}::text[])`);
  if (q.sourceKind) out.push(Prisma.sql`"sourceKind"::text = ANY(${q.sourceKind}::text[])`);
  if (q.addedSince) out.push(Prisma.sql`"createdAt" >= ${q.addedSince}::timestamptz`);
  if (q.addedBefore) out.push(Prisma.sql`"createdAt" < ${q.addedBefore}::timestamptz`);
  if (q.assignedWorkflowId) out.push(Prisma.sql`"assignedWorkflowId" = ${q.assignedWorkflowId}::uuid`);
  if (q.searchTerm) out.push(...searchConditions(q.searchTerm));
  return out;
}

/** The SQL conditions for a searchTerm: one per word, all must hold. */
export function searchConditions(term: string): Prisma.Sql[] {
  const words = searchWords(term);
  const conditions = words.map((word) => {
    if (word.kind === 'digits') return phoneDigitsCondition(word.value);
    const prefix = `${escapeLike(word.value)}%`;
    return Prisma.sql`(lower("firstName") LIKE ${prefix} OR lower("lastName") LIKE ${prefix})`;
  });
  // Several name words: a pre-filter the name-words GIN index can AND together. It matches
  // a superset (any word of either name), so the exact conditions above still decide.
  const indexable = words.filter((w) => w.kind === 'name' && /^[\p{L}\p{N}]+$/u.test(w.value));
  if (indexable.length >= 2) {
    const query = indexable.map((w) => `${w.value}:*`).join(' & ');
    conditions.push(Prisma.sql`to_tsvector('simple', coalesce("firstName", '') || ' ' || coalesce("lastName", '')) @@ to_tsquery('simple', ${query})`);
  }
  return conditions;
}

/** Digits anywhere in the phone; 4+ digits go through the index of 4-digit windows. */
function phoneDigitsCondition(digits: string): Prisma.Sql {
  const like = Prisma.sql`"phoneDigits" LIKE ${`%${digits}%`}`;
  if (digits.length < PHONE_GRAM) return like;
  const grams = [...new Set(Array.from({ length: digits.length - PHONE_GRAM + 1 }, (_, i) => digits.slice(i, i + PHONE_GRAM)))];
  return Prisma.sql`(contact_phone_grams("phoneDigits") @> ${grams}::text[] AND ${like})`;
}

/** Window length of the phone-digits index (migration 20261122020000_phone_grams). */
const PHONE_GRAM = 4;

/** Splits a searchTerm into its first ten words; a word without letters but with digits searches the phone. */
export function searchWords(term: string): Array<{ kind: 'name' | 'digits'; value: string }> {
  return term
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_SEARCH_WORDS)
    .map((word) => {
      const digits = word.replace(/\D/g, '');
      if (!/\p{L}/u.test(word) && digits.length > 0) return { kind: 'digits' as const, value: digits };
      return { kind: 'name' as const, value: word.toLowerCase() };
    });
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
