// The board app end to end against the monday emulator: board mapping (validated against the
// board's columns), the enroll action run by a status-change automation, the simulated agent's
// call, the "when a call ends" trigger delivered to monday, and the set-status action writing
// the mapped label back. Plus every failure path, forged tokens, retries and idempotency.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import type { MondayEmulator } from '../support/monday-emulator/index.js';
import {
  seedLinkedBoardAccount,
  startBoardApp,
  type SeedLinkedBoardAccountOptions,
} from '../support/monday-board-app.js';
import {
  DEFAULT_WORKING_HOURS,
  WEEKDAYS,
  type Weekday,
  type WorkingHours,
} from '../../src/domain/calls/calling-hours.rules.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import type { SimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { clockFrom } from '../support/clocks.js';
import { writtenConsent } from '../support/consent.js';

const SECRET = 'board-app-signing-secret';
const APP_ID = 10155;
const TOKEN_KEY = randomBytes(32);
const TRIGGER_OUTPUTS = {
  itemId: 'number',
  boardId: 'number',
  callResult: 'string',
  endReason: 'string',
  durationSeconds: 'number',
  isLastCall: 'boolean',
  callId: 'string',
} as const;

let mondayAccountSeq = 700_000 + Math.floor(Math.random() * 100_000);
let phoneSeq = 0;

describe.each(testDatabaseKinds())('board app end to end on %s', (kind) => {
  let server: TestServer;
  let monday: MondayEmulator;

  beforeAll(async () => {
    ({ monday, server } = await startBoardApp(kind, {
      signingSecret: SECRET,
      appId: APP_ID,
      tokenKey: TOKEN_KEY,
      retry: { delaysMs: [20, 50, 100] },
      // Tests here dial: the service's and monday's time starts on Monday 23 November 2026, 10:00
      // in Los Angeles (the leads' San Francisco numbers; noon in Chicago), inside the law's
      // calling hours, and moves on with the real time.
      clock: clockFrom(new Date('2026-11-23T18:00:00.000Z')),
    }));
  });
  afterAll(async () => {
    await server?.stop();
    await monday?.close();
  });

  const url = (path: string) => `${server.baseUrl}/integrations/monday${path}`;
  const telephony = () => server.service.telephony as SimulatedTelephony;
  const prisma = () => server.service.services.db.prisma;
  const freshPhone = () => `+1415555${String(1000 + phoneSeq++).padStart(4, '0')}`;
  const freshChicagoPhone = () => `+1312555${String(1000 + phoneSeq++).padStart(4, '0')}`;

  const graphql = async (apiKey: string, query: string, variables: Record<string, unknown> = {}) => {
    const res = await server.request(apiKey, 'POST', '/graphql', { query, variables });
    return res.json as { data?: any; errors?: Array<{ message: string; extensions: { code: string } }> };
  };

  /** A Contactline Account linked to a fresh monday account, with a live agent that calls at once and a published workflow. */
  const setup = (options: Pick<SeedLinkedBoardAccountOptions, 'agentName' | 'agent'> = {}) =>
    seedLinkedBoardAccount(server, monday, {
      tokenKey: TOKEN_KEY,
      mondayAccountId: mondayAccountSeq++,
      workflowName: 'Spring outreach',
      ...options,
    });
  type Setup = Awaited<ReturnType<typeof setup>>;

  async function mapBoard(ctx: Setup, extra: Record<string, unknown> = {}) {
    const result = await graphql(
      ctx.apiKey,
      `mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId phoneColumnId timezoneColumnType extraFields statusLabels } }`,
      {
        input: {
          boardId: ctx.boardId,
          firstNameColumnId: 'first',
          lastNameColumnId: 'last',
          phoneColumnId: 'phone',
          timezoneColumnId: 'tz',
          extraFields: [{ columnId: 'company', identifier: 'company' }],
          ...extra,
        },
      },
    );
    expect(result.errors).toBeUndefined();
    return result.data.setBoardMapping;
  }

  function addLead(ctx: Setup, values: Record<string, unknown> = {}, name = 'Jane Doe', phone = freshPhone()) {
    const item = monday.addItem({
      boardId: ctx.boardId,
      name,
      values: { first: 'Jane', last: 'Doe', phone: { phone, countryShortName: 'US' }, company: 'Acme', ...values },
    });
    return { itemId: String(item.id), phone };
  }

  const enrollRun = (
    ctx: Setup,
    itemId: string,
    options: { workflowId?: string; boardId?: string; actionUuid?: string; jwt?: string | null; bearer?: boolean } = {},
  ) =>
    monday.runAction({
      url: url('/actions/enroll'),
      accountId: ctx.mondayAccountId,
      userId: ctx.mondayUserId,
      inputFields: {
        boardId: Number(options.boardId ?? ctx.boardId),
        itemId: Number(itemId),
        workflowId: { title: 'Spring outreach', value: options.workflowId ?? ctx.workflowId },
      },
      actionUuid: options.actionUuid,
      jwt: options.jwt,
      bearer: options.bearer,
    });

  const contactOf = (ctx: Setup, itemId: string) =>
    prisma().contact.findFirst({ where: { accountId: ctx.accountId, sourceKind: 'monday', externalId: itemId } });

  /**
   * Records the enrolled lead's prior express written consent through GraphQL, by its item id (a
   * board enrollment carries none, and the calling rules call no US contact without it).
   */
  async function consentOf(ctx: Setup, itemId: string) {
    const result = await graphql(
      ctx.apiKey,
      'mutation ($x: String!, $i: JSON!) { addContactConsent(sourceKind: "monday", externalId: $x, input: $i) { id } }',
      { x: itemId, i: writtenConsent(server.now()) },
    );
    expect(result.errors).toBeUndefined();
  }

  async function callEndedRecipe(ctx: Setup, filter: { agentId?: string } = {}, boardId = ctx.boardId) {
    return monday.createRecipe({
      accountId: ctx.mondayAccountId,
      userId: ctx.mondayUserId,
      boardId,
      trigger: {
        kind: 'app',
        subscribeUrl: url('/trigger/subscribe'),
        unsubscribeUrl: url('/trigger/unsubscribe'),
        inputFields: ({ boardId }) => ({
          boardId,
          agentId: filter.agentId ? { title: 'Ava', value: filter.agentId } : null,
        }),
        outputFields: TRIGGER_OUTPUTS,
      },
      action: {
        url: url('/actions/set-status'),
        inputFields: (out) => ({
          boardId: out.boardId,
          itemId: out.itemId,
          statusColumnId: 'outcome',
          callResult: out.callResult,
        }),
      },
    });
  }

  const deliveriesFor = (subscriptionId: number) =>
    monday.triggerDeliveries.filter((d) => d.subscriptionId === String(subscriptionId));

  async function dial() {
    await runDialerOnce(server.service.services, telephony());
    await telephony().settled();
  }

  it('a status change enrolls the item, the agent calls it, the trigger fires and the mapped label is written back', async () => {
    const ctx = await setup();
    const mapping = await mapBoard(ctx);
    expect(mapping).toMatchObject({ boardId: ctx.boardId, phoneColumnId: 'phone', timezoneColumnType: 'world_clock' });
    expect(mapping.statusLabels.converted).toBe('Booked');
    const lead = addLead(ctx, { tz: { timezone: 'America/Los_Angeles' } });
    telephony().setScript(lead.phone, { result: 'converted', durationSeconds: 184 });

    await monday.createRecipe({
      accountId: ctx.mondayAccountId,
      userId: ctx.mondayUserId,
      boardId: ctx.boardId,
      trigger: { kind: 'status_change', columnId: 'stage', toLabel: 'Enroll' },
      action: {
        url: url('/actions/enroll'),
        inputFields: (out, context) => ({
          boardId: context.boardId,
          itemId: out.itemId,
          workflowId: { title: 'Spring outreach', value: ctx.workflowId },
        }),
      },
    });
    const resultRecipe = await callEndedRecipe(ctx);

    const [run] = await monday.changeStatus(lead.itemId, 'stage', 'Enroll');
    expect(run.outcome).toBe('success');
    const contact = await contactOf(ctx, lead.itemId);
    expect(contact).toMatchObject({
      firstName: 'Jane',
      lastName: 'Doe',
      phone: lead.phone,
      timezone: 'America/Los_Angeles',
      sourceKind: 'monday',
      externalId: lead.itemId,
      status: 'assigned',
      assignedWorkflowId: ctx.workflowId,
    });
    expect(contact!.customFields).toEqual({ company: 'Acme' });
    expect(run.outputFields).toMatchObject({ contactId: contact!.id, workflowId: ctx.workflowId, created: true });

    await consentOf(ctx, lead.itemId);
    await dial();
    const delivered = await server.eventually(async () =>
      deliveriesFor(resultRecipe.subscription!.subscriptionId).find((d) => d.outcome === 'accepted'),
    );
    const call = await prisma().call.findFirstOrThrow({ where: { contactId: contact!.id } });
    expect(delivered.outputFields).toEqual({
      itemId: Number(lead.itemId),
      boardId: Number(ctx.boardId),
      callResult: 'converted',
      endReason: call.endReason,
      durationSeconds: 184,
      isLastCall: true,
      callId: call.id,
      contactId: contact!.id,
      agentId: ctx.agentId,
      workflowId: ctx.workflowId,
    });
    expect(delivered.authorization).toMatch(/^Bearer /);

    await server.eventually(async () =>
      monday.actionRuns.find(
        (r) => r.url.endsWith('/actions/set-status') && r.inputFields.itemId === Number(lead.itemId),
      ),
    );
    const statusRun = monday.actionRuns.find(
      (r) => r.url.endsWith('/actions/set-status') && r.inputFields.itemId === Number(lead.itemId),
    )!;
    expect(statusRun.outcome).toBe('success');
    expect(statusRun.outputFields).toEqual({ callResult: 'converted', label: 'Booked', changed: true });
    expect(monday.readValue(lead.itemId, 'outcome').label).toBe('Booked');
  });

  it('takes the full name from the item name and keeps the timezone column as the contact zone', async () => {
    const ctx = await setup();
    await mapBoard(ctx, {
      firstNameColumnId: null,
      lastNameColumnId: null,
      itemNameIsFullName: true,
      timezoneColumnId: 'tz_text',
      extraFields: [],
    });
    const lead = addLead(ctx, { tz_text: 'Europe/Paris' }, 'Marie Curie');
    const run = await enrollRun(ctx, lead.itemId);
    expect(run.outcome).toBe('success');
    expect(await contactOf(ctx, lead.itemId)).toMatchObject({
      firstName: 'Marie',
      lastName: 'Curie',
      timezone: 'Europe/Paris',
    });
  });

  it('validates the mapping against the board, and choosing another board clears the previous mapping', async () => {
    const ctx = await setup();
    const wrongType = await graphql(
      ctx.apiKey,
      `mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }`,
      { input: { boardId: ctx.boardId, phoneColumnId: 'first' } },
    );
    expect(wrongType.errors?.[0].extensions.code).toBe('bad_request');
    expect(wrongType.errors?.[0].message).toMatch(
      /phone: column "First name" is a text column; it must be a phone column/,
    );
    const missing = await graphql(
      ctx.apiKey,
      `mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }`,
      { input: { boardId: ctx.boardId, phoneColumnId: 'phone', timezoneColumnId: 'nope' } },
    );
    expect(missing.errors?.[0].message).toMatch(/timezone: column "nope" is not on the board/);
    const unknownBoard = await graphql(
      ctx.apiKey,
      `mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }`,
      { input: { boardId: '999999999', phoneColumnId: 'phone' } },
    );
    expect(unknownBoard.errors?.[0].extensions.code).toBe('not_found');
    const badInput = await graphql(
      ctx.apiKey,
      `mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }`,
      {
        input: {
          boardId: ctx.boardId,
          phoneColumnId: 'phone',
          extraFields: [{ columnId: 'company', identifier: '1bad' }],
        },
      },
    );
    expect(badInput.errors?.[0].extensions.code).toBe('bad_request');

    await mapBoard(ctx);
    const labels = await graphql(
      ctx.apiKey,
      `mutation ($m: JSON) { setStatusLabels(mapping: $m) { statusLabels statusLabelsCustomized } }`,
      { m: { converted: 'Won', no_answer: 'Busy' } },
    );
    expect(labels.data.setStatusLabels).toMatchObject({
      statusLabelsCustomized: true,
      statusLabels: expect.objectContaining({ converted: 'Won', no_answer: 'Busy', busy: 'Busy', voicemail: null }),
    });
    // Same board: fields not sent are kept.
    const same = await graphql(
      ctx.apiKey,
      `mutation ($input: JSON!) { setBoardMapping(input: $input) { firstNameColumnId extraFields statusLabelsCustomized } }`,
      { input: { boardId: ctx.boardId, lastNameColumnId: null } },
    );
    expect(same.data.setBoardMapping).toEqual({
      firstNameColumnId: 'first',
      extraFields: [{ columnId: 'company', identifier: 'company' }],
      statusLabelsCustomized: true,
    });
    // Another board: everything from the old one is gone.
    const other = monday.addBoard({
      accountId: ctx.mondayAccountId,
      name: 'Other',
      columns: [{ id: 'mobile', type: 'phone' }],
    });
    const needsPhone = await graphql(
      ctx.apiKey,
      `mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }`,
      { input: { boardId: String(other.id) } },
    );
    expect(needsPhone.errors?.[0].message).toMatch(/phone column is required/);
    const moved = await graphql(
      ctx.apiKey,
      `mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId firstNameColumnId timezoneColumnId extraFields statusLabelsCustomized } }`,
      { input: { boardId: String(other.id), phoneColumnId: 'mobile' } },
    );
    expect(moved.data.setBoardMapping).toEqual({
      boardId: String(other.id),
      firstNameColumnId: null,
      timezoneColumnId: null,
      extraFields: [],
      statusLabelsCustomized: false,
    });
    const read = await graphql(
      ctx.apiKey,
      `{ boardMapping { boardId phoneColumnId } mondayBoard(boardId: "${other.id}") { name columns { id type } } }`,
    );
    expect(read.data).toEqual({
      boardMapping: { boardId: String(other.id), phoneColumnId: 'mobile' },
      mondayBoard: { name: 'Other', columns: expect.arrayContaining([{ id: 'mobile', type: 'phone' }]) },
    });
    // Another Account sees nothing of it.
    const stranger = await server.createAccount();
    expect((await graphql(stranger.apiKey, `{ boardMapping { boardId } }`)).data.boardMapping).toBeNull();
    const removed = await graphql(ctx.apiKey, `mutation { removeBoardMapping }`);
    expect(removed.data.removeBoardMapping).toBe(true);
  });

  it("fails the run with monday's severity body for a missing or invalid phone, another board, or a workflow that cannot take enrollments", async () => {
    const ctx = await setup();
    await mapBoard(ctx);

    const noPhone = await enrollRun(ctx, addLead(ctx, { phone: null }).itemId);
    expect(noPhone).toMatchObject({ outcome: 'failed', notification: { title: 'Phone number missing' } });
    expect(noPhone.attempts).toHaveLength(1); // a severity answer is not retried

    const local = monday.addItem({
      boardId: ctx.boardId,
      name: 'Local',
      values: { phone: { phone: '2025550169', countryShortName: 'US' } },
    });
    const noCode = await enrollRun(ctx, String(local.id));
    expect(noCode).toMatchObject({ outcome: 'failed', notification: { title: 'Phone number invalid' } });
    expect(noCode.notification!.description).toMatch(/must include the country code \(for example \+1/);
    const wrongCountry = monday.addItem({
      boardId: ctx.boardId,
      name: 'Wrong',
      values: { phone: { phone: '+442079460958', countryShortName: 'US' } },
    });
    expect((await enrollRun(ctx, String(wrongCountry.id))).outcome).toBe('failed');

    const otherBoard = monday.addBoard({
      accountId: ctx.mondayAccountId,
      name: 'Elsewhere',
      columns: [{ id: 'phone', type: 'phone' }],
    });
    const elsewhere = monday.addItem({
      boardId: otherBoard.id,
      name: 'Elsewhere',
      values: { phone: { phone: freshPhone(), countryShortName: 'US' } },
    });
    const wrongBoard = await enrollRun(ctx, String(elsewhere.id), { boardId: String(otherBoard.id) });
    expect(wrongBoard).toMatchObject({ outcome: 'disabled', notification: { title: 'Board not mapped' } });
    // The item's real board is checked too, whatever the run claims.
    expect((await enrollRun(ctx, String(elsewhere.id))).notification?.title).toBe('Board not mapped');

    const lead = addLead(ctx);
    const draft = await prisma().workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: ctx.accountId,
        name: 'Draft',
        status: 'draft',
      },
    });
    expect(await enrollRun(ctx, lead.itemId, { workflowId: draft.id })).toMatchObject({
      outcome: 'disabled',
      notification: {
        title: 'Workflow cannot take enrollments',
        description: expect.stringContaining('The chosen workflow "Draft" is a draft'),
      },
    });
    const paused = await prisma().workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: ctx.accountId,
        name: 'Paused',
        status: 'published',
        paused: true,
      },
    });
    expect(await enrollRun(ctx, lead.itemId, { workflowId: paused.id })).toMatchObject({
      outcome: 'failed',
      notification: { title: 'Workflow is paused', description: expect.stringContaining('"Paused" is paused') },
    });
    const foreign = await server.createWorkflow((await server.createAccount()).accountId);
    expect((await enrollRun(ctx, lead.itemId, { workflowId: foreign })).outcome).toBe('disabled');
    expect(await contactOf(ctx, lead.itemId)).toBeNull();
  });

  it('turns the automation off when a mapped column was deleted, and when no board is mapped', async () => {
    const ctx = await setup();
    const lead = addLead(ctx);
    expect(await enrollRun(ctx, lead.itemId)).toMatchObject({
      outcome: 'disabled',
      notification: { title: 'No board mapped' },
    });
    await mapBoard(ctx);
    const board = monday.state.boards.get(ctx.boardId)!;
    board.columns = board.columns.filter((c) => c.id !== 'company');
    const run = await enrollRun(ctx, lead.itemId);
    expect(run).toMatchObject({ outcome: 'disabled', notification: { title: 'Column mapping out of date' } });
    expect(run.notification!.description).toMatch(/extra field company: column "company" is not on the board/);
  });

  it('refuses forged, expired, mis-addressed and missing tokens, and accepts the Bearer form', async () => {
    const ctx = await setup();
    await mapBoard(ctx);
    const lead = addLead(ctx);
    const aud = url('/actions/enroll');
    const claims = { accountId: ctx.mondayAccountId, userId: ctx.mondayUserId, aud };
    for (const jwt of [
      monday.mintJwt({ ...claims, secret: 'another-apps-secret' }),
      monday.mintJwt({ ...claims, secret: monday.clientSecret }),
      monday.mintJwt({ ...claims, iat: Math.floor(server.now().getTime() / 1000) - 600, expiresInSeconds: 300 }),
      monday.mintJwt({ ...claims, aud: url('/actions/fill-timezone') }),
      null,
    ]) {
      const run = await enrollRun(ctx, lead.itemId, { jwt });
      expect(run.outcome).toBe('failed');
      expect(run.attempts.map((a) => a.status)).toEqual([401]);
    }
    expect(await contactOf(ctx, lead.itemId)).toBeNull();
    expect((await enrollRun(ctx, lead.itemId, { bearer: true })).outcome).toBe('success');
  });

  it('answers 403 to a monday account that is not linked', async () => {
    const run = await monday.runAction({
      url: url('/actions/enroll'),
      accountId: 1,
      userId: 1,
      inputFields: { itemId: 1 },
    });
    expect(run.attempts.map((a) => a.status)).toEqual([403]);
  });

  it('enrolls once however often monday retries the same run, also concurrently', async () => {
    const ctx = await setup();
    await mapBoard(ctx);
    const lead = addLead(ctx);
    const actionUuid = randomUUID();
    const runs = await Promise.all([1, 2, 3].map(() => enrollRun(ctx, lead.itemId, { actionUuid })));
    for (const run of runs) expect(run.outcome).toBe('success');
    const contactIds = new Set(runs.map((r) => r.outputFields!.contactId));
    expect(contactIds.size).toBe(1);
    const again = await enrollRun(ctx, lead.itemId, { actionUuid });
    expect(again.outputFields).toEqual(runs[0].outputFields);
    expect(await prisma().contact.count({ where: { accountId: ctx.accountId } })).toBe(1);
    expect(await prisma().enrollment.count({ where: { contact: { accountId: ctx.accountId } } })).toBe(1);
  });

  it("asks monday to retry while monday's API is rate limited, then enrolls", async () => {
    const ctx = await setup();
    await mapBoard(ctx);
    const lead = addLead(ctx);
    monday.failNext('429', 1, { retryInSeconds: 1 });
    const run = await enrollRun(ctx, lead.itemId);
    expect(run.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(run.outcome).toBe('success');
    expect(await contactOf(ctx, lead.itemId)).not.toBeNull();
  });

  it("fills the timezone column from the phone in the column's format, keeps an existing zone, and fails clearly when the phone says several zones", async () => {
    const ctx = await setup();
    await mapBoard(ctx);
    const fill = (itemId: string, fields: Record<string, unknown> = {}) =>
      monday.runAction({
        url: url('/actions/fill-timezone'),
        accountId: ctx.mondayAccountId,
        userId: ctx.mondayUserId,
        inputFields: { boardId: Number(ctx.boardId), itemId: Number(itemId), ...fields },
      });

    const london = monday.addItem({
      boardId: ctx.boardId,
      name: 'London',
      values: { phone: { phone: '+442079460958', countryShortName: 'GB' } },
    });
    expect((await fill(String(london.id))).outputFields).toEqual({ timezone: 'Europe/London', filled: true });
    expect(monday.readValue(london.id, 'tz').value).toMatchObject({ timezone: 'Europe/London' });

    const chicago = monday.addItem({
      boardId: ctx.boardId,
      name: 'Chicago',
      values: { phone: { phone: '+13125550123', countryShortName: 'US' } },
    });
    expect((await fill(String(chicago.id), { timezoneColumnId: 'tz_text' })).outputFields).toEqual({
      timezone: 'America/Chicago',
      filled: true,
    });
    expect(monday.readValue(chicago.id, 'tz_text').text).toBe('America/Chicago');

    const kept = monday.addItem({
      boardId: ctx.boardId,
      name: 'Kept',
      values: { phone: { phone: '+442079460958', countryShortName: 'GB' }, tz: { timezone: 'Asia/Tokyo' } },
    });
    expect((await fill(String(kept.id))).outputFields).toEqual({ timezone: 'Asia/Tokyo', filled: false });

    const idaho = monday.addItem({
      boardId: ctx.boardId,
      name: 'Idaho',
      values: { phone: { phone: '+12085550100', countryShortName: 'US' } },
    });
    const ambiguous = await fill(String(idaho.id));
    expect(ambiguous).toMatchObject({ outcome: 'failed', notification: { title: 'Timezone not filled' } });
    expect(ambiguous.notification!.description).toMatch(
      /span two time zones \(America\/Denver, America\/Los_Angeles\): set the timezone by hand/,
    );
    expect(monday.readValue(idaho.id, 'tz').value).toBeNull();

    const wrongColumn = await fill(String(london.id), { timezoneColumnId: 'stage' });
    expect(wrongColumn.outcome).toBe('disabled');
  });

  // A former bug: an Australian mobile was filled with Australia/Sydney; it could be in any of
  // Australia's zones. The run fails with severity 4000 (the automation stays on) and writes
  // nothing, in either column format.
  it.each(['tz', 'tz_text'])(
    'fails an Australian mobile (several zones) with severity 4000 and writes nothing to %s',
    async (column) => {
      const ctx = await setup();
      await mapBoard(ctx);
      const item = monday.addItem({
        boardId: ctx.boardId,
        name: 'Sydney?',
        values: { phone: { phone: '+61412345678', countryShortName: 'AU' } },
      });
      const run = await monday.runAction({
        url: url('/actions/fill-timezone'),
        accountId: ctx.mondayAccountId,
        userId: ctx.mondayUserId,
        inputFields: { boardId: Number(ctx.boardId), itemId: item.id, timezoneColumnId: column },
      });
      expect(run.outcome).toBe('failed');
      expect(run.attempts.at(-1)!.body).toMatchObject({
        severityCode: 4000,
        notificationErrorTitle: 'Timezone not filled',
      });
      expect(run.notification!.description).toMatch(
        /^The number \+61412345678 matches seven time zones \(Australia\/Adelaide, .*\): set the timezone by hand\.$/,
      );
      expect(monday.readValue(item.id, column).value).toBeNull();
      expect(monday.readValue(item.id, column).text ?? '').toBe('');
    },
  );

  it("sets the status from the call result through the Account's mapping; unmapped results and board-less calls change nothing", async () => {
    const ctx = await setup();
    await mapBoard(ctx);
    const setStatus = (itemId: string | null, callResult?: string) =>
      monday.runAction({
        url: url('/actions/set-status'),
        accountId: ctx.mondayAccountId,
        userId: ctx.mondayUserId,
        inputFields: {
          boardId: Number(ctx.boardId),
          itemId: itemId === null ? null : Number(itemId),
          statusColumnId: 'outcome',
          ...(callResult ? { callResult } : {}),
        },
      });
    const lead = addLead(ctx);
    expect((await setStatus(lead.itemId, 'busy')).outputFields).toEqual({
      callResult: 'busy',
      label: 'Busy',
      changed: true,
    });
    expect((await setStatus(lead.itemId, 'no_answer')).outputFields).toEqual({
      callResult: 'no_answer',
      label: null,
      changed: false,
    });
    expect(monday.readValue(lead.itemId, 'outcome').label).toBe('Busy');
    expect((await setStatus(null, 'converted')).outputFields).toMatchObject({ changed: false });

    await graphql(ctx.apiKey, `mutation ($m: JSON) { setStatusLabels(mapping: $m) { boardId } }`, {
      m: { no_answer: 'Unqualified', converted: 'Closed won' },
    });
    expect((await setStatus(lead.itemId, 'no_answer')).outputFields).toMatchObject({
      label: 'Unqualified',
      changed: true,
    });
    const missingLabel = await setStatus(lead.itemId, 'converted');
    expect(missingLabel).toMatchObject({ outcome: 'failed', notification: { title: 'Status label missing' } });
    expect(missingLabel.notification!.description).toMatch(/"Closed won" is not on the "Call outcome" column/);
    expect((await setStatus(lead.itemId, 'made_up')).outcome).toBe('failed');
    // Without a result in the run, the item's latest call gives it.
    expect((await setStatus(lead.itemId)).notification?.title).toBe('No call yet');
  });

  it("fires only for the filtered agent and the automation's own board, never for test or transferred calls, and stops after the automation is deleted", async () => {
    const ctx = await setup();
    await mapBoard(ctx);
    const otherAgent = await prisma().agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: ctx.accountId,
        name: 'Bo',
        status: 'live',
        timezone: 'America/Chicago',
        defaultLanguage: 'en-US',
        attemptLimit: 1,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
      },
    });
    const every = await callEndedRecipe(ctx);
    const onlyOther = await callEndedRecipe(ctx, { agentId: otherAgent.id });
    const otherBoard = monday.addBoard({
      accountId: ctx.mondayAccountId,
      name: 'Another board',
      columns: [{ id: 'outcome', type: 'status', labels: ['Busy'] }],
    });
    const onOtherBoard = await callEndedRecipe(ctx, {}, String(otherBoard.id));
    const leads = [addLead(ctx), addLead(ctx), addLead(ctx)];
    telephony().setScript(leads[0].phone, { result: 'no_answer' });
    telephony().setScript(leads[1].phone, { result: 'qualified', testCall: true });
    telephony().setScript(leads[2].phone, { result: 'qualified', transferred: true });
    for (const lead of leads) {
      expect((await enrollRun(ctx, lead.itemId)).outcome).toBe('success');
      await consentOf(ctx, lead.itemId);
    }
    await dial();
    const accepted = await server.eventually(async () => {
      const d = deliveriesFor(every.subscription!.subscriptionId).filter((x) => x.outcome === 'accepted');
      return d.length > 0 ? d : null;
    });
    // Let the worker run a few more passes: nothing else may arrive.
    await new Promise((r) => setTimeout(r, 1500));
    expect(deliveriesFor(every.subscription!.subscriptionId).map((d) => d.outputFields!.itemId)).toEqual([
      Number(leads[0].itemId),
    ]);
    expect(accepted[0].outputFields).toMatchObject({ callResult: 'no_answer', isLastCall: true });
    expect(deliveriesFor(onlyOther.subscription!.subscriptionId)).toEqual([]);
    expect(deliveriesFor(onOtherBoard.subscription!.subscriptionId)).toEqual([]);

    await monday.deleteRecipe(every.id);
    const later = addLead(ctx);
    expect((await enrollRun(ctx, later.itemId)).outcome).toBe('success');
    await consentOf(ctx, later.itemId);
    await dial();
    await new Promise((r) => setTimeout(r, 1500));
    expect(deliveriesFor(every.subscription!.subscriptionId)).toHaveLength(1);
  });

  it('retries a receiver that fails, and delivers each call once', async () => {
    const ctx = await setup();
    await mapBoard(ctx);
    const recipe = await callEndedRecipe(ctx);
    const lead = addLead(ctx);
    telephony().setScript(lead.phone, { result: 'busy' });
    monday.failTriggerDeliveries(1, 500);
    monday.failTriggerDeliveries(1, 429, { retryAfterSeconds: 1 });
    expect((await enrollRun(ctx, lead.itemId)).outcome).toBe('success');
    await consentOf(ctx, lead.itemId);
    await dial();
    await server.eventually(
      async () => deliveriesFor(recipe.subscription!.subscriptionId).some((d) => d.outcome === 'accepted'),
      15_000,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const all = deliveriesFor(recipe.subscription!.subscriptionId);
    expect(all.filter((d) => d.outcome === 'accepted')).toHaveLength(1);
    expect(all.length).toBeGreaterThanOrEqual(2);
    const row = await prisma().mondayTriggerDelivery.findFirstOrThrow({
      where: { webhookId: String(recipe.subscription!.webhookId) },
    });
    expect(row).toMatchObject({ status: 'delivered' });
    expect(row.attempts).toBe(all.length);
  });

  it('answers the remote options and refuses an unknown agent filter at subscribe', async () => {
    const ctx = await setup();
    const workflows = await monday.fetchOptions({
      url: url('/options/workflows'),
      accountId: ctx.mondayAccountId,
      userId: ctx.mondayUserId,
      boardId: Number(ctx.boardId),
    });
    expect(workflows.options).toEqual([{ title: 'Spring outreach', value: ctx.workflowId }]);
    const agents = await monday.fetchOptions({
      url: url('/options/agents'),
      accountId: ctx.mondayAccountId,
      userId: ctx.mondayUserId,
    });
    expect(agents.options).toEqual([{ title: 'Ava', value: ctx.agentId }]);
    await expect(callEndedRecipe(ctx, { agentId: randomUUID() })).rejects.toThrow(/error shown in monday UI/);
  });
  it('fires after every attempt of a contact, unanswered ones included, with the last-call flag set only on the last', async () => {
    const allDay = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '00:00', end: '24:00' }]])) as WorkingHours;
    const ctx = await setup({ agent: { attemptLimit: 2, workingHours: allDay } });
    await mapBoard(ctx);
    const recipe = await callEndedRecipe(ctx);
    const lead = addLead(ctx);
    telephony().setScript(lead.phone, { result: 'no_answer' });
    expect((await enrollRun(ctx, lead.itemId)).outcome).toBe('success');
    await consentOf(ctx, lead.itemId);
    const contact = await contactOf(ctx, lead.itemId);
    const accepted = () => deliveriesFor(recipe.subscription!.subscriptionId).filter((d) => d.outcome === 'accepted');

    await dial();
    await server.eventually(async () => accepted().length === 1);
    expect(accepted()[0].outputFields).toMatchObject({
      itemId: Number(lead.itemId),
      callResult: 'no_answer',
      isLastCall: false,
    });
    // The enrollment goes on: one attempt made, the next one scheduled later.
    const waiting = await prisma().enrollment.findFirstOrThrow({ where: { contactId: contact!.id } });
    expect(waiting).toMatchObject({ active: true, attempts: 1 });
    expect(waiting.nextAttemptAt!.getTime()).toBeGreaterThan(server.now().getTime());

    // Make the second attempt due now.
    await prisma().enrollment.update({
      where: { id: waiting.id },
      data: { nextAttemptAt: new Date(server.now().getTime() - 1000) },
    });
    await dial();
    await server.eventually(async () => accepted().length === 2);
    await new Promise((r) => setTimeout(r, 1000));
    const calls = await prisma().call.findMany({ where: { contactId: contact!.id }, orderBy: { createdAt: 'asc' } });
    expect(calls).toHaveLength(2);
    const all = accepted();
    expect(all).toHaveLength(2);
    expect(new Set(all.map((d) => d.outputFields!.callId)).size).toBe(2);
    const byCall = new Map(all.map((d) => [d.outputFields!.callId, d.outputFields!]));
    expect(calls.map((c) => byCall.get(c.id))).toEqual([
      expect.objectContaining({
        callId: calls[0].id,
        callResult: 'no_answer',
        isLastCall: false,
        itemId: Number(lead.itemId),
        boardId: Number(ctx.boardId),
      }),
      expect.objectContaining({
        callId: calls[1].id,
        callResult: 'no_answer',
        isLastCall: true,
        itemId: Number(lead.itemId),
        boardId: Number(ctx.boardId),
      }),
    ]);
    expect(await prisma().enrollment.findFirstOrThrow({ where: { contactId: contact!.id } })).toMatchObject({
      active: false,
      attempts: 2,
      endReason: 'attempt_limit',
    });
  });

  it("keeps a new contact to the agent's working hours unless the agent calls new contacts immediately", async () => {
    // Working hours on tomorrow only (in the contact's zone), so now is outside them. Chicago
    // numbers: the law's hours (09:00-21:00 in Illinois) then allow a call at 09:00 there.
    const zone = 'America/Chicago';
    const weekdayIn = (at: Date) =>
      new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(at).toLowerCase();
    const tomorrow = weekdayIn(new Date(server.now().getTime() + 24 * 3600_000)) as Weekday;
    const hours: WorkingHours = { [tomorrow]: [{ start: '09:00', end: '17:00' }] };
    const ctx = await setup({ agent: { callNewContactsImmediately: false, workingHours: hours } });
    await mapBoard(ctx);
    const recipe = await callEndedRecipe(ctx);
    const waiting = addLead(ctx, { tz: { timezone: zone } }, 'Jane Doe', freshChicagoPhone());
    const run = await enrollRun(ctx, waiting.itemId);
    expect(run.outcome).toBe('success');
    await consentOf(ctx, waiting.itemId);
    const contact = await contactOf(ctx, waiting.itemId);
    expect(contact).toMatchObject({ status: 'assigned', assignedWorkflowId: ctx.workflowId, timezone: zone });

    const before = server.now().getTime();
    const pass = await runDialerOnce(server.service.services, telephony());
    await telephony().settled();
    expect(pass.placed.filter((c) => c.contactId === contact!.id)).toEqual([]);
    expect(pass.deferred).toBeGreaterThanOrEqual(1);
    expect(await prisma().call.count({ where: { contactId: contact!.id } })).toBe(0);
    const deferred = await prisma().enrollment.findFirstOrThrow({ where: { contactId: contact!.id } });
    expect(deferred).toMatchObject({ active: true, attempts: 0 });
    // Moved to the next window: tomorrow 09:00 in the contact's zone.
    const at = deferred.nextAttemptAt!;
    expect(at.getTime()).toBeGreaterThan(before);
    expect(at.getTime() - before).toBeLessThanOrEqual(34 * 3600_000);
    expect(weekdayIn(at)).toBe(tomorrow);
    expect(
      new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
        at,
      ),
    ).toBe('09:00');

    // The same agent with the option on: a new contact is called at once, outside the hours.
    await prisma().agent.update({ where: { id: ctx.agentId }, data: { callNewContactsImmediately: true } });
    const now = addLead(ctx, { tz: { timezone: zone } }, 'Jane Doe', freshChicagoPhone());
    telephony().setScript(now.phone, { result: 'no_answer' });
    expect((await enrollRun(ctx, now.itemId)).outcome).toBe('success');
    await consentOf(ctx, now.itemId);
    const called = await contactOf(ctx, now.itemId);
    const second = await runDialerOnce(server.service.services, telephony());
    await telephony().settled();
    expect(second.placed.filter((c) => c.contactId === called!.id)).toHaveLength(1);
    expect(second.placed.filter((c) => c.contactId === contact!.id)).toEqual([]);
    await server.eventually(async () =>
      deliveriesFor(recipe.subscription!.subscriptionId).some(
        (d) => d.outcome === 'accepted' && d.outputFields!.itemId === Number(now.itemId),
      ),
    );
    expect(await prisma().call.count({ where: { contactId: contact!.id } })).toBe(0);
  });
});
