// Remote options of the board app: monday asks for the workflow and voice-agent pickers with
// its JWT; we answer the linked Account's enrollable workflows and its agents, paginated.
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { DEFAULT_WORKING_HOURS } from '../../src/domain/calls/calling-hours.rules.js';

const SECRET = 'monday-signing-secret-for-tests';

describe.each(testDatabaseKinds())('board app remote options on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      monday: {
        signingSecret: SECRET,
        appId: 10155,
        apiUrl: 'http://127.0.0.1:1/v2',
        apiVersion: '2026-10',
        publicBaseUrl: null,
      },
    });
  });
  afterAll(() => server?.stop());

  const mondayToken = (accountId: number, secret = SECRET, expiresIn = 300) =>
    jwt.sign({ accountId, userId: 4012689, shortLivedToken: 'slt' }, secret, { expiresIn });

  async function linkedAccount(mondayAccountId: number) {
    const account = await server.createAccount();
    await server.service.services.db.prisma.mondayLink.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        userId: account.userId,
        mondayAccountId: String(mondayAccountId),
        mondayUserId: '4012689',
        accessTokenEncrypted: 'v1.x.y.z',
      },
    });
    return account;
  }

  const ask = (path: string, token: string | null, pageRequestData: object = {}) =>
    server.request(
      null,
      'POST',
      `/integrations/monday/options/${path}`,
      { payload: { boardId: 1, pageRequestData, dependencyData: null } },
      token ? { authorization: token } : {},
    );

  it('lists only published, not paused workflows of the linked Account, page by page', async () => {
    const mondayAccountId = 900000 + Math.floor(Math.random() * 99999);
    const { accountId } = await linkedAccount(mondayAccountId);
    const prisma = server.service.services.db.prisma;
    const expected: string[] = [];
    for (let i = 0; i < 55; i++)
      expected.push(
        (
          await prisma.workflow.create({
            data: {
              createdAt: server.now(),
              updatedAt: server.now(),
              accountId,
              name: `Published ${i}`,
              status: 'published',
            },
          })
        ).id,
      );
    await prisma.workflow.create({
      data: { createdAt: server.now(), updatedAt: server.now(), accountId, name: 'Draft', status: 'draft' },
    });
    await prisma.workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId,
        name: 'Paused',
        status: 'published',
        paused: true,
      },
    });
    const other = await server.createAccount();
    await prisma.workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: other.accountId,
        name: 'Elsewhere',
        status: 'published',
      },
    });

    const first = await ask('workflows', `Bearer ${mondayToken(mondayAccountId)}`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ isPaginated: true, isLastPage: false });
    expect(first.json.options).toHaveLength(50);
    const second = await ask('workflows', mondayToken(mondayAccountId), first.json.nextPageRequestData);
    expect(second.json).toMatchObject({ isLastPage: true, nextPageRequestData: null });
    const values = [...first.json.options, ...second.json.options].map((o: { value: string }) => o.value);
    expect(values.sort()).toEqual(expected.sort());
    expect(first.json.options[0]).toHaveProperty('title');
  });

  it('lists the voice agents, marking those not live', async () => {
    const mondayAccountId = 800000 + Math.floor(Math.random() * 99999);
    const { accountId } = await linkedAccount(mondayAccountId);
    const prisma = server.service.services.db.prisma;
    for (const [name, status] of [
      ['Ava', 'live'],
      ['Bo', 'paused'],
    ] as const) {
      await prisma.agent.create({
        data: {
          createdAt: server.now(),
          updatedAt: server.now(),
          accountId,
          name,
          status,
          timezone: 'UTC',
          defaultLanguage: 'en-US',
          attemptLimit: 3,
          workingHours: DEFAULT_WORKING_HOURS as object,
          retryDelayMinutes: 60,
        },
      });
    }
    const res = await ask('agents', mondayToken(mondayAccountId));
    expect(res.json.options.map((o: { title: string }) => o.title).sort()).toEqual(['Ava', 'Bo (paused)']);
  });

  it('a cursor we did not issue is a 400, never a 500', async () => {
    const mondayAccountId = 600000 + Math.floor(Math.random() * 99999);
    await linkedAccount(mondayAccountId);
    for (const path of ['workflows', 'agents']) {
      const res = await ask(path, mondayToken(mondayAccountId), { cursor: 'not-a-cursor' });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json).toMatchObject({ error: 'Bad Request', code: 'bad_request', requestId: expect.any(String) });
    }
  });

  it('refuses tokens monday did not sign, expired ones, and accounts not linked', async () => {
    const mondayAccountId = 700000 + Math.floor(Math.random() * 99999);
    await linkedAccount(mondayAccountId);
    expect((await ask('workflows', null)).status).toBe(401);
    expect((await ask('workflows', mondayToken(mondayAccountId, 'another-secret-entirely'))).status).toBe(401);
    expect((await ask('workflows', mondayToken(mondayAccountId, SECRET, -10))).status).toBe(401);
    const unlinked = await ask('workflows', mondayToken(123456789));
    expect(unlinked.status).toBe(403);
    expect(unlinked.json.message).toMatch(/not linked/);
    expect(unlinked.headers.get('x-request-id')).toBeTruthy();
  });

  it('is not served when the board app is not configured', async () => {
    const plain = await startTestServer(kind);
    try {
      expect((await plain.request(null, 'POST', '/integrations/monday/options/workflows', {})).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
});

describe.each(testDatabaseKinds())('board app trigger subscriptions on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      monday: {
        signingSecret: SECRET,
        appId: 10155,
        apiUrl: 'http://127.0.0.1:1/v2',
        apiVersion: '2026-10',
        publicBaseUrl: null,
      },
    });
  });
  afterAll(() => server?.stop());

  it('stores a subscription with its optional agent filter, and removes it idempotently', async () => {
    const mondayAccountId = 600000 + Math.floor(Math.random() * 99999);
    const account = await server.createAccount();
    const prisma = server.service.services.db.prisma;
    await prisma.mondayLink.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        userId: account.userId,
        mondayAccountId: String(mondayAccountId),
        mondayUserId: '1',
        accessTokenEncrypted: 'v1.x.y.z',
      },
    });
    const agent = await prisma.agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        name: 'Ava',
        status: 'live',
        timezone: 'UTC',
        defaultLanguage: 'en-US',
        attemptLimit: 3,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
      },
    });
    const token = jwt.sign({ accountId: mondayAccountId, userId: 1 }, SECRET, { expiresIn: 300 });
    const subscribe = (subscriptionId: number, agentField: unknown) =>
      server.request(
        null,
        'POST',
        '/integrations/monday/trigger/subscribe',
        {
          payload: {
            webhookUrl: `http://127.0.0.1:9/automations/apps-events/${subscriptionId}`,
            subscriptionId,
            inputFields: { boardId: 1234567890, agentId: agentField },
            recipeId: 30440657,
            integrationId: 398739197,
          },
        },
        { authorization: token },
      );

    const withAgent = await subscribe(481690204, { title: 'Ava', value: agent.id });
    expect(withAgent.status).toBe(200);
    expect(withAgent.json).toEqual({ webhookId: '481690204' });
    expect(await prisma.mondayTriggerSubscription.findUnique({ where: { webhookId: '481690204' } })).toMatchObject({
      accountId: account.accountId,
      boardId: '1234567890',
      agentId: agent.id,
      deletedAt: null,
    });
    expect((await subscribe(481690205, null)).status).toBe(200);
    expect(
      (await prisma.mondayTriggerSubscription.findUnique({ where: { webhookId: '481690205' } }))!.agentId,
    ).toBeNull();
    expect((await subscribe(481690206, { value: '00000000-0000-4000-8000-000000000000' })).status).toBe(400);

    for (let i = 0; i < 2; i++) {
      const res = await server.request(
        null,
        'POST',
        '/integrations/monday/trigger/unsubscribe',
        { payload: { webhookId: 481690204 } },
        { authorization: token },
      );
      expect(res.status).toBe(200);
    }
    expect(
      (await prisma.mondayTriggerSubscription.findUnique({ where: { webhookId: '481690204' } }))!.deletedAt,
    ).not.toBeNull();
    expect(
      (
        await server.request(
          null,
          'POST',
          '/integrations/monday/trigger/unsubscribe',
          { payload: { webhookId: 1 } },
          { authorization: token },
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await server.request(
          null,
          'POST',
          '/integrations/monday/trigger/subscribe',
          { payload: {} },
          { authorization: 'forged' },
        )
      ).status,
    ).toBe(401);
  });
});
