// The benchmark's seed: N contacts in one Account shaped like a real Account's, written with plain
// SQL (one INSERT … SELECT FROM generate_series, the Contact indexes dropped and rebuilt around it),
// so that 1,000,000 contacts take about a minute on PostgreSQL and 10,000,000 stay practical.
//
// Every row is a function of its position i (hashes of i, no random state), in the shape the
// service itself would have stored (contacts.rules.ts):
//   - names: first names drawn by frequency from the 1990 US Census tables (bench/data/, male or
//     female at even odds), last names likewise; 3% of contacts without a first name, 5% without
//     a last name; fullName is the two joined with one space (null when both are missing);
//   - status (null 40%, not_assigned 30%, assigned 8%, …, never connecting, unreachable,
//     dont_call, dnc_blocked) and sourceKind (api 45%, hubspot 25%, csv 15%, …): STATUS_SHARES,
//     SOURCE_SHARES;
//   - externalId: the source's own id for the CRM and board kinds, else the contact's own id (what
//     the service gives a contact created without one); dedupKey `phone=<E.164>` (the Account's
//     default dedup fields), phoneDigits the number's digits;
//   - phone numbers valid E.164 in their numbering plan, unique in the Account, from eight
//     countries (COUNTRY_SHARES); location the number's country (70%) or none (the Account has
//     no default location); timezone what the service infers from those (inferTimezone), null
//     where that is not certain (Spain, Mexico, Brazil, a US area code over two zones);
//   - createdAt over the two years before the seed time, increasing with i like real inserts:
//     90% spread evenly, 10% in a few hundred import bursts of up to thousands of contacts in one
//     minute; updatedAt at or after createdAt;
//   - the contacts with a status the calls engine sets past not_assigned (assigned, not_answered,
//     not_reached, reached, disqualified, qualified, converted, dnc: 20.6%) are in one of five
//     published workflows (WORKFLOW_SHARES), with an Enrollment as the service leaves it: active
//     with its next attempt scheduled for those still being called, ended with the result's end
//     reason for the others; callCount, lastCallAt, nextCallAt and maxAttempts to match.
//     Scheduled attempts are 2 to 14 days after the seed time, so no dialer run of the benchmark
//     claims them (the dialer figures claim only the enrollments they seed themselves).
// No ANALYZE or VACUUM: the figures measure the database as a fresh import leaves it (on a
// server without autovacuum, as it stays).
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/db/database.js';
import type { ContactStatus, SourceKind } from '../src/domain/contacts/contacts.inputs.js';
import { inferTimezone } from '../src/normalize/infer-timezone.js';
import { joinFullName } from '../src/normalize/names.js';
import { normalizePhone } from '../src/normalize/phone.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DAY_MS = 86_400_000;

/** Status shares, % of the contacts (null: no status). */
export const STATUS_SHARES: ReadonlyArray<readonly [ContactStatus | null, number]> = [
  [null, 40],
  ['not_assigned', 30],
  ['assigned', 8],
  ['new', 5],
  ['not_answered', 4],
  ['not_reached', 3],
  ['reached', 3],
  ['answered', 2],
  ['unanswered', 1.5],
  ['qualified', 1],
  ['converted', 0.8],
  ['disqualified', 0.5],
  ['contact_verified', 0.4],
  ['dnc', 0.3],
  ['paused', 0.3],
  ['invalid', 0.2],
];
/** Statuses no seeded contact has. */
export const UNUSED_STATUSES: readonly ContactStatus[] = ['connecting', 'unreachable', 'dont_call', 'dnc_blocked'];

/** sourceKind shares, %. */
export const SOURCE_SHARES: ReadonlyArray<readonly [SourceKind, number]> = [
  ['api', 45],
  ['hubspot', 25],
  ['csv', 15],
  ['salesforce', 8],
  ['monday', 4],
  ['manual', 2.5],
  ['oneai', 0.5],
];

/** The statuses the calls engine gives an enrolled contact: the contacts with one are in a workflow. */
const WORKFLOW_STATUSES: readonly ContactStatus[] = [
  'assigned',
  'not_answered',
  'not_reached',
  'reached',
  'disqualified',
  'qualified',
  'converted',
  'dnc',
];

/** The five workflows and their shares (%) of the enrolled contacts. */
export const WORKFLOW_SHARES: ReadonlyArray<readonly [string, number]> = [
  ['Renewals follow-up', 40],
  ['Inbound leads', 25],
  ['Win-back', 17],
  ['Webinar attendees', 12],
  ['Customer survey', 6],
];
/** The seeded agent's attempt limit (copied into each enrolled contact's maxAttempts). */
const ATTEMPT_LIMIT = 3;

interface Country {
  code: string;
  share: number;
  /** National number prefixes with the country code; each is followed by `digits` digits. */
  prefixes?: string[];
  digits?: number;
}

/**
 * Phone numbers by country, % of the contacts. Every prefix (and every US area code and
 * exchange) was checked valid for all numbers under it with the service's own normalizePhone;
 * seedContacts checks a sample of the stored rows again.
 */
export const COUNTRIES: readonly Country[] = [
  { code: 'US', share: 60 },
  {
    code: 'GB',
    share: 10,
    prefixes: ['+44771', '+44772', '+44773', '+44774', '+44775', '+44776', '+44777'],
    digits: 7,
  },
  {
    code: 'DE',
    share: 8,
    prefixes: [
      '+49151',
      '+49152',
      '+49157',
      '+49159',
      '+49170',
      '+49171',
      '+49172',
      '+49173',
      '+49174',
      '+49175',
      '+49176',
      '+49177',
      '+49178',
      '+49179',
    ],
    digits: 8,
  },
  {
    code: 'FR',
    share: 6,
    prefixes: [
      '+3360',
      '+3361',
      '+3362',
      '+3364',
      '+3365',
      '+3366',
      '+3367',
      '+3368',
      '+3373',
      '+3374',
      '+3375',
      '+3376',
      '+3377',
      '+3378',
      '+3379',
    ],
    digits: 7,
  },
  { code: 'ES', share: 5, prefixes: ['+346'], digits: 8 },
  { code: 'MX', share: 5, prefixes: ['+5255', '+5233', '+5281'], digits: 8 },
  { code: 'BR', share: 4, prefixes: ['+55119', '+55219', '+55319'], digits: 8 },
  { code: 'IN', share: 2, prefixes: ['+917', '+918', '+919'], digits: 9 },
];

/**
 * US area codes of the seed. Left out: those the benchmark's own writes use (bench/run.ts,
 * mcp.ts, board.ts, voice.ts), so that every write of theirs is a new contact.
 */
const US_AREAS = [
  201, 202, 203, 205, 206, 207, 208, 209, 210, 213, 214, 215, 216, 217, 218, 219, 224, 225, 228, 229, 231, 234, 239,
  240, 248, 251, 252, 253, 254, 256, 260, 262, 267, 269, 270, 276, 281, 301, 302, 303, 304, 305, 307, 308, 309, 310,
  312, 313, 314, 315, 316, 317, 318, 319, 320, 321, 323, 325, 330, 331, 334, 336, 337, 339, 347, 351, 352, 360, 361,
  385, 386, 401, 402, 405, 406, 407, 410, 412, 413, 414, 417, 419, 423, 424, 430, 432, 434, 435, 440, 443, 469, 470,
  475, 478, 479, 480, 484, 501, 502, 504, 505, 507, 508, 509, 510, 513, 515, 516, 517, 518, 520, 530, 540, 541, 551,
  559, 561, 562, 563, 567, 570, 571, 573, 574, 575, 580, 585, 586, 601, 603, 605, 606, 607, 609, 610, 612, 614, 615,
  616, 618, 619, 620, 623, 626, 630, 631, 636, 641, 650, 651, 660, 661, 662, 678, 682, 701, 703, 704, 706, 707, 708,
  712, 713, 714, 715, 716, 717, 719, 720, 724, 727, 731, 732, 734, 740, 754, 757, 760, 763, 765, 770, 772, 773, 774,
  775, 781, 785, 786, 801, 802, 803, 804, 805, 806, 808, 810, 812, 813, 814, 815, 816, 817, 818, 828, 830, 831, 832,
  843, 845, 847, 848, 850, 856, 857, 858, 859, 860, 862, 863, 864, 865, 870, 901, 903, 904, 906, 907, 908, 909, 910,
  912, 913, 914, 915, 916, 918, 919, 920, 925, 928, 929, 931, 936, 937, 940, 941, 947, 949, 951, 952, 954, 956, 970,
  971, 972, 973, 978, 979, 980, 985, 989,
].filter((a) => ![212, 404, 408, 415, 425, 503, 512, 602, 608, 617, 646, 702, 718, 917].includes(a));
/** US exchanges: 200–999 without the N11 service codes and 555. */
const US_EXCHANGES = Array.from({ length: 800 }, (_, k) => 200 + k).filter((x) => x % 100 !== 11 && x !== 555);

/** Multiplier of the position → number bijections (a prime, so coprime with every space below). */
const SPREAD = 2654435761n;

/** Census names: male and female first names and last names, each with its frequency. */
export function censusNames(): Record<'male' | 'female' | 'last', Array<{ name: string; weight: number }>> {
  const pools = {
    male: [] as Array<{ name: string; weight: number }>,
    female: [] as Array<{ name: string; weight: number }>,
    last: [] as Array<{ name: string; weight: number }>,
  };
  const lines = fs
    .readFileSync(path.join(HERE, 'data', 'census-names.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  for (const line of lines) {
    const [pool, name, frequency] = line.split('\t');
    pools[pool as keyof typeof pools].push({ name, weight: Number(frequency) });
  }
  return pools;
}

/** Deterministic PRNG (mulberry32), so runs are comparable; the bench's own writes use it too (bench/run.ts). */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lower bounds of the cumulative shares, as width_bucket's thresholds: bucket k (1-based) is the k-th item. */
function thresholds(weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => {
    const lower = sum / total;
    sum += w;
    return lower;
  });
}

const floatArray = (xs: readonly number[]) =>
  `ARRAY[${xs.map((x) => (Number.isInteger(x) ? `${x}.0` : String(x))).join(',')}]::float8[]`;
const intArray = (xs: readonly number[]) => `ARRAY[${xs.join(',')}]::int[]`;
const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;
const textArray = (xs: ReadonlyArray<string | null>) =>
  `ARRAY[${xs.map((x) => (x === null ? 'NULL' : sqlText(x))).join(',')}]::text[]`;

/** A uniform value in [0, 1) from position i and a salt (independent per salt). */
const u = (salt: number) => `((hashint8(i::bigint * 64 + ${salt}) & 2147483647)::float8 / 2147483648.0)`;

/**
 * createdAt as a function of the position: piecewise linear, increasing, so the table is in
 * insertion order as a real one is. BURSTS import bursts take BURST_SHARE of the contacts, each
 * within one minute, their sizes skewed (a few imports of thousands, many of a few hundred at
 * 1,000,000 contacts); the rest spread evenly over the two years.
 */
const SPAN_DAYS = 730;
const BURSTS = 300;
const BURST_SHARE = 0.1;

function createdAtSegments(seedMs: number): {
  uLo: number[];
  uHi: number[];
  tLo: number[];
  tHi: number[];
  bursts: number;
} {
  const rand = prng(20260712);
  const span = SPAN_DAYS * DAY_MS;
  const start = seedMs - span;
  const minutes = new Set<number>();
  while (minutes.size < BURSTS) minutes.add(Math.floor((start + rand() * (span - 2 * 60_000)) / 60_000) * 60_000);
  const times = [...minutes].sort((a, b) => a - b);
  const weights = times.map((_, k) => (k + 1) ** -0.9);
  // Sizes not in time order.
  for (let k = weights.length - 1; k > 0; k--) {
    const j = Math.floor(rand() * (k + 1));
    [weights[k], weights[j]] = [weights[j], weights[k]];
  }
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const spread = (t: number) => ((1 - BURST_SHARE) * (t - start)) / span;
  const uLo: number[] = [];
  const uHi: number[] = [];
  const tLo: number[] = [];
  const tHi: number[] = [];
  let burstMass = 0;
  let u0 = 0;
  let t0 = start;
  times.forEach((t, k) => {
    const burstStart = spread(t) + burstMass;
    uLo.push(u0);
    uHi.push(burstStart);
    tLo.push(t0);
    tHi.push(t);
    burstMass += (BURST_SHARE * weights[k]) / weightSum;
    const end = t + 59_999;
    u0 = spread(end) + burstMass;
    uLo.push(burstStart);
    uHi.push(u0);
    tLo.push(t);
    tHi.push(end);
    t0 = end;
  });
  uLo.push(u0);
  uHi.push(1);
  tLo.push(t0);
  tHi.push(seedMs - 1000);
  return { uLo, uHi, tLo, tHi, bursts: times.length };
}

export interface SeededWorkflow {
  id: string;
  name: string;
  share: number;
}

export interface SeedResult {
  seconds: number;
  /** The seed time: createdAt values are in the two years before it. */
  seedTime: Date;
  workflows: SeededWorkflow[];
  /** A published workflow of the Account with no contact. */
  emptyWorkflowId: string;
  enrollments: number;
  /** Seconds per step of the seed's transaction (the INSERTs, then each index rebuilt). */
  steps: Record<string, number>;
}

/**
 * N contacts in one Account (see the header), the five workflows with their agent and the
 * Enrollment rows, in one transaction with the Contact and Enrollment indexes dropped, then
 * the indexes rebuilt from their own definitions, two at a time on PostgreSQL. Checks a sample of the rows against the service's rules.
 */
export async function seedContacts(db: Database, accountId: string, n: number): Promise<SeedResult> {
  const t0 = performance.now();
  const seedTime = new Date(Math.floor(Date.now() / 1000) * 1000);
  const seedIso = seedTime.toISOString();
  const { agentWorkflows, emptyWorkflowId } = await createWorkflows(db, accountId, seedTime);

  const indexesOf = async (table: string) =>
    (
      await db.sql.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexname <> $2`,
        [table, `${table}_pkey`],
      )
    ).rows;
  const contactIndexes = await indexesOf('Contact');
  const enrollmentIndexes = await indexesOf('Enrollment');
  const { rows: statisticsTargets } = await db.sql.query<{ index: string; column: number; target: number }>(
    `SELECT c.relname AS index, a.attnum AS column, a.attstattarget AS target FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_attribute a ON a.attrelid = i.indexrelid
     WHERE i.indrelid = '"Contact"'::regclass AND a.attstattarget >= 0`,
  );

  // --- names ---------------------------------------------------------------------------------
  const names = censusNames();
  const pools = [names.male, names.female, names.last];
  const nameRows = pools.flatMap((pool, p) => pool.map((x, r) => `(${p},${r + 1},${sqlText(x.name)})`));

  // --- phones: one CASE branch per country; k is a bijection of i over the country's space ----
  const usSpace = BigInt(US_AREAS.length * US_EXCHANGES.length) * 10_000n;
  const timezoneNames: Array<string | null> = [null];
  const zoneIndex = (zone: string | null) => {
    if (!timezoneNames.includes(zone)) timezoneNames.push(zone);
    return timezoneNames.indexOf(zone) + 1;
  };
  const usAreaZones = US_AREAS.map((area) => zoneIndex(certainZone('US', `+1${area}2345678`)));
  const phoneBranches: string[] = [];
  const zoneBranches: string[] = [];
  COUNTRIES.forEach((country, c) => {
    const bucket = c + 1;
    const offset = BigInt(c) * 1_000_003n;
    if (country.code === 'US') {
      if (usSpace < BigInt(n)) throw new Error(`the US numbers hold ${usSpace} contacts, fewer than ${n}`);
      const k = `((i::bigint * ${SPREAD} + ${offset}) % ${usSpace})`;
      const perArea = US_EXCHANGES.length * 10_000;
      phoneBranches.push(`WHEN ${bucket} THEN '+1' || (${intArray(US_AREAS)})[(${k} / ${perArea} + 1)::int]::text
        || (${intArray(US_EXCHANGES)})[((${k} / 10000) % ${US_EXCHANGES.length} + 1)::int]::text || lpad((${k} % 10000)::text, 4, '0')`);
      zoneBranches.push(`WHEN ${bucket} THEN (${intArray(usAreaZones)})[(${k} / ${perArea} + 1)::int]`);
      return;
    }
    const digits = country.digits!;
    const prefixes = country.prefixes!;
    const space = BigInt(prefixes.length) * 10n ** BigInt(digits);
    if (space < BigInt(n)) throw new Error(`the ${country.code} numbers hold ${space} contacts, fewer than ${n}`);
    const zones = new Set(prefixes.map((p) => certainZone(country.code, `${p}${'1'.repeat(digits)}`)));
    if (zones.size !== 1) throw new Error(`${country.code}: its prefixes give several zones`);
    const k = `((i::bigint * ${SPREAD} + ${offset}) % ${space})`;
    phoneBranches.push(
      `WHEN ${bucket} THEN (${textArray(prefixes)})[(${k} / ${10n ** BigInt(digits)} + 1)::int] || lpad((${k} % ${10n ** BigInt(digits)})::text, ${digits}, '0')`,
    );
    zoneBranches.push(`WHEN ${bucket} THEN ${zoneIndex([...zones][0])}`);
  });

  // --- time ----------------------------------------------------------------------------------
  const segments = createdAtSegments(seedTime.getTime());
  const createdMs = `(s.tLo[seg] + (pos - s.uLo[seg]) / greatest(s.uHi[seg] - s.uLo[seg], 1e-15) * (s.tHi[seg] - s.tLo[seg]))`;

  const statusNames = STATUS_SHARES.map(([s]) => s);
  const workflowIds = agentWorkflows.map((w) => w.id);
  const seedTs = `${sqlText(seedIso)}::timestamptz`;
  const ms = (expr: string) => `(timestamptz 'epoch' + floor(${expr}) * interval '1 millisecond')`;

  const insertContacts = `
    INSERT INTO "Contact" ("id", "accountId", "firstName", "lastName", "fullName", "phone", "location", "locationDefaulted",
      "timezone", "timezoneInferred", "language", "status", "sourceKind", "externalId", "customFields", "priority",
      "assignedWorkflowId", "callCount", "maxAttempts", "lastCallAt", "nextCallAt", "createdAt", "updatedAt", "dedupKey", "phoneDigits")
    SELECT h.id, ${sqlText(accountId)}::uuid, h.first_name, h.last_name, NULLIF(concat_ws(' ', h.first_name, h.last_name), ''), h.phone,
      CASE WHEN h.u_location < 0.3 THEN NULL ELSE (${textArray(COUNTRIES.map((c) => c.code))})[h.country] END, false,
      (${textArray(timezoneNames)})[h.zone], (${textArray(timezoneNames)})[h.zone] IS NOT NULL, NULL,
      h.status::"ContactStatus", h.source::"SourceKind",
      CASE h.source
        WHEN 'hubspot' THEN (10000000000 + (h.i::bigint * ${SPREAD}) % 90000000000)::text
        WHEN 'salesforce' THEN '0035g' || lpad(upper(to_hex((h.i::bigint * ${SPREAD}) % 1099511627776)), 10, '0') || 'IAW'
        WHEN 'monday' THEN (1500000000 + (h.i::bigint * ${SPREAD}) % 8000000000)::text
        WHEN 'oneai' THEN 'oa-' || lpad(to_hex((h.i::bigint * ${SPREAD}) % 281474976710656), 12, '0')
        ELSE h.id::text END,
      NULL, CASE WHEN h.u_priority < 0.85 THEN 0 ELSE 1 + floor((h.u_priority - 0.85) / 0.15 * 1000)::int END,
      h.workflow, h.calls, CASE WHEN h.workflow IS NULL THEN NULL ELSE ${ATTEMPT_LIMIT} END,
      CASE WHEN h.calls > 0 THEN h.touched END, h.next_call, h.created, h.touched,
      'phone=' || h.phone, substr(h.phone, 2)
    FROM (
      SELECT g.*,
        -- by lookup in the names table's key, not a join: the rows stay in the order of i
        (SELECT x.name FROM bench_seed_names x WHERE x.pool = g.first_pool AND x.rank = g.first_rank) AS first_name,
        (SELECT x.name FROM bench_seed_names x WHERE x.pool = g.last_pool AND x.rank = g.last_rank) AS last_name,
        CASE g.country ${phoneBranches.join('\n        ')} END AS phone,
        CASE g.country ${zoneBranches.join('\n        ')} END AS zone,
        CASE WHEN g.status = ANY(${textArray(WORKFLOW_STATUSES)})
          THEN (${textArray(workflowIds)})[width_bucket(g.u_workflow, ${floatArray(thresholds(agentWorkflows.map((w) => w.share)))})]::uuid END AS workflow,
        -- calls made: none while assigned; one or two while still being called; the attempt limit when it ended the enrollment
        CASE
          WHEN g.status = 'not_answered' OR (g.status = 'reached' AND g.u_calls < 0.5) THEN 1 + floor(g.u_calls * 4)::int % 2
          WHEN g.status = 'reached' THEN ${ATTEMPT_LIMIT}
          WHEN g.status = ANY(${textArray(['not_reached', 'disqualified', 'qualified', 'converted', 'dnc'])}) THEN 1 + floor(g.u_calls * ${ATTEMPT_LIMIT})::int
          ELSE 0 END AS calls,
        -- a callback asked for: reached and still in the sequence
        CASE WHEN g.status = 'reached' AND g.u_calls < 0.5 THEN ${seedTs} + interval '2 days' + g.u_next * interval '5 days' END AS next_call,
        -- the last write: the creation for 60% of the others, a later one for 40%; always a later one for an enrolled contact
        CASE WHEN g.status = ANY(${textArray(WORKFLOW_STATUSES)}) OR g.u_touched >= 0.6
          THEN g.created + (${seedTs} - g.created) * (CASE WHEN g.status = ANY(${textArray(WORKFLOW_STATUSES)}) THEN g.u_touched ELSE (g.u_touched - 0.6) / 0.4 END)
          ELSE g.created END AS touched
      FROM (
        SELECT f.*, ${ms(createdMs)} AS created
        FROM (
          SELECT i, gen_random_uuid() AS id, (i + 0.5)::float8 / ${n} AS pos,
            width_bucket(${u(1)}, ${floatArray(thresholds(COUNTRIES.map((c) => c.share)))}) AS country,
            (${textArray(statusNames)})[width_bucket(${u(7)}, ${floatArray(thresholds(STATUS_SHARES.map(([, w]) => w)))})] AS status,
            (${textArray(SOURCE_SHARES.map(([s]) => s))})[width_bucket(${u(8)}, ${floatArray(thresholds(SOURCE_SHARES.map(([, w]) => w)))})] AS source,
            CASE WHEN ${u(3)} < 0.03 THEN NULL WHEN ${u(2)} < 0.5 THEN 0 ELSE 1 END AS first_pool,
            CASE WHEN ${u(2)} < 0.5 THEN width_bucket(${u(5)}, ${floatArray(thresholds(names.male.map((x) => x.weight)))})
              ELSE width_bucket(${u(5)}, ${floatArray(thresholds(names.female.map((x) => x.weight)))}) END AS first_rank,
            CASE WHEN ${u(4)} < 0.05 THEN NULL ELSE 2 END AS last_pool,
            width_bucket(${u(6)}, ${floatArray(thresholds(names.last.map((x) => x.weight)))}) AS last_rank,
            ${u(9)} AS u_workflow, ${u(10)} AS u_touched, ${u(11)} AS u_location, ${u(12)} AS u_priority, ${u(13)} AS u_calls, ${u(14)} AS u_next
          FROM generate_series(0, ${n - 1}) AS i OFFSET 0
        ) AS f
        CROSS JOIN (SELECT ${floatArray(segments.uLo)} AS uLo, ${floatArray(segments.uHi)} AS uHi,
          ${floatArray(segments.tLo)} AS tLo, ${floatArray(segments.tHi)} AS tHi) AS s
        CROSS JOIN LATERAL (SELECT width_bucket(f.pos, s.uLo) AS seg) AS b OFFSET 0
      ) AS g OFFSET 0
    ) AS h`;

  // An enrolled contact's Enrollment, from its row: still being called (assigned, not yet called
  // or a retry due) or ended by its last call's result (or the attempt limit).
  const contactHash = `((hashtext(c."id"::text) & 2147483647)::float8 / 2147483648.0)`;
  const insertEnrollments = `
    INSERT INTO "Enrollment" ("id", "accountId", "contactId", "workflowId", "active", "priority", "attempts", "nextAttemptAt",
      "reEnroll", "enforceCallNow", "createdAt", "endedAt", "endReason")
    SELECT gen_random_uuid(), c."accountId", c."id", c."assignedWorkflowId", e.active, c."priority", c."callCount",
      CASE WHEN e.active THEN coalesce(c."nextCallAt", ${seedTs} + interval '2 days' + ${contactHash} * interval '12 days') END,
      false, false,
      CASE WHEN c."callCount" = 0 THEN c."updatedAt" ELSE c."createdAt" + (c."updatedAt" - c."createdAt") * ${contactHash} END,
      CASE WHEN NOT e.active THEN c."lastCallAt" END,
      CASE WHEN NOT e.active THEN CASE c."status"
        WHEN 'reached' THEN 'attempt_limit'
        WHEN 'not_reached' THEN (${textArray(['invalid_number', 'wrong_number', 'carrier_blocked'])})[1 + floor(${contactHash} * 3)::int]
        WHEN 'disqualified' THEN 'not_interested'
        WHEN 'dnc' THEN 'do_not_call'
        ELSE c."status"::text END END
    FROM "Contact" c
    CROSS JOIN LATERAL (SELECT c."status" IN ('assigned', 'not_answered') OR (c."status" = 'reached' AND c."nextCallAt" IS NOT NULL) AS active) AS e
    WHERE c."accountId" = ${sqlText(accountId)}::uuid AND c."assignedWorkflowId" IS NOT NULL`;

  // The rows in one transaction, statement by statement, each step timed; then the indexes,
  // two at a time on PostgreSQL (a GIN index builds on one core; PGlite has one connection).
  const steps: Record<string, number> = {};
  const seconds = (started: number) => Math.round((performance.now() - started) / 100) / 10;
  await db.sql.transaction(async (tx) => {
    const step = async (name: string, statements: string[]) => {
      const started = performance.now();
      for (const statement of statements) await tx.query(statement);
      steps[name] = seconds(started);
    };
    await step('setup', [
      `SET LOCAL session_replication_role = replica`,
      `CREATE TEMP TABLE bench_seed_names (pool int, rank int, name text, PRIMARY KEY (pool, rank)) ON COMMIT DROP`,
      `INSERT INTO bench_seed_names VALUES ${nameRows.join(',')}`,
      ...[...contactIndexes, ...enrollmentIndexes].map((ix) => `DROP INDEX "${ix.indexname}"`),
    ]);
    await step('contacts', [insertContacts]);
    await step('enrollments', [insertEnrollments]);
  });
  const indexesStarted = performance.now();
  // Longest first (the GIN indexes), so that the two lanes end together.
  const queue = [...contactIndexes, ...enrollmentIndexes].sort(
    (a, b) => Number(/USING gin/i.test(b.indexdef)) - Number(/USING gin/i.test(a.indexdef)),
  );
  const lane = async () => {
    for (let ix = queue.shift(); ix; ix = queue.shift()) {
      const started = performance.now();
      const definition = ix.indexdef;
      await db.sql.transaction(async (tx) => {
        await tx.query(`SET LOCAL maintenance_work_mem = '1GB'`);
        await tx.query(definition);
      });
      steps[ix.indexname] = seconds(started);
    }
  };
  await Promise.all(db.kind === 'pglite' ? [lane()] : [lane(), lane()]);
  steps.indexes = seconds(indexesStarted);
  // Recreated indexes lose their per-column statistics targets (0 included: no statistics at all,
  // which the migrations set on the GIN expressions): put them back (for whenever the
  // table is analyzed). No ANALYZE or VACUUM here: see the header.
  for (const t of statisticsTargets)
    await db.sql.exec(`ALTER INDEX "${t.index}" ALTER COLUMN ${t.column} SET STATISTICS ${t.target}`);
  const totalSeconds = (performance.now() - t0) / 1000;
  await checkSample(db, accountId, n, seedTime);
  const enrollments = (
    await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Enrollment" WHERE "accountId" = $1::uuid`, [
      accountId,
    ])
  ).rows[0].n;
  return { seconds: totalSeconds, seedTime, workflows: agentWorkflows, emptyWorkflowId, enrollments, steps };
}

/** The zone the service infers for a number, the same with its country as location and without. */
function certainZone(country: string, phone: string): string | null {
  const normalized = normalizePhone(phone);
  if (!normalized.ok || normalized.e164 !== phone || normalized.country !== country)
    throw new Error(`seed phone ${phone} is not a valid ${country} number`);
  const zone = inferTimezone(country, phone);
  if (zone !== inferTimezone(null, phone))
    throw new Error(`seed phone ${phone}: the inferred zone depends on the location`);
  return zone;
}

/** One live agent and five published workflows using it, plus one published workflow nobody is in yet. */
async function createWorkflows(
  db: Database,
  accountId: string,
  seedTime: Date,
): Promise<{ agentWorkflows: SeededWorkflow[]; emptyWorkflowId: string }> {
  const createdAt = new Date(seedTime.getTime() - SPAN_DAYS * DAY_MS);
  const hours = Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '09:00', end: '18:00' }]]),
  );
  const agent = await db.prisma.agent.create({
    data: {
      createdAt,
      updatedAt: createdAt,
      accountId,
      name: 'Ava',
      status: 'live',
      timezone: 'America/New_York',
      defaultLanguage: 'en-US',
      attemptLimit: ATTEMPT_LIMIT,
      workingHours: hours,
      retryDelayMinutes: 240,
      callNewContactsImmediately: false,
    },
  });
  const agentWorkflows: SeededWorkflow[] = [];
  for (const [name, share] of WORKFLOW_SHARES) {
    const workflow = await db.prisma.workflow.create({
      data: { createdAt, updatedAt: createdAt, accountId, agentId: agent.id, name, status: 'published' },
    });
    agentWorkflows.push({ id: workflow.id, name, share });
  }
  const empty = await db.prisma.workflow.create({
    data: {
      createdAt: seedTime,
      updatedAt: seedTime,
      accountId,
      agentId: agent.id,
      name: 'New campaign',
      status: 'published',
    },
  });
  return { agentWorkflows, emptyWorkflowId: empty.id };
}

interface SampleRow {
  id: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  phone: string;
  location: string | null;
  timezone: string | null;
  timezoneInferred: boolean;
  status: string | null;
  sourceKind: string;
  externalId: string;
  createdAt: Date;
  updatedAt: Date;
  dedupKey: string;
  phoneDigits: string;
  assignedWorkflowId: string | null;
  lastCallAt: Date | null;
  enrollments: number;
}

/**
 * A few hundred rows (a block sample: a handful of pages, so the caches stay as the seed left
 * them) checked against the service's rules: the phone valid and stored as normalizePhone stores
 * it, dedupKey and phoneDigits from it, fullName joined as joinFullName joins, the timezone
 * inferTimezone's, externalId the source's or the contact's own, times in order, and an enrolled
 * contact with its one enrollment.
 */
async function checkSample(db: Database, accountId: string, n: number, seedTime: Date): Promise<void> {
  const percent = Math.min(100, (100 * 400) / n);
  const { rows } = await db.sql.query<SampleRow>(
    `SELECT c."id", c."firstName", c."lastName", c."fullName", c."phone", c."location", c."timezone", c."timezoneInferred", c."status"::text AS status,
       c."sourceKind"::text AS "sourceKind", c."externalId", c."createdAt", c."updatedAt", c."dedupKey", c."phoneDigits", c."assignedWorkflowId", c."lastCallAt",
       (SELECT count(*)::int FROM "Enrollment" e WHERE e."contactId" = c."id") AS enrollments
     FROM "Contact" c TABLESAMPLE SYSTEM (${percent}) REPEATABLE (7) WHERE c."accountId" = $1::uuid`,
    [accountId],
  );
  const fail = (row: SampleRow, what: string) => {
    throw new Error(`seeded contact ${row.id} (${row.phone}): ${what}`);
  };
  for (const row of rows) {
    const phone = normalizePhone(row.phone);
    if (!phone.ok || phone.e164 !== row.phone) fail(row, 'phone is not a valid E.164 number');
    if (row.dedupKey !== `phone=${row.phone}` || row.phoneDigits !== row.phone.slice(1))
      fail(row, 'dedupKey or phoneDigits');
    if (row.fullName !== joinFullName(row.firstName, row.lastName)) fail(row, 'fullName');
    if (row.location !== null && phone.ok && row.location !== phone.country) fail(row, 'location');
    if (row.timezone !== inferTimezone(row.location, row.phone) || row.timezoneInferred !== (row.timezone !== null))
      fail(row, 'timezone');
    if (['api', 'csv', 'manual'].includes(row.sourceKind) !== (row.externalId === row.id)) fail(row, 'externalId');
    if (row.status !== null && UNUSED_STATUSES.includes(row.status as ContactStatus)) fail(row, 'unused status');
    if (
      !(row.updatedAt >= row.createdAt) ||
      row.updatedAt > seedTime ||
      row.createdAt < new Date(seedTime.getTime() - SPAN_DAYS * DAY_MS)
    )
      fail(row, 'times');
    if (row.lastCallAt && (row.lastCallAt < row.createdAt || row.lastCallAt > row.updatedAt)) fail(row, 'lastCallAt');
    if ((row.assignedWorkflowId !== null) !== WORKFLOW_STATUSES.includes(row.status as ContactStatus))
      fail(row, 'workflow');
    if (row.enrollments !== (row.assignedWorkflowId !== null ? 1 : 0)) fail(row, 'enrollments');
  }
  if (rows.length === 0 && n >= 1000) throw new Error('the seed check sampled no row');
}

/** The seed's shape as stored (counts), for the results: read after the figures, so the reads warm nothing they measure. */
export async function seedShape(
  db: Database,
  accountId: string,
  workflows: SeededWorkflow[],
): Promise<Record<string, unknown>> {
  const top = async (column: string, limit: number) =>
    Object.fromEntries(
      (
        await db.sql.query<{ v: string | null; n: number }>(
          `SELECT ${column}::text AS v, count(*)::int AS n FROM "Contact" WHERE "accountId" = $1::uuid GROUP BY 1 ORDER BY 2 DESC LIMIT ${limit}`,
          [accountId],
        )
      ).rows.map((r) => [r.v ?? '(null)', r.n]),
    );
  return {
    status: await top('"status"', 30),
    sourceKind: await top('"sourceKind"', 10),
    country: await top(`CASE WHEN "phone" LIKE '+1%' THEN 'US' ELSE substr("phone", 1, 3) END`, 10),
    timezone: await top('"timezone"', 12),
    firstName: await top('"firstName"', 12),
    lastName: await top('"lastName"', 12),
    assignedWorkflowId: Object.fromEntries(
      Object.entries(await top('"assignedWorkflowId"', 10)).map(([id, n]) => [
        workflows.find((w) => w.id === id)?.name ?? id,
        n,
      ]),
    ),
    busiestMinutes: Object.values(await top(`date_trunc('minute', "createdAt")`, 5)),
    enrollments: Object.fromEntries(
      (
        await db.sql.query<{ v: string; n: number }>(
          `SELECT CASE WHEN "active" THEN 'active' ELSE 'ended: ' || "endReason" END AS v, count(*)::int AS n FROM "Enrollment"
       WHERE "accountId" = $1::uuid GROUP BY 1 ORDER BY 2 DESC`,
          [accountId],
        )
      ).rows.map((r) => [r.v, r.n]),
    ),
  };
}
