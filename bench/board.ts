// Board app figures (called from bench/run.ts on the seeded account's database, with the board
// app pointed at the monday emulator on loopback):
//
//   enroll-action      POST /integrations/monday/actions/enroll for a new item each time (JWT
//                      verify, run claim, mapping and workflow checks, monday item read, upsert +
//                      enrollment, item link, run record). monday's API time is excluded: each
//                      run is paired with the same item read sent straight to the emulator, and
//                      that read's time is subtracted. Raw: the contact INSERT ... ON CONFLICT and
//                      the Enrollment INSERT on the driver, in one transaction.
//   enroll-1000-concurrent  1000 items enrolled by 1000 simultaneous action runs, then the same
//                      1000 runs again (monday retrying): every answer must be 200, and the
//                      account must hold exactly 1000 contacts and 1000 enrollments for them.
import { randomUUID } from 'node:crypto';
import type { Database } from '../src/db/database.js';
import { mondayApi } from '../integration/monday/monday-api.js';
import type { MondayConfig } from '../integration/monday/config.js';
import { encryptToken } from '../integration/monday/token-crypto.js';
import { DEFAULT_WORKING_HOURS } from '../src/domain/calls/calling-hours.rules.js';
import type { TestServer } from '../test/support/test-server.js';
import type { MondayEmulator } from '../test/support/monday-emulator/index.js';
import { figure, stats, timed, type Figure } from './run.js';

export interface BoardSettings {
  enrollRuns: number;
  warmup: number;
  concurrentRuns: number;
}

const MONDAY_ACCOUNT = 424242;
const MONDAY_USER = 7;

export async function benchBoard(
  server: TestServer,
  monday: MondayEmulator,
  config: MondayConfig,
  settings: BoardSettings,
  log: (m: string) => void,
): Promise<Figure[]> {
  const db = server.service.services.db;
  const account = await server.createAccount();
  const agent = await db.prisma.agent.create({
    data: {
      createdAt: server.now(),
      updatedAt: server.now(),
      accountId: account.accountId,
      name: 'Bench',
      status: 'live',
      timezone: 'America/Chicago',
      defaultLanguage: 'en-US',
      attemptLimit: 3,
      workingHours: DEFAULT_WORKING_HOURS as object,
      retryDelayMinutes: 60,
    },
  });
  const workflow = await db.prisma.workflow.create({
    data: {
      createdAt: server.now(),
      updatedAt: server.now(),
      accountId: account.accountId,
      agentId: agent.id,
      name: 'Bench',
      status: 'published',
    },
  });
  await db.prisma.mondayLink.create({
    data: {
      createdAt: server.now(),
      updatedAt: server.now(),
      accountId: account.accountId,
      userId: account.userId,
      mondayAccountId: String(MONDAY_ACCOUNT),
      mondayUserId: String(MONDAY_USER),
      accessTokenEncrypted: encryptToken(monday.issueToken(MONDAY_ACCOUNT, MONDAY_USER, null), config.tokenKey!),
    },
  });
  const board = monday.addBoard({
    accountId: MONDAY_ACCOUNT,
    columns: [
      { id: 'first', type: 'text' },
      { id: 'last', type: 'text' },
      { id: 'phone', type: 'phone' },
      { id: 'tz', type: 'world_clock' },
      { id: 'company', type: 'text' },
    ],
  });
  await db.prisma.boardMapping.create({
    data: {
      updatedAt: server.now(),
      accountId: account.accountId,
      boardId: String(board.id),
      firstNameColumnId: 'first',
      lastNameColumnId: 'last',
      phoneColumnId: 'phone',
      timezoneColumnId: 'tz',
      timezoneColumnType: 'world_clock',
      extraFields: [{ columnId: 'company', identifier: 'company' }],
    },
  });
  let phoneSeq = 0;
  const addItem = () => {
    const n = phoneSeq++;
    const phone = `+1${[917, 718, 646][n % 3]}${String(3_000_000 + Math.floor(n / 3))}`;
    return String(
      monday.addItem({
        boardId: board.id,
        name: `Item ${n}`,
        values: { first: 'Bench', last: `Item${n}`, phone: { phone, countryShortName: 'US' }, company: 'Acme' },
      }).id,
    );
  };
  const enrollUrl = `${server.baseUrl}/integrations/monday/actions/enroll`;
  const run = async (itemId: string, actionUuid = randomUUID()) => {
    const jwt = monday.mintJwt({ accountId: MONDAY_ACCOUNT, userId: MONDAY_USER, aud: enrollUrl });
    const fields = {
      boardId: Number(board.id),
      itemId: Number(itemId),
      workflowId: { title: 'Bench', value: workflow.id },
    };
    const response = await fetch(enrollUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: jwt },
      body: JSON.stringify({
        payload: {
          blockKind: 'action',
          inboundFieldValues: fields,
          inputFields: fields,
          recipeId: 1,
          integrationId: 1,
        },
        runtimeMetadata: { actionUuid },
      }),
    });
    return { status: response.status, body: (await response.json()) as { outputFields?: { contactId: string } } };
  };
  const mondayRead = mondayApi(config, monday.issueToken(MONDAY_ACCOUNT, MONDAY_USER, null));
  const COLUMNS = ['first', 'last', 'phone', 'tz', 'company'];

  log('   board app: enroll action…');
  const service: number[] = [];
  const totals: number[] = [];
  const reads: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < settings.warmup + settings.enrollRuns; i++) {
    const itemId = addItem();
    const [readMs] = await timed(() => mondayRead.readItem(itemId, COLUMNS));
    const [totalMs, answer] = await timed(() => run(itemId));
    if (answer.status !== 200)
      throw new Error(`enroll action answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    const [rawMs] = await timed(() => rawEnroll(db, account.accountId, workflow.id, i));
    if (i < settings.warmup) continue;
    totals.push(totalMs);
    reads.push(readMs);
    service.push(Math.max(totalMs - readMs, 0));
    raw.push(rawMs);
  }
  const figures: Figure[] = [
    figure(service, raw, {
      id: 'enroll-action',
      name: 'Board app enroll action, monday read excluded (POST /integrations/monday/actions/enroll → 200)',
      target: 'p50 < 20 ms',
      pass: (s) => s.p50 < 20,
      notes: `whole request p50 ${stats(totals).p50} ms, of which monday's item read (emulator, loopback) p50 ${stats(reads).p50} ms; raw: contact INSERT ... ON CONFLICT + Enrollment INSERT in one transaction`,
    }),
  ];

  log(`   board app: ${settings.concurrentRuns} concurrent enroll runs…`);
  const items = Array.from({ length: settings.concurrentRuns }, () => addItem());
  const uuids = items.map(() => randomUUID());
  const [firstMs, first] = await timed(() => Promise.all(items.map((itemId, i) => run(itemId, uuids[i]))));
  const [retryMs, retried] = await timed(() => Promise.all(items.map((itemId, i) => run(itemId, uuids[i]))));
  const errors = [...first, ...retried].filter((a) => a.status !== 200);
  const { rows } = await db.sql.query<{ contacts: string; distinct_items: string; enrollments: string }>(
    `SELECT count(*) AS contacts, count(DISTINCT c."externalId") AS distinct_items,
            (SELECT count(*) FROM "Enrollment" e JOIN "Contact" x ON x.id = e."contactId" WHERE x."accountId" = $1::uuid AND x."externalId" = ANY($2::text[])) AS enrollments
       FROM "Contact" c WHERE c."accountId" = $1::uuid AND c."sourceKind" = 'monday' AND c."externalId" = ANY($2::text[])`,
    [account.accountId, items],
  );
  const counts = {
    contacts: Number(rows[0].contacts),
    distinctItems: Number(rows[0].distinct_items),
    enrollments: Number(rows[0].enrollments),
  };
  const replayedSame = retried.every(
    (a, i) => a.body.outputFields?.contactId === first[i].body.outputFields?.contactId,
  );
  const ok =
    errors.length === 0 &&
    counts.contacts === items.length &&
    counts.distinctItems === items.length &&
    counts.enrollments === items.length &&
    replayedSame;
  const one = (ms: number) => ({
    n: 1,
    p50: Math.round(ms),
    p95: Math.round(ms),
    p99: Math.round(ms),
    mean: Math.round(ms),
    min: Math.round(ms),
    max: Math.round(ms),
  });
  figures.push({
    id: 'enroll-1000-concurrent',
    name: `${items.length} items enrolled by ${items.length} concurrent action runs, then retried (wall time of the first wave)`,
    service: one(firstMs),
    raw: one(retryMs),
    ratioP50: null,
    ratioP95: null,
    target: 'no error, no duplicate',
    pass: ok,
    notes: `errors ${errors.length}${errors.length ? ` (${[...new Set(errors.map((e) => e.status))].join(', ')})` : ''}; contacts ${counts.contacts}, distinct items ${counts.distinctItems}, enrollments ${counts.enrollments}; the retry wave (same actionUuids, "raw" column: ${Math.round(retryMs)} ms) replayed the same contacts: ${replayedSame}`,
  });
  return figures;
}

/** The database work of one enrollment on the driver: the contact row and its enrollment. */
async function rawEnroll(db: Database, accountId: string, workflowId: string, i: number): Promise<void> {
  await db.sql.transaction(async (tx) => {
    const phone = `+1212${String(4_000_000 + i)}`;
    const contact = await tx.query<{ id: string }>(
      `INSERT INTO "Contact" (id, "accountId", "firstName", "lastName", phone, "sourceKind", "externalId", "dedupKey", "customFields", status, "assignedWorkflowId", "createdAt", "updatedAt")
       VALUES (gen_random_uuid(), $1::uuid, 'Raw', $2, $3, 'monday', $4, $5, '{"company":"Acme"}'::jsonb, 'assigned', $6::uuid, now(), now())
       ON CONFLICT ("accountId", "dedupKey") DO UPDATE SET "updatedAt" = now() RETURNING id`,
      [accountId, `Item${i}`, phone, `raw-${i}`, `phone:${phone}`, workflowId],
    );
    await tx.query(
      `INSERT INTO "Enrollment" (id, "accountId", "contactId", "workflowId", active, "nextAttemptAt", "createdAt") VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, true, now(), now())
       ON CONFLICT DO NOTHING`,
      [accountId, contact.rows[0].id, workflowId],
    );
  });
}
