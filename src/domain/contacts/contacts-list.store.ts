// List and search: the SQL behind one page of the Account's contacts, newest first.
//
// The rule (what matches) is stated once, in ruleConditions: the Account, the page's cursor,
// addedSince/addedBefore, each attribute filter (status, sourceKind, assignedWorkflowId: the
// contact's value is one of the values sent) and, for a searchTerm, each of its first ten
// words (the start of the first or last name, case-insensitive, or for a word of digits,
// digits anywhere in the phone). Everything else here only chooses how to find those rows
// fast, whatever the planner's statistics say (it may have none: see
// docs/decisions/0014-plans-without-statistics.md); orderedRanges splits the same attribute filters into index ranges, one per
// value, which together hold exactly the rows they allow. test/api/list-shapes.test.ts checks
// every shape against the rule.
import { Prisma } from '../../generated/prisma/client.js';
import { decodeCursor } from '../shared/cursor.js';
import type { ContactRow } from './contacts.rules.js';
import { CONTACT_STATUSES, SOURCE_KINDS, type ListQuery } from './contacts.inputs.js';
import { CONTACT_COLUMNS } from './contacts.store.js';
import type { SqlClient } from '../../db/sql-client.js';

export const MAX_SEARCH_WORDS = 10;

/** Longest name prefix among the search keys (migration 20261214000000_search_keys_one_index). */
const NAME_PREFIX_MAX = 8;

/** Window length of the phone's search keys for words of 4 digits or more (they also hold 2-digit windows: migration 20261214000000_search_keys_one_index). */
const PHONE_GRAM = 4;

/**
 * A search reads its term's matches through the term's index when that index holds fewer
 * than the probe's limit of rows for it (see PROBE_ROWS_PER_ROW below); otherwise it walks the list in order,
 * reading at most WALK_ROWS_PER_ROW contacts per row of the page (see searchQuerySql).
 * Reading c candidates costs c × R walked rows, and the walk needs take × N / c rows (N
 * contacts), so reading pays below c = sqrt(take × N / R), and the limit is that:
 * - while the table is read from memory (up to about a million contacts), R is about
 *   READ_IN_MEMORY: "garc" at a million (3,300 candidates) is read in 20 ms where its walk
 *   took 47; "john" at 100,000 (2,000 candidates) walks in 8 ms where reading took 25;
 * - past that, a candidate costs more (about WALK_TO_READ at ten million), and counting reads a
 *   row per candidate too (without the visibility map, even from a btree), so a count that
 *   reaches its limit is costly: at 100 per row, a 4-digit window of 9,000 numbers in ten
 *   million spent 57 ms counting 5,100 of them, and then read them all anyway. The limit
 *   shrinks with the table from MEMORY_CONTACTS on, to PROBE_ROWS_PER_ROW per row of the page
 *   at ten million;
 * - never below PROBE_ROWS_PER_ROW nor above PROBE_ROWS_PER_ROW_MAX per row of the page.
 */
const PROBE_ROWS_PER_ROW = 10;
const PROBE_ROWS_PER_ROW_MAX = 100;
const READ_IN_MEMORY = 1.5;
const MEMORY_CONTACTS = 1_000_000;
/**
 * The probe's limit for search keys that hold the filter's values too: every candidate then
 * has them, and the candidates are read in table order (a bitmap), where a walk along the
 * filter's range reads a row per entry in list order. At ten million contacts, a 4-digit
 * window with a status of 30% and a source of 25% has about a thousand candidates; stopping
 * the count at 10 per row sent it walking 90,000 rows.
 */
const FILTERED_PROBE_ROWS_PER_ROW = 160;
/**
 * A filter is rare when it keeps fewer than 1/FILTER_SHARE_RARE of the Account's newest
 * FILTER_SHARE_SAMPLE contacts: only then are its values among the keys read (see matchesByIndex).
 */
const FILTER_SHARE_SAMPLE = 200;
const FILTER_SHARE_RARE = 8;
const WALK_ROWS_PER_ROW = 200;
/** The longer walk, for a term the first walk found in at least 1/FAR_SHARE of a page. */
const FAR_ROWS_PER_ROW = 2000;
const FAR_SHARE = 4;
/** What reading one candidate through an index costs, in rows walked (see farPays). */
const WALK_TO_READ = 6;
/** The short walk before counting a term in a GIN index (see searchQuerySql). */
const HEAD_ROWS_PER_ROW = 20;
/**
 * A short walk that found at least 1/HEAD_DENSE_SHARE of a page is not followed by a count:
 * its term is dense enough for the walk to fill the page within its budget. Unless the term's
 * candidates, estimated from that share, are fewer than the probe's limit (see denseUncounted).
 */
const HEAD_DENSE_SHARE = 10;

/**
 * At most this many ordered ranges are merged for one page. Each costs an index descent and
 * some planning; a filter that would need more (many statuses at once) is checked row by row
 * along a coarser range instead.
 */
const MAX_RANGES = 40;

/** The rows of the page `q` asks for, newest first: up to limit + 1 of them (see listQuerySql). */
export async function findContactPage(db: SqlClient, accountId: string, q: ListQuery): Promise<ContactRow[]> {
  return db.$queryRaw<ContactRow[]>(listQuerySql(accountId, q));
}

/**
 * The one SELECT behind a list page (REST, CSV, GraphQL and the MCP search tool): up to
 * limit + 1 rows (one more than the page tells whether another page exists: the last page
 * never carries a nextToken).
 */
export function listQuerySql(accountId: string, q: ListQuery): Prisma.Sql {
  const take = q.limit + 1;
  const range = rangeConditions(accountId, q);
  const filters = attributeFilters(q);
  const ranges = orderedRanges(filters);
  if (!q.searchTerm) return rowsOf(mergedRanges(ranges, range, ORDER_KEYS, take), take);
  const words = searchWords(q.searchTerm);
  if (!namesCanMatch(words)) return Prisma.sql`SELECT ${CONTACT_COLUMNS} FROM "Contact" WHERE false`;
  return searchQuerySql(accountId, ranges, range, filters, words, take);
}

/**
 * Whether any contact could match the term's name words. Each must start the first or the
 * last name, and the words that start one name are all prefixes of it, so of one another: the
 * words must fall into at most two such chains ("jo john smi" can match; "a b c" cannot).
 * A term that cannot match is answered without reading anything: otherwise its search would
 * look for the page through the whole Account.
 */
function namesCanMatch(words: SearchWord[]): boolean {
  return chainHeads(words).length <= 2;
}

/**
 * Every contact of the Account a list filter matches, as one condition (no page, no order): for
 * operations on all the matches (stopping a workflow's enrollments). The same rule as a page's.
 */
export function listFilterCondition(accountId: string, filter: Omit<ListQuery, 'limit' | 'nextToken'>): Prisma.Sql {
  const q = { ...filter, limit: 1 } as ListQuery;
  const words = q.searchTerm ? searchWords(q.searchTerm) : [];
  return Prisma.join(ruleConditions(rangeConditions(accountId, q), attributeFilters(q), words), ' AND ');
}

// ---------------------------------------------------------------------------------------------
// The rule

type Column = 'status' | 'sourceKind' | 'assignedWorkflowId';

/** One attribute filter of the rule: the contact's value is one of `values`. */
interface AttributeFilter {
  column: Column;
  values: readonly string[];
}

const COLUMNS: Record<
  Column,
  { sql: Prisma.Sql; type: Prisma.Sql; domain: readonly string[] | null; nullable: boolean }
> = {
  status: {
    sql: Prisma.raw('"status"'),
    type: Prisma.raw('"ContactStatus"'),
    domain: CONTACT_STATUSES,
    nullable: true,
  },
  sourceKind: {
    sql: Prisma.raw('"sourceKind"'),
    type: Prisma.raw('"SourceKind"'),
    domain: SOURCE_KINDS,
    nullable: false,
  },
  assignedWorkflowId: {
    sql: Prisma.raw('"assignedWorkflowId"'),
    type: Prisma.raw('uuid'),
    domain: null,
    nullable: true,
  },
};

function attributeFilters(q: ListQuery): AttributeFilter[] {
  const out: AttributeFilter[] = [];
  if (q.status) out.push({ column: 'status', values: [...new Set(q.status)] });
  if (q.sourceKind) out.push({ column: 'sourceKind', values: [...new Set(q.sourceKind)] });
  if (q.assignedWorkflowId) out.push({ column: 'assignedWorkflowId', values: [q.assignedWorkflowId] });
  return out;
}

/** The Account, the cursor and the dates: a range of every ordered index. */
function rangeConditions(accountId: string, q: ListQuery): Prisma.Sql[] {
  const cursor = q.nextToken ? decodeCursor(q.nextToken) : null;
  const range = [Prisma.sql`"accountId" = ${accountId}::uuid`];
  if (cursor) range.push(Prisma.sql`("createdAt", "id") < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`);
  if (q.addedSince) range.push(Prisma.sql`"createdAt" >= ${q.addedSince}::timestamptz`);
  if (q.addedBefore) range.push(Prisma.sql`"createdAt" < ${q.addedBefore}::timestamptz`);
  return range;
}

function filterCondition(f: AttributeFilter): Prisma.Sql {
  const c = COLUMNS[f.column];
  // Sent as text[]: PGlite has no serializer for an array of an enum it does not know.
  return Prisma.sql`${c.sql} = ANY(${f.values}::text[]::${c.type}[])`;
}

/** Every condition of the rule: what a page's rows must satisfy. */
function ruleConditions(range: Prisma.Sql[], filters: AttributeFilter[], words: SearchWord[]): Prisma.Sql[] {
  return [...range, ...filters.map(filterCondition), ...words.map(wordCondition)];
}

/** The exact condition for one search word. */
function wordCondition(word: SearchWord): Prisma.Sql {
  if (word.kind === 'digits') return Prisma.sql`"phoneDigits" LIKE ${`%${word.value}%`}`;
  const prefix = `${escapeLike(word.value)}%`;
  return Prisma.sql`(lower("firstName") COLLATE "C" LIKE ${prefix} OR lower("lastName") COLLATE "C" LIKE ${prefix})`;
}

// ---------------------------------------------------------------------------------------------
// Ordered ranges: the rows of a filter, newest first, straight from an index

/**
 * Ranges of indexes that keep each Account's contacts in list order once some columns are
 * fixed (migration 20261126000000_list_ranges): keys ("accountId", ...before, "createdAt"
 * DESC, "id" DESC, ...after). With every `before` column fixed to one value, one range of the
 * index is a run of contacts newest first; `after` columns fixed too are checked on the
 * index entries along that run, without reading the rows. Tried in this order; the first
 * whose first column is filtered is used, provided its other `before` columns are filtered
 * or take each of their values (sourceKind: seven; status: nineteen, and NULL, whose range
 * is a partial index of its own), in at most MAX_RANGES ranges.
 */
const ORDERED_INDEXES: Array<{ before: Column[]; after: Column[] }> = [
  { before: ['assignedWorkflowId'], after: ['status', 'sourceKind'] },
  { before: ['status', 'sourceKind'], after: [] },
  { before: ['sourceKind', 'status'], after: [] },
  { before: [], after: [] },
];

/** One range: each of its columns fixed to one value (null: IS NULL). */
type Range = Array<[Column, string | null]>;

interface OrderedRanges {
  ranges: Range[];
  /** The filters the ranges do not decide, checked row by row along them. */
  residual: AttributeFilter[];
}

/** The ranges that together hold exactly the rows of the filters they decide. */
function orderedRanges(filters: AttributeFilter[]): OrderedRanges {
  const byColumn = new Map(filters.map((f) => [f.column, f.values]));
  for (const { before, after } of ORDERED_INDEXES) {
    if (before.length > 0 && !byColumn.has(before[0])) continue;
    const columns = [...before, ...after.filter((c) => byColumn.has(c))];
    const choices = columns.map((column) => {
      const { domain, nullable } = COLUMNS[column];
      return byColumn.get(column) ?? (domain ? [...domain, ...(nullable ? [null] : [])] : null);
    });
    const known = choices.filter((c) => c !== null);
    if (known.length < choices.length) continue;
    if (known.reduce((n, c) => n * c.length, 1) > MAX_RANGES) continue;
    const ranges = known.reduce<Range[]>(
      (acc, values, i) => acc.flatMap((r) => values.map((v) => [...r, [columns[i], v] as [Column, string | null]])),
      [[]],
    );
    return { ranges, residual: filters.filter((f) => !columns.includes(f.column)) };
  }
  throw new Error('unreachable: the newest-first index serves every filter');
}

const ORDER_KEYS = Prisma.raw('"id", "createdAt"');
const ORDER_BY = Prisma.raw('"createdAt" DESC, "id" DESC');

/**
 * Up to `take` rows of the ranges (plus `extra` conditions), merged newest first. Each range
 * is an index scan in list order under its own LIMIT, so the merge reads each only as far as
 * the page needs.
 *
 * LIMIT (SELECT n), not LIMIT n: the planner cannot read the subquery's value, so it plans
 * for a tenth of the rows it expects and takes the scan that starts returning rows at once
 * (the index in list order). With a plain n it reads and sorts the whole range whenever it
 * expects that range to hold fewer than n rows, as it does without statistics (to it, an
 * Account then holds 0.5% of the table, and a workflow's contacts 0.5% of those).
 */
function mergedRanges(
  plan: OrderedRanges,
  range: Prisma.Sql[],
  columns: Prisma.Sql,
  n: number,
  extra: Prisma.Sql[] = [],
): Prisma.Sql {
  const take = Prisma.sql`(SELECT ${n}::int)`;
  const common = [...range, ...plan.residual.map(filterCondition), ...extra];
  const scans = plan.ranges.map((r) => {
    const keys = r.map(([column, value]) =>
      value === null
        ? Prisma.sql`${COLUMNS[column].sql} IS NULL`
        : Prisma.sql`${COLUMNS[column].sql} = ${value}::${COLUMNS[column].type}`,
    );
    return Prisma.sql`SELECT ${columns} FROM "Contact" WHERE ${Prisma.join([...common, ...keys], ' AND ')} ORDER BY ${ORDER_BY} LIMIT ${take}`;
  });
  if (scans.length === 1) return scans[0];
  return Prisma.sql`SELECT ${columns} FROM (${Prisma.join(
    scans.map((s) => Prisma.sql`(${s})`),
    ' UNION ALL ',
  )}) AS ranges
    ORDER BY ${ORDER_BY} LIMIT ${take}`;
}

/**
 * The page's rows, newest first, for a SELECT of at most `take` ids (in any order). The
 * constant LIMIT tells the planner how few they are (under LIMIT (SELECT n) it expects a
 * tenth of the range), so that it fetches them by primary key.
 */
function rowsOf(ids: Prisma.Sql, take: number): Prisma.Sql {
  return Prisma.sql`SELECT ${CONTACT_COLUMNS} FROM "Contact" WHERE "id" IN (SELECT "id" FROM (${ids}) AS page LIMIT ${take})
    ORDER BY ${ORDER_BY} LIMIT ${take}`;
}

// ---------------------------------------------------------------------------------------------
// Search

/**
 * A searchTerm is found in one statement, by whichever way costs little for it:
 * - few candidates: when the term's index holds fewer rows for it than the probe's limit
 *   (counted in the index, stopping there; see PROBE_ROWS_PER_ROW), every match is read through
 *   that index and sorted (matchesByIndex). "garcia", "zbigniew", "john smith", most digits.
 * - otherwise, the walk: the filter's ordered ranges, newest first, for at most
 *   WALK_ROWS_PER_ROW rows per row of the page, keeping those that match every word. A
 *   common term ("john", "smith", "jo") fills the page there, and the more common it is, the
 *   sooner.
 * - a walk that reads its whole budget without filling the page but found at least a
 *   quarter of it goes on, from the start, to FAR_ROWS_PER_ROW rows per row: the term is
 *   common enough to fill the page there ("kim" in ten million contacts: 42 of 51 in the
 *   first budget). Reading its candidates instead would cost a row fetch each, in name order
 *   (30,000 at that size). A row walked costs about a sixth of a candidate fetched, so a
 *   rarer term (a 4-digit window found 7 times in the first budget: 7,000 candidates) is
 *   cheaper read through its index.
 * - only when the walk finds less than that, or the longer walk too runs out (the term is
 *   common in the Account but rare in the filter's rows), are the matches read through the
 *   index after all; they are then few in the filter's rows.
 * Counting candidates in a GIN index (several words, or phone digits) reads the term's whole
 * posting list, however large (a 4-digit window every UK mobile has: a tenth of the table),
 * so such a term first walks HEAD_ROWS_PER_ROW rows per row of the page, which a common one
 * fills, and counts only if it found less than a tenth of the page there (HEAD_DENSE_SHARE):
 * a term that dense fills the page within the walk's budget, and its candidates are too many
 * to count (beyond work_mem, the bitmap turns lossy and every row of its pages is checked
 * again: 1.6 s for a 4-digit window in 170,000 of ten million numbers). Its first candidates
 * are read once, as rows (the sample): fewer than the sample's limit are all of them, and the
 * page is taken from those rows. A head walk that found the term sparse (fewer hits than would
 * let the walk and the longer walk fill the page) skips the sample and both walks: the index
 * read comes next (sampling first intersected the term's keys twice: 118 ms, of which 23 in
 * the sample, for "r be" at ten million contacts).
 * A term no index serves (digit words of one digit only) is walked without a budget: such a
 * word is in most numbers.
 * Exactly one stage answers: the first whose walk filled the page or reached the end of the
 * list, or the index read.
 */
function searchQuerySql(
  accountId: string,
  plan: OrderedRanges,
  range: Prisma.Sql[],
  filters: AttributeFilter[],
  words: SearchWord[],
  take: number,
): Prisma.Sql {
  const exact = words.map(wordCondition);
  const indexed = matchesByIndex(accountId, words, filters, ruleConditions(range, filters, words), take);
  if (!indexed) return rowsOf(mergedRanges(plan, range, WALK_COLUMNS, take, exact), take);
  const hit = Prisma.sql`coalesce(${Prisma.join(exact, ' AND ')}, false)`;
  // A walk of `budget` rows at most, run only when `gate` holds: its hits, newest first, up to
  // the page, and the budget's last row ("rn" = budget), present only if it read the whole budget.
  const walk = (budget: number, gate: Prisma.Sql) => Prisma.sql`SELECT "id", "hit", "rn" FROM (
        SELECT "id", "createdAt", ${hit} AS "hit", row_number() OVER (ORDER BY ${ORDER_BY}) AS "rn"
        FROM (${mergedRanges(plan, range, WALK_COLUMNS, budget)}) AS scope WHERE ${gate}
      ) AS walked WHERE "hit" OR "rn" = ${budget} ORDER BY ${ORDER_BY} LIMIT ${take + 1}`;
  // Whether a walk that ran answers: it filled the page, or the list ended within its budget.
  const answers = (cte: string, budget: number) =>
    Prisma.sql`(SELECT count(*) FILTER (WHERE "hit") >= ${take} OR NOT coalesce(bool_or("rn" = ${budget}), false) FROM ${Prisma.raw(cte)})`;
  const hits = (cte: string) => Prisma.sql`(SELECT count(*) FILTER (WHERE "hit") FROM ${Prisma.raw(cte)})`;
  const head = indexed.countsAll === false ? 0 : take * HEAD_ROWS_PER_ROW;
  // Whether the short head walk runs (and, when it finds the term sparse, the walk is skipped).
  const headRuns = typeof indexed.countsAll === 'boolean' ? Prisma.sql`${indexed.countsAll}` : indexed.countsAll;
  const budget = take * WALK_ROWS_PER_ROW;
  const far = take * FAR_ROWS_PER_ROW;
  // A sampled term's first candidates are read once (when the head walk did not answer and did
  // not find it dense): fewer than the sample's limit are all of them, and its page is read there.
  const sampled = indexed.sample;
  const sampling = sampled?.when ?? Prisma.sql`${Boolean(sampled)}`;
  // A sparse term goes to the index read whatever the sample holds (it reads every candidate
  // once), so it is not sampled: the sample would intersect the term's keys a second time.
  const few = sampled
    ? Prisma.sql`CASE WHEN ${sampling} THEN NOT "sparse" AND (SELECT count(*) FROM sampled) < ${sampled.limit} ELSE ${indexed.few ?? Prisma.sql`false`} END`
    : (indexed.few ?? Prisma.sql`false`);
  const sampleCte = sampled
    ? Prisma.sql`sampled AS MATERIALIZED (SELECT * FROM (${sampled.rows}) AS s
        WHERE (SELECT NOT "headAnswers" AND NOT "sparse" AND NOT "dense" FROM s1)),`
    : Prisma.empty;
  const fromSample = sampled
    ? Prisma.sql`UNION ALL SELECT "id" FROM (${sampled.matches(Prisma.raw('sampled'))}) AS sample_page WHERE (SELECT "sampleAnswers" FROM s4)`
    : Prisma.empty;
  const shareCte = indexed.share ? Prisma.sql`filter_share AS MATERIALIZED (${indexed.share}),` : Prisma.empty;
  // Each stage's flags are computed once (MATERIALIZED), and a stage's scan runs only when its
  // gate holds (a one-time filter): a probe or walk never runs after a stage that answered.
  return Prisma.sql`WITH estimate AS MATERIALIZED (${estimate(take)}), ${shareCte} head AS MATERIALIZED (${walk(head, headRuns)}),
    s0 AS MATERIALIZED (SELECT ${headRuns} AND ${answers('head', head)} AS "headAnswers"),
    s1 AS MATERIALIZED (SELECT "headAnswers",
      NOT "headAnswers" AND ${headRuns} AND ${FAR_SHARE * (budget / Math.max(head, 1))} * ${hits('head')} < ${take} AS "sparse",
      NOT "headAnswers" AND ${headRuns} AND ${denseUncounted(hits('head'), head, take)} AS "dense" FROM s0),
    ${sampleCte}
    s2a AS MATERIALIZED (SELECT "headAnswers", NOT "headAnswers" AND NOT "dense" AND ${few} AS "few",
      "sparse" FROM s1),
    s2 AS MATERIALIZED (SELECT *, "few" AND ${sampling} AS "sampleAnswers" FROM s2a),
    walk AS MATERIALIZED (${walk(budget, Prisma.sql`(SELECT NOT "headAnswers" AND NOT "few" AND NOT "sparse" FROM s2)`)}),
    s3 AS MATERIALIZED (SELECT "headAnswers", "few", "sampleAnswers", NOT "headAnswers" AND NOT "few" AND NOT "sparse" AND ${answers('walk', budget)} AS "walkAnswers",
      NOT "headAnswers" AND NOT "few" AND NOT "sparse" AND NOT ${answers('walk', budget)} AND ${FAR_SHARE} * ${hits('walk')} >= ${take}
        AND ${farPays(hits('walk'), take, budget)} AS "goFar" FROM s2),
    far AS MATERIALIZED (${walk(far, Prisma.sql`(SELECT "goFar" FROM s3)`)}),
    s4 AS MATERIALIZED (SELECT s3.*, "goFar" AND ${answers('far', far)} AS "farAnswers" FROM s3)
    ${rowsOf(
      Prisma.sql`SELECT "id" FROM head WHERE "hit" AND (SELECT "headAnswers" FROM s4)
      UNION ALL SELECT "id" FROM walk WHERE "hit" AND (SELECT "walkAnswers" FROM s4)
      UNION ALL SELECT "id" FROM far WHERE "hit" AND (SELECT "farAnswers" FROM s4)
      ${fromSample}
      UNION ALL SELECT "id" FROM (${indexed.matches}) AS found
      WHERE (SELECT NOT "headAnswers" AND NOT "sampleAnswers" AND NOT "walkAnswers" AND NOT "farAnswers" FROM s4)`,
      take,
    )}`;
}

/**
 * Whether the longer walk costs less than reading the term's candidates, from the first walk's
 * `hits` in `budget` rows: the walk needs about take × budget / hits rows to fill the page, and
 * the Account holds about N × hits / budget candidates, of which each read costs as much as
 * WALK_TO_READ rows walked. N is Contact's row count as PostgreSQL last estimated it (pg_class;
 * an index build or ANALYZE sets it): every Account's rows, so a small Account beside a big one
 * walks (its walk ends with its list). Unknown (never estimated): the walk goes on. At ten
 * million contacts a walk that found 10 of its 10,200 rows goes far; at 100,000, one that
 * found 94 (a 4-digit window in a thousand numbers walked 18,585 rows there, 28 ms on PGlite,
 * where its candidates are read in a few).
 */
function farPays(hits: Prisma.Sql, take: number, budget: number): Prisma.Sql {
  return Prisma.sql`(SELECT "n" < 0 OR ${hits}::float8 * ${hits}::float8 * ${WALK_TO_READ} * "n" > ${take * budget * budget}::float8
    FROM estimate)`;
}

/**
 * Whether a head walk that found `hits` in `head` rows found the term too dense to count or
 * sample (HEAD_DENSE_SHARE), its candidates estimated as N × hits / head (N as in farPays).
 * Fewer than the probe's limit are sampled all the same: the newest rows can be much denser
 * than the rest. At 100,000 contacts "1207" had 14 hits in the newest 1,020 rows, only 40 in
 * the 10,200 of the walk, and about 400 candidates, which the sample reads in a few
 * milliseconds where the walk took 15 before they were read anyway. Unknown N: dense.
 */
function denseUncounted(hits: Prisma.Sql, head: number, take: number): Prisma.Sql {
  return Prisma.sql`(SELECT ${HEAD_DENSE_SHARE} * ${hits} >= ${take} AND ("n" < 0 OR ${hits}::float8 * "n" >= ${head} * "probe")
    FROM estimate)`;
}

/**
 * The one row (CTE estimate) of Contact's row count as PostgreSQL last estimated it ("n"; -1:
 * never) and the probe's limit for a page of `take` ("probe": see PROBE_ROWS_PER_ROW; at an
 * unknown size, the smallest).
 */
function estimate(take: number): Prisma.Sql {
  return Prisma.sql`SELECT "n", (CASE WHEN "n" < 0 THEN ${take * PROBE_ROWS_PER_ROW}
      ELSE greatest(${take * PROBE_ROWS_PER_ROW}, least(${take * PROBE_ROWS_PER_ROW_MAX}, sqrt(${take / READ_IN_MEMORY}::float8 * "n"))
        * least(1, ${MEMORY_CONTACTS}::float8 / greatest("n", 1))) END)::int AS "probe"
    FROM (SELECT coalesce((SELECT "reltuples" FROM pg_class WHERE "oid" = '"Contact"'::regclass), -1)::float8 AS "n") AS contacts`;
}

/** The probe's limit, read from the CTE estimate. */
const PROBE = Prisma.raw('(SELECT "probe" FROM estimate)');

/** What a walk reads of each row: its place in the list and what the words are checked on. */
const WALK_COLUMNS = Prisma.raw('"id", "createdAt", "firstName", "lastName", "phoneDigits"');

interface IndexedSearch {
  /**
   * True when the term's index holds fewer than `probe` rows for it (before the rest of the
   * rule): reading them all costs little. Counted up to `probe` only; null: not worth asking
   * (a word of one or two letters starts thousands of names; 2-digit windows).
   */
  few: Prisma.Sql | null;
  /**
   * In place of `few`: the rows (RULE_COLUMNS) of the term's first `limit` candidates, read
   * once. Fewer than `limit` are all of them: the term is then few, and `matches(from)` reads
   * its page from those rows instead of reading the index again.
   */
  sample?: {
    rows: Prisma.Sql;
    limit: Prisma.Sql | number;
    matches: (from: Prisma.Sql) => Prisma.Sql;
    when?: Prisma.Sql;
  };
  /** A statement whose one row's "rare" tells whether the filters keep few of the Account's contacts (CTE filter_share). */
  share?: Prisma.Sql;
  /** The ids of the page's matches, from what the index holds. */
  matches: Prisma.Sql;
  /**
   * Counting reads every entry of the term (a GIN bitmap), not only up to the probe's limit:
   * the short head walk comes first (see searchQuerySql). A condition: only when it holds.
   */
  countsAll: boolean | Prisma.Sql;
}

/** The GIN index of every contact's search keys (migration 20261214000000_search_keys_one_index). */
const SEARCH_KEYS = Prisma.raw(
  'contact_search_keys("accountId", "firstName", "lastName", "phoneDigits", "status", "sourceKind", "assignedWorkflowId")',
);

/** The tag of each kind of term among the search keys (the same migration). */
const KEY_TAGS = { name: 'n', phone: 'p', status: 's', sourceKind: 'k', assignedWorkflowId: 'w' } as const;

/**
 * Every match of the term through an index, newest first, up to `take`; null when no index
 * serves the term. Each index is read with only the conditions it decides, in a subquery
 * of its own (OFFSET 0 keeps the planner from merging it into the outer query); the whole
 * rule is then checked on what it found. Left free, the planner (without statistics, an
 * Account looks a few thousand rows big to it) ANDs in a bitmap of every contact of the
 * Account or of a date range, which costs more than all the matches.
 * - name words of one chain (one name, or prefixes of one name) and no attribute filter: the
 *   two btree indexes of the lowered names, in the head's ranges (byNamePrefix);
 * - otherwise the GIN index of search keys, which intersects, before any row is read, every
 *   name head (by its first eight characters: a longer word's rest is checked on the row),
 *   every 4-digit window of the digit words, the 2-digit windows of digit words of two or
 *   three digits (a number written in short groups), and each attribute filter (one of its
 *   values). A term of 2-digit windows only is not counted: each window is in about a tenth
 *   of the numbers, and the walk decides whether the term is common (see searchQuerySql).
 */
function matchesByIndex(
  accountId: string,
  words: SearchWord[],
  filters: AttributeFilter[],
  rule: Prisma.Sql[],
  take: number,
): IndexedSearch | null {
  const plain = byKeys(accountId, words, [], rule, take);
  if (!plain || filters.length === 0) return plain;
  const keyed = byKeys(accountId, words, filters, rule, take);
  if (!keyed?.sample) return plain;
  // A common filter is left out of the keys: intersecting with its long posting lists costs more
  // (35 ms for a last name's 12,000 entries and two sources of 60%) than checking it on the rows.
  // Its share is taken among the Account's newest contacts (a constant LIMIT: under a parameter,
  // a generic plan read the whole Account from the status index, which holds both filters, and sorted it).
  const rare = Prisma.sql`(SELECT "rare" FROM filter_share)`;
  const newest = Prisma.sql`SELECT ${RULE_COLUMNS} FROM "Contact" WHERE "accountId" = ${accountId}::uuid
    ORDER BY ${ORDER_BY} LIMIT ${Prisma.raw(String(FILTER_SHARE_SAMPLE))}`;
  const both = Prisma.join(filters.map(filterCondition), ' AND ');
  return {
    share: Prisma.sql`SELECT ${FILTER_SHARE_RARE} * count(*) FILTER (WHERE ${both}) < count(*) AS "rare" FROM (${newest}) AS newest`,
    few: plain.few,
    sample: {
      rows: plain.sample
        ? Prisma.sql`SELECT * FROM (${keyed.sample.rows}) AS k WHERE ${rare} UNION ALL SELECT * FROM (${plain.sample.rows}) AS p WHERE NOT ${rare}`
        : Prisma.sql`SELECT * FROM (${keyed.sample.rows}) AS k WHERE ${rare}`,
      limit: plain.sample
        ? Prisma.sql`(CASE WHEN ${rare} THEN ${keyed.sample.limit}::int ELSE ${plain.sample.limit}::int END)`
        : keyed.sample.limit,
      matches: keyed.sample.matches,
      when: plain.sample ? Prisma.sql`true` : rare,
    },
    matches: Prisma.sql`SELECT m."id", m."createdAt" FROM (SELECT ${rare} AS "rare") AS pick,
      LATERAL (SELECT "id", "createdAt" FROM (${keyed.matches}) AS k WHERE pick."rare"
        UNION ALL SELECT "id", "createdAt" FROM (${plain.matches}) AS p WHERE NOT pick."rare") AS m`,
    countsAll: plain.countsAll === false ? rare : plain.countsAll,
  };
}

/** The term's matches through the indexes, with the filters' values among the search keys (see matchesByIndex). */
function byKeys(
  accountId: string,
  words: SearchWord[],
  filters: AttributeFilter[],
  rule: Prisma.Sql[],
  take: number,
): IndexedSearch | null {
  const heads = chainHeads(words);
  const grams = digitWindows(words, PHONE_GRAM);
  if (grams.length === 0 && heads.length === 1 && filters.length === 0)
    return byNamePrefix(accountId, heads[0], rule, take);
  // Each term hashed with its Account (contact_search_key), so only this Account's entries are read.
  const keys = (terms: string[]) =>
    Prisma.sql`ARRAY(SELECT contact_search_key(${accountId}::uuid, "term") FROM unnest(${terms}::text[]) AS "term")`;
  const shortDigits = words.filter((w) => w.kind === 'digits' && w.value.length < PHONE_GRAM);
  const pairs = digitWindows(shortDigits, 2);
  const terms = [
    ...new Set(heads.map((head) => KEY_TAGS.name + head.slice(0, NAME_PREFIX_MAX))),
    ...[...grams, ...pairs].map((window) => KEY_TAGS.phone + window),
  ];
  if (terms.length === 0) return null;
  const where = Prisma.join(
    [
      Prisma.sql`${SEARCH_KEYS} @> ${keys(terms)}`,
      ...filters.map((f) => Prisma.sql`${SEARCH_KEYS} && ${keys(f.values.map((v) => KEY_TAGS[f.column] + v))}`),
    ],
    ' AND ',
  );
  const onlyPairs = heads.length === 0 && grams.length === 0;
  // With a filter among the keys, every candidate has the filter's value: they are read in
  // bulk (a bitmap, in table order) rather than walked, up to more of them.
  const limit = filters.length > 0 ? take * FILTERED_PROBE_ROWS_PER_ROW : PROBE;
  const gin: IndexedSearch = {
    few: null,
    sample: onlyPairs
      ? undefined
      : {
          rows: Prisma.sql`SELECT ${RULE_COLUMNS} FROM "Contact" WHERE ${where} LIMIT (SELECT ${limit}::int)`,
          limit,
          matches: (from) =>
            Prisma.sql`SELECT "id", "createdAt" FROM ${from} AS sampled WHERE ${Prisma.join(rule, ' AND ')} ORDER BY ${ORDER_BY} LIMIT ${take}`,
        },
    matches: Prisma.sql`${candidates(where, rule)} ORDER BY ${ORDER_BY} LIMIT ${take}`,
    countsAll: true,
  };
  // Two names go through the GIN's intersection, sampled like any other keys. The btree ranges
  // of the rarer head would hold fewer candidates only when that head is longer than the GIN's
  // eight characters and its first eight are much more common than all of it; embedding that
  // choice doubled the statement, and PGlite plans every statement anew (4 to 7 ms of planning
  // for 3 to 6 of execution at 100,000 contacts).
  return gin;
}

/**
 * The term's matches through the first- and last-name prefix indexes, for one name word (the
 * head of its chain): every match starts its first or last name with it, so its two ranges hold
 * them all, and each candidate's row is read and checked against the whole rule. The ranges are
 * counted up to the probe's limit (the last names only if the first names leave room). A head of
 * one or two letters is not counted (it starts thousands of names): the walk decides whether
 * the term is common.
 */
function byNamePrefix(accountId: string, head: string, rule: Prisma.Sql[], take: number): IndexedSearch {
  const [first, last] = (['firstName', 'lastName'] as const).map(
    (column) =>
      Prisma.sql`"accountId" = ${accountId}::uuid AND ${prefixRange(Prisma.raw(`lower("${column}") COLLATE "C"`), head)}`,
  );
  const count = Prisma.sql`(SELECT CASE WHEN "n" < ${PROBE} THEN "n" + ${countUpTo(last)} ELSE "n" END
      FROM (SELECT ${countUpTo(first)} AS "n" OFFSET 0) AS f)`;
  return {
    few: head.length < 3 ? null : Prisma.sql`${count} < ${PROBE}`,
    matches: Prisma.sql`SELECT "id", "createdAt" FROM (${candidates(first, rule)} UNION ${candidates(last, rule)}) AS matches
      ORDER BY ${ORDER_BY} LIMIT ${take}`,
    countsAll: false,
  };
}

/**
 * The longest name word of each chain of the term (see namesCanMatch: at most two once the term
 * can match). Every name word of a chain is a prefix of its head, so a contact matching the head
 * matches its whole chain.
 */
function chainHeads(words: SearchWord[]): string[] {
  const heads: string[] = [];
  const names = [...new Set(words.filter((w) => w.kind === 'name').map((w) => w.value))];
  for (const word of names.sort((a, b) => b.length - a.length))
    if (!heads.some((head) => head.startsWith(word))) heads.push(word);
  return heads;
}

/** How many rows match `where`, counted up to the probe's limit (an index(-only) scan that stops there). */
function countUpTo(where: Prisma.Sql): Prisma.Sql {
  // Under LIMIT (SELECT n) (see mergedRanges): a scan of its own that stops at n. Under an
  // Append the planner reads the whole range into a bitmap.
  return Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM "Contact" WHERE ${where} LIMIT ${PROBE}) AS c)`;
}

/** The ids and places of the rows `narrow` finds (read with only its own conditions) that match the rule. */
function candidates(narrow: Prisma.Sql, rule: Prisma.Sql[]): Prisma.Sql {
  return Prisma.sql`SELECT "id", "createdAt" FROM (
      SELECT ${RULE_COLUMNS} FROM "Contact" WHERE ${narrow} OFFSET 0) AS candidates
    WHERE ${Prisma.join(rule, ' AND ')}`;
}

/** The columns the rule reads. */
const RULE_COLUMNS = Prisma.raw(
  '"id", "accountId", "createdAt", "status", "sourceKind", "assignedWorkflowId", "firstName", "lastName", "phoneDigits"',
);

/**
 * The values that start with `prefix`, as a range of the "C" collation (byte order, which for
 * UTF-8 is code point order): from the prefix to the prefix with its last character's next.
 * Unlike LIKE with a parameter, a range stays an index range in a prepared statement's
 * generic plan, which PostgreSQL uses after five executions.
 */
function prefixRange(column: Prisma.Sql, prefix: string): Prisma.Sql {
  const chars = [...prefix];
  while (chars.length > 0) {
    const next = (chars[chars.length - 1].codePointAt(0) ?? 0) + 1;
    if (next <= 0x10ffff && (next < 0xd800 || next > 0xdfff)) {
      const end = [...chars.slice(0, -1), String.fromCodePoint(next)].join('');
      return Prisma.sql`${column} >= ${prefix} AND ${column} < ${end}`;
    }
    chars.pop();
  }
  return Prisma.sql`${column} >= ${prefix}`;
}

/** Every distinct window of `width` digits of the term's digit words (those at least that long). */
function digitWindows(words: SearchWord[], width: number): string[] {
  const windows = words
    .filter((w) => w.kind === 'digits' && w.value.length >= width)
    .flatMap((w) => Array.from({ length: w.value.length - width + 1 }, (_, i) => w.value.slice(i, i + width)));
  return [...new Set(windows)];
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
