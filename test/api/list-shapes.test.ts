// A list page is found by one of several query shapes, chosen by its filters and searchTerm
// (src/domain/contacts/contacts-list.store.ts): ranges of an index in list order merged
// (status, sourceKind, workflow, alone or together, a status filter too wide for ranges), the
// walk of a search (which fills the page, or gives up on its budget and reads the term's
// index), the term's index read at once (few candidates), the name-prefix indexes (one
// name) or the GIN index of search keys (two names, phone windows),
// the 2-digit windows of a number in short groups, and the walk without budget (one digit).
// Each must return exactly the rule's matches, newest first, ties on createdAt broken by id,
// across every page. The data has the skew the shapes are chosen for: shared names, statuses
// from 40% to none, a name that only contacts of one status have, and hundreds of contacts
// sharing each createdAt; the limits are small so that probe and walk budgets (per row of the
// page) are crossed at this size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { parse as parseCsv } from 'csv-parse/sync';
import { callOk, connect, type Connected } from '../mcp/mcp-helpers.js';

const N = 2400;

interface Stored {
  id: string;
  createdAt: string;
  firstName: string | null;
  lastName: string | null;
  phoneDigits: string | null;
  status: string | null;
  sourceKind: string;
  assignedWorkflowId: string | null;
}

interface Query {
  status?: string[];
  sourceKind?: string[];
  assignedWorkflowId?: string;
  addedSince?: string;
  addedBefore?: string;
  searchTerm?: string;
}

/** The list rule, written plainly. */
function matches(c: Stored, q: Query): boolean {
  if (q.status && !(c.status !== null && q.status.includes(c.status))) return false;
  if (q.sourceKind && !q.sourceKind.includes(c.sourceKind)) return false;
  if (q.assignedWorkflowId && c.assignedWorkflowId !== q.assignedWorkflowId) return false;
  if (q.addedSince && c.createdAt < new Date(q.addedSince).toISOString()) return false;
  if (q.addedBefore && c.createdAt >= new Date(q.addedBefore).toISOString()) return false;
  if (!q.searchTerm) return true;
  const words = q.searchTerm.trim().split(/\s+/).filter(Boolean).slice(0, 10);
  return words.every((word) => {
    const digits = word.replace(/\D/g, '');
    if (!/\p{L}/u.test(word) && digits) return (c.phoneDigits ?? '').includes(digits);
    const w = word.toLowerCase();
    return (c.firstName ?? '').toLowerCase().startsWith(w) || (c.lastName ?? '').toLowerCase().startsWith(w);
  });
}

const newestFirst = (a: Stored, b: Stored) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted<T>(r: () => number, pairs: Array<[T, number]>): T {
  let x = r() * pairs.reduce((s, [, w]) => s + w, 0);
  for (const [v, w] of pairs) {
    x -= w;
    if (x < 0) return v;
  }
  return pairs[pairs.length - 1][0];
}

const FIRST: Array<[string | null, number]> = [
  ['John', 25],
  ['Johanna', 3],
  ['Mary', 10],
  ['Maria', 5],
  ['Marco', 2],
  ['Ann', 5],
  ['Anne-Marie', 1],
  ["O'Brien", 1],
  ['José', 2],
  ['Li', 2],
  ['Garth', 2],
  ['Robert', 10],
  ['Linda', 8],
  ['Zoe', 1],
  [null, 3],
];
const LAST: Array<[string | null, number]> = [
  ['Smith', 20],
  ['Smithers', 2],
  ['Garcia', 5],
  ['Johnson', 5],
  ['Lee', 5],
  ['De la Cruz', 1],
  ['Brown', 10],
  ['Li', 1],
  ['Ma', 1],
  ['Miller', 15],
  ['Davis', 10],
  ['Lopez', 5],
  [null, 5],
];
const STATUS: Array<[string | null, number]> = [
  [null, 40],
  ['not_assigned', 30],
  ['assigned', 10],
  ['new', 8],
  ['qualified', 4],
  ['converted', 3],
  ['answered', 2.5],
  ['dnc', 1],
  ['invalid', 1],
  ['paused', 0.5],
];
const SOURCE: Array<[string, number]> = [
  ['api', 45],
  ['hubspot', 25],
  ['csv', 15],
  ['salesforce', 8],
  ['monday', 4],
  ['manual', 2.5],
  ['oneai', 0.5],
];

describe.each(testDatabaseKinds())('list query shapes on %s', (kind) => {
  let server: TestServer;
  let apiKey: string;
  let w1: string;
  let w2: string;
  let stored: Stored[];
  let otherKey: string;
  let otherStored: Stored[];

  beforeAll(async () => {
    server = await startTestServer(kind);
    const account = await server.createAccount();
    apiKey = account.apiKey;
    w1 = await server.createWorkflow(account.accountId);
    w2 = await server.createWorkflow(account.accountId);
    // Another Account's contacts, with the same names: never in this Account's pages.
    const other = await server.createAccount();
    otherKey = other.apiKey;
    const r = prng(7);
    const contacts = [];
    // 240 instants, ten contacts each on average, in runs of equal createdAt.
    const instants = Array.from({ length: 240 }, (_, i) =>
      new Date(Date.UTC(2023, 0, 1) + i * 3_600_000 * 7).toISOString(),
    );
    for (let i = 0; i < N; i++) {
      let firstName = weighted(r, FIRST);
      const status = weighted(r, STATUS);
      // "Zed": 300 contacts, all but four of them assigned, three of those four among the
      // oldest and one the newest.
      if (i < 300) firstName = 'Zed';
      let lastName = weighted(r, LAST);
      // LIKE's wildcards and escape, as characters of names: a search matches them literally.
      if (i === 301) firstName = 'Ann_Marie';
      if (i === 302) lastName = '100%';
      if (i === 303) firstName = 'Back\\slash';
      contacts.push({
        firstName,
        lastName,
        status: i < 300 ? (i < 4 ? 'not_assigned' : 'assigned') : status,
        sourceKind: weighted(r, SOURCE),
        externalId: `x-${i}`,
        phone: `+1${['415', '212', '646', '303'][i % 4]}${String(2000000 + ((i * 7919) % 7999999)).padStart(7, '0')}`,
        createdAt:
          i === 0
            ? instants[239]
            : i < 300
              ? instants[Math.floor(r() * (i < 4 ? 5 : 239))]
              : instants[Math.floor(r() * 240)],
      });
    }
    for (let i = 0; i < N; i += 1000) {
      const res = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk', {
        contacts: contacts.slice(i, i + 1000),
      });
      expect(res.json.accepted).toBe(Math.min(1000, N - i));
    }
    await server.request(other.apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: contacts.slice(0, 300).map((c, i) => ({ ...c, externalId: `o-${i}` })),
    });
    const sql = server.service.services.db.sql;
    const count = async (accountId: string) =>
      (
        await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Contact" WHERE "accountId" = $1::uuid`, [
          accountId,
        ])
      ).rows[0].n;
    await server.eventually(
      async () => (await count(account.accountId)) === N && (await count(other.accountId)) === 300,
      60_000,
    );
    // Workflows as enrollment leaves them: W1 on a tenth of the contacts, W2 on another tenth.
    await sql.query(
      `UPDATE "Contact" SET "assignedWorkflowId" = CASE WHEN "externalId" LIKE '%1' THEN $2::uuid WHEN "externalId" LIKE '%2' THEN $3::uuid END
      WHERE "accountId" = $1::uuid AND ("externalId" LIKE '%1' OR "externalId" LIKE '%2')`,
      [account.accountId, w1, w2],
    );
    const storedOf = async (accountId: string) =>
      (
        await sql.query<Stored & { createdAt: Date }>(
          `SELECT "id", "createdAt", "firstName", "lastName", "phoneDigits", "status"::text AS "status",
      "sourceKind"::text AS "sourceKind", "assignedWorkflowId" FROM "Contact" WHERE "accountId" = $1::uuid`,
          [accountId],
        )
      ).rows.map((c) => ({ ...c, createdAt: new Date(c.createdAt).toISOString() }));
    stored = await storedOf(account.accountId);
    otherStored = await storedOf(other.accountId);
  }, 120_000);
  afterAll(() => server?.stop());

  const queryString = (q: Query, limit: number, token?: string) => {
    const qs = new URLSearchParams({ limit: String(limit) });
    for (const [k, v] of Object.entries(q)) qs.set(k, Array.isArray(v) ? v.join(',') : v);
    if (token) qs.set('nextToken', token);
    return qs;
  };

  async function fetchAll(q: Query, limit: number): Promise<Array<{ id: string; createdAt: string }>> {
    const out = [];
    let token: string | undefined;
    do {
      const res = await server.request(apiKey, 'GET', `/api/v1/contacts?${queryString(q, limit, token)}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(limit);
      if (res.json.nextToken) expect(res.json.data).toHaveLength(limit);
      out.push(...res.json.data);
      token = res.json.nextToken;
    } while (token);
    return out;
  }

  const since = '2023-03-01T00:00:00Z';
  const before = '2023-06-01T00:00:00Z';
  // [query, limit]: small limits make small probe and walk budgets (they are per row of the page).
  const cases: Array<[string, Query, number]> = [
    ['the whole list', {}, 100],
    ['the whole list, small pages', {}, 37],
    ['one common status', { status: ['not_assigned'] }, 50],
    ['one rare status', { status: ['invalid'] }, 3],
    ['a status no contact has', { status: ['connecting'] }, 5],
    ['two statuses', { status: ['qualified', 'converted'] }, 7],
    ['two statuses, one unused', { status: ['dnc', 'unreachable'] }, 2],
    [
      'six statuses (past the ranges cap: checked along the list)',
      { status: ['new', 'qualified', 'converted', 'answered', 'dnc', 'invalid'] },
      20,
    ],
    ['one common sourceKind', { sourceKind: ['api'] }, 100],
    ['one rare sourceKind', { sourceKind: ['oneai'] }, 1],
    ['two sourceKinds', { sourceKind: ['monday', 'manual'] }, 9],
    ['a workflow', { assignedWorkflowId: '' }, 25],
    ['a workflow no contact is in', { assignedWorkflowId: '00000000-0000-4000-8000-000000000000' }, 5],
    ['addedSince', { addedSince: since }, 100],
    ['addedBefore', { addedBefore: before }, 100],
    ['a date window', { addedSince: since, addedBefore: before }, 30],
    ['a date window with no contact', { addedSince: '2030-01-01T00:00:00Z' }, 5],
    ['status + sourceKind', { status: ['not_assigned', 'new'], sourceKind: ['hubspot', 'oneai'] }, 11],
    ['status + sourceKind, rare both', { status: ['invalid'], sourceKind: ['monday'] }, 1],
    ['status + sourceKind, no match', { status: ['paused'], sourceKind: ['oneai'] }, 1],
    ['sourceKind + dates', { sourceKind: ['csv'], addedSince: since, addedBefore: before }, 4],
    ['workflow + status', { assignedWorkflowId: '', status: ['not_assigned'] }, 6],
    ['workflow + two statuses', { assignedWorkflowId: '', status: ['assigned', 'invalid'] }, 3],
    ['workflow + a status none of its contacts has', { assignedWorkflowId: '', status: ['connecting'] }, 3],
    ['workflow + sourceKind', { assignedWorkflowId: '', sourceKind: ['csv', 'oneai'] }, 4],
    [
      'workflow + status + sourceKind + dates',
      { assignedWorkflowId: '', status: ['not_assigned', 'assigned'], sourceKind: ['api'], addedBefore: before },
      2,
    ],
    ['search: a common first name (walked)', { searchTerm: 'john' }, 3],
    ['search: a common last name, upper case', { searchTerm: 'SMITH' }, 13],
    ['search: a prefix of both (walked)', { searchTerm: 'joh' }, 5],
    ['search: one letter', { searchTerm: 'j' }, 50],
    ['search: two letters', { searchTerm: 'jo' }, 50],
    ['search: a rarer name (its index, at once)', { searchTerm: 'garcia' }, 25],
    ['search: a name no contact has', { searchTerm: 'zz' }, 10],
    ['search: a name in first and last names', { searchTerm: 'li li' }, 3],
    ['search: two words (their keys intersected)', { searchTerm: 'mar smi' }, 5],
    ['search: two names', { searchTerm: 'john garcia' }, 3],
    ['search: two names, the rarer first', { searchTerm: 'garcia john' }, 3],
    ['search: a letter and a name', { searchTerm: 'j garcia' }, 3],
    ['search: a name and a prefix of it', { searchTerm: 'gar garcia' }, 4],
    ['search: two short words', { searchTerm: 'ma ga' }, 4],
    ['search: punctuation', { searchTerm: "o'b" }, 2],
    ['search: hyphen', { searchTerm: 'anne-m' }, 2],
    ['search: accent', { searchTerm: 'josé' }, 2],
    ['search: "de"', { searchTerm: 'de' }, 3],
    ['search: 3 digits (its 2-digit windows)', { searchTerm: '415' }, 60],
    ['search: one digit (walked without budget)', { searchTerm: '9' }, 60],
    ['search: a number in groups of two (2-digit windows)', { searchTerm: '41 52 00 00' }, 3],
    ['search: 4 digits', { searchTerm: '4152' }, 2],
    ['search: 5 digits', { searchTerm: '20003' }, 2],
    ['search: name and 3 digits', { searchTerm: 'smi 415' }, 10],
    ['search: name and 4 digits (the phone windows)', { searchTerm: 'smith 2125' }, 2],
    ['search: more than ten words', { searchTerm: 'john smith 4152 x y z a b c d e f g' }, 5],
    [
      'search: a name only contacts of another status have (walk gives up, then its index)',
      { searchTerm: 'zed', status: ['not_assigned'], addedBefore: '2023-03-01T00:00:00Z' },
      1,
    ],
    [
      'search: the same with the newest one (walk finds some, the longer walk the rest)',
      { searchTerm: 'zed', status: ['not_assigned'] },
      1,
    ],
    ['search: the same, two statuses', { searchTerm: 'zed', status: ['not_assigned', 'new'] }, 1],
    ['search: two words, common (the short walk fills the page)', { searchTerm: 'john smi' }, 2],
    ['search: the same name with its status (walked)', { searchTerm: 'zed', status: ['assigned'] }, 2],
    ['search + status, common', { searchTerm: 'john', status: ['not_assigned'] }, 9],
    ['search + rare status', { searchTerm: 'smith', status: ['invalid'] }, 2],
    ['search + sourceKind + dates', { searchTerm: 'mary', sourceKind: ['api', 'csv'], addedSince: since }, 6],
    ['search + workflow', { searchTerm: 'john', assignedWorkflowId: '' }, 5],
    ['search + workflow + status', { searchTerm: 'm', assignedWorkflowId: '', status: ['not_assigned'] }, 3],
    ['search digits + status', { searchTerm: '4152', status: ['not_assigned'] }, 2],
    // The search keys intersect the term with each filter's values (one of them) before any row is read.
    ['search: two words + rare sourceKind', { searchTerm: 'john smi', sourceKind: ['oneai'] }, 1],
    ['search: a name + two statuses', { searchTerm: 'garcia', status: ['not_assigned', 'new'] }, 3],
    ['search: a whole number + status', { searchTerm: '+1 415 200 0000', status: ['not_assigned'] }, 2],
    [
      'search digits + workflow + two sourceKinds',
      { searchTerm: '4152', assignedWorkflowId: '', sourceKind: ['api', 'csv'] },
      2,
    ],
    // Hard input: LIKE's wildcards match themselves, punctuation alone, one digit, and words
    // that no contact's two names can hold (answered without reading).
    ['search: %', { searchTerm: '%' }, 5],
    ['search: _', { searchTerm: '_' }, 5],
    ['search: a backslash', { searchTerm: '\\' }, 5],
    ['search: ann_ (not Anne-Marie)', { searchTerm: 'ann_' }, 5],
    ['search: ann% (nothing)', { searchTerm: 'ann%' }, 5],
    ['search: 100% (digits: the phone)', { searchTerm: '100%' }, 5],
    ['search: back\\', { searchTerm: 'back\\' }, 5],
    ['search: only punctuation', { searchTerm: '!!! --' }, 5],
    ['search: one digit', { searchTerm: '7' }, 97],
    ['search: ten one-letter words', { searchTerm: 'a b c d e f g h i j' }, 5],
    ['search: three names (no contact has three)', { searchTerm: 'john mary smith' }, 5],
    ['search: prefixes of one name and another', { searchTerm: 'jo john smi s' }, 4],
    ['search: a whole number, spaced', { searchTerm: '+1 415 200 0000' }, 5],
    ['search: a whole number, national format', { searchTerm: '(212) 200-7919' }, 5],
  ];

  const returnsExactly = async (_name: string, query: Query, limit: number) => {
    const q = query.assignedWorkflowId === '' ? { ...query, assignedWorkflowId: w1 } : query;
    const got = await fetchAll(q, limit);
    const expected = stored.filter((c) => matches(c, q)).sort(newestFirst);
    expect(got.map((c) => c.id)).toEqual(expected.map((c) => c.id));
  };
  it.each(cases)('%s returns exactly the matching contacts, newest first, across pages', returnsExactly);

  // Until PostgreSQL has estimated the table's size, a search's probe keeps its smallest limit;
  // once it has (ANALYZE, or an index build), the limit grows with the table's size (read from
  // memory, a candidate costs little more than a row walked), and a term whose newest rows are
  // dense is sampled when its estimated candidates fit under it. At this size, a page of 3 then
  // probes up to 73 candidates instead of 30: other shapes answer, with the same contacts.
  describe('once the table size is estimated', () => {
    beforeAll(async () => {
      const sql = server.service.services.db.sql;
      await sql.query('ANALYZE "Contact"');
      const { rows } = await sql.query<{ n: number }>(
        `SELECT "reltuples"::float8 AS "n" FROM pg_class WHERE "oid" = '"Contact"'::regclass`,
      );
      expect(rows[0].n).toBeGreaterThan(N);
    });
    it.each(cases.filter(([, q]) => q.searchTerm !== undefined))(
      '%s returns exactly the matching contacts',
      returnsExactly,
    );
  });

  // The CSV export and the tool server's contacts_search run the same operation: one case of
  // each shape, paged through to the end, gives the same contacts in the same order.
  const otherSurfaces = cases.filter(([name]) =>
    [
      'one rare status',
      'two statuses',
      'one rare sourceKind',
      'workflow + status',
      'a date window',
      'search: a common first name (walked)',
      'search: a rarer name (its index, at once)',
      'search: two words (their keys intersected)',
      'search: 4 digits',
      'search: a name only contacts of another status have (walk gives up, then its index)',
    ].includes(name),
  );

  it.each(otherSurfaces)('the CSV export of %s pages through the same contacts', async (_name, query, limit) => {
    const q = query.assignedWorkflowId === '' ? { ...query, assignedWorkflowId: w1 } : query;
    const ids: string[] = [];
    let token: string | undefined;
    do {
      const res = await server.request(apiKey, 'GET', `/api/v1/contacts/csv?${queryString(q, limit, token)}`);
      expect(res.status, res.text).toBe(200);
      ids.push(...parseCsv<{ id: string }>(res.text, { columns: true }).map((row) => row.id));
      token = res.headers.get('x-next-token') ?? undefined;
    } while (token);
    expect(ids).toEqual(
      stored
        .filter((c) => matches(c, q))
        .sort(newestFirst)
        .map((c) => c.id),
    );
  });

  it.each(otherSurfaces)('contacts_search of %s pages through the same contacts', async (_name, query, limit) => {
    const q = query.assignedWorkflowId === '' ? { ...query, assignedWorkflowId: w1 } : query;
    const mcp: Connected = await connect(server, apiKey);
    try {
      const ids: string[] = [];
      let nextToken: string | undefined;
      do {
        const page = await callOk(mcp.client, 'contacts_search', { ...q, limit, ...(nextToken ? { nextToken } : {}) });
        ids.push(...page.data.map((c: { id: string }) => c.id));
        nextToken = page.nextToken ?? undefined;
      } while (nextToken);
      expect(ids).toEqual(
        stored
          .filter((c) => matches(c, q))
          .sort(newestFirst)
          .map((c) => c.id),
      );
    } finally {
      await mcp.close();
    }
  });

  // The other Account holds 300 contacts with the same names and numbers as the first 300 of
  // this one: its searches find exactly its own, never this Account's.
  const otherAccountCases: Array<[string, Query, number]> = [
    ['a first name', { searchTerm: 'zed' }, 7],
    ['a last name', { searchTerm: 'smith' }, 3],
    ['two words', { searchTerm: 'zed smi' }, 2],
    ['4 digits', { searchTerm: '2000' }, 3],
    ['a name with a status', { searchTerm: 'zed', status: ['not_assigned'] }, 1],
  ];
  it.each(otherAccountCases)(
    'in a small Account beside it, a search of %s finds its own contacts only',
    async (_name, q, limit) => {
      const ids: string[] = [];
      let token: string | undefined;
      do {
        const res = await server.request(otherKey, 'GET', `/api/v1/contacts?${queryString(q, limit, token)}`);
        expect(res.status, res.text).toBe(200);
        ids.push(...res.json.data.map((c: { id: string }) => c.id));
        token = res.json.nextToken;
      } while (token);
      const expected = otherStored.filter((c) => matches(c, q)).sort(newestFirst);
      expect(expected.length).toBeGreaterThan(0);
      expect(ids).toEqual(expected.map((c) => c.id));
    },
  );

  // A write is seen by the next search: the index holds each version of a contact's keys (its
  // names, number and filter values), and every candidate is checked on the row as it now is.
  it('a search sees the write before it: a changed name and status, a deleted contact', async () => {
    const search = async (q: Query) => {
      const res = await server.request(otherKey, 'GET', `/api/v1/contacts?${queryString(q, 100)}`);
      expect(res.status, res.text).toBe(200);
      return res.json.data.map((c: { id: string }) => c.id);
    };
    const [changed, deleted] = otherStored.filter((c) => c.firstName && c.lastName && c.phoneDigits);
    const old = { searchTerm: `${changed.firstName} ${changed.lastName}`, status: [changed.status ?? 'new'] };
    expect(await search(old)).toContain(changed.id);
    // The Account deduplicates by phone: the upsert changes this contact.
    const updated = await server.request(otherKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: `+${changed.phoneDigits}`,
      sourceKind: changed.sourceKind,
      firstName: 'Quillon',
      status: 'qualified',
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.id).toBe(changed.id);
    expect(await search(old)).not.toContain(changed.id);
    expect(await search({ searchTerm: `quil ${changed.lastName}`, status: ['qualified'] })).toEqual([changed.id]);
    expect(await search({ searchTerm: `quil ${changed.phoneDigits!.slice(-4)}`, status: ['qualified'] })).toEqual([
      changed.id,
    ]);
    const removed = await server.request(otherKey, 'DELETE', `/api/v1/contacts/${deleted.id}`);
    expect(removed.status, removed.text).toBeLessThan(300);
    const term = `${deleted.firstName} ${deleted.lastName} ${deleted.phoneDigits!.slice(-4)}`;
    expect(await search({ searchTerm: term, sourceKind: [deleted.sourceKind] })).not.toContain(deleted.id);
  });

  it('the data has the shape the cases rely on', () => {
    const count = (q: Query) => stored.filter((c) => matches(c, q)).length;
    expect(count({ searchTerm: 'zed', status: ['not_assigned'] })).toBe(4);
    expect(count({ searchTerm: 'zed', status: ['not_assigned'], addedBefore: '2023-03-01T00:00:00Z' })).toBe(3);
    expect(count({ status: ['not_assigned'] })).toBeGreaterThan(600);
    expect(count({ searchTerm: 'john' })).toBeGreaterThan(400);
    expect(count({ searchTerm: 'garcia' })).toBeLessThan(200);
    expect(count({ status: ['connecting'] })).toBe(0);
    expect(new Set(stored.map((c) => c.createdAt)).size).toBeLessThan(250);
    expect(w2).not.toBe(w1);
    expect(otherSurfaces).toHaveLength(10);
    expect(count({ searchTerm: 'ann_' })).toBe(1);
    expect(count({ searchTerm: '100%' })).toBeGreaterThan(1);
    expect(count({ searchTerm: 'back\\' })).toBe(1);
    expect(count({ searchTerm: '+1 415 200 0000' })).toBeGreaterThan(0);
    expect(count({ searchTerm: '(212) 200-7919' })).toBeGreaterThan(0);
    expect(count({ searchTerm: 'jo john smi s' })).toBeGreaterThan(0);
    expect(count({ searchTerm: '41 52 00 00' })).toBeGreaterThan(0);
  });
});
