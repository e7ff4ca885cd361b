// Contact list figures (called from bench/run.ts on the seeded Account, group "contacts"): every
// list filter and their combinations, measured end to end against the raw driver running the
// very SELECT the service runs (listQuerySql of contacts-list.store.ts, the query parsed by the
// service's own ListQuerySchema).
//
//   REST   GET /api/v1/contacts?…            the list page (limit 50)
//   CSV    GET /api/v1/contacts/csv?…        the CSV export page (limit 100)
//   MCP    tools/call contacts_search {…}    the tool server's list (limit 50)
//
// Each case has one or more variants (a query each); requests go round the variants, service and
// raw alternating which goes first. A "deep" case first follows nextToken 20 pages down
// (untimed), then measures that page. The slowest request's variant gets EXPLAIN (ANALYZE,
// BUFFERS) of its SELECT (run after the timed requests, so on warm caches). Targets: PostgreSQL
// p95 < 50 ms and at most 10× raw (p50) up to a million contacts, p95 < 150 ms beyond (ten
// million in one Account); PGlite p95 < 50 ms.
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { performance } from 'node:perf_hooks';
import { listQuerySql } from '../src/domain/contacts/contacts-list.store.js';
import { ListQuerySchema } from '../src/domain/contacts/contacts.inputs.js';
import { MCP_PATH } from '../src/mcp/mcp.route.js';
import type { Database } from '../src/db/database.js';
import type { TestServer } from '../test/support/test-server.js';
import type { DatabaseKind } from '../test/support/databases.js';
import { figure, type Figure, type Stats } from './run.js';
import type { SeedResult } from './seed.js';

export interface ListSettings {
  /** Timed requests per case (each side), unless the time budget runs out first. */
  requests: number;
  /** Timed requests per case however long they take. */
  minRequests: number;
  /** Wall-clock budget of one case's timed requests. */
  budgetMs: number;
  warmup: number;
  /** Contacts seeded: the p95 target is 50 ms up to a million, 150 ms beyond. */
  contacts: number;
}

/** The p95 target of a list figure at this many contacts in one Account. */
export const listP95TargetMs = (contacts: number) => (contacts > 1_000_000 ? 150 : 50);

type Endpoint = 'rest' | 'csv' | 'mcp';
export type Query = {
  status?: string[];
  sourceKind?: string[];
  assignedWorkflowId?: string;
  addedSince?: string;
  addedBefore?: string;
  searchTerm?: string;
};

export interface ListCase {
  id: string;
  name: string;
  endpoint: Endpoint;
  variants: Query[];
  limit: number;
  /** Pages to follow before the measured one. */
  pagesDown?: number;
  /** The search figures' targets (bench/search.ts), in place of the list's p95 target. */
  target?: { p95: number; p99: number };
}

const DEEP_PAGES = 20;
const DAY_MS = 86_400_000;

/** The query string of a list request (repeated values as one comma-separated parameter, as the API accepts). */
function queryString(q: Query, limit: number, nextToken?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(q))
    if (value !== undefined) params.set(key, Array.isArray(value) ? value.join(',') : value);
  params.set('limit', String(limit));
  if (nextToken) params.set('nextToken', nextToken);
  return params.toString();
}

/** How a variant reads in the results. */
function describe(q: Query): string {
  const parts = Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`);
  return parts.length ? parts.join('&') : '(no filter)';
}

/** The cases, from the seed (workflow ids, the seed time for the date filters). */
export function listCases(seed: SeedResult, legacy: { namePrefixes: string[]; digitTerms: string[] }): ListCase[] {
  const at = (days: number) => new Date(seed.seedTime.getTime() + days * DAY_MS).toISOString();
  const [biggest] = seed.workflows;
  const smallest = seed.workflows[seed.workflows.length - 1];
  const week = { addedSince: at(-7) };
  const yearBack = { addedSince: at(-395), addedBefore: at(-365) };
  const digits = ['2345', '7788', '0042', '9130', '5566', '1207', '8899', '3141', '6020', '4477'];
  const rest = (id: string, name: string, variants: Query[], pagesDown?: number): ListCase => ({
    id,
    name,
    endpoint: 'rest',
    variants,
    limit: 50,
    pagesDown,
  });
  const deep = (c: ListCase): ListCase => ({
    ...c,
    id: `${c.id}-deep`,
    name: `${c.name}, ${DEEP_PAGES} pages down`,
    pagesDown: DEEP_PAGES,
  });

  const list = rest('list', 'List, newest first (GET /contacts?limit=50)', [{}]);
  const statusCommon = rest('status-common', 'status=not_assigned (30%)', [{ status: ['not_assigned'] }]);
  const statusRare = rest('status-rare', 'status=invalid / dnc / contact_verified (0.2–0.4%)', [
    { status: ['invalid'] },
    { status: ['dnc'] },
    { status: ['contact_verified'] },
  ]);
  const sourceCommon = rest('source-common', 'sourceKind=api (45%)', [{ sourceKind: ['api'] }]);
  const sourceRare = rest('source-rare', 'sourceKind=oneai (0.5%)', [{ sourceKind: ['oneai'] }]);
  const workflowBig = rest('workflow-big', `assignedWorkflowId, the biggest workflow (${biggest.name}: ~8%)`, [
    { assignedWorkflowId: biggest.id },
  ]);
  const searchJohn = rest('search-john', 'searchTerm=john (first-name prefix, ~2%)', [{ searchTerm: 'john' }]);
  const addedWeek = rest('added-week', 'addedSince a week ago (~1%)', [week]);

  return [
    // The figures measured before the realistic seed, same ids and terms (compare with "Before realistic data").
    list,
    {
      id: 'search-name',
      name: 'Search by name prefix (searchTerm, limit 50)',
      endpoint: 'rest',
      variants: legacy.namePrefixes.map((searchTerm) => ({ searchTerm })),
      limit: 50,
    },
    {
      id: 'search-phone',
      name: 'Search by phone digits, 4–5 digits (searchTerm, limit 50)',
      endpoint: 'rest',
      variants: legacy.digitTerms.map((searchTerm) => ({ searchTerm })),
      limit: 50,
    },
    { id: 'csv', name: 'CSV page (GET /contacts/csv?limit=100)', endpoint: 'csv', variants: [{}], limit: 100 },
    // status
    statusCommon,
    statusRare,
    rest('status-two', 'status=not_assigned,new (35%)', [{ status: ['not_assigned', 'new'] }]),
    rest('status-two-rare', 'status=qualified,converted (1.8%)', [{ status: ['qualified', 'converted'] }]),
    rest('status-none', 'status nobody has (connecting / unreachable / dont_call / dnc_blocked)', [
      { status: ['connecting'] },
      { status: ['unreachable'] },
      { status: ['dont_call'] },
      { status: ['dnc_blocked'] },
    ]),
    // sourceKind
    sourceCommon,
    sourceRare,
    rest('source-two', 'sourceKind=hubspot,salesforce (33%)', [{ sourceKind: ['hubspot', 'salesforce'] }]),
    rest('source-two-rare', 'sourceKind=manual,oneai (3%)', [{ sourceKind: ['manual', 'oneai'] }]),
    rest('source-none', 'sourceKind=oneai with a status nobody has (every sourceKind is in use)', [
      { sourceKind: ['oneai'], status: ['dnc_blocked'] },
    ]),
    // assignedWorkflowId
    workflowBig,
    rest('workflow-small', `assignedWorkflowId, the smallest workflow (${smallest.name}: ~1.2%)`, [
      { assignedWorkflowId: smallest.id },
    ]),
    rest('workflow-none', 'assignedWorkflowId of a workflow nobody is in / of no workflow', [
      { assignedWorkflowId: seed.emptyWorkflowId },
      { assignedWorkflowId: '00000000-0000-4000-8000-000000000000' },
    ]),
    // addedSince / addedBefore
    addedWeek,
    rest('added-range-year-back', 'addedSince/addedBefore, a month a year back (~4%)', [yearBack]),
    rest('added-before-year-back', 'addedBefore a year ago (~50%)', [{ addedBefore: at(-365) }]),
    rest('added-since-none', 'addedSince tomorrow (nothing)', [{ addedSince: at(1) }]),
    rest('added-before-none', 'addedBefore the oldest contact (nothing)', [{ addedBefore: at(-731) }]),
    // searchTerm
    rest('search-jo', 'searchTerm=jo (two letters: John, Joseph, Jones, Johnson…)', [{ searchTerm: 'jo' }]),
    searchJohn,
    rest('search-mar', 'searchTerm=mar (Mary, Mark, Martin, Martinez…)', [{ searchTerm: 'mar' }]),
    rest('search-last', 'searchTerm=smi / garc (last-name prefix)', [{ searchTerm: 'smi' }, { searchTerm: 'garc' }]),
    rest('search-full', 'searchTerm "first last" (john smith / mary johnson / james garcia)', [
      { searchTerm: 'john smith' },
      { searchTerm: 'mary johnson' },
      { searchTerm: 'james garcia' },
    ]),
    rest(
      'search-digits',
      'searchTerm of 4 phone digits (10 terms)',
      digits.map((searchTerm) => ({ searchTerm })),
    ),
    rest('search-none', 'searchTerm matching nothing (name qxz / 12 zeros)', [
      { searchTerm: 'qxz' },
      { searchTerm: '000000000000' },
    ]),
    // combinations
    rest('status-source', 'status=not_assigned & sourceKind=hubspot (7.5%)', [
      { status: ['not_assigned'], sourceKind: ['hubspot'] },
    ]),
    rest('status-source-rare', 'status=converted & sourceKind=oneai (0.004%)', [
      { status: ['converted'], sourceKind: ['oneai'] },
    ]),
    rest('status-search', 'status=assigned & searchTerm=john', [{ status: ['assigned'], searchTerm: 'john' }]),
    rest('status-rare-search', 'status=qualified & searchTerm=jo', [{ status: ['qualified'], searchTerm: 'jo' }]),
    rest('source-added-week', 'sourceKind=salesforce & addedSince a week ago', [
      { sourceKind: ['salesforce'], ...week },
    ]),
    rest('source-added-range', 'sourceKind=monday & a month a year back', [{ sourceKind: ['monday'], ...yearBack }]),
    rest('workflow-status', `assignedWorkflowId (${biggest.name}) & status=not_answered`, [
      { assignedWorkflowId: biggest.id, status: ['not_answered'] },
    ]),
    rest('workflow-status-rare', `assignedWorkflowId (${smallest.name}) & status=converted`, [
      { assignedWorkflowId: smallest.id, status: ['converted'] },
    ]),
    // deep pages
    deep(list),
    deep(statusCommon),
    deep(rest('status-rare', 'status=invalid (0.2%)', [{ status: ['invalid'] }])),
    deep(sourceCommon),
    deep(sourceRare),
    deep(workflowBig),
    deep(searchJohn),
    deep(addedWeek),
    // the CSV export and the tool server on some of the same queries
    {
      id: 'csv-status-rare',
      name: 'CSV page, status=invalid',
      endpoint: 'csv',
      variants: [{ status: ['invalid'] }],
      limit: 100,
    },
    {
      id: 'csv-source-added',
      name: 'CSV page, sourceKind=salesforce & addedSince a week ago',
      endpoint: 'csv',
      variants: [{ sourceKind: ['salesforce'], ...week }],
      limit: 100,
    },
    {
      id: 'csv-search-john',
      name: 'CSV page, searchTerm=john',
      endpoint: 'csv',
      variants: [{ searchTerm: 'john' }],
      limit: 100,
    },
    {
      id: 'mcp-list-status-rare',
      name: 'Tool contacts_search, status=invalid',
      endpoint: 'mcp',
      variants: [{ status: ['invalid'] }],
      limit: 50,
    },
    {
      id: 'mcp-list-source-common',
      name: 'Tool contacts_search, sourceKind=api',
      endpoint: 'mcp',
      variants: [{ sourceKind: ['api'] }],
      limit: 50,
    },
    {
      id: 'mcp-list-search-john',
      name: 'Tool contacts_search, searchTerm=john',
      endpoint: 'mcp',
      variants: [{ searchTerm: 'john' }],
      limit: 50,
    },
    {
      id: 'mcp-list-workflow-status',
      name: 'Tool contacts_search, assignedWorkflowId & status=not_answered',
      endpoint: 'mcp',
      variants: [{ assignedWorkflowId: biggest.id, status: ['not_answered'] }],
      limit: 50,
    },
  ];
}

interface Page {
  data: unknown[];
  nextToken?: string | null;
}

export async function benchListCases(
  server: TestServer,
  db: Database,
  account: { accountId: string; apiKey: string },
  kind: DatabaseKind,
  cases: ListCase[],
  settings: ListSettings,
  log: (message: string) => void,
): Promise<Figure[]> {
  const headers = { authorization: `Bearer ${account.apiKey}` };
  let rpcId = 0;
  const get = async (path: string): Promise<string> => {
    const response = await fetch(server.baseUrl + path, { headers });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: HTTP ${response.status}: ${text.slice(0, 300)}`);
    return text;
  };
  const tool = async (args: Record<string, unknown>): Promise<Page> => {
    const response = await fetch(server.baseUrl + MCP_PATH, {
      method: 'POST',
      headers: {
        ...headers,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++rpcId,
        method: 'tools/call',
        params: { name: 'contacts_search', arguments: args },
      }),
    });
    const text = await response.text();
    const message = JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: Page } };
    if (response.status !== 200 || !message.result || message.result.isError)
      throw new Error(`contacts_search ${JSON.stringify(args)}: ${text.slice(0, 300)}`);
    return message.result.structuredContent!;
  };
  const raw = (q: Query, limit: number, nextToken?: string) => {
    const sql = listQuerySql(
      account.accountId,
      ListQuerySchema.parse({ ...q, limit, ...(nextToken ? { nextToken } : {}) }),
    );
    return db.sql.query(sql.text, sql.values);
  };

  const figures: Figure[] = [];
  for (const c of cases) {
    const started = performance.now();
    // The request of each variant: its nextToken when deep, and its check that the service pages as the SELECT does.
    const requests: Array<{ q: Query; nextToken?: string; depth: number; rows: number }> = [];
    for (const q of c.variants) {
      let nextToken: string | undefined;
      let depth = 0;
      while (depth < (c.pagesDown ?? 0)) {
        const page = JSON.parse(await get(`/api/v1/contacts?${queryString(q, c.limit, nextToken)}`)) as Page;
        if (!page.nextToken) break;
        nextToken = page.nextToken;
        depth++;
      }
      const rows = (await raw(q, c.limit, nextToken)).rows.length;
      const page = JSON.parse(await get(`/api/v1/contacts?${queryString(q, c.limit, nextToken)}`)) as Page;
      if (page.data.length !== Math.min(rows, c.limit) || Boolean(page.nextToken) !== rows > c.limit) {
        throw new Error(
          `${c.id} ${describe(q)}: the service returned ${page.data.length} rows (next: ${Boolean(page.nextToken)}), the SELECT ${rows}`,
        );
      }
      requests.push({ q, nextToken, depth, rows: Math.min(rows, c.limit) });
    }
    const serviceRun = async (r: (typeof requests)[number]) => {
      if (c.endpoint === 'mcp') {
        await tool({ ...r.q, limit: c.limit, ...(r.nextToken ? { nextToken: r.nextToken } : {}) });
      } else {
        await get(`/api/v1/contacts${c.endpoint === 'csv' ? '/csv' : ''}?${queryString(r.q, c.limit, r.nextToken)}`);
      }
    };
    const at = (i: number) => requests[i % requests.length];
    // Warm-up: enough for the prepared statements to settle on their plan, within a quarter of the budget.
    const warmStart = performance.now();
    for (let i = 0; i < settings.warmup; i++) {
      if (i >= 1 && performance.now() - warmStart > settings.budgetMs / 4) break;
      await serviceRun(at(i));
      await raw(at(i).q, c.limit, at(i).nextToken);
    }

    const service: number[] = [];
    const rawMs: number[] = [];
    const perVariant = requests.map(() => ({ service: [] as number[], raw: [] as number[] }));
    const loopStart = performance.now();
    for (let i = 0; i < settings.requests; i++) {
      if (i >= settings.minRequests && performance.now() - loopStart > settings.budgetMs) break;
      const r = at(i);
      const timeService = async () => {
        const t0 = performance.now();
        await serviceRun(r);
        return performance.now() - t0;
      };
      const timeRaw = async () => {
        const t0 = performance.now();
        await raw(r.q, c.limit, r.nextToken);
        return performance.now() - t0;
      };
      // Alternate which goes first, so neither always runs on the cache the other warmed.
      let s: number;
      let w: number;
      if (i % 2 === 0) {
        s = await timeService();
        w = await timeRaw();
      } else {
        w = await timeRaw();
        s = await timeService();
      }
      service.push(s);
      rawMs.push(w);
      perVariant[i % requests.length].service.push(s);
      perVariant[i % requests.length].raw.push(w);
    }

    // The slowest request's variant, with its plan.
    let slowest = 0;
    perVariant.forEach((v, k) => {
      if (Math.max(...v.service, -1) > Math.max(...perVariant[slowest].service, -1)) slowest = k;
    });
    const worst = requests[slowest];
    const sql = listQuerySql(
      account.accountId,
      ListQuerySchema.parse({ ...worst.q, limit: c.limit, ...(worst.nextToken ? { nextToken: worst.nextToken } : {}) }),
    );
    const plan = (
      await db.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values)
    ).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    const variantLabel = (r: (typeof requests)[number]) =>
      `${describe(r.q)}${r.nextToken ? ` (page ${r.depth + 1})` : ''}`;
    const max = (xs: number[]) => (xs.length ? Math.round(Math.max(...xs) * 10) / 10 : null);
    const p95Target = c.target?.p95 ?? listP95TargetMs(settings.contacts);
    const p99Target = c.target?.p99 ?? Number.POSITIVE_INFINITY;
    const latency = c.target ? `p95 < ${p95Target} ms and p99 < ${p99Target} ms` : `p95 < ${p95Target} ms`;
    const target = kind === 'postgres' ? `${latency}, ≤ 10× raw (p50)` : latency;
    const endpointNote =
      c.endpoint === 'mcp'
        ? 'service: the tool call (POST /api/mcp, tools/call contacts_search)'
        : `service: GET /api/v1/contacts${c.endpoint === 'csv' ? '/csv' : ''}`;
    const short = requests.filter((r) => c.pagesDown && r.depth < c.pagesDown);
    figures.push(
      figure(service, rawMs, {
        id: c.id,
        name: c.name,
        target,
        pass: (s: Stats, ratioP50: number | null) =>
          s.p95 < p95Target && s.p99 < p99Target && (kind !== 'postgres' || (ratioP50 !== null && ratioP50 <= 10)),
        notes:
          `${service.length} requests${requests.length > 1 ? ` over ${requests.length} variants` : ''} (limit ${c.limit}); ${endpointNote}; ` +
          `raw: the same SELECT (listQuerySql, limit+1) through db.sql.query` +
          (short.length
            ? `; only ${short.map((r) => `${r.depth} pages of ${describe(r.q)}`).join(', ')} before the last page`
            : ''),
        explain: { variant: variantLabel(worst), plan },
        extra: {
          listCase: true,
          endpoint: c.endpoint,
          rows: requests.map((r) => r.rows),
          ...(requests.length > 1
            ? {
                perVariant: requests.map((r, k) => ({
                  variant: variantLabel(r),
                  rows: r.rows,
                  serviceMaxMs: max(perVariant[k].service),
                  rawMaxMs: max(perVariant[k].raw),
                })),
              }
            : {}),
          seconds: Math.round((performance.now() - started) / 100) / 10,
        },
      }),
    );
    const f = figures[figures.length - 1];
    log(
      `     ${c.id.padEnd(28)} p50 ${f.service.p50.toFixed(1).padStart(7)}  p95 ${f.service.p95.toFixed(1).padStart(7)}  p99 ${f.service.p99.toFixed(1).padStart(7)}  raw p50 ${f.raw.p50.toFixed(1).padStart(7)}  ${f.pass ? 'PASS' : 'MISS'}  (${service.length} requests, ${f.extra!.seconds} s)`,
    );
  }
  return figures;
}
