// Property-based fuzzing of the board app's routes (fast-check), called as monday calls them:
// a JWT signed with the app's Signing Secret and addressed to the URL. Every field of every
// route's payload (input fields, runtime metadata, subscription data, paging cursors), and the
// item's own column values the enroll action reads from monday, get generated hostile values
// (NUL, lone surrogates, huge strings, deep JSON, wrong types). No answer is a 5xx, and a
// refused request stores nothing (but the action run's answer, kept so that monday's retry of
// the same run gets the same answer).
import fc from 'fast-check';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import type { MondayEmulator } from '../support/monday-emulator/index.js';
import { seedLinkedBoardAccount, startBoardApp } from '../support/monday-board-app.js';
import { fuzzOptions, hostileString, hostileValue, toJson } from '../support/hostile-values.js';

const SECRET = 'board-app-fuzz-signing-secret';
const APP_ID = 10155;
const TOKEN_KEY = randomBytes(32);

describe.each(testDatabaseKinds())('board app fuzz on %s', (kind) => {
  let server: TestServer;
  let monday: MondayEmulator;
  let apiKey: string;
  let accountId: string;
  let workflowId: string;
  let agentId: string;
  let boardId: string;
  let itemId: string;
  const mondayAccountId = 900_000 + Math.floor(Math.random() * 90_000);
  const mondayUserId = 42;

  beforeAll(async () => {
    ({ monday, server } = await startBoardApp(kind, {
      signingSecret: SECRET,
      appId: APP_ID,
      tokenKey: TOKEN_KEY,
      retry: { delaysMs: [10] },
    }));
    ({ apiKey, accountId, agentId, workflowId, boardId } = await seedLinkedBoardAccount(server, monday, {
      tokenKey: TOKEN_KEY,
      mondayAccountId,
      mondayUserId,
      workflowName: 'Outreach',
      agent: { callNewContactsImmediately: false },
    }));
    itemId = String(
      monday.addItem({
        boardId,
        name: 'Jane Doe',
        values: {
          first: 'Jane',
          last: 'Doe',
          phone: { phone: '+14155550142', countryShortName: 'US' },
          company: 'Acme',
        },
      }).id,
    );
    const mapped = await server.request(apiKey, 'POST', '/graphql', {
      query: 'mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }',
      variables: {
        input: {
          boardId,
          firstNameColumnId: 'first',
          lastNameColumnId: 'last',
          phoneColumnId: 'phone',
          timezoneColumnId: 'tz',
          extraFields: [{ columnId: 'company', identifier: 'company' }],
        },
      },
    });
    expect(mapped.json.errors).toBeUndefined();
  });
  afterAll(async () => {
    await server?.stop();
    await monday?.close();
  });

  const prisma = () => server.service.services.db.prisma;
  const stored = async () => ({
    contacts: await prisma().contact.count({ where: { accountId } }),
    subscriptions: await prisma().mondayTriggerSubscription.findMany({ orderBy: { webhookId: 'asc' } }),
    itemLinks: await prisma().mondayItemLink.count(),
  });

  /** POSTs `body` to a board-app route with monday's JWT for that URL. */
  async function post(path: string, body: unknown): Promise<void> {
    const url = `${server.baseUrl}/integrations/monday${path}`;
    const authorization = monday.mintJwt({ accountId: mondayAccountId, userId: mondayUserId, aud: url });
    const before = await stored();
    const res = await server.request(null, 'POST', `/integrations/monday${path}`, toJson(body), {
      authorization,
      'content-type': 'application/json',
    });
    expect(res.status, `${path} ${res.text.slice(0, 500)}`).toBeLessThan(500);
    if (res.status >= 400) expect(await stored()).toEqual(before);
  }

  const actionBody = (inputFields: Record<string, unknown>) => ({
    payload: {
      blockKind: 'action',
      inboundFieldValues: inputFields,
      inputFields,
      credentialsValues: {},
      recipeId: 1,
      integrationId: 2,
    },
    runtimeMetadata: { actionUuid: randomUUID(), triggerUuid: randomUUID() },
  });
  const actions: Record<string, () => Record<string, unknown>> = {
    '/actions/enroll': () => ({
      boardId: Number(boardId),
      itemId: Number(itemId),
      workflowId: { title: 'Outreach', value: workflowId },
    }),
    '/actions/fill-timezone': () => ({
      boardId: Number(boardId),
      itemId: Number(itemId),
      phoneColumnId: 'phone',
      timezoneColumnId: 'tz',
    }),
    '/actions/set-status': () => ({
      boardId: Number(boardId),
      itemId: Number(itemId),
      statusColumnId: 'outcome',
      callResult: 'converted',
    }),
  };

  it.each(Object.keys(actions))('%s: every input field, the action uuid and the body', async (path) => {
    const fields = Object.keys(actions[path]());
    for (const field of [...fields, 'workflowId.value', 'unknownField']) {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (value) => {
          const inputFields = actions[path]();
          const [head, leaf] = field.split('.');
          if (leaf) inputFields[head] = { ...(inputFields[head] as object), [leaf]: value };
          else inputFields[head] = value;
          await post(path, actionBody(inputFields));
        }),
        fuzzOptions(8),
      );
    }
    await fc.assert(
      fc.asyncProperty(hostileValue, fc.constantFrom('actionUuid', 'triggerUuid'), async (value, key) => {
        const body = actionBody(actions[path]());
        (body.runtimeMetadata as Record<string, unknown>)[key] = value;
        await post(path, body);
      }),
      fuzzOptions(15),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileValue, fc.jsonValue({ maxDepth: 3 })), async (body) => {
        await post(path, body);
      }),
      fuzzOptions(15),
    );
  });

  it('the enroll action on an item whose column values are hostile', async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, fc.constantFrom('first', 'last', 'company', 'name'), async (text, column) => {
        const values: Record<string, unknown> = {
          first: 'Jane',
          last: 'Doe',
          phone: { phone: '+14155550143', countryShortName: 'US' },
          company: 'Acme',
        };
        if (column !== 'name') values[column] = text;
        const item = monday.addItem({ boardId, name: column === 'name' ? text : 'Jane Doe', values });
        await post(
          '/actions/enroll',
          actionBody({
            boardId: Number(boardId),
            itemId: Number(item.id),
            workflowId: { title: 'Outreach', value: workflowId },
          }),
        );
      }),
      fuzzOptions(20),
    );
  });

  it.each(['/options/workflows', '/options/agents'])('%s: the paging cursor and the body', async (path) => {
    await fc.assert(
      fc.asyncProperty(hostileValue, async (cursor) => {
        await post(path, { payload: { boardId: Number(boardId), pageRequestData: { cursor } } });
      }),
      fuzzOptions(20),
    );
  });

  it('/trigger/subscribe and /trigger/unsubscribe: every field', async () => {
    const subscribe = () => ({
      payload: {
        webhookUrl: `${monday.origin}/hook/${randomUUID()}`,
        subscriptionId: Math.floor(Math.random() * 1e9),
        recipeId: 1,
        integrationId: 2,
        inputFields: { boardId: Number(boardId), agentId: { title: 'Ava', value: agentId } },
      },
    });
    for (const field of [
      'webhookUrl',
      'subscriptionId',
      'recipeId',
      'integrationId',
      'inputFields',
      'inputFields.boardId',
      'inputFields.agentId',
    ]) {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (value) => {
          const body = subscribe();
          const [head, leaf] = field.split('.');
          if (leaf) (body.payload.inputFields as Record<string, unknown>)[leaf] = value;
          else (body.payload as Record<string, unknown>)[head] = value;
          await post('/trigger/subscribe', body);
        }),
        fuzzOptions(8),
      );
    }
    await fc.assert(
      fc.asyncProperty(hostileValue, async (webhookId) => {
        await post('/trigger/unsubscribe', { payload: { webhookId } });
      }),
      fuzzOptions(20),
    );
  });
});
