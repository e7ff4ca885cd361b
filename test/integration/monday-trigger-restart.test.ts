// A restart between a call ending and its trigger delivery loses nothing and sends nothing
// twice: the call.ended event and the delivery rows are in the database, not in memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { startService, type RunningService } from '../../src/service.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import type { SimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { DEFAULT_WORKING_HOURS } from '../../src/domain/calls/calling-hours.rules.js';
import { encryptToken } from '../../integration/monday/token-crypto.js';
import type { MondayConfig } from '../../integration/monday/config.js';
import { createTestDatabase, testDatabaseKinds, type DatabaseKind } from '../support/databases.js';
import { startMondayEmulator } from '../support/monday-emulator/index.js';
import { fanOutCallEnded, reclaimAbandonedLeases } from '../../src/jobs/trigger-delivery.js';
import { registerProcess } from '../../src/jobs/process-liveness.js';
import { generateSecret, hashSecret } from '../../src/domain/api-keys/api-keys.service.js';
import { clockFrom } from '../support/clocks.js';
import { writtenConsent } from '../support/consent.js';

const SECRET = 'restart-signing-secret';
const APP_ID = 10155;
const TOKEN_KEY = randomBytes(32);
const MONDAY_ACCOUNT = 31337;
const MONDAY_USER = 7;

async function until<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(testDatabaseKinds())('call-ended trigger across a restart on %s', (kind: DatabaseKind) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  /** A database that outlives one service: a data directory (PGlite) or a PostgreSQL database. */
  async function durableDatabase(): Promise<{
    env: { DATABASE_URL?: string; DATA_DIR: string };
    open(): Promise<Database>;
  }> {
    if (kind === 'pglite') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-trigger-'));
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
      const db = await openDatabase({ dataDir: dir });
      await migrate(db.sql);
      await db.close();
      return { env: { DATA_DIR: dir }, open: () => openDatabase({ dataDir: dir }) };
    }
    const test = await createTestDatabase('postgres');
    await test.db.close();
    cleanups.push(() => test.drop().catch(() => {}));
    return { env: { DATABASE_URL: test.url!, DATA_DIR: '' }, open: () => openDatabase({ databaseUrl: test.url! }) };
  }

  async function scenario() {
    // The services' and monday's time: it starts on Monday 23 November 2026, 10:00 in Los Angeles
    // (the item's San Francisco number), inside the law's calling hours, and moves on with the
    // real time, across the restart.
    const clock = clockFrom(new Date('2026-11-23T18:00:00.000Z'));
    const monday = await startMondayEmulator({
      signingSecret: SECRET,
      appId: APP_ID,
      retry: { delaysMs: [20, 50, 100] },
      now: () => clock.now().getTime(),
    });
    cleanups.push(() => monday.close());
    const database = await durableDatabase();
    const config: MondayConfig = {
      signingSecret: SECRET,
      appId: APP_ID,
      apiUrl: monday.url,
      apiVersion: '2026-10',
      publicBaseUrl: null,
      tokenKey: TOKEN_KEY,
    };
    let port = 0;
    const start = async (): Promise<RunningService> => {
      const service = await startService({
        env: {
          ...database.env,
          PORT: port,
          HOST: '127.0.0.1',
          REGION: 'us',
          ADMIN_TOKEN: undefined,
          TELEPHONY_WEBHOOK_SECRETS: undefined,
        },
        db: await database.open(),
        dialer: false,
        monday: config,
        clock,
      });
      port = Number(new URL(service.baseUrl).port); // the restarted service listens where monday calls
      return service;
    };
    const first = await start();
    const prisma = first.services.db.prisma;
    const account = await prisma.account.create({ data: { createdAt: first.services.clock.now(), name: 'restart' } });
    const user = await prisma.user.create({
      data: { createdAt: first.services.clock.now(), accountId: account.id, email: 'r@example.com' },
    });
    // A key of the Account's, to record the enrolled contact's consent through the API.
    const apiKey = generateSecret();
    await prisma.apiKey.create({
      data: {
        createdAt: first.services.clock.now(),
        accountId: account.id,
        userId: user.id,
        name: 'restart',
        secretHash: hashSecret(apiKey),
        lastFour: apiKey.slice(-4),
      },
    });
    const agent = await prisma.agent.create({
      data: {
        createdAt: first.services.clock.now(),
        updatedAt: first.services.clock.now(),
        accountId: account.id,
        name: 'Ava',
        status: 'live',
        timezone: 'America/Chicago',
        defaultLanguage: 'en-US',
        attemptLimit: 1,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
        callNewContactsImmediately: true,
      },
    });
    const workflow = await prisma.workflow.create({
      data: {
        createdAt: first.services.clock.now(),
        updatedAt: first.services.clock.now(),
        accountId: account.id,
        agentId: agent.id,
        name: 'W',
        status: 'published',
      },
    });
    await prisma.mondayLink.create({
      data: {
        createdAt: first.services.clock.now(),
        updatedAt: first.services.clock.now(),
        accountId: account.id,
        userId: user.id,
        mondayAccountId: String(MONDAY_ACCOUNT),
        mondayUserId: String(MONDAY_USER),
        accessTokenEncrypted: encryptToken(monday.issueToken(MONDAY_ACCOUNT, MONDAY_USER, null), TOKEN_KEY),
      },
    });
    const board = monday.addBoard({
      accountId: MONDAY_ACCOUNT,
      columns: [
        { id: 'phone', type: 'phone' },
        { id: 'outcome', type: 'status', labels: ['Answered', 'Busy'] },
      ],
    });
    await prisma.boardMapping.create({
      data: {
        updatedAt: first.services.clock.now(),
        accountId: account.id,
        boardId: String(board.id),
        phoneColumnId: 'phone',
      },
    });
    const item = monday.addItem({
      boardId: board.id,
      name: 'Jane Doe',
      values: { phone: { phone: '+14155550199', countryShortName: 'US' } },
    });
    (first.telephony as SimulatedTelephony).setScript('+14155550199', { result: 'qualified' });

    const base = () => `http://127.0.0.1:${port}/integrations/monday`;
    const recipe = await monday.createRecipe({
      accountId: MONDAY_ACCOUNT,
      userId: MONDAY_USER,
      boardId: board.id,
      trigger: {
        kind: 'app',
        subscribeUrl: `${base()}/trigger/subscribe`,
        unsubscribeUrl: `${base()}/trigger/unsubscribe`,
      },
      action: {
        url: `${base()}/actions/set-status`,
        inputFields: (out) => ({
          itemId: out.itemId,
          boardId: out.boardId,
          statusColumnId: 'outcome',
          callResult: out.callResult,
        }),
      },
    });
    const enrolled = await monday.runAction({
      url: `${base()}/actions/enroll`,
      accountId: MONDAY_ACCOUNT,
      userId: MONDAY_USER,
      inputFields: { boardId: board.id, itemId: Number(item.id), workflowId: { title: 'W', value: workflow.id } },
    });
    expect(enrolled.outcome).toBe('success');
    // The contact's prior express written consent (a board enrollment carries none, and the calling
    // rules call no US contact without it).
    const consent = await fetch(`${first.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($c: String!, $i: JSON!) { addContactConsent(contactId: $c, input: $i) { id } }',
        variables: { c: enrolled.outputFields!.contactId, i: writtenConsent(clock.now()) },
      }),
    });
    const consentBody = (await consent.json()) as { errors?: unknown };
    expect(consentBody.errors).toBeUndefined();
    const dial = async () => {
      await runDialerOnce(first.services, first.telephony);
      await (first.telephony as SimulatedTelephony).settled();
      return prisma.call.findFirstOrThrow({
        where: { contactId: enrolled.outputFields!.contactId as string, status: 'ended' },
      });
    };
    const accepted = () =>
      monday.triggerDeliveries.filter(
        (d) => d.subscriptionId === String(recipe.subscription!.subscriptionId) && d.outcome === 'accepted',
      );
    return { monday, first, start, dial, accepted, item };
  }

  it('delivers a call that ended while the worker was down, once, after the restart', async () => {
    const { monday, first, start, dial, accepted, item } = await scenario();
    await first.triggerDelivery!.stop(); // the process dies before fanning the event out
    const call = await dial();
    expect(
      (await first.services.db.prisma.domainEvent.findFirstOrThrow({ where: { type: 'call.ended' } })).dispatchedAt,
    ).toBeNull();
    await first.stop();

    const second = await start();
    cleanups.push(() => second.stop());
    const [delivery] = await until(() => (accepted().length > 0 ? accepted() : null));
    expect(delivery.outputFields).toMatchObject({ callId: call.id, callResult: 'qualified', itemId: Number(item.id) });
    await until(() => monday.readValue(item.id, 'outcome').label === 'Answered');
    await new Promise((r) => setTimeout(r, 1200));
    expect(accepted()).toHaveLength(1);
  });

  it('resumes a delivery that failed before the restart, and sends it once', async () => {
    const { monday, first, start, dial, accepted } = await scenario();
    monday.failTriggerDeliveries(1, 503);
    const call = await dial();
    const pending = await until(async () => {
      const row = await first.services.db.prisma.mondayTriggerDelivery.findFirst({ where: { callId: call.id } });
      return row && row.attempts === 1 && row.lastError ? row : null;
    });
    expect(pending.status).toBe('pending');
    await first.stop();

    const second = await start();
    cleanups.push(() => second.stop());
    await until(() => accepted().length > 0);
    await new Promise((r) => setTimeout(r, 1200));
    expect(accepted()).toHaveLength(1);
    const row = await second.services.db.prisma.mondayTriggerDelivery.findFirstOrThrow({ where: { callId: call.id } });
    expect(row).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  /** Fans the call's event out and leases its delivery for two minutes to `owner`, as a worker in the middle of sending it. */
  async function leaseAs(service: RunningService, callId: string, owner: string): Promise<void> {
    // The service's webhook fan-out reads the same events FOR UPDATE SKIP LOCKED: while it holds
    // this one, the trigger's fan-out skips it (and would take it at its next pass), so fan out
    // until the event is taken.
    await until(async () => (await fanOutCallEnded(service.services)) === 1);
    const now = service.services.clock.now();
    const { rowCount } = await service.services.db.sql.query(
      `UPDATE "MondayTriggerDelivery" SET attempts = 1, "nextAttemptAt" = $2, "leasedBy" = $3::uuid WHERE "callId" = $1::uuid`,
      [callId, new Date(now.getTime() + 120_000), owner],
    );
    expect(rowCount).toBe(1);
  }

  it('sends a delivery leased by a process that died within 5 s of the next start, once', async () => {
    const { first, start, dial, accepted } = await scenario();
    await first.triggerDelivery!.stop();
    const call = await dial();
    // The process that leased it is gone: its registration (its lock, on PostgreSQL) ended with it.
    const dead = await registerProcess(first.services.db);
    await dead.close();
    await leaseAs(first, call.id, dead.id);
    await first.stop();

    const second = await start();
    cleanups.push(() => second.stop());
    await until(() => accepted().length > 0, 5_000);
    // monday's 2xx comes before the row is marked delivered.
    const row = await until(async () => {
      const delivery = await second.services.db.prisma.mondayTriggerDelivery.findFirstOrThrow({
        where: { callId: call.id },
      });
      return delivery.status === 'delivered' ? delivery : null;
    });
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, leasedBy: null });
    expect(accepted()).toHaveLength(1);
  });

  it.runIf(kind === 'postgres')(
    'leaves the lease of a live process alone, and takes it back once that process is gone',
    async () => {
      const { first, dial } = await scenario();
      await first.triggerDelivery!.stop();
      const call = await dial();
      const owner = await registerProcess(first.services.db);
      const looker = await registerProcess(first.services.db);
      cleanups.push(() => looker.close());
      await leaseAs(first, call.id, owner.id);
      expect(await reclaimAbandonedLeases(first.services, looker)).toBe(0);
      await owner.close();
      expect(await reclaimAbandonedLeases(first.services, looker)).toBe(1);
      const row = await first.services.db.prisma.mondayTriggerDelivery.findFirstOrThrow({ where: { callId: call.id } });
      expect(row.leasedBy).toBeNull();
      expect(row.nextAttemptAt.getTime()).toBeLessThanOrEqual(first.services.clock.now().getTime());
      await first.stop();
    },
  );
});
