// Search figures (group "search", run by bench/run.ts on the seeded Account): every kind of
// searchTerm with its terms drawn as people type them, alone and with status and sourceKind
// filters, hard input, and a small Account beside the big one. Measured with the list
// figures' loop (bench/lists.ts: the service end to end against listQuerySql on the raw
// driver, EXPLAIN (ANALYZE, BUFFERS) of each case's slowest term).
//
// Terms (deterministic: a fixed PRNG seed, and contacts sampled with TABLESAMPLE … REPEATABLE):
// - name prefixes: census names, half drawn by frequency (John, Smith…) and half uniformly
//   over the tables (Zbigniew, Okafor…), each cut at a random length from one letter to the
//   whole name;
// - two words, ten words, phone fragments and whole numbers: from contacts of the Account
//   itself, so that most terms match (a first-name prefix and a last-name prefix of one
//   contact; four digits from anywhere in a number; a number as E.164, national and
//   international format, or its bare digits);
// - hard input: LIKE's wildcards, punctuation alone, one digit, ten one-letter words.
// Targets (issue "search at ten million contacts"): p95 < 100 ms and p99 < 250 ms at any size
// in one Account; in a small Account beside it, p95 < 20 ms.
import { parsePhoneNumberWithError } from 'libphonenumber-js/max';
import type { Database } from '../src/db/database.js';
import type { DatabaseKind } from '../test/support/databases.js';
import type { TestServer } from '../test/support/test-server.js';
import { benchListCases, type ListCase, type Query } from './lists.js';
import type { Figure } from './run.js';
import { censusNames, prng } from './seed.js';

export const SEARCH_TARGET = { p95: 100, p99: 250 };
export const SMALL_ACCOUNT_TARGET = { p95: 20, p99: 250 };

/** Terms per drawn case. */
const TERMS = 40;

export interface SampledContact {
  firstName: string | null;
  lastName: string | null;
  phone: string;
  phoneDigits: string;
}

/**
 * `n` of the Account's `total` contacts, the same ones on every run over the same data
 * (TABLESAMPLE … REPEATABLE).
 */
export async function sampleContacts(
  db: Database,
  accountId: string,
  total: number,
  n: number,
): Promise<SampledContact[]> {
  const percent = Math.min(100, (n * 50 * 100) / Math.max(total, 1));
  const sample = await db.sql.query<SampledContact>(
    `SELECT "firstName", "lastName", "phone", "phoneDigits" FROM "Contact" TABLESAMPLE SYSTEM (${percent}) REPEATABLE (32)
     WHERE "accountId" = $1 AND "phone" IS NOT NULL ORDER BY "id" LIMIT $2`,
    [accountId, n],
  );
  return sample.rows;
}

/** The search cases of an Account whose contacts `sample` comes from. */
export function searchCases(
  sample: SampledContact[],
  options: { prefix?: string; target?: typeof SEARCH_TARGET } = {},
): ListCase[] {
  const rand = prng(32);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const cut = (name: string) => name.slice(0, 1 + Math.floor(rand() * name.length)).toLowerCase();
  const census = censusNames();
  const byWeight = (pool: Array<{ name: string; weight: number }>) => {
    const total = pool.reduce((a, x) => a + x.weight, 0);
    let r = rand() * total;
    for (const x of pool) {
      r -= x.weight;
      if (r <= 0) return x.name;
    }
    return pool[pool.length - 1].name;
  };
  // Half common (by frequency), half anywhere in the table (rare names), as typed.
  const names = (pool: Array<{ name: string; weight: number }>) =>
    Array.from({ length: TERMS }, (_, i) => cut(i % 2 === 0 ? byWeight(pool) : pick(pool).name));
  const firstPool = [...census.male, ...census.female];
  const named = sample.filter((c) => c.firstName && c.lastName);
  const window = (digits: string) => {
    const at = Math.floor(rand() * (digits.length - 3));
    return digits.slice(at, at + 4);
  };
  const formats = (c: SampledContact, i: number) => {
    const number = parsePhoneNumberWithError(c.phone);
    return [c.phone, number.formatNational(), number.formatInternational(), c.phoneDigits][i % 4];
  };
  const tenWords = (c: SampledContact) => {
    const first = (c.firstName ?? '').toLowerCase();
    const last = (c.lastName ?? '').toLowerCase();
    const words = [first, last, first.slice(0, 1), last.slice(0, 1), first.slice(0, 2), last.slice(0, 2)];
    while (words.length < 10) words.push(window(c.phoneDigits));
    return words.filter(Boolean).join(' ');
  };
  const terms = {
    first: names(firstPool),
    last: names(census.last),
    two: Array.from({ length: TERMS }, () => {
      const c = pick(named);
      return `${cut(c.firstName!)} ${cut(c.lastName!)}`;
    }),
    digits: Array.from({ length: TERMS }, () => window(pick(sample).phoneDigits)),
    phone: Array.from({ length: TERMS }, (_, i) => formats(pick(sample), i)),
    ten: Array.from({ length: TERMS / 2 }, () => tenWords(pick(named))),
  };
  const target = options.target ?? SEARCH_TARGET;
  const id = (s: string) => `${options.prefix ?? 'search'}-${s}`;
  const label = (s: string) => (options.prefix ? `${s} (small Account)` : s);
  const drawn = (key: string, name: string, q: Query[]): ListCase => ({
    id: id(key),
    name: label(name),
    endpoint: 'rest',
    variants: q,
    limit: 50,
    target,
  });
  const with_ = (xs: string[], filter: Omit<Query, 'searchTerm'>) =>
    xs.map((searchTerm) => ({ searchTerm, ...filter }));
  const alone = (xs: string[]) => xs.map((searchTerm) => ({ searchTerm }));
  const cases: ListCase[] = [
    drawn(
      'first-prefix',
      'Search, first-name prefix (40 terms: common and rare, 1 letter to whole)',
      alone(terms.first),
    ),
    drawn('last-prefix', 'Search, last-name prefix (40 terms)', alone(terms.last)),
    drawn('two-words', 'Search, two words: first-name prefix + last-name prefix (40 terms)', alone(terms.two)),
    drawn('phone-4', 'Search, 4 digits from anywhere in a number (40 terms)', alone(terms.digits)),
    drawn(
      'phone-full',
      'Search, a whole number: E.164, national, international, digits (40 terms)',
      alone(terms.phone),
    ),
    drawn('ten-words', 'Search, ten words (20 terms)', alone(terms.ten)),
  ];
  if (options.prefix) return cases;
  return [
    ...cases,
    drawn('hard', 'Search, hard input: % _ \\ 50% a_b !!! -- . 5 "a b c d e f g h i j"', [
      ...['%', '_', '\\', '50%', 'a_b', '!!!', '--', '.', '5'].map((searchTerm) => ({ searchTerm })),
      { searchTerm: 'a b c d e f g h i j' },
    ]),
    drawn(
      'first-status-common',
      'Search, first-name prefix & status=not_assigned (30%)',
      with_(terms.first, { status: ['not_assigned'] }),
    ),
    drawn(
      'first-status-rare',
      'Search, first-name prefix & status=qualified (1%)',
      with_(terms.first, { status: ['qualified'] }),
    ),
    drawn(
      'two-source-rare',
      'Search, two words & sourceKind=oneai (0.5%)',
      with_(terms.two, { sourceKind: ['oneai'] }),
    ),
    drawn(
      'phone-4-status-source',
      'Search, 4 digits & status=not_assigned & sourceKind=hubspot (7.5%)',
      with_(terms.digits, { status: ['not_assigned'], sourceKind: ['hubspot'] }),
    ),
    drawn(
      'last-source-common',
      'Search, last-name prefix & sourceKind=api,csv (60%)',
      with_(terms.last, { sourceKind: ['api', 'csv'] }),
    ),
    {
      ...drawn('mcp-two-words', 'Tool contacts_search, two words (40 terms)', alone(terms.two)),
      endpoint: 'mcp',
    },
  ];
}

export interface SearchSettings {
  requests: number;
  minRequests: number;
  budgetMs: number;
  warmup: number;
  /** Contacts of the small Account beside the seeded one. */
  smallAccountContacts: number;
}

/**
 * The search figures of the seeded Account, then of a small Account created beside it (its
 * contacts imported through POST /contacts/bulk), whose searches must not pay for the big one.
 */
export async function benchSearch(
  server: TestServer,
  db: Database,
  account: { accountId: string; apiKey: string },
  kind: DatabaseKind,
  contacts: number,
  settings: SearchSettings,
  log: (message: string) => void,
): Promise<Figure[]> {
  const listSettings = { ...settings, contacts };
  const figures = await benchListCases(
    server,
    db,
    account,
    kind,
    searchCases(await sampleContacts(db, account.accountId, contacts, 400)),
    listSettings,
    log,
  );
  const small = await server.createAccount();
  await importSmallAccount(server, db, small, settings.smallAccountContacts);
  log(`     small Account: ${settings.smallAccountContacts} contacts imported through POST /contacts/bulk`);
  figures.push(
    ...(await benchListCases(
      server,
      db,
      small,
      kind,
      searchCases(await sampleContacts(db, small.accountId, settings.smallAccountContacts, 200), {
        prefix: 'small',
        target: SMALL_ACCOUNT_TARGET,
      }),
      listSettings,
      log,
    )),
  );
  return figures;
}

/** `n` contacts with census names and New York numbers, through the API, waited for until stored. */
async function importSmallAccount(
  server: TestServer,
  db: Database,
  account: { accountId: string; apiKey: string },
  n: number,
): Promise<void> {
  const rand = prng(1000);
  const census = censusNames();
  const first = [...census.male.slice(0, 300), ...census.female.slice(0, 300)];
  const last = census.last.slice(0, 2000);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const items = Array.from({ length: n }, (_, i) => ({
    sourceKind: 'api',
    externalId: null,
    phone: `+1212${2_000_000 + i * 7}`,
    firstName: pick(first).name,
    lastName: pick(last).name,
  }));
  for (let at = 0; at < items.length; at += 1000) {
    const response = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: items.slice(at, at + 1000),
    });
    if (response.status !== 202) throw new Error(`small Account import: HTTP ${response.status}: ${response.text}`);
  }
  await server.eventually(async () => {
    const { rows } = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Contact" WHERE "accountId" = $1::uuid`,
      [account.accountId],
    );
    return rows[0].n === n;
  }, 120_000);
}

export interface StorageRow {
  name: string;
  kind: 'table' | 'toast' | 'index';
  bytes: number;
}

/** The bytes of Contact: its heap, its TOAST and each index. */
export async function contactStorage(db: Database): Promise<StorageRow[]> {
  const { rows } = await db.sql.query<{ name: string; kind: StorageRow['kind']; bytes: string }>(
    `SELECT 'Contact' AS name, 'table' AS kind, pg_relation_size('"Contact"')::text AS bytes
     UNION ALL SELECT 'TOAST', 'toast', (pg_total_relation_size('"Contact"') - pg_relation_size('"Contact"') - pg_indexes_size('"Contact"'))::text
     UNION ALL SELECT c.relname, 'index', pg_relation_size(c.oid)::text
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = '"Contact"'::regclass`,
  );
  return rows.map((r) => ({ ...r, bytes: Number(r.bytes) })).sort((a, b) => b.bytes - a.bytes);
}

/** The storage table of a results file: bytes, and bytes per contact. */
export function storageMarkdown(rows: StorageRow[], contacts: number): string[] {
  const total = rows.reduce((a, r) => a + r.bytes, 0);
  const mb = (b: number) => (b / 1024 / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 });
  return [
    `Storage of Contact at ${contacts.toLocaleString('en-US')} contacts (after the figures):`,
    '',
    '| Relation | MB | Bytes per contact |',
    '|---|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.kind === 'index' ? `index ${r.name}` : r.name} | ${mb(r.bytes)} | ${Math.round(r.bytes / contacts)} |`,
    ),
    `| **All** | ${mb(total)} | ${Math.round(total / contacts)} |`,
  ];
}
