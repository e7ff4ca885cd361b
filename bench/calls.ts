// Calls engine figures (called from bench/run.ts after the contact figures, on the same seeded
// account):
//
//   dialer-claim-100   runDialerOnce (claim SELECT ... FOR UPDATE OF e SKIP LOCKED, the calling
//                      rules' four reads and decisions, 100 Call INSERTs, in-flight UPDATE, commit)
//                      with a telephony whose placeCall does nothing, among N enrolled, all-due
//                      contacts, with the calling rules on (a new Account's policy: telemarketing,
//                      every jurisdiction's rules) and every contact's prior express written
//                      consent stored; after each run the claimed enrollments get their seeded
//                      nextAttemptAt back and the Call rows are deleted (untimed), so every run
//                      claims from the same state.
//                      Raw: the very claim SELECT the dialer sent (captured from its transaction,
//                      so it follows any change to src/jobs/dialer.ts) on the driver, in
//                      BEGIN ... ROLLBACK.
//   dialer-claim-100-rules-off
//                      the same, with the Account's policy turning off every jurisdiction of the
//                      rule set (PUT /calling-policy): what the rules cost is the ratio of the two.
//   dialing-get        GET /api/v1/contacts/{id}/dialing for enrolled contacts (the same decision
//                      as the dialer's, for one contact). Raw: the statements that read its inputs
//                      (contact, enrollment with workflow and agent, block list, policy, consents,
//                      calls, registry listing), one after another on the driver.
//
// The dialer figures run on a clock of their own, set at a past weekday instant when the law
// allows a call wherever the seeded contacts are (lawfulInstant): at the real time, some
// countries' hours are closed and the claim would defer instead of place, whatever the code.
//   call-ended         applyTelephonyEvent(call.ended) for ~200 calls placed by runDialerOnce with a
//                      recording simulated telephony. Raw: one UPDATE of the contact row.
//
// The claim figure always carries EXPLAIN (ANALYZE, BUFFERS) of the claim SELECT (run in a
// rolled-back transaction, since FOR UPDATE takes row locks).
import { performance } from 'node:perf_hooks';
import type { Database, SqlRunner } from '../src/db/database.js';
import type { Services } from '../src/domain/context.js';
import { decideDialing } from '../src/domain/calling-rules/dialing-decision.rules.js';
import { DEFAULT_CALLING_POLICY } from '../src/domain/calling-rules/calling-policy.service.js';
import { RULE_JURISDICTIONS, RULE_SET } from '../src/domain/calling-rules/rule-set.js';
import type { TestServer } from '../test/support/test-server.js';
import { runDialerOnce } from '../src/jobs/dialer.js';
import { applyTelephonyEvent } from '../src/domain/calls/call-events.service.js';
import { createSimulatedTelephony } from '../src/calls/telephony/simulator.adapter.js';
import type { Telephony, TelephonyEvent, TelephonyEventOf } from '../src/calls/telephony/telephony.port.js';
import type { WorkingHours } from '../src/domain/calls/calling-hours.rules.js';
import type { DatabaseKind } from '../test/support/databases.js';
import { figure, stats, timed, type Figure } from './run.js';

type DialerServices = Pick<Services, 'db' | 'clock'>;

export interface CallsSettings {
  /** Timed dialer runs (each followed by an untimed reset). */
  dialerRuns: number;
  /** Calls whose call.ended is timed (after `warmup` untimed ones). */
  callEndedCalls: number;
  warmup: number;
  /** Soft wall-clock budget of the timed dialer loop; at least 5 runs are made regardless. */
  dialerBudgetMs: number;
  /** Timed GET /contacts/{id}/dialing requests (after `warmup` untimed ones). */
  dialingRequests: number;
}

/** Every day, all day: no claimed call is deferred. */
const ALWAYS: WorkingHours = Object.fromEntries(
  (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
) as WorkingHours;

/** Thrown inside a transaction to roll it back after the work (the raw baseline only reads and locks). */
class Rollback extends Error {}

async function inRolledBackTransaction<T>(
  db: Database,
  work: (tx: Pick<SqlRunner, 'query'>) => Promise<T>,
): Promise<T> {
  let value: T | undefined;
  try {
    await db.sql.transaction(async (tx) => {
      value = await work(tx);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return value as T;
}

interface Recorded {
  text: string;
  params: unknown[] | undefined;
  ms: number;
}

/** The services with a transaction that records each statement (text, parameters, time). */
function recordingServices(services: DialerServices, sink: Recorded[]): DialerServices {
  const sql: SqlRunner = {
    ...services.db.sql,
    transaction: (work) =>
      services.db.sql.transaction((tx) =>
        work({
          query: async <T = Record<string, unknown>>(text: string, params?: unknown[]) => {
            const t0 = performance.now();
            const result = await tx.query<T>(text, params);
            sink.push({ text, params, ms: performance.now() - t0 });
            return result;
          },
        }),
      ),
  };
  return { clock: services.clock, db: { ...services.db, sql } };
}

/** The nextAttemptAt an enrollment was seeded with: a stable point in the day before `t0` (ms precision). */
const seededDue = (t0: string) =>
  `('${t0}'::timestamptz - ((hashtext(c."id"::text) & 2147483647) % 86400000) * interval '1 millisecond')`;

/**
 * One published workflow with a live agent working every day 00:00–24:00, and one active
 * Enrollment, due over the past day, per contact of the account not already in a sequence (the
 * seed's enrolled contacts keep theirs, whose next attempts come after the benchmark). Enrollment
 * indexes are dropped and rebuilt around the INSERT (as seedContacts does for Contact). Returns the counts.
 */
async function seedEnrollments(
  db: Database,
  accountId: string,
  t0: string,
): Promise<{
  workflowId: string;
  agentId: string;
  enrollments: number;
  enrolled: number;
  seconds: number;
  t0: string;
}> {
  const started = performance.now();
  const agent = await db.prisma.agent.create({
    data: {
      createdAt: new Date(),
      updatedAt: new Date(),
      accountId,
      name: 'Bench agent',
      status: 'live',
      timezone: 'America/Chicago',
      defaultLanguage: 'en-US',
      attemptLimit: 3,
      workingHours: ALWAYS as object,
      retryDelayMinutes: 60,
      callNewContactsImmediately: false,
    },
  });
  const workflow = await db.prisma.workflow.create({
    data: {
      createdAt: new Date(),
      updatedAt: new Date(),
      accountId,
      agentId: agent.id,
      name: 'Bench workflow',
      status: 'published',
    },
  });
  const { rows: indexes } = await db.sql.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'Enrollment' AND indexname <> 'Enrollment_pkey'`,
  );
  await db.sql.exec(`BEGIN;
    SET LOCAL maintenance_work_mem = '256MB';
    SET LOCAL session_replication_role = replica;
    ${indexes.map((ix) => `DROP INDEX "${ix.indexname}";`).join('\n')}
    INSERT INTO "Enrollment" ("id", "accountId", "contactId", "workflowId", "active", "priority", "attempts", "nextAttemptAt", "createdAt")
    SELECT gen_random_uuid(), c."accountId", c."id", '${workflow.id}'::uuid, true, c."priority", 0, ${seededDue(t0)}, '${t0}'::timestamptz
    FROM "Contact" c WHERE c."accountId" = '${accountId}'::uuid
      AND NOT EXISTS (SELECT 1 FROM "Enrollment" x WHERE x."contactId" = c."id" AND x."active");
    ${indexes.map((ix) => `${ix.indexdef};`).join('\n')}
    COMMIT;`);
  await db.sql.exec('VACUUM (ANALYZE) "Enrollment"');
  await db.sql.exec('ANALYZE "Agent"; ANALYZE "Workflow"; ANALYZE "BlockedPhone"; ANALYZE "Call"');
  const { rows: counts } = await db.sql.query<{ due: number; enrolled: number }>(
    `SELECT count(*) FILTER (WHERE "workflowId" = $1::uuid)::int AS due, count(*)::int AS enrolled
     FROM "Enrollment" WHERE "accountId" = $2::uuid AND "active"`,
    [workflow.id, accountId],
  );
  return {
    workflowId: workflow.id,
    agentId: agent.id,
    enrollments: counts[0].due,
    enrolled: counts[0].enrolled,
    seconds: (performance.now() - started) / 1000,
    t0,
  };
}

const DAY_MS = 86_400_000;

/**
 * A weekday instant before `before` when the calling rules allow a call to every kind of seeded
 * contact (each area code or country prefix, location and zone the seed gave), with their prior
 * express written consent: the dialer figures run at it, so that each claim places its 100 calls.
 * Tuesdays to Thursdays near 18:30 UTC (morning in Hawaii, evening in Paris); in the months of
 * summer time no such instant exists (Paris closes at 20:00, Hawaii opens at 08:00), so the search
 * goes back to the last winter when it must.
 */
async function lawfulInstant(db: Database, accountId: string, before: Date): Promise<Date> {
  const { rows } = await db.sql.query<{
    phone: string;
    location: string | null;
    timezone: string | null;
    locationDefaulted: boolean;
  }>(
    `SELECT DISTINCT ON (left("phone", 5), "location", "timezone", "locationDefaulted") "phone", "location", "timezone", "locationDefaulted"
     FROM "Contact" WHERE "accountId" = $1::uuid AND "phone" IS NOT NULL`,
    [accountId],
  );
  const callable = (now: Date) =>
    rows.every(
      (contact) =>
        decideDialing({
          now,
          ruleSet: RULE_SET,
          policy: DEFAULT_CALLING_POLICY,
          contact: { ...contact, dnc: false, blocked: false },
          consent: { id: '00000000-0000-4000-8000-000000000000', kind: 'express_written' },
          registries: {},
          callsPlacedAt: [],
          enrollment: null,
        }).callableNow,
    );
  const midnight = Math.floor(before.getTime() / DAY_MS) * DAY_MS;
  for (let daysBack = 2; daysBack <= 400; daysBack++) {
    const day = midnight - daysBack * DAY_MS;
    if (![2, 3, 4].includes(new Date(day).getUTCDay())) continue;
    for (const minutes of [18 * 60 + 30, 18 * 60, 19 * 60, 17 * 60 + 30]) {
      const at = new Date(day + minutes * 60_000);
      if (callable(at)) return at;
    }
  }
  throw new Error(
    `no weekday instant within 400 days lets the rules call every kind of seeded contact (${rows.length} kinds)`,
  );
}

/** Every contact's prior express written consent, obtained 30 days before `at`, as one INSERT. */
async function seedConsents(db: Database, accountId: string, at: Date): Promise<number> {
  const obtained = new Date(at.getTime() - 30 * DAY_MS);
  const inserted = await db.sql.query(
    `INSERT INTO "Consent" ("id", "accountId", "contactId", "kind", "workflowId", "method", "evidence", "obtainedAt", "createdAt")
     SELECT gen_random_uuid(), c."accountId", c."id", 'express_written', NULL, 'import', 'benchmark seed', $2::timestamptz, $2::timestamptz
     FROM "Contact" c WHERE c."accountId" = $1::uuid`,
    [accountId, obtained],
  );
  await db.sql.exec('VACUUM (ANALYZE) "Consent"');
  return inserted.rowCount ?? 0;
}

/**
 * The raw baseline of GET /contacts/{id}/dialing: the statements that read the decision's inputs
 * for one contact, as the service reads them: contact, current enrollment with its workflow and agent, block list,
 * policy, live consents, calls of the longest cap period, the registry copy and block.
 */
type RawRead = [text: string, params: (c: { id: string; accountId: string; digits: string }) => unknown[]];
const RAW_DIALING_READS: RawRead[] = [
  [`SELECT * FROM "Contact" WHERE "id" = $1::uuid AND "accountId" = $2::uuid`, (c) => [c.id, c.accountId]],
  [
    `SELECT e.*, w."status" AS "workflowStatus", w."paused", a."workingHours", a."timezone" AS "agentTimezone", a."status" AS "agentStatus"
   FROM "Enrollment" e JOIN "Workflow" w ON w."id" = e."workflowId" LEFT JOIN "Agent" a ON a."id" = w."agentId"
   WHERE e."contactId" = $1::uuid AND e."accountId" = $2::uuid AND e."active" ORDER BY e."createdAt" DESC LIMIT 1`,
    (c) => [c.id, c.accountId],
  ],
  [
    `SELECT b.* FROM "BlockedPhone" b JOIN "Contact" c ON c."accountId" = b."accountId" AND c."phone" = b."phone"
   WHERE c."id" = $1::uuid AND b."accountId" = $2::uuid`,
    (c) => [c.id, c.accountId],
  ],
  [`SELECT * FROM "CallingPolicy" WHERE "accountId" = ANY(ARRAY[$1::uuid])`, (c) => [c.accountId]],
  [
    `SELECT "id", "contactId", "kind", "workflowId", "obtainedAt" FROM "Consent" WHERE "contactId" = ANY(ARRAY[$1::uuid]) AND "revokedAt" IS NULL`,
    (c) => [c.id],
  ],
  [
    `SELECT "contactId", "startedAt" FROM "Call" WHERE "contactId" = ANY(ARRAY[$1::uuid])
   AND "startedAt" > now() - interval '30 days' AND "direction" = 'outbound' AND NOT "testCall"`,
    (c) => [c.id],
  ],
  [
    `SELECT c."downloadedAt", b."bits" IS NOT NULL AS "hasBlock" FROM "DncRegistryCopy" c
   LEFT JOIN "DncRegistryBlock" b ON b."importId" = c."importId" AND b."prefix" = $2
   WHERE c."accountId" = $1::uuid AND c."registry" = 'us_national' AND c."scope" = $3`,
    (c) => [c.accountId, c.digits.slice(0, -4), c.digits.slice(1, 4)],
  ],
];

/** GET /contacts/{id}/dialing for enrolled contacts, against its reads on the driver. */
async function dialingFigure(
  server: TestServer,
  account: { accountId: string; apiKey: string },
  workflowId: string,
  kind: DatabaseKind,
  settings: CallsSettings,
  log: (message: string) => void,
): Promise<Figure> {
  log('   GET /contacts/{id}/dialing…');
  const db = server.service.services.db;
  const { rows: sample } = await db.sql.query<{ id: string; phone: string }>(
    `SELECT c."id", c."phone" FROM "Enrollment" e JOIN "Contact" c ON c."id" = e."contactId"
     WHERE e."workflowId" = $1::uuid AND e."active" ORDER BY hashtext(e."id"::text) LIMIT 500`,
    [workflowId],
  );
  const headers = { authorization: `Bearer ${account.apiKey}` };
  const reasons = new Map<string, number>();
  const get = async (contact: { id: string }) => {
    const [ms, body] = await timed(async () => {
      const response = await fetch(`${server.baseUrl}/api/v1/contacts/${contact.id}/dialing`, { headers });
      if (response.status !== 200) throw new Error(`GET /dialing: HTTP ${response.status} ${await response.text()}`);
      return (await response.json()) as { callableNow: boolean; reasons: Array<{ code: string }> };
    });
    const key = body.callableNow ? 'callable now' : body.reasons.map((r) => r.code).join('+');
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
    return ms;
  };
  const raw = async (contact: { id: string; phone: string }) => {
    const subject = { id: contact.id, accountId: account.accountId, digits: contact.phone.replace(/\D/g, '') };
    const [ms] = await timed(async () => {
      for (const [text, params] of RAW_DIALING_READS) await db.sql.query(text, params(subject));
    });
    return ms;
  };
  for (let i = 0; i < settings.warmup; i++) {
    await get(sample[i % sample.length]);
    await raw(sample[i % sample.length]);
  }
  reasons.clear();
  const service: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < settings.dialingRequests; i++) {
    const contact = sample[i % sample.length];
    // Alternate which goes first, so that neither always follows the other.
    if (i % 2 === 0) {
      service.push(await get(contact));
      rawMs.push(await raw(contact));
    } else {
      rawMs.push(await raw(contact));
      service.push(await get(contact));
    }
  }
  return figure(service, rawMs, {
    id: 'dialing-get',
    name: "GET /contacts/{id}/dialing: the calling rules' decision for one enrolled contact",
    target: kind === 'postgres' ? 'p95 < 10 ms' : 'p95 < 10 ms (stated for PostgreSQL; informational here)',
    pass: (s) => (kind === 'postgres' ? s.p95 < 10 : null),
    notes:
      `${service.length} requests over ${sample.length} enrolled contacts (keep-alive, one at a time), at the real time: ` +
      `the decision with the rules on, the contact's enrollment (its agent's hours) and its consent. ` +
      `Raw: the ${RAW_DIALING_READS.length} statements reading the same inputs, one after another through the driver.`,
    extra: { answers: Object.fromEntries(reasons) },
  });
}

/** The call-ended figures' baseline: one UPDATE of the contact row ($1 contact, $2 account, $3 time). */
export const RAW_CONTACT_UPDATE = `UPDATE "Contact" SET "status" = 'reached', "callCount" = "callCount" + 1, "lastCallAt" = $3::timestamptz,
    "nextCallAt" = NULL, "updatedAt" = $3::timestamptz WHERE "id" = $1::uuid AND "accountId" = $2::uuid`;

const noopTelephony: Telephony = { placeCall: async () => {} };

export async function benchCalls(
  server: TestServer,
  account: { accountId: string; apiKey: string },
  kind: DatabaseKind,
  settings: CallsSettings,
  log: (message: string) => void,
): Promise<Figure[]> {
  const { accountId } = account;
  const db = server.service.services.db;
  const at = await lawfulInstant(db, accountId, server.service.services.clock.now());
  log(`   the dialer's clock: ${at.toISOString()} (every kind of seeded contact callable then)`);
  // The dialer's own clock, moving from that instant with the real time (calls end after they start).
  const realStart = performance.now();
  const clock = { now: () => new Date(at.getTime() + Math.round(performance.now() - realStart)) };
  const services: DialerServices = { db, clock };
  log('   enrolling every contact (one published workflow, live agent, all due)…');
  const seed = await seedEnrollments(db, accountId, at.toISOString());
  log(`   ${seed.enrollments.toLocaleString('en-US')} enrollments in ${seed.seconds.toFixed(1)} s`);
  const consentStarted = performance.now();
  const consents = await seedConsents(db, accountId, at);
  log(
    `   ${consents.toLocaleString('en-US')} consents (express written) in ${((performance.now() - consentStarted) / 1000).toFixed(1)} s`,
  );

  /** Puts the claimed enrollments back as seeded and deletes the Call rows of the run. */
  const reset = async (run: { placed: Array<{ enrollmentId: string; callId: string }> }) => {
    const ids = run.placed.map((p) => p.enrollmentId);
    if (ids.length === 0) return;
    await db.sql.query(
      `UPDATE "Enrollment" e SET "nextAttemptAt" = ${seededDue(seed.t0)} FROM "Contact" c
      WHERE c."id" = e."contactId" AND e."id" = ANY($1::uuid[])`,
      [ids],
    );
    await db.sql.query(`DELETE FROM "Call" WHERE "id" = ANY($1::uuid[])`, [run.placed.map((p) => p.callId)]);
  };

  /** The claim figure under the Account's current policy. */
  async function claimFigure(variant: { id: string; rules: string }): Promise<Figure> {
    log(`   dialer claim, ${variant.rules}…`);
    // Warm-up runs, recorded: the first statement of the dialer's transaction is its claim SELECT.
    let claim: { text: string; params: unknown[] } | undefined;
    for (let i = 0; i < 2; i++) {
      const recorded: Recorded[] = [];
      const run = await runDialerOnce(recordingServices(services, recorded), noopTelephony);
      if (run.placed.length !== 100 || run.deferred !== 0)
        throw new Error(`dialer warm-up placed ${run.placed.length}, deferred ${run.deferred} (expected 100, 0)`);
      claim ??= { text: recorded[0].text, params: recorded[0].params ?? [] };
      await reset(run);
    }
    if (!claim || !/FOR UPDATE/i.test(claim.text)) throw new Error('could not capture the dialer claim SELECT');
    // The claim with the clock of now (any Date parameter is the dialer's `now`).
    const claimParams = () => claim!.params.map((p) => (p instanceof Date ? services.clock.now() : p));
    const rawClaim = () => inRolledBackTransaction(db, (tx) => tx.query(claim!.text, claimParams()));
    for (let i = 0; i < 2; i++) await rawClaim();

    const service: number[] = [];
    const raw: number[] = [];
    const loopStart = performance.now();
    let firstIds: string | undefined;
    let sameClaim = 0;
    for (let i = 0; i < settings.dialerRuns; i++) {
      // While the claim takes seconds, a handful of runs says enough (and keeps the bench short).
      if (i >= 5 && performance.now() - loopStart > settings.dialerBudgetMs) break;
      const [ms, run] = await timed(() => runDialerOnce(services, noopTelephony));
      if (run.placed.length !== 100) throw new Error(`dialer placed ${run.placed.length} (expected 100)`);
      service.push(ms);
      const ids = run.placed
        .map((p) => p.enrollmentId)
        .sort()
        .join(',');
      firstIds ??= ids;
      if (ids === firstIds) sameClaim++;
      await reset(run);
      const [rawMs, rawRes] = await timed(rawClaim);
      if (rawRes.rows.length !== 100) throw new Error(`raw claim returned ${rawRes.rows.length} rows`);
      raw.push(rawMs);
    }
    // A few recorded runs: where the time goes inside the dialer's transaction.
    const selectMs: number[] = [];
    const rulesMs: number[] = [];
    const restMs: number[] = [];
    let statements = 0;
    let lastRun: Recorded[] = [];
    for (let i = 0; i < 3; i++) {
      const recorded: Recorded[] = [];
      lastRun = recorded;
      const run = await runDialerOnce(recordingServices(services, recorded), noopTelephony);
      selectMs.push(recorded[0].ms);
      // The calling rules' reads (dialing.store.ts): the policy, consents, calls placed, registry listings.
      const isRuleRead = (r: Recorded) => /"CallingPolicy"|"Consent"|"DncRegistryCopy"|"startedAt" >/.test(r.text);
      rulesMs.push(recorded.filter(isRuleRead).reduce((a, r) => a + r.ms, 0));
      restMs.push(
        recorded
          .slice(1)
          .filter((r) => !isRuleRead(r))
          .reduce((a, r) => a + r.ms, 0),
      );
      statements = recorded.length;
      await reset(run);
    }
    const plan = await inRolledBackTransaction(db, async (tx) =>
      (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${claim!.text}`, claimParams())).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n'),
    );
    return figure(service, raw, {
      id: variant.id,
      name: `Dialer: select and claim the next 100 due calls among ${seed.enrolled.toLocaleString('en-US')} enrolled contacts (${seed.enrollments.toLocaleString('en-US')} due), ${variant.rules}`,
      target: kind === 'postgres' ? 'p95 < 50 ms' : 'p95 < 50 ms (stated for PostgreSQL; informational here)',
      pass: (s) => (kind === 'postgres' ? s.p95 < 50 : null),
      notes:
        `runDialerOnce(batch 100) with a no-op telephony: claim SELECT + ${statements - 1} statements + commit, ${service.length} runs, ` +
        `state reset after each (untimed); every enrollment of its workflow due, contact priorities as seeded (85% 0, the rest 1–1000), ` +
        `agent hours 00:00–24:00 every day, every contact with prior express written consent, the clock at ${at.toISOString()}; ` +
        `the seed's own active enrollments (other workflows) are due only after it. ` +
        `Raw: the same claim SELECT (captured from the dialer) through the driver in BEGIN … ROLLBACK.`,
      explain: { variant: 'claim SELECT (in a rolled-back transaction)', plan },
      extra: {
        enrollments: seed.enrollments,
        enrollmentSeedSeconds: Math.round(seed.seconds * 10) / 10,
        runsClaimingTheSameSet: `${sameClaim}/${service.length}`,
        inTransaction: {
          claimSelectMs: stats(selectMs),
          callingRulesReadsMs: stats(rulesMs),
          otherStatementsMs: stats(restMs),
          statementsPerRun: statements,
          // One run's statements in order: the first words of each, and its time (ms).
          lastRun: lastRun.map((r) => `${r.ms.toFixed(2)} ${r.text.replace(/\s+/g, ' ').slice(0, 70)}`),
        },
        claimSql: claim.text,
      },
    });
  }

  const putPolicy = async (body: object) => {
    const response = await server.request(account.apiKey, 'PUT', '/api/v1/calling-policy', body);
    if (response.status !== 200) throw new Error(`PUT /calling-policy: HTTP ${response.status} ${response.text}`);
  };
  const figures: Figure[] = [];
  const rulesOn = await claimFigure({
    id: 'dialer-claim-100',
    rules: 'the calling rules on (telemarketing, every jurisdiction)',
  });
  await putPolicy({ disabledJurisdictions: [...RULE_JURISDICTIONS] });
  const rulesOff = await claimFigure({
    id: 'dialer-claim-100-rules-off',
    rules: 'every jurisdiction of the rule set turned off',
  });
  await putPolicy({ disabledJurisdictions: [] });
  const onOverOff = Math.round((rulesOn.service.p95 / rulesOff.service.p95) * 100) / 100;
  figures.push(
    { ...rulesOn, extra: { ...rulesOn.extra, p95OverRulesOff: onOverOff } },
    { ...rulesOff, extra: { ...rulesOff.extra, rulesOnP95OverThis: onOverOff } },
  );

  // --- the decision for one contact, over REST --------------------------------------------------
  figures.push(await dialingFigure(server, account, seed.workflowId, kind, settings, log));

  // --- 2. call.ended ---------------------------------------------------------------------------
  log('   call.ended events…');
  const events: TelephonyEvent[] = [];
  const recorder = createSimulatedTelephony({ sink: async (e) => void events.push(e), delayMs: 0, clock });
  const wanted = settings.warmup + settings.callEndedCalls;
  let placed = 0;
  while (placed < wanted) {
    const run = await runDialerOnce(services, recorder, Math.min(100, wanted - placed));
    if (run.placed.length === 0) throw new Error('dialer placed no calls for the call.ended figure');
    placed += run.placed.length;
  }
  await recorder.settled();
  const ended = events.filter((e): e is TelephonyEventOf<'call.ended'> => e.type === 'call.ended');
  if (ended.length < wanted) throw new Error(`only ${ended.length} call.ended events recorded`);
  const contactOf = new Map(recorder.placed.map((p) => [p.callId, p.contactId]));
  const serviceE: number[] = [];
  const rawE: number[] = [];
  const statementsPerEvent: number[] = [];
  const results = new Map<string, number>();
  for (let i = 0; i < wanted; i++) {
    const event = ended[i];
    const warm = i < settings.warmup;
    let ms: number;
    if (warm) {
      // Warm-up events recorded: how many statements one call.ended takes.
      const recorded: Recorded[] = [];
      const [t, outcome] = await timed(() => applyTelephonyEvent(recordingServices(services, recorded), event));
      if (outcome !== 'applied') throw new Error(`call.ended was ${outcome}`);
      statementsPerEvent.push(recorded.length);
      ms = t;
    } else {
      const [t, outcome] = await timed(() => applyTelephonyEvent(services, event));
      if (outcome !== 'applied') throw new Error(`call.ended was ${outcome}`);
      ms = t;
      results.set(event.result, (results.get(event.result) ?? 0) + 1);
    }
    const contactId = contactOf.get(event.callId)!;
    const [rawMs, res] = await timed(() => db.sql.query(RAW_CONTACT_UPDATE, [contactId, accountId, event.occurredAt]));
    if (res.rowCount !== 1) throw new Error('raw contact UPDATE touched no row');
    if (!warm) {
      serviceE.push(ms);
      rawE.push(rawMs);
    }
  }
  const domainEvents = (
    await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "DomainEvent" WHERE "accountId" = $1::uuid AND "type" = 'call.ended'`,
      [accountId],
    )
  ).rows[0].n;
  if (domainEvents !== wanted) throw new Error(`${domainEvents} call.ended DomainEvents for ${wanted} events`);
  figures.push(
    figure(serviceE, rawE, {
      id: 'call-ended',
      name: 'Call-ended event: contact update + event emitted',
      target: kind === 'postgres' ? 'p50 < 5 ms' : 'p50 < 5 ms (stated for PostgreSQL; informational here)',
      pass: (s) => (kind === 'postgres' ? s.p50 < 5 : null),
      notes:
        `applyTelephonyEvent(call.ended) for ${serviceE.length} calls placed by runDialerOnce (simulated outcomes), one transaction each: ` +
        `ProcessedEvent, Call lock, contact read, enrollment progress, contact UPDATE, Call UPDATE, DomainEvent INSERT. ` +
        `Raw: one UPDATE of the contact row (status, callCount, lastCallAt, nextCallAt, updatedAt) through the driver.`,
      extra: { statementsPerEvent: stats(statementsPerEvent).p50, results: Object.fromEntries(results) },
    }),
  );

  // --- 3. stopping every enrollment of the workflow -------------------------------------------
  // Last: it ends the benchmark's enrollments. One request (a stop is one statement, answered
  // once it commits; docs/decisions/0040-stopping-enrollments.md), against the same UPDATE on the
  // driver in a rolled-back transaction, run first.
  log('   stopping every enrollment of the workflow (POST …/enrollments/stop, filter {})…');
  const [rawStopMs, rawStopped] = await timed(() =>
    inRolledBackTransaction(db, (tx) =>
      tx.query(
        `WITH stopped AS (
           UPDATE "Enrollment" SET "active" = false, "nextAttemptAt" = NULL, "dialingHold" = NULL, "endedAt" = now(), "endReason" = 'stopped'
           WHERE "workflowId" = $1::uuid AND "accountId" = $2::uuid AND "active" RETURNING "contactId"
         ), cleared AS (
           UPDATE "Contact" SET "nextCallAt" = NULL, "updatedAt" = now()
           WHERE "accountId" = $2::uuid AND "nextCallAt" IS NOT NULL AND "id" IN (SELECT "contactId" FROM stopped)
         ) SELECT count(*)::int AS n FROM stopped`,
        [seed.workflowId, accountId],
      ),
    ),
  );
  const [stopMs, stopAnswer] = await timed(() =>
    server.request(account.apiKey, 'POST', `/api/v1/workflows/${seed.workflowId}/enrollments/stop`, { filter: {} }),
  );
  if (stopAnswer.status !== 200) throw new Error(`stop: HTTP ${stopAnswer.status} ${stopAnswer.text}`);
  const stoppedCount = (stopAnswer.json as { stopped: number }).stopped;
  figures.push(
    figure([stopMs], [rawStopMs], {
      id: 'enrollments-stop-all',
      name: `Stop every active enrollment of a workflow by filter (${stoppedCount.toLocaleString('en-US')} enrollments, one request)`,
      target: 'informational',
      pass: () => null,
      notes:
        'POST /workflows/{id}/enrollments/stop with filter {} (every contact of the Account), one run: the enrollments ended ' +
        "and the contacts' nextCallAt cleared in one statement (here no contact awaited a retry, so none had a nextCallAt to clear: only enrollments are written). Raw: the same two UPDATEs (enrollments, then their contacts) in one statement on the driver, in a rolled-back transaction.",
      extra: { stopped: stoppedCount, rawStopped: (rawStopped.rows[0] as { n: number }).n },
    }),
  );
  return figures;
}
