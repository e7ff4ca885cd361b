// The monday emulator's automation side (the engine and the trigger receiver), played against a
// tiny Express app standing in for ours: JWTs monday mints, action runs with monday's severity
// and retry rules, recipes with our trigger (subscribe, unsubscribe, the webhookUrl receiver) or
// monday's status-change trigger, and remote options paging.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import jwt from 'jsonwebtoken';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RecipeSetupError, startMondayEmulator, type MondayEmulator } from '../support/monday-emulator/index.js';

const SECRET = 'automation-engine-signing-secret';
const CLIENT_SECRET = 'automation-engine-client-secret';
const APP_ID = 10155;
const ACCOUNT = 1825529;
const USER = 4012689;
const BOARD = '1234567890';
const OTHER_BOARD = '1234567891';
const WORKFLOW = { title: 'Spring outreach', value: 'wf_123' };

// ---------------------------------------------------------------------------------------------
// "Our app": verifies monday's JWT like the real one must (Signing Secret, aud = URL called,
// exp), records what it received, and answers whatever the test scripted for the path.

interface Received {
  path: string;
  authorization: string | undefined;
  claims: jwt.JwtPayload | null;
  body: any;
}
interface Reply {
  status: number;
  body?: unknown;
  /** Answer this late (to exceed monday's per-attempt timeout). */
  delayMs?: number;
}
type Handler = (request: Received, nth: number) => Reply;

interface StubApp {
  origin: string;
  received: Received[];
  receivedAt(path: string): Received[];
  on(path: string, handler: Handler): void;
  reset(): void;
  close(): Promise<void>;
}

async function startStubApp(): Promise<StubApp> {
  const handlers = new Map<string, Handler>();
  const received: Received[] = [];
  const app = express();
  app.use(express.json());
  let origin = '';
  app.use(async (req, res) => {
    const authorization = req.get('authorization');
    let claims: jwt.JwtPayload | null = null;
    try {
      claims = jwt.verify((authorization ?? '').replace(/^Bearer\s+/i, ''), SECRET, {
        algorithms: ['HS256'],
        audience: `${origin}${req.originalUrl}`,
      }) as jwt.JwtPayload;
    } catch {
      claims = null;
    }
    const request: Received = { path: req.path, authorization, claims, body: req.body };
    const nth = received.filter((r) => r.path === req.path).length;
    received.push(request);
    if (!claims) {
      res.status(401).json({ error: 'Unauthorized' });
      return;
    }
    const reply: Reply = handlers.get(req.path)?.(request, nth) ?? { status: 200, body: {} };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (!res.socket || res.socket.destroyed) return;
    res.status(reply.status).json(reply.body ?? {});
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    receivedAt: (path) => received.filter((r) => r.path === path),
    on: (path, handler) => handlers.set(path, handler),
    reset() {
      handlers.clear();
      received.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------

let stub: StubApp;
let monday: MondayEmulator;
const url = (path: string) => `${stub.origin}${path}`;

/** What our trigger delivery job sends: `{ trigger: { outputFields } }`. */
const triggerAuthorization = (secret = SECRET, appId: unknown = APP_ID) =>
  `Bearer ${jwt.sign({ appId }, secret, { algorithm: 'HS256', expiresIn: 60 })}`;

async function fireTrigger(
  webhookUrl: string,
  outputFields: Record<string, unknown>,
  authorization: string | null = triggerAuthorization(),
) {
  const response = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization === null ? {} : { authorization }) },
    body: JSON.stringify({ trigger: { outputFields } }),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

async function graphql(query: string, variables: Record<string, unknown>, token: string) {
  const response = await fetch(monday.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token, 'API-Version': '2026-10' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, json: (await response.json()) as any };
}

const callEndedTrigger = (extra: Record<string, unknown> = {}) => ({
  kind: 'app' as const,
  subscribeUrl: url('/trigger/subscribe'),
  unsubscribeUrl: url('/trigger/unsubscribe'),
  inputFields: { boardId: Number(BOARD), agentId: null },
  ...extra,
});

/** Our status action, fed from the trigger's outputs as a recipe sentence would map them. */
const statusAction = () => ({
  url: url('/actions/status'),
  inputFields: (outputs: Record<string, unknown>, context: { boardId: number }) => ({
    boardId: context.boardId,
    itemId: outputs.itemId,
    callResult: outputs.callResult,
  }),
});

beforeAll(async () => {
  stub = await startStubApp();
  monday = await startMondayEmulator({
    signingSecret: SECRET,
    clientSecret: CLIENT_SECRET,
    appId: APP_ID,
    retry: { delaysMs: [10, 20, 30] },
  });
  monday.addBoard({
    id: BOARD,
    accountId: ACCOUNT,
    columns: [
      { id: 'status', type: 'status', labels: ['Working on it', 'Done', 'Stuck', 'Call'] },
      { id: 'status_2', type: 'status' },
      { id: 'phone', type: 'phone' },
    ],
  });
  monday.addBoard({
    id: OTHER_BOARD,
    accountId: ACCOUNT,
    columns: [{ id: 'status', type: 'status', labels: ['Done', 'Call'] }],
  });
});

afterAll(async () => {
  await monday?.close();
  await stub?.close();
});

beforeEach(() => {
  stub.reset();
  monday.actionRuns.length = 0;
  monday.triggerDeliveries.length = 0;
  monday.appCalls.length = 0;
});

afterEach(async () => {
  for (const recipe of monday.recipes) await monday.deleteRecipe(recipe.id);
  await monday.idle();
});

let itemSeq = 0;
const newItem = (boardId = BOARD) =>
  monday.addItem({ id: String(9_000_000_000 + ++itemSeq), boardId, name: `Person ${itemSeq}` }).id;

describe('action runs', () => {
  const enrollInput = { boardId: Number(BOARD), itemId: 9876543210, workflowId: WORKFLOW };

  it('sends the §3.1 body with a JWT our app verifies: claims, aud, 300 s, a working shortLivedToken; raw header by default', async () => {
    const run = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
    });
    expect(run).toMatchObject({ outcome: 'success', recipeId: 30440660 });
    expect(run.attempts).toHaveLength(1);

    const [request] = stub.received;
    expect(request.authorization).not.toMatch(/^Bearer /);
    expect(request.claims).toMatchObject({ accountId: ACCOUNT, userId: USER, aud: url('/actions/enroll') });
    expect(request.claims!.exp! - request.claims!.iat!).toBe(300);
    expect(request.body).toEqual({
      payload: {
        blockKind: 'action',
        inboundFieldValues: enrollInput,
        inputFields: enrollInput,
        credentialsValues: {},
        recipeId: 30440660,
        integrationId: run.integrationId,
      },
      runtimeMetadata: { actionUuid: run.actionUuid, triggerUuid: run.triggerUuid },
    });

    const me = await graphql('query { me { id account { id } } }', {}, request.claims!.shortLivedToken);
    expect(me.json.data.me).toEqual({ id: String(USER), account: { id: String(ACCOUNT) } });
    expect(monday.actionRuns).toEqual([run]);
  });

  it('sends Authorization: Bearer <jwt> when asked', async () => {
    const run = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
      bearer: true,
    });
    expect(run.outcome).toBe('success');
    expect(stub.received[0].authorization).toMatch(/^Bearer ey/);
    expect(stub.received[0].claims).toMatchObject({ accountId: ACCOUNT });
  });

  it('mints the tokens our app must refuse: Client Secret, expired, another aud; and sends forged or no tokens', async () => {
    const aud = url('/actions/enroll');
    const verify = (token: string) => jwt.verify(token, SECRET, { algorithms: ['HS256'], audience: aud });
    expect(() =>
      verify(monday.mintJwt({ accountId: ACCOUNT, userId: USER, aud, secret: monday.clientSecret })),
    ).toThrow(/signature/);
    expect(() => verify(monday.mintJwt({ accountId: ACCOUNT, userId: USER, aud, expiresInSeconds: -10 }))).toThrow(
      jwt.TokenExpiredError,
    );
    expect(() => verify(monday.mintJwt({ accountId: ACCOUNT, userId: USER, aud: url('/elsewhere') }))).toThrow(
      /audience/,
    );
    expect(
      jwt.decode(
        monday.mintJwt({ accountId: ACCOUNT, userId: USER, aud, shortLivedToken: false, extra: { backToUrl: 'x' } }),
      ),
    ).not.toHaveProperty('shortLivedToken');

    const forged = await monday.runAction({
      url: aud,
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
      jwt: jwt.sign({ accountId: ACCOUNT, userId: USER, aud }, 'not-the-secret'),
    });
    expect(forged).toMatchObject({ outcome: 'failed', runtimeError: 'HTTP 401 (no severity body)' });
    expect(forged.attempts).toHaveLength(1); // a 401 is a 4xx: monday does not retry
    const anonymous = await monday.runAction({
      url: aud,
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
      jwt: null,
    });
    expect(anonymous.outcome).toBe('failed');
    expect(stub.received[1].authorization).toBeUndefined();
  });

  it('retries a 5xx without severity with the same actionUuid and body until our app answers 200', async () => {
    stub.on('/actions/enroll', (_, nth) =>
      nth < 2 ? { status: nth === 0 ? 500 : 503 } : { status: 200, body: { outputFields: { enrolled: true } } },
    );
    const run = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
    });
    expect(run.outcome).toBe('success');
    expect(run.outputFields).toEqual({ enrolled: true });
    expect(run.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    const bodies = stub.receivedAt('/actions/enroll').map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((b) => b.runtimeMetadata.actionUuid))).toEqual(new Set([run.actionUuid]));
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it('gives up when the retry delays are used up, on 5xx and on network errors', async () => {
    stub.on('/actions/enroll', () => ({ status: 502 }));
    const run = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
    });
    expect(run.outcome).toBe('gave_up');
    expect(run.attempts.map((a) => a.status)).toEqual([502, 502, 502, 502]);

    const unreachable = await monday.runAction({
      url: 'http://127.0.0.1:1/actions/enroll',
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
      retry: { delaysMs: [5] },
    });
    expect(unreachable.outcome).toBe('gave_up');
    expect(unreachable.attempts).toHaveLength(2);
    expect(unreachable.attempts[0]).toMatchObject({ status: null, error: expect.stringMatching(/^network: /) });
  });

  it('gives up when the retry window ends, by the emulator clock', async () => {
    const local = await startMondayEmulator({
      signingSecret: SECRET,
      retry: { delaysMs: [5, 5, 5, 5, 5, 5], windowMs: 30 * 60_000 },
    });
    try {
      // Each attempt "takes" 12 minutes: the 4th would start after the 30-minute window.
      stub.on('/actions/enroll', () => {
        local.advanceTime(12 * 60_000);
        return { status: 500 };
      });
      const run = await local.runAction({
        url: url('/actions/enroll'),
        accountId: ACCOUNT,
        userId: USER,
        inputFields: enrollInput,
      });
      expect(run.outcome).toBe('gave_up');
      expect(run.attempts).toHaveLength(3);
    } finally {
      await local.close();
    }
  });

  it('retries an attempt that does not answer within timeoutMs, with the same actionUuid', async () => {
    stub.on('/actions/enroll', (_, nth) => (nth === 0 ? { status: 200, delayMs: 400 } : { status: 200 }));
    const run = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
      retry: { timeoutMs: 150 },
    });
    expect(run.outcome).toBe('success');
    expect(run.attempts[0]).toMatchObject({ status: null, error: 'timeout' });
    expect(run.attempts[1].status).toBe(200);
    const uuids = stub.receivedAt('/actions/enroll').map((r) => r.body.runtimeMetadata.actionUuid);
    expect(uuids).toEqual([run.actionUuid, run.actionUuid]);
  });

  it('severity 4000: the run fails, the creator is notified, no retry (on a 4xx or a 5xx)', async () => {
    const severity = {
      severityCode: 4000,
      notificationErrorTitle: 'Phone number missing',
      notificationErrorDescription: 'Fill the Phone column of this item, then run again.',
      runtimeErrorDescription: 'item 9876543210: column phone is empty',
    };
    for (const status of [422, 500]) {
      stub.reset();
      stub.on('/actions/enroll', () => ({ status, body: severity }));
      const run = await monday.runAction({
        url: url('/actions/enroll'),
        accountId: ACCOUNT,
        userId: USER,
        inputFields: enrollInput,
      });
      expect(run).toMatchObject({
        outcome: 'failed',
        notification: { title: 'Phone number missing', description: severity.notificationErrorDescription },
        runtimeError: severity.runtimeErrorDescription,
      });
      expect(run.attempts).toHaveLength(1);
    }
  });

  it('severity 6000 disables the automation: later runs are refused without calling us', async () => {
    stub.on('/actions/enroll', () => ({
      status: 400,
      body: {
        severityCode: 6000,
        notificationErrorTitle: 'Workflow archived',
        notificationErrorDescription: 'Pick another workflow',
        disableErrorDescription: 'The workflow was archived',
      },
    }));
    const first = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
      integrationId: 777,
    });
    expect(first).toMatchObject({
      outcome: 'disabled',
      disableError: 'The workflow was archived',
      notification: { title: 'Workflow archived' },
    });
    const later = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
      integrationId: 777,
    });
    expect(later).toMatchObject({ outcome: 'refused', attempts: [] });
    expect(later.refusedReason).toMatch(/archived/);
    expect(stub.received).toHaveLength(1);
  });

  it('a 4xx without severity fails the run without retry or notification', async () => {
    stub.on('/actions/enroll', () => ({ status: 403, body: { message: 'nope' } }));
    const run = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: ACCOUNT,
      userId: USER,
      inputFields: enrollInput,
    });
    expect(run.outcome).toBe('failed');
    expect(run.attempts).toHaveLength(1);
    expect(run.notification).toBeUndefined();
  });
});

describe('recipes with our "when a call ends" trigger', () => {
  it('subscribes with the §4.1 body and unsubscribes with the webhookId we answered; the webhookUrl then answers 404', async () => {
    stub.on('/trigger/subscribe', () => ({ status: 200, body: { webhookId: 'wh-42' } }));
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: callEndedTrigger(),
      action: statusAction(),
    });
    const subscription = recipe.subscription!;
    expect(subscription.webhookId).toBe('wh-42');
    expect(subscription.webhookUrl).toBe(`${monday.origin}/automations/apps-events/${subscription.subscriptionId}`);

    const [subscribe] = stub.receivedAt('/trigger/subscribe');
    expect(subscribe.claims).toMatchObject({ accountId: ACCOUNT, userId: USER, aud: url('/trigger/subscribe') });
    expect(subscribe.body).toEqual({
      payload: {
        webhookUrl: subscription.webhookUrl,
        subscriptionId: subscription.subscriptionId,
        blockMetadata: { shouldCalculateDynamicMapping: false },
        inputFields: { boardId: Number(BOARD), agentId: null },
        inboundFieldValues: { boardId: Number(BOARD), agentId: null },
        credentialsValues: {},
        recipeId: 30440660,
        integrationId: recipe.integrationId,
      },
    });

    const unsubscribe = await monday.deleteRecipe(recipe.id);
    expect(unsubscribe?.status).toBe(200);
    const [request] = stub.receivedAt('/trigger/unsubscribe');
    expect(request.body).toEqual({ payload: { webhookId: 'wh-42' } });
    expect(request.claims?.aud).toBe(url('/trigger/unsubscribe'));
    expect(monday.recipes).toEqual([]);
    expect((await fireTrigger(subscription.webhookUrl, { itemId: 1, callId: 'c1' })).status).toBe(404);
  });

  it('keeps the subscriptionId as webhookId when we answer none, and deletes the recipe even if unsubscribe fails', async () => {
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: callEndedTrigger(),
      action: statusAction(),
    });
    expect(recipe.subscription!.webhookId).toBe(recipe.subscription!.subscriptionId);
    stub.on('/trigger/unsubscribe', () => ({ status: 500 }));
    expect((await monday.deleteRecipe(recipe.id))?.status).toBe(500);
    expect(stub.receivedAt('/trigger/unsubscribe')[0].body).toEqual({
      payload: { webhookId: recipe.subscription!.subscriptionId },
    });
    expect(monday.recipes).toEqual([]);
    expect((await fireTrigger(recipe.subscription!.webhookUrl, { itemId: 1 })).status).toBe(404);
  });

  it('a failing subscribe is an error in the monday UI, and no recipe is created', async () => {
    stub.on('/trigger/subscribe', () => ({ status: 400, body: { message: 'unknown agent' } }));
    const attempt = monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: callEndedTrigger(),
      action: statusAction(),
    });
    await expect(attempt).rejects.toThrow(RecipeSetupError);
    await expect(attempt).rejects.toThrow(/error shown in monday UI.*HTTP 400/);
    expect(monday.recipes).toEqual([]);
  });

  it('runs the recipe action with the delivered outputs when our Authorization is right', async () => {
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: callEndedTrigger(),
      action: statusAction(),
    });
    const outputs = { itemId: 9876543210, boardId: Number(BOARD), callResult: 'qualified', callId: 'call-1' };
    const delivered = await fireTrigger(recipe.subscription!.webhookUrl, outputs);
    expect(delivered.status).toBe(200);

    const [run] = await monday.waitForRuns(1);
    expect(run).toMatchObject({
      outcome: 'success',
      recipe: recipe.id,
      integrationId: recipe.integrationId,
      url: url('/actions/status'),
    });
    expect(run.inputFields).toEqual({ boardId: Number(BOARD), itemId: 9876543210, callResult: 'qualified' });
    expect(monday.triggerDeliveries).toEqual([
      expect.objectContaining({
        subscriptionId: String(recipe.subscription!.subscriptionId),
        outputFields: outputs,
        status: 200,
        outcome: 'accepted',
      }),
    ]);
    // Deliveries are told apart by our callId: a test can check none came twice.
    expect(monday.triggerDeliveries.filter((d) => d.outputFields?.callId === 'call-1')).toHaveLength(1);
  });

  it('answers 401 to a wrong secret, a wrong appId, a missing header, an expired token or the raw secret', async () => {
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: callEndedTrigger(),
      action: statusAction(),
    });
    const webhookUrl = recipe.subscription!.webhookUrl;
    const expired = `Bearer ${jwt.sign({ appId: APP_ID, exp: Math.floor(Date.now() / 1000) - 5 }, SECRET)}`;
    const cases: [string | null, string][] = [
      [triggerAuthorization('another-secret'), 'invalid_token'],
      [triggerAuthorization(SECRET, 999), 'wrong_app_id'],
      [triggerAuthorization(SECRET, String(APP_ID)), 'wrong_app_id'],
      [null, 'missing_authorization'],
      [expired, 'invalid_token'],
      [SECRET, 'invalid_token'],
      [jwt.sign({ appId: APP_ID }, SECRET), 'invalid_token'], // the JWT without "Bearer"
    ];
    for (const [authorization, outcome] of cases) {
      expect((await fireTrigger(webhookUrl, { itemId: 1 }, authorization)).status).toBe(401);
      expect(monday.triggerDeliveries.at(-1)).toMatchObject({ status: 401, outcome });
    }
    await monday.idle();
    expect(monday.actionRuns).toEqual([]);
  });

  it('accepts the legacy raw Signing Secret only when acceptRawSecret is on', async () => {
    const legacy = await startMondayEmulator({ signingSecret: SECRET, appId: APP_ID, acceptRawSecret: true });
    try {
      legacy.addBoard({ id: BOARD, accountId: ACCOUNT, columns: [] });
      const recipe = await legacy.createRecipe({
        accountId: ACCOUNT,
        userId: USER,
        boardId: BOARD,
        trigger: callEndedTrigger(),
        action: statusAction(),
      });
      expect((await fireTrigger(recipe.subscription!.webhookUrl, { itemId: 1 }, SECRET)).status).toBe(200);
      expect((await fireTrigger(recipe.subscription!.webhookUrl, { itemId: 1 })).status).toBe(200);
      expect((await fireTrigger(recipe.subscription!.webhookUrl, { itemId: 1 }, 'not-the-secret')).status).toBe(401);
      await legacy.idle();
      expect(legacy.actionRuns).toHaveLength(2);
    } finally {
      await legacy.close();
    }
  });

  it('answers 404 to an unknown subscription and 400 to a body that is not { trigger: { outputFields } } or misses a declared output', async () => {
    expect((await fireTrigger(`${monday.origin}/automations/apps-events/123`, { itemId: 1 })).status).toBe(404);
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: callEndedTrigger({ outputFields: { itemId: 'number', callResult: 'string', isLastCall: 'boolean' } }),
      action: statusAction(),
    });
    const webhookUrl = recipe.subscription!.webhookUrl;
    const post = (body: string) =>
      fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: triggerAuthorization() },
        body,
      });
    expect((await post('{"outputFields":{}}')).status).toBe(400);
    expect((await post('not json')).status).toBe(400);
    const wrongType = await fireTrigger(webhookUrl, { itemId: '1', callResult: 'qualified', isLastCall: false });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error).toMatch(/itemId is not a number/);
    expect((await fireTrigger(webhookUrl, { itemId: 1, callResult: null, isLastCall: true, extra: 'ok' })).status).toBe(
      200,
    );
  });

  it('a turned-off recipe keeps its subscription: deliveries are accepted and ignored until it is on again', async () => {
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: callEndedTrigger(),
      action: statusAction(),
    });
    monday.turnOffRecipe(recipe.id);
    expect((await fireTrigger(recipe.subscription!.webhookUrl, { itemId: 1, callId: 'off' })).status).toBe(200);
    await monday.idle();
    expect(monday.actionRuns).toEqual([]);
    expect(monday.triggerDeliveries.at(-1)?.outcome).toBe('ignored_recipe_off');
    expect(stub.receivedAt('/trigger/unsubscribe')).toEqual([]);

    monday.turnOnRecipe(recipe.id);
    expect((await fireTrigger(recipe.subscription!.webhookUrl, { itemId: 1, callId: 'on' })).status).toBe(200);
    await monday.idle();
    expect(monday.actionRuns).toHaveLength(1);
  });

  it('the fault switch answers 500s, or a 429 with Retry-After, then recovers', async () => {
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: callEndedTrigger(),
      action: statusAction(),
    });
    const webhookUrl = recipe.subscription!.webhookUrl;
    monday.failTriggerDeliveries(2);
    monday.failTriggerDeliveries(1, 429, { retryAfterSeconds: 7 });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const answer = await fireTrigger(webhookUrl, { itemId: 1, callId: 'call-9' });
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter = answer.headers.get('retry-after');
    }
    expect(statuses).toEqual([500, 500, 429, 200]);
    expect(retryAfter).toBe('7');
    expect(monday.triggerDeliveries.map((d) => d.outcome)).toEqual([
      'fault_injected',
      'fault_injected',
      'fault_injected',
      'accepted',
    ]);
    await monday.idle();
    expect(monday.actionRuns).toHaveLength(1);
  });
});

describe("recipes with monday's status-change trigger", () => {
  const enrollAction = () => ({
    url: url('/actions/enroll'),
    inputFields: (outputs: Record<string, unknown>, context: { boardId: number }) => ({
      boardId: context.boardId,
      itemId: outputs.itemId,
      workflowId: WORKFLOW,
    }),
  });

  it('changeStatus runs the recipes whose column and label match, and resolves with their runs', async () => {
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: { kind: 'status_change', columnId: 'status', toLabel: 'Call' },
      action: enrollAction(),
    });
    await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: { kind: 'status_change', columnId: 'status_2' },
      action: enrollAction(),
    });
    await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: OTHER_BOARD,
      trigger: { kind: 'status_change', columnId: 'status' },
      action: enrollAction(),
    });
    const item = newItem();

    expect(await monday.changeStatus(item, 'status', 'Done')).toEqual([]);
    const runs = await monday.changeStatus(item, 'status', 'Call');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      outcome: 'success',
      recipe: recipe.id,
      inputFields: { boardId: Number(BOARD), itemId: Number(item), workflowId: WORKFLOW },
    });
    expect(stub.receivedAt('/actions/enroll')[0].body.payload.inputFields).toEqual({
      boardId: Number(BOARD),
      itemId: Number(item),
      workflowId: WORKFLOW,
    });
    expect(monday.readValue(item, 'status').label).toBe('Call');
    // Setting the label an item already has changes nothing.
    expect(await monday.changeStatus(item, 'status', 'Call')).toEqual([]);
    await expect(monday.changeStatus(item, 'status', 'Nope')).rejects.toThrow(/no label "Nope"/);
  });

  it('the GraphQL change mutations fire the recipes too (in the background; idle() waits)', async () => {
    await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: { kind: 'status_change', columnId: 'status', toLabel: 'Call' },
      action: enrollAction(),
    });
    const item = newItem();
    const token = monday.issueToken(ACCOUNT, USER);
    const change = await graphql(
      'mutation ($b: ID!, $i: ID!, $v: JSON!) { change_column_value(board_id: $b, item_id: $i, column_id: "status", value: $v) { id } }',
      { b: BOARD, i: item, v: JSON.stringify({ label: 'Call' }) },
      token,
    );
    expect(change.json.errors).toBeUndefined();
    await monday.idle();
    expect(monday.actionRuns.map((r) => r.inputFields.itemId)).toEqual([Number(item)]);

    await graphql(
      'mutation ($b: ID!, $i: ID!) { change_simple_column_value(board_id: $b, item_id: $i, column_id: "status", value: "Done") { id } }',
      { b: BOARD, i: item },
      token,
    );
    await graphql(
      'mutation ($b: ID!, $i: ID!, $v: JSON!) { change_multiple_column_values(board_id: $b, item_id: $i, column_values: $v) { id } }',
      { b: BOARD, i: item, v: JSON.stringify({ status: 'Call', phone: '+12025550169 US' }) },
      token,
    );
    await monday.idle();
    expect(monday.actionRuns).toHaveLength(2);
  });

  it('a 6000 answer disables the recipe; it fires again once turned on', async () => {
    stub.on('/actions/enroll', (_, nth) =>
      nth === 0
        ? {
            status: 400,
            body: {
              severityCode: 6000,
              notificationErrorTitle: 'Mapping gone',
              disableErrorDescription: 'The phone column was deleted',
            },
          }
        : { status: 200 },
    );
    const recipe = await monday.createRecipe({
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      trigger: { kind: 'status_change', columnId: 'status' },
      action: enrollAction(),
    });
    const item = newItem();
    expect((await monday.changeStatus(item, 'status', 'Call'))[0].outcome).toBe('disabled');
    expect(recipe).toMatchObject({ active: false, disabled: { description: 'The phone column was deleted' } });
    expect(await monday.changeStatus(item, 'status', 'Done')).toEqual([]);
    monday.turnOnRecipe(recipe.id);
    expect((await monday.changeStatus(item, 'status', 'Call'))[0].outcome).toBe('success');
  });
});

describe('remote options', () => {
  it('walks the pages our app returns, sending pageRequestData {} first, then our nextPageRequestData', async () => {
    stub.on('/options/workflows', (request) =>
      request.body.payload.pageRequestData.cursor === 'p2'
        ? {
            status: 200,
            body: {
              options: [{ title: 'C', value: 'wf_c' }],
              isPaginated: true,
              nextPageRequestData: null,
              isLastPage: true,
            },
          }
        : {
            status: 200,
            body: {
              options: [
                { title: 'A', value: 'wf_a' },
                { title: 'B', value: 'wf_b' },
              ],
              isPaginated: true,
              nextPageRequestData: { cursor: 'p2' },
              isLastPage: false,
            },
          },
    );
    const dependencyData = { agentId: { title: 'Ava', value: 'ag_1' } };
    const result = await monday.fetchOptions({
      url: url('/options/workflows'),
      accountId: ACCOUNT,
      userId: USER,
      boardId: BOARD,
      dependencyData,
    });
    expect(result.options.map((o) => o.value)).toEqual(['wf_a', 'wf_b', 'wf_c']);
    expect(result.pageRequests).toEqual([{}, { cursor: 'p2' }]);
    const [first] = stub.receivedAt('/options/workflows');
    expect(first.claims).toMatchObject({ accountId: ACCOUNT, aud: url('/options/workflows') });
    expect(first.body.payload).toMatchObject({
      boardId: Number(BOARD),
      dependencyData,
      pageRequestData: {},
      recipeId: 30440660,
    });
  });

  it('takes a plain array, stops without nextPageRequestData, and reports "Could not load fields" on a non-200', async () => {
    stub.on('/options/agents', () => ({ status: 200, body: [{ title: 'Ava', value: 'ag_1' }] }));
    expect(
      (await monday.fetchOptions({ url: url('/options/agents'), accountId: ACCOUNT, userId: USER })).options,
    ).toEqual([{ title: 'Ava', value: 'ag_1' }]);
    expect(stub.receivedAt('/options/agents')[0].body.payload.dependencyData).toBeNull();

    stub.on('/options/open-ended', () => ({
      status: 200,
      body: { options: [{ title: 'X', value: 1 }], isPaginated: true, isLastPage: false },
    }));
    const openEnded = await monday.fetchOptions({ url: url('/options/open-ended'), accountId: ACCOUNT, userId: USER });
    expect(openEnded.pageRequests).toHaveLength(1);

    stub.on('/options/broken', () => ({ status: 500 }));
    const broken = monday.fetchOptions({ url: url('/options/broken'), accountId: ACCOUNT, userId: USER });
    await expect(broken).rejects.toThrow('Could not load fields (HTTP 500)');
    await expect(broken).rejects.toMatchObject({ name: 'CouldNotLoadFieldsError', status: 500 });
  });
});
