// Benchmarks the service against the raw database driver doing the same SQL work, on a fresh
// PGlite (in memory) and/or PostgreSQL database, in one process.
//
//   npm run bench                          both databases when PostgreSQL is reachable, else PGlite
//   BENCH_DB=pglite|postgres|both          choose
//   BENCH_DATABASE_URL=postgres://...      admin connection (a fresh database is created and dropped)
//   BENCH_CONTACTS=N                       contacts seeded for list/search (default 1,000,000 / 100,000)
//   BENCH_QUICK=1                          small, fast run
//   npm run bench -- --scale N             N contacts (BENCH_CONTACTS=N) on PostgreSQL (unless BENCH_DB is set),
//                                          and only the contact and search figures (unless BENCH_ONLY is set)
//
// Figures (service vs raw db.sql.query):
//   1. bulk import of 1000 new contacts: POST /contacts/bulk until its ImportBatch is 'done',
//      vs one multi-row INSERT of 1000 rows (same columns); median of ~10 runs.
//   2. upsert of one contact (PUT /contacts/upsert, keep-alive) vs INSERT ... ON CONFLICT DO UPDATE.
//   3. (bench/lists.ts) every contact list filter and combination (status, sourceKind, assignedWorkflowId,
//      addedSince/addedBefore, searchTerm; values common, rare and matching nothing; 20 pages down), over
//      REST, the CSV export and the tool server, vs the same SELECT (listQuerySql) on the driver.
//   The seed (bench/seed.ts): N contacts shaped like a real Account's (census name frequencies, skewed
//   status and sourceKind, import bursts, five workflows with their enrollments, numbers of eight
//   countries), with no ANALYZE or VACUUM after it.
//   4. (bench/calls.ts) the dialer claiming the next 100 due calls among N enrolled contacts, with the
//      calling rules on and with every jurisdiction off, vs its claim SELECT in BEGIN/ROLLBACK;
//      GET /contacts/{id}/dialing vs the statements reading its inputs; one call.ended event applied,
//      vs one contact UPDATE.
//   5. (bench/mcp.ts) each tool server call vs the REST request for the same data (target ≤ 1.5× REST, p50).
//   BENCH_ONLY=contacts                    seed, then only the contact figures (import, upsert, lists)
//   3b. (bench/search.ts) every kind of searchTerm with terms drawn as typed (name prefixes common and rare,
//      two words, ten words, phone fragments, whole numbers in four formats, hard input), with status and
//      sourceKind filters, and in a small Account created beside the seeded one; the bytes of Contact and
//      of each of its indexes. Target: p95 < 100 ms and p99 < 250 ms; the small Account p95 < 20 ms.
//   BENCH_ONLY=search                      seed, then only the search figures (3b)
//   BENCH_ONLY=writes                      seed, then only the import and upsert figures (what indexes cost)
//   BENCH_ONLY=calls                       seed, then only the calls figures (4)
//   BENCH_ONLY=mcp                         seed, then only the tool server figures (5)
//   BENCH_ONLY=console                     seed, then only the console page figures (bench/console.ts)
//   6. (bench/board.ts) the board app's enroll action (monday's read excluded) and 1000 concurrent runs.
//   BENCH_ONLY=board                       seed, then only the board app figures (6)
//   7. (bench/voice.ts) per provider (Vapi, Retell, against their emulators): the dialer placing one
//      claimed call, our own work over the bare SDK create (target ≤ 5 ms p50); the signed end-of-call
//      webhook applied (POST /api/telephony/{provider}/{accountId}) vs one contact UPDATE.
//   BENCH_ONLY=voice                       seed, then only the voice provider figures (7)
//   8. (bench/http-edge.ts) what the rate limits and the access log add to GET /contacts/{id} (target < 0.2 ms p50);
//      (bench/bulk-update-neighbour.ts) GET /contacts/{id} during a bulk-update of 50,000 contacts vs idle (≤ 2× p50);
//      (bench/load.ts) the load figure: 50 connections for 30 s on upsert and on list against `contactline serve`
//      in its own process, with throughput, p50, p99, errors (target 0) and the server's peak memory.
//   BENCH_ONLY=load                        no seed: only the figures of 8
//   9. (bench/idempotency.ts) what an Idempotency-Key adds to an upsert of a new contact (target < 1 ms p50).
//   BENCH_ONLY=idempotency                 no seed: only the figure of 9
//   10. (bench/webhooks.ts) 1,000 call.ended webhooks to a receiver on loopback: the time until all are
//      delivered (target < 10 s on PostgreSQL) and the service's work per delivery (target < 2 ms p50).
//   BENCH_ONLY=webhooks                    no seed: only the figure of 10
//   11. (bench/sign-in.ts) GET /contacts/{id} p50/p95 while 30 console sign-ins with unknown emails run at once,
//      against idle, on `contactline serve` in its own process (target: adds < 5 ms at the p95).
//   BENCH_ONLY=signin                      no seed: only the figure of 11
//   12. (bench/dnc-registries.ts) importing a do-not-call registry file of BENCH_DNC_NUMBERS numbers
//      (default 10,000,000 on PostgreSQL, 1,000,000 on PGlite; quick 200,000), streamed to POST /dnc-registries/us_national/imports: time,
//      numbers per second and bytes stored, vs the raw driver inserting the numbers into a bigint table.
//   BENCH_ONLY=dnc                         no seed: only the figure of 12
//   13. (bench/workflow-results.ts) GET /workflows/{id}/results for a workflow with BENCH_RESULTS_CALLS calls
//      (default 1,000,000; quick 50,000) over 90 days, seeded by SQL, vs one plain SQL statement computing the same
//      aggregates (target p95 < 100 ms on PostgreSQL for the 90 days).
//   BENCH_ONLY=results                     no seed of contacts: only the figures of 13
//   14. (bench/capacity.ts) one `contactline serve` process against the raw driver with a pool of 16, on
//      BENCH_CONTACTS contacts (default 1,000,000 on PostgreSQL, 100,000 embedded): get by id, by external id,
//      the first list page and an upsert of a new contact, 16 at once (throughput ratio: reads ≤ 3×, upsert ≤ 4×);
//      get by id, the list and CSV pages one at a time (p50 overhead < 0.5 ms); a bulk import of 1000 to stored
//      (≤ 2×); the embedded service's resident memory (≤ 400 MiB at 100,000); on PostgreSQL, get by id with
//      `serve --processes 1, 2 and 4`. Writes bench/capacity.json and bench/capacity.md.
//   BENCH_ONLY=capacity                    only the figures of 14 (a database of their own)
// Writes bench/results.json and bench/results.md (with BENCH_CONTACTS set: bench/results-<N>.json
// and .md, so a run at another size keeps its own figures). A BENCH_ONLY run replaces (or adds) only its own
// figures in the results already there, each marked with the run it comes from.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { multiRowInsert, rawRow, UPSERT_SQL } from './raw-statements.js';
import type { Database } from '../src/db/database.js';
import { startTestServer, type TestServer } from '../test/support/test-server.js';
import { benchCalls } from './calls.js';
import { benchBoard } from './board.js';
import { startMondayEmulator } from '../test/support/monday-emulator/index.js';
import type { MondayConfig } from '../integration/monday/config.js';
import { benchConsole } from './console.js';
import { benchMcp } from './mcp.js';
import { benchHttpEdge } from './http-edge.js';
import { benchBulkUpdateNeighbour } from './bulk-update-neighbour.js';
import { benchIdempotency } from './idempotency.js';
import { benchWebhooks } from './webhooks.js';
import { benchSignInFlood } from './sign-in.js';
import { benchDncImport } from './dnc-registries.js';
import { benchWorkflowResults } from './workflow-results.js';
import { logger } from '../src/logger.js';
import { benchLoad, type LoadFigure } from './load.js';
import { benchCapacity, capacityMarkdown, type CapacityFigure } from './capacity.js';
import { benchListCases, listCases } from './lists.js';
import { benchSearch, contactStorage, storageMarkdown, type StorageRow } from './search.js';
import { prng, seedContacts, seedShape, type SeedResult } from './seed.js';
import { benchClock, benchVoice, startProviderEmulators } from './voice.js';
import type { DatabaseKind } from '../test/support/databases.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const QUICK = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';

/** `--scale N`: N contacts in the Account (BENCH_CONTACTS), on PostgreSQL unless BENCH_DB says otherwise. */
const SCALE = scaleArgument(process.argv.slice(2));
if (SCALE !== null) {
  process.env.BENCH_CONTACTS = String(SCALE);
  process.env.BENCH_DB ??= 'postgres';
}

function scaleArgument(args: string[]): number | null {
  const at = args.findIndex((a) => a === '--scale' || a.startsWith('--scale='));
  if (at < 0) return null;
  const value = args[at].includes('=') ? args[at].split('=')[1] : args[at + 1];
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1000)
    throw new Error(`--scale takes a whole number of contacts, 1000 or more (got ${value})`);
  return n;
}

const SETTINGS = {
  bulkRuns: QUICK ? 3 : 10,
  bulkSize: 1000,
  upsertCreates: QUICK ? 100 : 500,
  upsertUpdates: QUICK ? 50 : 200,
  // Per list case: up to listRequests timed requests, at least listMinRequests, within listBudgetMs.
  listRequests: QUICK ? 8 : 60,
  listMinRequests: QUICK ? 4 : 10,
  listBudgetMs: QUICK ? 2000 : 20_000,
  listWarmup: QUICK ? 1 : 6,
  // Per search case (bench/search.ts): more requests, for a p99 over its forty terms.
  searchRequests: QUICK ? 20 : 200,
  searchMinRequests: QUICK ? 10 : 40,
  searchBudgetMs: QUICK ? 3000 : 40_000,
  searchWarmup: QUICK ? 5 : 40,
  smallAccountContacts: QUICK ? 200 : 1000,
  // Tool calls and their REST requests take 1–20 ms: a larger sample steadies the p50 ratio.
  mcpRequests: QUICK ? 50 : 500,
  mcpWarmup: QUICK ? 10 : 50,
  consoleRequests: QUICK ? 20 : 100,
  warmup: QUICK ? 5 : 10,
  dialerRuns: QUICK ? 10 : 30,
  dialerBudgetMs: 45_000,
  dialingRequests: QUICK ? 100 : 1000,
  callEndedCalls: QUICK ? 50 : 200,
  enrollRuns: QUICK ? 100 : 300,
  voiceCalls: QUICK ? 50 : 200,
  concurrentEnrolls: 1000,
  edgeRequests: QUICK ? 500 : 5000,
  idempotencyRequests: QUICK ? 200 : 2000,
  webhookEvents: QUICK ? 200 : 1000,
  bulkUpdateNeighbour: { contacts: QUICK ? 5000 : 50_000, idleRequests: QUICK ? 50 : 300 },
  load: { connections: 50, seconds: QUICK ? 5 : 30, baselineSeconds: QUICK ? 3 : 10 },
  capacity: (kind: DatabaseKind) => ({
    contacts: Number(process.env.BENCH_CONTACTS ?? (QUICK ? 20_000 : kind === 'postgres' ? 1_000_000 : 100_000)),
    connections: 16,
    seconds: QUICK ? 3 : 10,
    sequential: QUICK ? 300 : 2000,
    bulkRuns: QUICK ? 3 : 10,
    processCounts: [1, 2, 4],
  }),
  signIn: { parallel: 30, phaseSeconds: QUICK ? 4 : 10, warmup: 20 },
  // 10 million on PostgreSQL (the figure of record); PGlite keeps its database in the process's memory.
  dncNumbers: (kind: DatabaseKind) =>
    Number(process.env.BENCH_DNC_NUMBERS ?? (QUICK ? 200_000 : kind === 'postgres' ? 10_000_000 : 1_000_000)),
};
const GROUPS = [
  'contacts',
  'search',
  'writes',
  'mcp',
  'console',
  'voice',
  'board',
  'calls',
  'load',
  'idempotency',
  'webhooks',
  'signin',
  'dnc',
  'results',
  'capacity',
] as const;
const ONLY = GROUPS.find((group) => group === process.env.BENCH_ONLY);
/**
 * Whether a group of figures runs: all of them, or only BENCH_ONLY's; with --scale and no
 * BENCH_ONLY, the contact and search figures (the other groups' figures do not depend on the
 * Account's size, and would take hours at ten million).
 */
const runs = (group: (typeof GROUPS)[number]) =>
  ONLY === undefined ? SCALE === null || group === 'contacts' || group === 'search' : ONLY === group;

// ---------------------------------------------------------------------------------------------
// Data

export const FIRST_NAMES =
  `James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan
Joseph Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra Donald
Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa
Timothy Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas
Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon Helen Benjamin Samantha
Samuel Katherine Gregory Christine Alexander Debra Frank Rachel Patrick Carolyn Raymond Janet Jack Catherine Dennis Maria
Jerry Heather Tyler Diane Aaron Ruth Jose Julie Adam Olivia Nathan Joyce Henry Virginia Douglas Victoria Zachary Kelly
Peter Lauren Kyle Christina Ethan Joan Walter Evelyn Noah Judith Jeremy Megan Christian Andrea Keith Cheryl Roger Hannah
Terry Jacqueline Gerald Martha Harold Gloria Sean Teresa Austin Ann Carl Sara Arthur Madison Lawrence Frances Dylan Kathryn
Jesse Janice Jordan Jean Bryan Abigail Billy Alice Joe Judy Bruce Sophia Gabriel Grace Logan Denise Albert Amber Willie
Doris Alan Marilyn Juan Danielle Wayne Beverly Elijah Isabella Randy Theresa Roy Diana Vincent Natalie Ralph Brittany
Eugene Charlotte Russell Marie Bobby Kayla Mason Alexis Philip Lori Louis Wei Mohammed Priya Hiroshi Yuki Fatima Carlos
Sofia Luis Camila Miguel Valentina Ahmed Aisha Raj Ananya Ivan Olga Giovanni Chiara Lars Ingrid Kwame Amara`.split(
    /\s+/,
  );

export const LAST_NAMES =
  `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson
Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker
Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter
Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers
Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood
James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins
Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson
Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar
Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen
Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz
Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels
Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley Spencer Hawkins Arnold Pierce Vazquez Hansen
Peters Santos Hart Bradley Knight Elliott Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray
Delgado Berry Perkins Hoffman Johnston Matthews Pena Richards Contreras Willis Carpenter Lawrence Sandoval Okafor Yamamoto
Kowalski Novak Rossi Müller Dubois`.split(/\s+/);

/** Area codes of the benchmark's own writes: not in the seed (bench/seed.ts), so every write is new. */
const WRITE_AREAS = [415, 646, 617, 702, 512, 503, 602, 404, 408, 425];

const rand = prng(20260401);
export const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];

let phoneCounter = 0;
/** A fresh, valid US number never used before in this process (and not in the seed). */
export function freshPhone(): string {
  const n = phoneCounter++;
  const area = WRITE_AREAS[n % WRITE_AREAS.length];
  const local = 2_000_000 + Math.floor(n / WRITE_AREAS.length);
  return `+1${area}${local}`;
}

// ---------------------------------------------------------------------------------------------
// Statistics

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: s.length,
    p50: round(q(0.5)),
    p95: round(q(0.95)),
    p99: round(q(0.99)),
    mean: round(s.reduce((a, b) => a + b, 0) / s.length),
    min: round(s[0]),
    max: round(s[s.length - 1]),
  };
}

export const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Results

export interface Figure {
  id: string;
  name: string;
  service: Stats;
  raw: Stats;
  /** service / raw, on p50 and p95. */
  ratioP50: number | null;
  ratioP95: number | null;
  target: string;
  pass: boolean | null;
  notes?: string;
  /** EXPLAIN (ANALYZE, BUFFERS) of the slowest variant of a query figure. */
  explain?: { variant: string; plan: string };
  extra?: Record<string, unknown>;
  /** Set on a figure merged in from a BENCH_ONLY run (see mergePartialRun): which run it comes from. */
  partialRun?: string;
}

/** What a figure says besides its samples; `pass` judges the service's stats and the p50 ratio. */
type FigureSpec = Omit<Figure, 'service' | 'raw' | 'ratioP50' | 'ratioP95' | 'pass'> & {
  pass: (service: Stats, ratioP50: number | null) => boolean | null;
};

/** A figure from the service's and the raw driver's samples (ms): their stats and ratios. */
export function figure(
  serviceMs: number[],
  rawMs: number[],
  { id, name, target, pass, notes, explain, extra }: FigureSpec,
): Figure {
  const service = stats(serviceMs);
  const raw = stats(rawMs);
  const ratioP50 = ratio(service.p50, raw.p50);
  return {
    id,
    name,
    service,
    raw,
    ratioP50,
    ratioP95: ratio(service.p95, raw.p95),
    target,
    pass: pass(service, ratioP50),
    notes,
    explain,
    extra,
  };
}

export interface DatabaseResult {
  kind: DatabaseKind;
  serverVersion: string;
  contacts: number;
  seedSeconds: number;
  tableSize: string;
  figures: Figure[];
  /** The seed of the run (bench/seed.ts): its steps, and, when the contact figures ran, its shape and statistics state. */
  seed?: SeedInfo;
  /** The load figures (bench/load.ts), on a database of their own. */
  load?: Array<LoadFigure & { partialRun?: string }>;
}

interface SeedInfo {
  /** Which run it describes (set on a result merged from a BENCH_ONLY run). */
  run?: string;
  contacts: number;
  seconds: number;
  tableSize: string;
  enrollments: number;
  steps: Record<string, number>;
  /** Whether the server runs autovacuum, and when Contact was last analyzed (never, unless autovacuum did it). */
  statistics?: { autovacuum: string; lastAnalyze: string | null; lastAutoanalyze: string | null };
  shape?: Record<string, unknown>;
  /** Bytes of Contact and of each of its indexes (bench/search.ts). */
  storage?: StorageRow[];
  /** The run the storage table comes from, when not the seed's own (a BENCH_ONLY=search run). */
  storageRun?: string;
}

// ---------------------------------------------------------------------------------------------
// HTTP

async function http(
  server: TestServer,
  apiKey: string,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(server.baseUrl + urlPath, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

function expectStatus(result: { status: number; text: string }, ok: number[], what: string): void {
  if (!ok.includes(result.status)) throw new Error(`${what}: HTTP ${result.status}: ${result.text.slice(0, 500)}`);
}

// ---------------------------------------------------------------------------------------------
// Raw statements (the baseline)

// ---------------------------------------------------------------------------------------------
// Figures

async function benchBulkImport(
  server: TestServer,
  db: Database,
  account: { accountId: string; apiKey: string },
): Promise<Figure> {
  const doneCount = async () =>
    (
      await db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "ImportBatch" WHERE "accountId" = $1::uuid AND "status" = 'done'`,
        [account.accountId],
      )
    ).rows[0].n;
  const storedCount = async (phones: string[]) =>
    (
      await db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "Contact" WHERE "accountId" = $1::uuid AND "dedupKey" = ANY($2::text[])`,
        [account.accountId, phones.map((p) => `phone=${p}`)],
      )
    ).rows[0].n;

  const service: number[] = [];
  const accepted: number[] = [];
  const raw: number[] = [];
  for (let run = -1; run < SETTINGS.bulkRuns; run++) {
    // Service: from the POST to the batch being 'done' (its contacts committed with it).
    const items = Array.from({ length: SETTINGS.bulkSize }, () => ({
      sourceKind: 'api',
      externalId: null,
      phone: freshPhone(),
      firstName: pick(FIRST_NAMES),
      lastName: pick(LAST_NAMES),
    }));
    const before = await doneCount();
    const t0 = performance.now();
    const response = await http(server, account.apiKey, 'POST', '/api/v1/contacts/bulk', { contacts: items });
    const tAccepted = performance.now() - t0;
    expectStatus(response, [202], 'bulk import');
    const deadline = Date.now() + 60_000;
    while ((await doneCount()) <= before) {
      if (Date.now() > deadline) throw new Error('bulk import batch not done within 60 s');
      await sleep(2);
    }
    const tDone = performance.now() - t0;
    const stored = await storedCount(items.map((i) => i.phone));
    if (stored !== SETTINGS.bulkSize) throw new Error(`bulk import stored ${stored} of ${SETTINGS.bulkSize}`);
    const parsed = JSON.parse(response.text) as { accepted: number };
    if (parsed.accepted !== SETTINGS.bulkSize) throw new Error(`bulk import accepted ${parsed.accepted}`);

    // Raw: one multi-row INSERT of as many fresh rows, same columns.
    const rows = Array.from({ length: SETTINGS.bulkSize }, () =>
      rawRow(account.accountId, freshPhone(), pick(FIRST_NAMES), pick(LAST_NAMES)),
    );
    const { text, values } = multiRowInsert(rows);
    const [tRaw, result] = await timed(() => db.sql.query(text, values));
    if (result.rows.length !== SETTINGS.bulkSize) throw new Error(`raw insert wrote ${result.rows.length}`);
    if (run >= 0) {
      service.push(tDone);
      accepted.push(tAccepted);
      raw.push(tRaw);
    }
  }
  return figure(service, raw, {
    id: 'bulk-import-1000',
    name: `Bulk import of ${SETTINGS.bulkSize} new contacts (POST → batch done)`,
    target: '≤ 3× raw and < 1000 ms (median)',
    pass: (s, ratioP50) => s.p50 < 1000 && ratioP50 !== null && ratioP50 <= 3,
    notes: `raw: one ${SETTINGS.bulkSize}-row INSERT ... VALUES ... ON CONFLICT DO NOTHING; p50 is the median of ${SETTINGS.bulkRuns} runs`,
    extra: { acceptedMs: stats(accepted) },
  });
}

async function benchUpsert(
  server: TestServer,
  db: Database,
  account: { accountId: string; apiKey: string },
  kind: DatabaseKind,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const created: Array<{ phone: string }> = [];
  const rawCreated: Array<{ phone: string }> = [];
  const upsert = (body: unknown) => http(server, account.apiKey, 'PUT', '/api/v1/contacts/upsert', body);

  for (let i = 0; i < SETTINGS.warmup; i++) {
    expectStatus(
      await upsert({ phone: freshPhone(), firstName: pick(FIRST_NAMES), lastName: pick(LAST_NAMES) }),
      [201],
      'upsert warm-up',
    );
    await db.sql.query(UPSERT_SQL, rawRow(account.accountId, freshPhone(), pick(FIRST_NAMES), pick(LAST_NAMES)));
  }

  // Creates: a new phone each time. Service and raw alternate, so load from other processes
  // on the machine falls on both alike.
  const service: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < SETTINGS.upsertCreates; i++) {
    const body = { phone: freshPhone(), firstName: pick(FIRST_NAMES), lastName: pick(LAST_NAMES) };
    const [ms, res] = await timed(() => upsert(body));
    expectStatus(res, [201], 'upsert (create)');
    service.push(ms);
    created.push(body);
    const phone = freshPhone();
    const [rawMs] = await timed(() =>
      db.sql.query(UPSERT_SQL, rawRow(account.accountId, phone, pick(FIRST_NAMES), pick(LAST_NAMES))),
    );
    raw.push(rawMs);
    rawCreated.push({ phone });
  }
  figures.push(
    upsertFigure('upsert-create', 'Upsert one contact, new (PUT /contacts/upsert → 201)', service, raw, kind),
  );

  // Updates: an existing phone, new name.
  const serviceU: number[] = [];
  const rawU: number[] = [];
  for (let i = 0; i < SETTINGS.upsertUpdates; i++) {
    const body = { phone: created[i % created.length].phone, firstName: pick(FIRST_NAMES), lastName: pick(LAST_NAMES) };
    const [ms, res] = await timed(() => upsert(body));
    expectStatus(res, [200], 'upsert (update)');
    serviceU.push(ms);
    const row = rawRow(account.accountId, rawCreated[i % rawCreated.length].phone, pick(FIRST_NAMES), pick(LAST_NAMES));
    const [rawMs] = await timed(() => db.sql.query(UPSERT_SQL, row));
    rawU.push(rawMs);
  }
  figures.push(
    upsertFigure('upsert-update', 'Upsert one contact, existing (PUT /contacts/upsert → 200)', serviceU, rawU, kind),
  );
  return figures;
}

function upsertFigure(id: string, name: string, service: number[], raw: number[], kind: DatabaseKind): Figure {
  return figure(service, raw, {
    id,
    name,
    target: kind === 'postgres' ? 'p50 < 5 ms' : 'p50 < 5 ms (stated for PostgreSQL; informational here)',
    pass: (s) => (kind === 'postgres' ? s.p50 < 5 : null),
    notes:
      'sequential requests, keep-alive fetch; raw: single-row INSERT ... ON CONFLICT ("accountId","dedupKey") DO UPDATE RETURNING',
  });
}

/** The HTTP floor: GET /healthz (express + SELECT 1, no auth) vs raw SELECT 1. Informational. */
async function benchHttpFloor(server: TestServer, db: Database): Promise<Figure> {
  const service: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < SETTINGS.warmup + SETTINGS.listRequests; i++) {
    const [ms, res] = await timed(async () => {
      const response = await fetch(`${server.baseUrl}/healthz`);
      return { status: response.status, text: await response.text() };
    });
    expectStatus(res, [200], 'healthz');
    const [rawMs] = await timed(() => db.sql.query('SELECT 1'));
    if (i >= SETTINGS.warmup) {
      service.push(ms);
      raw.push(rawMs);
    }
  }
  return figure(service, raw, {
    id: 'http-floor',
    name: 'HTTP floor: GET /healthz (SELECT 1, no auth)',
    target: 'informational',
    pass: () => null,
  });
}

/** The search terms of the list figures measured before the realistic seed (same terms, to compare). */
export function legacyTerms(): { namePrefixes: string[]; digitTerms: string[] } {
  const namePrefixes = [
    'mar',
    'jo smi',
    'jo',
    'ann',
    'chr',
    'wil',
    'dav',
    'gar',
    'rob',
    'jen',
    'ste',
    'kim',
    'ngu',
    'pat',
    'mic joh',
    'ka',
    'li',
    'eli',
    'sar wil',
    'tho',
    'alex',
    'rodr',
    'mart',
    'j',
    'be',
    'okaf',
    'yam',
    'jam bro',
    'ma ga',
    'zz',
  ];
  const digitTerms = Array.from({ length: 40 }, (_, i) => {
    const len = i % 2 === 0 ? 4 : 5;
    return Array.from({ length: len }, () => Math.floor(rand() * 10)).join('');
  });
  return { namePrefixes, digitTerms };
}

// ---------------------------------------------------------------------------------------------
// Driver

async function benchDatabase(kind: DatabaseKind, pgUrl: string): Promise<DatabaseResult> {
  if (kind === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  const n = Number(
    process.env.BENCH_CONTACTS ??
      (QUICK ? (kind === 'postgres' ? 20_000 : 10_000) : kind === 'postgres' ? 1_000_000 : 100_000),
  );
  log(`\n== ${kind}: starting service on a fresh database`);
  // The board app is on, pointed at the monday emulator on loopback (its figures: bench/board.ts).
  // No trigger delivery worker: it would poll for call-ended events under the other figures.
  const monday = await startMondayEmulator({
    signingSecret: 'bench-signing-secret',
    appId: 1,
    now: () => benchClock.now().getTime(),
  });
  const mondayConfig: MondayConfig = {
    signingSecret: 'bench-signing-secret',
    appId: 1,
    apiUrl: monday.url,
    apiVersion: '2026-10',
    publicBaseUrl: null,
    tokenKey: randomBytes(32),
  };
  // The Vapi and Retell adapters point at their emulators on loopback (bench/voice.ts).
  const emulators = runs('voice') ? await startProviderEmulators() : null;
  // One clock for the service and the emulators: real time, moved on by the voice figures (see benchClock).
  // The rate limits stay on (their cost is part of every figure), far above what the bench sends:
  // the tool server group alone sends thousands of requests a minute with one key.
  const edge = { RATE_LIMIT_PER_KEY: 100_000_000, RATE_LIMIT_PER_ADDRESS: 100_000_000 };
  const server = await startTestServer(kind, {
    clock: benchClock,
    monday: mondayConfig,
    triggerDelivery: false,
    edge,
    // The webhook figure sends to a receiver on loopback; the service's worker stays off (the figure runs its pass).
    webhooks: { allowHttpLoopback: true },
    ...(emulators ? { voice: emulators.urls } : {}),
  });
  try {
    const db = server.service.services.db;
    const version = (await db.sql.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0].v;
    const account = await server.createAccount();
    const figures: Figure[] = [];
    const idempotencyFigure = () =>
      benchIdempotency(
        server,
        account.apiKey,
        { requests: SETTINGS.idempotencyRequests, warmup: SETTINGS.warmup * 10 },
        log,
      );
    const webhookFigure = () => benchWebhooks(server, { events: SETTINGS.webhookEvents }, log);
    const signInFigure = () => benchSignInFlood(kind, SETTINGS.signIn, log);
    const dncFigure = () => benchDncImport(server, { numbers: SETTINGS.dncNumbers(kind) }, log);
    const resultsFigures = () =>
      benchWorkflowResults(
        server,
        {
          calls: Number(process.env.BENCH_RESULTS_CALLS ?? (QUICK ? 50_000 : 1_000_000)),
          requests: QUICK ? 20 : 200,
          warmup: QUICK ? 2 : 10,
          rawRuns: QUICK ? 3 : 10,
        },
        log,
      );
    if (
      ONLY === 'load' ||
      ONLY === 'idempotency' ||
      ONLY === 'webhooks' ||
      ONLY === 'signin' ||
      ONLY === 'dnc' ||
      ONLY === 'results'
    ) {
      // The load figures need no seed: the edge figure reads one contact, the load runs have a database of their own;
      // the idempotency and webhook figures write contacts of their own, in Accounts of their own; the sign-in
      // figure runs a service of its own.
      if (ONLY === 'idempotency') figures.push(await idempotencyFigure());
      else if (ONLY === 'webhooks') figures.push(await webhookFigure());
      else if (ONLY === 'signin') figures.push(await signInFigure());
      else if (ONLY === 'dnc') figures.push(await dncFigure());
      else if (ONLY === 'results') figures.push(...(await resultsFigures()));
      else {
        figures.push(
          await benchHttpEdge(
            server,
            account.apiKey,
            { requests: SETTINGS.edgeRequests, warmup: SETTINGS.warmup * 50 },
            log,
          ),
        );
        figures.push(await benchBulkUpdateNeighbour(server, SETTINGS.bulkUpdateNeighbour, log));
      }
      const tableSize = (
        await db.sql.query<{ s: string }>(`SELECT pg_size_pretty(pg_total_relation_size('"Contact"')) AS s`)
      ).rows[0].s;
      const result: DatabaseResult = { kind, serverVersion: version, contacts: 0, seedSeconds: 0, tableSize, figures };
      printTable(result);
      return result;
    }
    log(`   seeding ${n.toLocaleString('en-US')} contacts…`);
    const seeded: SeedResult = await seedContacts(db, account.accountId, n);
    const seedSeconds = seeded.seconds;
    const tableSize = (
      await db.sql.query<{ s: string }>(`SELECT pg_size_pretty(pg_total_relation_size('"Contact"')) AS s`)
    ).rows[0].s;
    log(
      `   seeded in ${seedSeconds.toFixed(1)} s (Contact with indexes: ${tableSize}; ${seeded.enrollments.toLocaleString('en-US')} enrollments); steps (s): ${JSON.stringify(seeded.steps)}`,
    );
    const seed: SeedInfo = {
      contacts: n,
      seconds: Math.round(seedSeconds * 10) / 10,
      tableSize,
      enrollments: seeded.enrollments,
      steps: seeded.steps,
    };

    if (runs('contacts')) {
      log('   lists: every filter and combination (REST, CSV, tool server)…');
      figures.push(await benchHttpFloor(server, db));
      figures.push(
        ...(await benchListCases(
          server,
          db,
          account,
          kind,
          listCases(seeded, legacyTerms()),
          {
            requests: SETTINGS.listRequests,
            minRequests: SETTINGS.listMinRequests,
            budgetMs: SETTINGS.listBudgetMs,
            warmup: SETTINGS.listWarmup,
            contacts: n,
          },
          log,
        )),
      );
      // Read after the list figures, so that neither warms what they measure.
      seed.statistics = await statisticsState(db);
      seed.shape = await seedShape(db, account.accountId, seeded.workflows);
    }
    if (runs('search')) {
      log('   search: every kind of term, with filters, hard input, and a small Account beside this one…');
      figures.push(
        ...(await benchSearch(
          server,
          db,
          account,
          kind,
          n,
          {
            requests: SETTINGS.searchRequests,
            minRequests: SETTINGS.searchMinRequests,
            budgetMs: SETTINGS.searchBudgetMs,
            warmup: SETTINGS.searchWarmup,
            smallAccountContacts: SETTINGS.smallAccountContacts,
          },
          log,
        )),
      );
      seed.storage = await contactStorage(db);
    }
    if (runs('contacts') || ONLY === 'writes') {
      log('   bulk import…');
      figures.unshift(await benchBulkImport(server, db, account));
      log('   upsert…');
      figures.splice(1, 0, ...(await benchUpsert(server, db, account, kind)));
    }
    if (runs('mcp')) {
      log('   tool server (MCP) vs REST…');
      figures.push(
        ...(await benchMcp(server, account, { requests: SETTINGS.mcpRequests, warmup: SETTINGS.mcpWarmup }, log)),
      );
    }
    if (runs('console')) {
      figures.push(
        ...(await benchConsole(server, account, { requests: SETTINGS.consoleRequests, warmup: SETTINGS.warmup }, log)),
      );
    }
    if (runs('load')) {
      figures.push(
        await benchHttpEdge(
          server,
          account.apiKey,
          { requests: SETTINGS.edgeRequests, warmup: SETTINGS.warmup * 50 },
          log,
        ),
      );
      figures.push(await benchBulkUpdateNeighbour(server, SETTINGS.bulkUpdateNeighbour, log));
    }
    if (runs('idempotency')) figures.push(await idempotencyFigure());
    if (runs('webhooks')) figures.push(await webhookFigure());
    if (runs('signin')) figures.push(await signInFigure());
    if (runs('dnc')) figures.push(await dncFigure());
    if (runs('results')) figures.push(...(await resultsFigures()));
    // Before board and calls: the dialer must claim only the voice figures' own calls.
    if (emulators) {
      figures.push(
        ...(await benchVoice(server, emulators, kind, { calls: SETTINGS.voiceCalls, warmup: SETTINGS.warmup }, log)),
      );
    }
    if (runs('board')) {
      figures.push(
        ...(await benchBoard(
          server,
          monday,
          mondayConfig,
          { enrollRuns: SETTINGS.enrollRuns, warmup: SETTINGS.warmup, concurrentRuns: SETTINGS.concurrentEnrolls },
          log,
        )),
      );
    }
    // Last: they enroll every contact of the account and change some of them.
    if (runs('calls'))
      figures.push(
        ...(await benchCalls(
          server,
          account,
          kind,
          {
            dialerRuns: SETTINGS.dialerRuns,
            dialerBudgetMs: SETTINGS.dialerBudgetMs,
            dialingRequests: SETTINGS.dialingRequests,
            callEndedCalls: SETTINGS.callEndedCalls,
            warmup: SETTINGS.warmup,
          },
          log,
        )),
      );
    const result: DatabaseResult = {
      kind,
      serverVersion: version,
      contacts: n,
      seedSeconds: Math.round(seedSeconds * 10) / 10,
      tableSize,
      figures,
      seed,
    };
    printTable(result);
    return result;
  } finally {
    await server.stop();
    await monday.close();
    await emulators?.stop();
  }
}

/** Whether statistics exist for Contact: the server's autovacuum setting and the table's last (auto)analyze. */
async function statisticsState(db: Database): Promise<SeedInfo['statistics']> {
  const { rows } = await db.sql.query<{ autovacuum: string; last_analyze: Date | null; last_autoanalyze: Date | null }>(
    `SELECT current_setting('autovacuum') AS autovacuum, s.last_analyze, s.last_autoanalyze
     FROM (SELECT 1) AS one LEFT JOIN pg_stat_user_tables s ON s.relname = 'Contact' AND s.schemaname = current_schema()`,
  );
  const at = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  // PGlite has the setting but runs no background worker: nothing analyzes a table by itself.
  return {
    autovacuum: db.kind === 'pglite' ? 'none (PGlite runs no autovacuum worker)' : rows[0].autovacuum,
    lastAnalyze: at(rows[0].last_analyze),
    lastAutoanalyze: at(rows[0].last_autoanalyze),
  };
}

function log(message: string) {
  process.stdout.write(`${message}\n`);
}

/** A figure in ms as the tables print it: whole above 100, else one decimal; — when absent. */
export const fmt = (x: number | null | undefined) =>
  x === null || x === undefined ? '—' : x >= 100 ? x.toFixed(0) : x.toFixed(1);
const verdict = (pass: boolean | null) => (pass === null ? 'n/a' : pass ? 'PASS' : 'MISS');

function printTable(result: DatabaseResult) {
  const header = ['figure', 'service p50', 'service p95', 'raw p50', 'raw p95', '× p50', '× p95', 'target', ''];
  const rows = result.figures.map((f) => [
    f.id,
    fmt(f.service.p50),
    fmt(f.service.p95),
    fmt(f.raw.p50),
    fmt(f.raw.p95),
    fmt(f.ratioP50),
    fmt(f.ratioP95),
    f.target,
    verdict(f.pass),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i >= 7 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  log(
    `\n${result.kind} ${result.serverVersion}: ${result.contacts.toLocaleString('en-US')} contacts in one account (seeded in ${result.seedSeconds} s, ${result.tableSize}); times in ms`,
  );
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) log(line(r));
  const bulk = result.figures.find((f) => f.id === 'bulk-import-1000');
  const acceptedMs = (bulk?.extra?.acceptedMs as Stats | undefined)?.p50;
  if (acceptedMs !== undefined)
    log(
      `bulk import: the 202 came after ${fmt(acceptedMs)} ms (median); the batch was done after ${fmt(bulk!.service.p50)} ms`,
    );
  for (const f of result.figures) {
    const prisma = f.extra?.prismaQueryRawMs as Stats | undefined;
    if (prisma) log(`${f.id}: same SELECT through prisma.$queryRaw p50 ${fmt(prisma.p50)} / p95 ${fmt(prisma.p95)} ms`);
  }
  // The list figures' plans are in results.md (there are dozens).
  for (const f of result.figures) {
    if (f.pass === false && f.explain && !f.extra?.listCase)
      log(`\nMISS ${f.id}: slowest variant ${JSON.stringify(f.explain.variant)}\n${f.explain.plan}`);
  }
  const listMisses = result.figures.filter((f) => f.extra?.listCase && f.pass === false).map((f) => f.id);
  if (listMisses.length)
    log(`\nList figures missing their target (plans in bench/results.md): ${listMisses.join(', ')}`);
}

const LOAD_HEADER = [
  'load figure',
  'conn × s',
  'requests',
  'per s',
  'p50',
  'p99',
  'errors',
  'peak MiB',
  'raw per s',
  'raw p50',
  'raw p99',
  '× per s',
  'target',
  '',
];
const loadCells = (f: LoadFigure) => [
  f.id,
  `${f.connections} × ${f.seconds}`,
  String(f.requests),
  String(f.throughput),
  fmt(f.p50),
  fmt(f.p99),
  String(f.errors),
  String(f.peakMemoryMiB),
  String(f.baseline.throughput),
  fmt(f.baseline.p50),
  fmt(f.baseline.p99),
  fmt(f.throughputRatio),
  f.target,
  verdict(f.pass),
];

function printLoad(result: DatabaseResult) {
  const rows = (result.load ?? []).map(loadCells);
  const widths = LOAD_HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i >= 12 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  log(`\n${result.kind}: load (contactline serve in its own process; times in ms)`);
  log(line(LOAD_HEADER));
  for (const r of rows) log(line(r));
}

/** The load figures as a markdown table, with what they are. */
function loadMarkdown(load: Array<LoadFigure & { partialRun?: string }>): string[] {
  const out = [
    '',
    '| Load | Connections × s | Requests | Per second | p50 | p99 | Errors | Peak memory (MiB) | Raw driver per second | Raw p50 | Raw p99 | × per second | Target | |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const f of load) {
    const c = loadCells(f);
    out.push(`| ${f.name}${f.partialRun ? ' ¹' : ''} | ${c.slice(1, 13).join(' | ')} | ${c[13]} |`);
  }
  out.push('');
  out.push(
    'Load rows: autocannon from the benchmark process against `contactline serve` in a process of its own (access log on, written to /dev/null; ' +
      'rate limits on, raised above the load), on a fresh database (the embedded one in a data directory, or PostgreSQL). Errors are non-2xx answers, ' +
      "connection errors and timeouts. Peak memory is the service process's peak resident set (VmHWM) during the run; on PostgreSQL the database server is not in it. " +
      '"Raw" is the driver in the benchmark process running the same statements from as many concurrent loops on the same data afterwards; × is service ÷ raw.',
  );
  const partialRuns = [...new Set(load.map((f) => f.partialRun).filter((x): x is string => x !== undefined))];
  if (partialRuns.length) out.push(`¹ Load rows from the ${partialRuns.join('; ')}.`);
  return out;
}

/** The realistic seed in a few sentences, from what the run recorded. */
function seedParagraph(seed: SeedInfo): string {
  const steps = Object.entries(seed.steps);
  const indexSteps = steps.filter(([name]) => !['setup', 'contacts', 'enrollments', 'indexes'].includes(name));
  // Two at a time since 30 November (bench/seed.ts): their wall time, else their sum.
  const indexSeconds = seed.steps.indexes ?? indexSteps.reduce((a, [, t]) => a + t, 0);
  const slowest = indexSteps.sort((a, b) => b[1] - a[1]).slice(0, 2);
  const lines = [
    `Seed${seed.run ? ` of the ${seed.run}` : ''} (bench/seed.ts): ${seed.contacts.toLocaleString('en-US')} contacts and ${seed.enrollments.toLocaleString('en-US')} enrollments in ${seed.seconds} s ` +
      `(Contact INSERT … SELECT ${seed.steps.contacts} s, Enrollment INSERT ${seed.steps.enrollments} s, indexes rebuilt ${Math.round(indexSeconds * 10) / 10} s${seed.steps.indexes !== undefined ? ' two at a time' : ''}, ` +
      `of which ${slowest.map(([name, t]) => `${name} ${t} s`).join(', ')}; Contact with its indexes: ${seed.tableSize}). ` +
      'Names by 1990 US Census frequency (3% without a first name, 5% without a last name), status and sourceKind skewed as in bench/seed.ts, ' +
      'createdAt over two years (10% in 300 import bursts of up to thousands of contacts in one minute), 20.6% of the contacts in five workflows with their enrollments, ' +
      'numbers of eight countries (US 60%). No ANALYZE or VACUUM after the seed' +
      (seed.statistics
        ? `: autovacuum ${seed.statistics.autovacuum}, and after the list figures Contact had last been analyzed ${seed.statistics.lastAnalyze ?? seed.statistics.lastAutoanalyze ?? 'never'}`
        : '') +
      '.',
  ];
  const shape = seed.shape as Record<string, Record<string, number> | number[]> | undefined;
  if (shape) {
    const top = (key: string, k: number) =>
      Object.entries(shape[key] as Record<string, number>)
        .slice(0, k)
        .map(([v, c]) => `${v} ${c.toLocaleString('en-US')}`)
        .join(', ');
    lines.push(
      `As stored: status ${top('status', 16)}; sourceKind ${top('sourceKind', 7)}; first names ${top('firstName', 6)}; last names ${top('lastName', 6)}; ` +
        `contacts per workflow ${top('assignedWorkflowId', 6)}; the busiest minutes of createdAt ${(shape.busiestMinutes as number[]).map((c) => c.toLocaleString('en-US')).join(', ')} contacts; ` +
        `enrollments ${top('enrollments', 9)}.`,
    );
  }
  return lines.join('\n');
}

export function markdown(results: DatabaseResult[], meta: Record<string, unknown>): string {
  const out: string[] = [];
  out.push(`# Contactline benchmark`);
  out.push('');
  out.push(
    `${meta.generatedAt} · ${meta.cpus} × ${meta.cpuModel} · Node ${meta.node} · load average ${(meta.loadAverageAtStart as number[]).join('/')} at start, ${(meta.loadAverageAtEnd as number[]).join('/')} at end${meta.quick ? ' · **quick run**' : ''}`,
  );
  out.push('');
  out.push(
    'Each figure is the service end to end (HTTP on a listening server, keep-alive) against the raw database driver',
  );
  out.push(
    '(`db.sql.query`) doing the same SQL work, in the same process and on the same database. Times in milliseconds;',
  );
  out.push('× is service ÷ raw.');
  for (const r of results) {
    out.push('');
    out.push(
      `## ${r.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)'} ${r.serverVersion}, ${r.contacts.toLocaleString('en-US')} contacts in one account`,
    );
    out.push('');
    out.push('| Figure | Service p50 | Service p95 | Raw p50 | Raw p95 | × p50 | × p95 | Target | |');
    out.push('|---|---:|---:|---:|---:|---:|---:|---|---|');
    for (const f of r.figures) {
      out.push(
        `| ${f.name}${f.partialRun ? ' ¹' : ''} | ${fmt(f.service.p50)} | ${fmt(f.service.p95)} | ${fmt(f.raw.p50)} | ${fmt(f.raw.p95)} | ${fmt(f.ratioP50)} | ${fmt(f.ratioP95)} | ${f.target} | ${verdict(f.pass)} |`,
      );
    }
    if (r.load?.length) out.push(...loadMarkdown(r.load));
    const bulk = r.figures.find((f) => f.id === 'bulk-import-1000');
    const acceptedMs = (bulk?.extra?.acceptedMs as Stats | undefined)?.p50;
    out.push('');
    const partialRuns = [...new Set(r.figures.map((f) => f.partialRun).filter((x): x is string => x !== undefined))];
    if (partialRuns.length) out.push(`¹ Not from the run above: ${partialRuns.join('; ')}.`);
    if (!r.seed || r.seed.run)
      out.push(`Seed of the run above: ${r.seedSeconds} s (Contact with its indexes: ${r.tableSize}).`);
    if (r.seed) out.push(seedParagraph(r.seed));
    if (r.seed?.storage) {
      out.push('', ...storageMarkdown(r.seed.storage, r.contacts));
      if (r.seed.storageRun) out.push('', `Storage measured by the ${r.seed.storageRun}.`);
    }
    const prismaLines = r.figures
      .filter((f) => f.extra?.prismaQueryRawMs)
      .map(
        (f) =>
          `${f.id} ${fmt((f.extra!.prismaQueryRawMs as Stats).p50)}/${fmt((f.extra!.prismaQueryRawMs as Stats).p95)}`,
      );
    if (prismaLines.length)
      out.push(`The same list SELECTs through prisma.$queryRaw (p50/p95 ms): ${prismaLines.join(', ')}.`);
    if (r.figures.some((f) => f.id.startsWith('mcp-')))
      out.push(
        'Tool rows: "service" is the tool call (POST /api/mcp, tools/call), "raw" the REST request for the same data, alternating; × is tool ÷ REST.',
      );
    if (acceptedMs !== undefined)
      out.push(
        `Bulk import: the 202 arrived after ${fmt(acceptedMs)} ms (median); the batch was done after ${fmt(bulk!.service.p50)} ms.`,
      );
    const claim = r.figures.find((f) => f.id === 'dialer-claim-100');
    const inTx = claim?.extra?.inTransaction as
      | { claimSelectMs: Stats; otherStatementsMs: Stats; statementsPerRun: number }
      | undefined;
    if (claim && inTx) {
      out.push(
        `Dialer claim (${claim.service.n} runs): inside its transaction the claim SELECT took ${fmt(inTx.claimSelectMs.p50)} ms (p50) and the other ` +
          `${inTx.statementsPerRun - 1} statements (Call INSERTs, in-flight UPDATE) ${fmt(inTx.otherStatementsMs.p50)} ms in all; ${claim.extra!.enrollments} enrollments seeded in ${claim.extra!.enrollmentSeedSeconds} s.`,
      );
    }
    const placing = r.figures.filter((f) => f.id.startsWith('place-call-'));
    if (placing.length) {
      out.push(
        'Placing rows: "service" is our own work, each dialer run placing one call minus the bare SDK create with the same body sent right after it to the same emulator; ' +
          '"raw" is that SDK create (the provider\'s answer time); × is our work ÷ the SDK create. ' +
          placing
            .map((f) => {
              const x = f.extra as { dialerMs: Stats; adapterPlaceCallMs: Stats };
              return `${f.id}: whole dialer run p50 ${fmt(x.dialerMs.p50)} / p95 ${fmt(x.dialerMs.p95)} ms, the adapter's placeCall inside it p50 ${fmt(x.adapterPlaceCallMs.p50)} ms`;
            })
            .join('; ') +
          '.',
      );
    }
    const hooks = r.figures.filter((f) => f.id.startsWith('webhook-'));
    if (hooks.length)
      out.push(
        `Webhook rows: the events each end-of-call message applied (in one transaction): ${hooks.map((f) => `${f.id} ${f.extra?.events}`).join('; ')}.`,
      );
    const ended = r.figures.find((f) => f.id === 'call-ended');
    if (ended)
      out.push(
        `Call-ended: ${ended.service.n} events, ${ended.extra?.statementsPerEvent} statements each (p50), results ${JSON.stringify(ended.extra?.results)}.`,
      );
    const dnc = r.figures.find((f) => f.id === 'dnc-import');
    if (dnc) out.push(dncParagraph(dnc));
    const signIns = r.figures.find((f) => f.id === 'api-read-during-sign-ins');
    if (signIns) {
      const x = signIns.extra as {
        healthzIdleMs: Stats;
        healthzDuringMs: Stats;
        signInAnswers: Record<string, number>;
        checkedSignInMs: Stats | null;
      };
      out.push(
        `Sign-in flood (bench/sign-in.ts, \`contactline serve\` in its own process, idle and flood phases alternating): ` +
          `/healthz p95 ${fmt(x.healthzIdleMs.p95)} ms idle, ${fmt(x.healthzDuringMs.p95)} ms during; the sign-ins were answered ${JSON.stringify(x.signInAnswers)} ` +
          `(401 checked, 503 refused while the hashing lane was full, retried after its Retry-After), a checked one in ${fmt(x.checkedSignInMs?.p50 ?? null)} ms (p50).`,
      );
    }
    for (const f of r.figures.filter(
      (x) => x.explain && !x.extra?.listCase && (x.pass === false || x.id === 'dialer-claim-100'),
    )) {
      out.push('');
      out.push(`${f.pass === false ? 'MISS' : 'Plan'} ${f.id}: EXPLAIN (ANALYZE, BUFFERS) of ${f.explain!.variant}`);
      out.push('');
      out.push('```');
      out.push(f.explain!.plan);
      out.push('```');
    }
    const lists = r.figures.filter((x) => x.explain && x.extra?.listCase);
    if (lists.length) {
      out.push('');
      out.push(
        `### List figures: the plan of each case's slowest request (${r.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`,
      );
      out.push('');
      out.push(
        'EXPLAIN (ANALYZE, BUFFERS) of the SELECT of the variant whose request was the slowest, run after the timed requests (warm caches).',
      );
      for (const f of lists) {
        const perVariant = f.extra?.perVariant as
          | Array<{ variant: string; rows: number; serviceMaxMs: number | null; rawMaxMs: number | null }>
          | undefined;
        out.push('');
        // The list tables of docs/performance-lists.md link each row here.
        out.push(`<a id="${planAnchor(r.kind, f.id)}"></a>`);
        out.push('');
        out.push(
          `<details><summary>${verdict(f.pass)} ${f.id}: p95 ${fmt(f.service.p95)} ms (raw ${fmt(f.raw.p95)}), ${f.explain!.variant}</summary>`,
        );
        out.push('');
        if (perVariant)
          out.push(
            `Variants (rows; slowest service / raw request, ms): ${perVariant.map((v) => `${v.variant} (${v.rows}; ${fmt(v.serviceMaxMs)} / ${fmt(v.rawMaxMs)})`).join('; ')}.`,
          );
        out.push('');
        out.push('```');
        out.push(f.explain!.plan);
        out.push('```');
        out.push('');
        out.push('</details>');
      }
    }
  }
  const before = path.join(HERE, 'before-realistic-data.md');
  if (fs.existsSync(before)) {
    out.push('');
    out.push(fs.readFileSync(before, 'utf8').trimEnd());
  }
  out.push('');
  return out.join('\n');
}

/** The registry import figure in a few sentences: time, numbers per second, bytes, against the raw driver. */
function dncParagraph(f: Figure): string {
  const x = f.extra as {
    numbers: number;
    fileBytes: number;
    numbersPerSecond: number;
    rawNumbersPerSecond: number;
    bytesStored: number;
    bytesPerNumber: number;
    answerBytesPerNumber: number;
    rawBytes: number;
    rawBytesPerNumber: number;
    bytesRatio: number;
    sparse: {
      numbers: number;
      ms: number;
      numbersPerSecond: number;
      bytesPerNumber: number;
      rawBytesPerNumber: number;
    };
  };
  const n = (v: number) => v.toLocaleString('en-US');
  const mb = (v: number) => `${(v / 1024 / 1024).toFixed(1)} MiB`;
  return (
    `Do-not-call registry import (bench/dnc-registries.ts): ${n(x.numbers)} numbers (a ${mb(x.fileBytes)} file, 1,000 a 10,000-number block) in ${fmt(f.service.p50 / 1000)} s, ` +
    `${n(x.numbersPerSecond)} numbers a second; stored in ${mb(x.bytesStored)} (pg_total_relation_size of the registry tables with their indexes), ${x.bytesPerNumber} bytes a number ` +
    `(the answer's bytesPerNumber, rows only: ${x.answerBytesPerNumber}). The raw driver inserting the same numbers into a bigint primary-key table: ${fmt(f.raw.p50 / 1000)} s ` +
    `(${n(x.rawNumbersPerSecond)} a second), ${mb(x.rawBytes)}, ${x.rawBytesPerNumber} bytes a number; time × ${fmt(f.ratioP50)}, bytes × ${x.bytesRatio}. ` +
    `A sparse registry (100 numbers a block, 2-byte codes): ${n(x.sparse.numbers)} numbers in ${fmt(x.sparse.ms / 1000)} s, ${x.sparse.bytesPerNumber} bytes a number (raw ${x.sparse.rawBytesPerNumber}).`
  );
}

/** The anchor of a list figure's plan in results.md. */
export const planAnchor = (kind: string, id: string) => `plan-${kind}-${id}`;

/**
 * The results already written, with this BENCH_ONLY run's figures in place of theirs (same id, same
 * database) or added after them; each marked with this run (date, quick or not, contacts, load).
 * The rest, and the file's own header, stay those of the run that wrote them.
 */
function mergePartialRun(
  previous: Record<string, unknown> & { databases: DatabaseResult[] },
  meta: Record<string, unknown>,
  results: DatabaseResult[],
  only: string,
): Record<string, unknown> & { databases: DatabaseResult[] } {
  const databases = [...previous.databases];
  for (const r of results) {
    const run =
      `${meta.quick ? 'quick ' : ''}BENCH_ONLY=${only} run of ${meta.generatedAt} (${meta.cpus} × ${meta.cpuModel}), ${r.contacts.toLocaleString('en-US')} contacts seeded, ` +
      `load average ${(meta.loadAverageAtStart as number[])[0]} at start and ${(meta.loadAverageAtEnd as number[])[0]} at end`;
    const marked = r.figures.map((f) => ({ ...f, partialRun: run }));
    const load = r.load ? { load: r.load.map((f) => ({ ...f, partialRun: run })) } : {};
    const index = databases.findIndex((d) => d.kind === r.kind);
    // The seed described is the latest one the contact figures ran on; a search run adds its storage table.
    const seed = r.seed?.shape
      ? { seed: { ...r.seed, run } }
      : r.seed?.storage && index >= 0 && databases[index].seed
        ? { seed: { ...databases[index].seed, storage: r.seed.storage, storageRun: run } }
        : {};
    if (index < 0) {
      databases.push({ ...r, figures: marked, ...seed, ...load });
      continue;
    }
    const figures = [...databases[index].figures];
    // A new figure goes right after the one of this run before it (else at the end).
    let after = -1;
    for (const f of marked) {
      const at = figures.findIndex((x) => x.id === f.id);
      if (at >= 0) {
        figures[at] = f;
        after = at;
      } else if (after >= 0) {
        figures.splice(++after, 0, f);
      } else {
        figures.push(f);
      }
    }
    databases[index] = { ...databases[index], figures, ...seed, ...load };
  }
  const partialRuns = ((previous.partialRuns as Array<{ only: string }> | undefined) ?? []).filter(
    (p) => p.only !== only,
  );
  partialRuns.push({ only, ...meta } as { only: string });
  return { ...previous, partialRuns, databases };
}

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function main() {
  // The in-process servers' access lines would bury the figures (the edge figure writes its own, bench/http-edge.ts).
  logger.level = process.env.LOG_LEVEL ?? 'warn';
  const pgUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_PG_URL;
  const choice = process.env.BENCH_DB ?? ((await postgresReachable(pgUrl)) ? 'both' : 'pglite');
  const kinds: DatabaseKind[] =
    choice === 'both'
      ? ['pglite', 'postgres']
      : choice === 'postgres'
        ? ['postgres']
        : choice === 'pglite'
          ? ['pglite']
          : [];
  if (kinds.length === 0) throw new Error(`BENCH_DB must be pglite, postgres or both (got ${choice})`);
  log(`Contactline benchmark${QUICK ? ' (quick)' : ''}: ${kinds.join(', ')}`);
  const loadAtStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  log(`load average ${loadAtStart.join(' ')} on ${os.cpus().length} CPUs (other processes share the machine)`);
  const t0 = performance.now();
  if (ONLY === 'capacity') {
    // A database of its own per kind, and the service in a process of its own: nothing else runs.
    if (kinds.includes('postgres')) process.env.TEST_DATABASE_URL = pgUrl;
    await runCapacity(kinds, t0, loadAtStart);
    process.exit(0);
  }
  const results: DatabaseResult[] = [];
  for (const kind of kinds) {
    const result = await benchDatabase(kind, pgUrl);
    // After the in-process server has stopped: the load runs have the machine to themselves.
    if (runs('load')) {
      result.load = await benchLoad(kind, SETTINGS.load, log);
      printLoad(result);
    }
    results.push(result);
  }
  if (runs('capacity')) await runCapacity(kinds, t0, loadAtStart);
  const meta = { ...runMeta(t0, loadAtStart), settings: SETTINGS };
  const name = process.env.BENCH_CONTACTS ? `results-${Number(process.env.BENCH_CONTACTS)}` : 'results';
  const file = path.join(HERE, `${name}.json`);
  const written =
    ONLY !== undefined && fs.existsSync(file)
      ? mergePartialRun(
          JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown> & { databases: DatabaseResult[] },
          meta,
          results,
          ONLY,
        )
      : { ...meta, databases: results };
  fs.writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
  const { databases, ...writtenMeta } = written;
  fs.writeFileSync(path.join(HERE, `${name}.md`), markdown(databases, writtenMeta));
  const misses = results.flatMap((r) =>
    [...r.figures, ...(r.load ?? [])].filter((f) => f.pass === false).map((f) => `${r.kind}/${f.id}`),
  );
  log(
    `\nDone in ${meta.totalSeconds} s. Wrote bench/${name}.json and bench/${name}.md.${misses.length ? ` Targets missed: ${misses.join(', ')}` : ' All targets met.'}`,
  );
  // pg-boss / undici keep-alive sockets may hold the loop open.
  process.exit(0);
}

/** What a results file says of the run: when, on what machine, how loaded, how long. */
function runMeta(t0: number, loadAtStart: number[]) {
  return {
    generatedAt: new Date().toISOString(),
    quick: QUICK,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: os.loadavg().map((x) => Math.round(x * 100) / 100),
    totalSeconds: Math.round((performance.now() - t0) / 100) / 10,
  };
}

/**
 * The capacity figures of each database, each on a database of its own; written to
 * bench/capacity.json and bench/capacity.md with the machine they ran on.
 */
async function runCapacity(kinds: DatabaseKind[], t0: number, loadAtStart: number[]): Promise<void> {
  const capacity: Array<{ kind: DatabaseKind; contacts: number; figures: CapacityFigure[] }> = [];
  for (const kind of kinds) {
    const settings = SETTINGS.capacity(kind);
    capacity.push({ kind, contacts: settings.contacts, figures: await benchCapacity(kind, settings, log) });
  }
  const meta = runMeta(t0, loadAtStart);
  fs.writeFileSync(path.join(HERE, 'capacity.json'), `${JSON.stringify({ ...meta, databases: capacity }, null, 2)}\n`);
  fs.writeFileSync(path.join(HERE, 'capacity.md'), capacityMarkdown(capacity, meta));
  for (const { kind, figures } of capacity)
    for (const f of figures)
      log(
        `${kind} ${f.id}: service ${f.service} baseline ${f.baseline ?? '-'} ratio ${f.ratio ?? '-'}${f.overheadMs !== undefined ? ` overhead ${f.overheadMs} ms` : ''} ${f.pass === null ? '' : f.pass ? 'PASS' : 'MISS'}`,
      );
  log('Wrote bench/capacity.json and bench/capacity.md.');
}

// Runs when executed (npm run bench), not when imported for its helpers.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
