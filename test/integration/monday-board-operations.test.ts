// The board app's domain operations: the item link is written in the contact upsert's own
// transaction (both stored, or neither), and the operations only run for a request monday
// signed (an API key or the operator token gets unauthenticated, as for the operator ones).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertContact } from '../../src/domain/contacts/contacts.service.js';
import type { RequestContext } from '../../src/domain/context.js';
import { testDatabaseKinds } from '../support/databases.js';
import type { TestServer } from '../support/test-server.js';
import { ADMIN_TOKEN } from '../support/test-server.js';
import type { MondayEmulator } from '../support/monday-emulator/index.js';
import { seedLinkedBoardAccount, startBoardApp, type LinkedBoardAccount } from '../support/monday-board-app.js';

const SECRET = 'board-operations-signing-secret';
const TOKEN_KEY = randomBytes(32);

describe.each(testDatabaseKinds())('board app operations on %s', (kind) => {
  let server: TestServer;
  let monday: MondayEmulator;
  let account: LinkedBoardAccount;

  beforeAll(async () => {
    ({ monday, server } = await startBoardApp(kind, { signingSecret: SECRET, appId: 10155, tokenKey: TOKEN_KEY }));
    const mondayAccountId = 500_000 + Math.floor(Math.random() * 90_000);
    const seeded = { tokenKey: TOKEN_KEY, mondayAccountId, workflowName: 'Outreach' };
    account = await seedLinkedBoardAccount(server, monday, seeded);
    const mapped = await server.request(account.apiKey, 'POST', '/graphql', {
      query: 'mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }',
      variables: { input: { boardId: account.boardId, itemNameIsFullName: true, phoneColumnId: 'phone' } },
    });
    expect(mapped.json.errors).toBeUndefined();
  });
  afterAll(async () => {
    await server?.stop();
    await monday?.close();
  });

  const prisma = () => server.service.services.db.prisma;
  const context = (): RequestContext => ({
    ...server.service.services,
    requestId: 'test',
    isAdmin: false,
    actor: {
      accountId: account.accountId,
      userId: account.userId,
      apiKeyId: null,
      scopes: null,
      account: { id: account.accountId, defaultLocation: null, dedupFields: ['phone'] },
    },
  });

  it("an enrolled item's contact is linked to the item", async () => {
    const phone = { phone: '+14155550177', countryShortName: 'US' };
    const item = monday.addItem({ boardId: account.boardId, name: 'Ada Lovelace', values: { phone } });
    const run = await monday.runAction({
      url: `${server.baseUrl}/integrations/monday/actions/enroll`,
      accountId: account.mondayAccountId,
      userId: account.mondayUserId,
      inputFields: {
        boardId: Number(account.boardId),
        itemId: item.id,
        workflowId: { title: 'Outreach', value: account.workflowId },
      },
    });
    expect(run.outcome).toBe('success');
    const contactId = run.outputFields!.contactId as string;
    expect(await prisma().mondayItemLink.findUnique({ where: { contactId } })).toMatchObject({
      accountId: account.accountId,
      boardId: account.boardId,
      itemId: String(item.id),
    });
    expect(await prisma().enrollment.count({ where: { contactId } })).toBe(1);
  });

  it('a write alongside the upsert that fails leaves neither the contact nor its enrollment', async () => {
    const phone = '+14155550178';
    const failing = async () => {
      throw new Error('the link could not be written');
    };
    const enrolling = { phone, assignmentOptions: { workflowId: account.workflowId } };
    await expect(upsertContact(context(), enrolling, failing)).rejects.toThrow('the link could not be written');
    expect(await prisma().contact.count({ where: { accountId: account.accountId, phone } })).toBe(0);
    // Without an enrollment too: the write alongside makes the upsert transactional.
    await expect(upsertContact(context(), { phone }, failing)).rejects.toThrow('the link could not be written');
    expect(await prisma().contact.count({ where: { accountId: account.accountId, phone } })).toBe(0);
  });

  it('refuses an API key and the operator token', async () => {
    const operations = [
      '{ boardWorkflowOptions { nextToken } }',
      '{ boardEnrollmentTarget(workflowId: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f") { columnIds } }',
      'mutation { enrollBoardItem(input: {}) { contactId } }',
      'mutation { claimBoardActionRun(actionUuid: "x", kind: "enroll") { kind } }',
      'mutation { subscribeToCallEnded(input: {}) }',
    ];
    for (const query of operations) {
      for (const token of [account.apiKey, ADMIN_TOKEN]) {
        const res = await server.request(token, 'POST', '/graphql', { query });
        const caller = token === ADMIN_TOKEN ? 'the operator token' : 'a key';
        expect(res.json.errors?.[0]?.extensions?.code, `${query} with ${caller}`).toBe('unauthenticated');
      }
    }
    expect(await prisma().mondayActionRun.count({ where: { actionUuid: 'x' } })).toBe(0);
  });
});
