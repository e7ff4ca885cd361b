// List and search: one page of the Account's contacts, newest first, filtered in SQL.
// searchTerm: each of the first ten words must match the start of the first or last name
// (case-insensitive) or, for a word of digits, digits anywhere in the phone. Indexes:
// name prefixes (btree, "C" collation, covering), all name prefixes (GIN, for several
// words) and the phone's 4-digit windows (GIN); see searchContacts.
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

/** Longest name prefix the name-prefixes index holds (migration 20261122030000_search_plans). */
const NAME_PREFIX_MAX = 12;

/** Window length of the phone-digits index (migration 20261122020000_phone_grams). */
const PHONE_GRAM = 4;

export async function listContacts(ctx: RequestContext, query: unknown): Promise<ContactPage> {
  const actor = requireActor(ctx);
  const q = parseInput(ListQuerySchema, query);
  const rows = await directSql(ctx.db.sql).$queryRaw<ContactRow[]>(listQuerySql(actor.accountId, q));
  const data = rows.slice(0, q.limit);
  return { data, nextToken: rows.length > q.limit ? encodeCursor(data[data.length - 1]) : null };
}

/**
 * The one SELECT behind a list page: up to limit + 1 rows (one more than the page tells
 * whether another page exists: the last page never carries a nextToken).
 */
export function listQuerySql(accountId: string, q: ListQuery): Prisma.Sql {
  const cursor = q.nextToken ? decodeCursor(q.nextToken) : null;
  const range = [Prisma.sql`"accountId" = ${accountId}::uuid`];
  if (cursor) range.push(Prisma.sql`("createdAt", "id") < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`);
  if (q.addedSince) range.push(Prisma.sql`"createdAt" >= ${q.addedSince}::timestamptz`);
  if (q.addedBefore) range.push(Prisma.sql`"createdAt" < ${q.addedBefore}::timestamptz`);
  const filters = attributeConditions(q);
  const take = q.limit + 1;
  if (q.searchTerm) return searchQuerySql(range, filters, q.searchTerm, take);
  return Prisma.sql`SELECT ${CONTACT_COLUMNS} FROM "Contact"
    WHERE ${Prisma.join([...range, ...filters], ' AND ')} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${take}`;
}

/**
 * Chooses the query shape by the words, so that no term depends on a lucky plan:
 * - exactly one name word of 3+ letters (with any digit words): index-only scans of the two
 *   covering name-prefix indexes find the candidates and check every condition; only the
 *   page's rows are read from the table;
 * - several name words: the name-prefixes GIN index intersects them to the few matches;
 * - otherwise (one or two letters, digits only): one or two letters match many names, so
 *   the newest-first scan fills a page quickly (with "C"-collation statistics the planner
 *   still sees a rare prefix); digits go through the phone-windows GIN index.
 */
function searchQuerySql(range: Prisma.Sql[], filters: Prisma.Sql[], term: string, take: number): Prisma.Sql {
  const words = searchWords(term);
  const names = words.filter((w) => w.kind === 'name');
  if (names.length === 1 && names[0].value.length >= 3) {
    const prefix = `${escapeLike(names[0].value)}%`;
    const digits = words.filter((w) => w.kind === 'digits').map((w) => Prisma.sql`"phoneDigits" LIKE ${`%${w.value}%`}`);
    const scope = Prisma.join([...range, ...filters, ...digits], ' AND ');
    return Prisma.sql`SELECT ${CONTACT_COLUMNS} FROM "Contact" WHERE "id" IN (
        SELECT "id" FROM (
          SELECT "id", "createdAt" FROM "Contact" WHERE ${scope} AND lower("firstName") COLLATE "C" LIKE ${prefix}
          UNION
          SELECT "id", "createdAt" FROM "Contact" WHERE ${scope} AND lower("lastName") COLLATE "C" LIKE ${prefix}
        ) AS matches ORDER BY "createdAt" DESC, "id" DESC LIMIT ${take})
      ORDER BY "createdAt" DESC, "id" DESC`;
  }
  return Prisma.sql`SELECT ${CONTACT_COLUMNS} FROM "Contact"
    WHERE ${Prisma.join([...range, ...filters, ...searchConditions(term)], ' AND ')} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${take}`;
}

function attributeConditions(q: ListQuery): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (q.status) out.push(Prisma.sql`"status"::text = ANY(${q.status}::text[])`);
  if (q.sourceKind) out.push(Prisma.sql`"sourceKind"::text = ANY(${q.sourceKind}::text[])`);
  if (q.assignedWorkflowId) out.push(Prisma.sql`"assignedWorkflowId" = ${q.assignedWorkflowId}::uuid`);
  return out;
}

/** The SQL conditions for a searchTerm: one per word (all must hold), plus the name-words pre-filter. */
function searchConditions(term: string): Prisma.Sql[] {
  const words = searchWords(term);
  return [...words.map(wordCondition), ...nameWordsCondition(words)];
}

/** The exact condition for one search word. */
function wordCondition(word: SearchWord): Prisma.Sql {
  if (word.kind === 'digits') return phoneDigitsCondition(word.value);
  const prefix = `${escapeLike(word.value)}%`;
  return Prisma.sql`(lower("firstName") COLLATE "C" LIKE ${prefix} OR lower("lastName") COLLATE "C" LIKE ${prefix})`;
}

/**
 * Several name words: one lookup in the name-prefixes GIN index, which intersects them.
 * Prefixes longer than the index holds are cut; the exact conditions still decide.
 */
function nameWordsCondition(words: SearchWord[]): Prisma.Sql[] {
  const names = words.filter((w) => w.kind === 'name');
  if (names.length < 2) return [];
  const prefixes = [...new Set(names.map((w) => w.value.slice(0, NAME_PREFIX_MAX)))];
  return [Prisma.sql`contact_name_prefixes("firstName", "lastName") @> ${prefixes}::text[]`];
}

/** Digits anywhere in the phone; 4+ digits go through the index of 4-digit windows. */
function phoneDigitsCondition(digits: string): Prisma.Sql {
  const like = Prisma.sql`"phoneDigits" LIKE ${`%${digits}%`}`;
  if (digits.length < PHONE_GRAM) return like;
  const grams = [...new Set(Array.from({ length: digits.length - PHONE_GRAM + 1 }, (_, i) => digits.slice(i, i + PHONE_GRAM)))];
  return Prisma.sql`(contact_phone_grams("phoneDigits") @> ${grams}::text[] AND ${like})`;
}

interface SearchWord {
  kind: 'name' | 'digits';
  value: string;
}

/** Splits a searchTerm into its first ten words; a word without letters but with digits searches the phone. */
export function searchWords(term: string): SearchWord[] {
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
