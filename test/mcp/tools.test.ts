// The tools (the calling rules' two are in calling-tools.test.ts) through the SDK's Client against a real listening server: each tool's result is
// the REST response for the same data (structured and as JSON text), list tools page like REST,
// every failure is a tool error whose text is the REST error body (404, 409, each bad
// argument as the REST 400), and a key sees only its own Account.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectContactShape, uniquePhone, upsertOk, UUID_RE } from '../support/api-helpers.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import { createSimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { applyTelephonyEvent } from '../../src/domain/calls/call-events.service.js';
import { DEFAULT_WORKING_HOURS } from '../../src/domain/calls/calling-hours.rules.js';
import { callError, callOk, connect, withoutRequestId, type Connected } from './mcp-helpers.js';
import { clockFrom } from '../support/clocks.js';
import { writtenConsent } from '../support/consent.js';

const enc = encodeURIComponent;
const callsPath = (sourceKind: string, externalId: string, query = '') =>
  `/api/v1/contacts/source/${sourceKind}/external-id/${enc(externalId)}/calls${query ? `?${query}` : ''}`;
const externalIdPath = (sourceKind: string, externalId: string) =>
  `/api/v1/contacts/source/${sourceKind}/external-id/${enc(externalId)}`;
/** A REST query string from tool arguments (arrays as repeated keys). */
const query = (args: Record<string, unknown>) =>
  Object.entries(args)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}=${enc(String(x))}`) : [`${k}=${enc(String(v))}`]))
    .join('&');

describe.each(testDatabaseKinds())('tool server tools on %s', (kind) => {
  let server: TestServer;
  let mine: TestAccount;
  let theirs: TestAccount;
  let mcp: Connected;
  let client: Client;
  const data = {
    workflows: [] as string[],
    ada: {} as any,
    grace: {} as any,
    callsContact: {} as any,
    callIds: [] as string[],
    readyCall: '',
    pendingCall: '',
    emptyCall: '',
    duplicates: [] as any[],
    theirContact: {} as any,
    theirCall: '',
  };

  const rest = async (path: string, key = mine.apiKey) => server.request(key, 'GET', path);
  const restOk = async (path: string, key = mine.apiKey) => {
    const res = await rest(path, key);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.json;
  };
  const prisma = () => server.service.services.db.prisma;

  async function call(accountId: string, contactId: string, startedAt: Date, extra: Record<string, unknown> = {}) {
    const id = randomUUID();
    await prisma().call.create({ data: { id, accountId, contactId, startedAt, createdAt: server.now(), ...extra } });
    return id;
  }

  beforeAll(async () => {
    // A test here dials a San Francisco number (uniquePhone()): the service's time starts on
    // Monday 23 November 2026, 10:00 in Los Angeles, inside the law's calling hours there, and
    // moves on with the real time.
    server = await startTestServer(kind, { clock: clockFrom(new Date('2026-11-23T18:00:00.000Z')) });
    mine = await server.createAccount();
    theirs = await server.createAccount();
    for (const name of ['Spring outreach', 'Renewals', 'Win-back'])
      data.workflows.push(await server.createWorkflow(mine.accountId, { name }));
    await server.createWorkflow(mine.accountId, { name: 'Draft flow', status: 'draft' });
    await server.createWorkflow(theirs.accountId, { name: 'Their flow' });

    data.ada = await upsertOk(server, mine.apiKey, {
      fullName: 'Ada Lovelace',
      phone: '+14155552671',
      sourceKind: 'hubspot',
      externalId: 'crm-ada',
      customFields: { plan: 'pro' },
      location: 'California',
      language: 'English',
      assignmentOptions: { workflowId: data.workflows[0] },
    });
    data.grace = await upsertOk(server, mine.apiKey, {
      firstName: 'Grace',
      lastName: 'Hopper',
      phone: uniquePhone(),
      sourceKind: 'salesforce',
      externalId: 'sf-grace',
      status: 'qualified',
    });
    for (let i = 0; i < 5; i++) {
      await upsertOk(server, mine.apiKey, {
        firstName: `Alan${i}`,
        lastName: 'Turing',
        phone: uniquePhone(),
        sourceKind: 'csv',
        externalId: `csv-alan-${i}`,
      });
    }
    // Two contacts sharing an external ID (the Account deduplicates by phone).
    data.duplicates.push(
      await upsertOk(server, mine.apiKey, {
        firstName: 'Dup',
        phone: uniquePhone(),
        sourceKind: 'csv',
        externalId: 'dup-1',
      }),
    );
    data.duplicates.push(
      await upsertOk(server, mine.apiKey, {
        firstName: 'Dup',
        phone: uniquePhone(),
        sourceKind: 'csv',
        externalId: 'dup-1',
      }),
    );

    // Calls of one contact, inserted out of order, with transcripts in different states.
    data.callsContact = await upsertOk(server, mine.apiKey, {
      firstName: 'Callie',
      phone: uniquePhone(),
      sourceKind: 'api',
      externalId: 'calls-1',
    });
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    data.pendingCall = await call(mine.accountId, data.callsContact.id, new Date(t0 + 2000), {
      reportReady: false,
      status: 'ended',
      result: 'answered',
    });
    data.readyCall = await call(mine.accountId, data.callsContact.id, new Date(t0), {
      workflowId: data.workflows[0],
      status: 'ended',
      result: 'converted',
      endReason: 'customer-ended-call',
      startedAt: new Date(t0 + 5),
      endedAt: new Date(t0 + 65_005),
      durationSeconds: 65,
      language: 'en-US',
      lastCall: true,
      reportReady: true,
    });
    data.emptyCall = await call(mine.accountId, data.callsContact.id, new Date(t0 + 1000), {
      reportReady: true,
      status: 'ended',
      result: 'no_answer',
    });
    for (let i = 0; i < 3; i++) await call(mine.accountId, data.callsContact.id, new Date(t0 + 3000 + i * 1000));
    await prisma().callUtterance.createMany({
      data: [
        {
          callId: data.readyCall,
          seq: 2,
          speaker: 'user',
          content: 'Yes, tomorrow works.',
          timestamp: new Date(t0 + 9000),
        },
        {
          callId: data.readyCall,
          seq: 1,
          speaker: 'assistant',
          content: 'Hi, this is Dana.',
          timestamp: new Date(t0 + 1000),
        },
        { callId: data.pendingCall, seq: 1, speaker: 'assistant', content: 'Not ready yet', timestamp: null },
      ],
    });
    data.callIds = (await restOk(callsPath('api', 'calls-1'))).data.map((c: { id: string }) => c.id);

    // The other Account: a contact with the same external ID as one of ours, and a call.
    data.theirContact = await upsertOk(server, theirs.apiKey, {
      firstName: 'Ada',
      lastName: 'Other',
      phone: '+14155552671',
      sourceKind: 'hubspot',
      externalId: 'theirs-1',
    });
    await upsertOk(server, theirs.apiKey, {
      firstName: 'Callie',
      phone: uniquePhone(),
      sourceKind: 'api',
      externalId: 'calls-1',
    });
    data.theirCall = await call(theirs.accountId, data.theirContact.id, new Date(t0), { reportReady: true });
    await prisma().callUtterance.create({
      data: { callId: data.theirCall, seq: 1, speaker: 'user', content: 'secret', timestamp: null },
    });

    mcp = await connect(server, mine.apiKey);
    client = mcp.client;
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  describe('each tool returns its REST response', () => {
    it('contacts_search, with each filter, as GET /api/v1/contacts', async () => {
      const cases: Array<Record<string, unknown>> = [
        {},
        { searchTerm: 'ada love' },
        { searchTerm: '2671' },
        { searchTerm: 'alan0 tur' },
        { searchTerm: 'nobody-matches' },
        { status: ['qualified'] },
        { status: ['qualified', 'assigned'] },
        { sourceKind: ['csv'], limit: 3 },
        { sourceKind: ['hubspot', 'salesforce'] },
        { assignedWorkflowId: data.workflows[0] },
        { addedSince: '2020-01-01T00:00:00Z', addedBefore: '2100-01-01T00:00:00+02:00' },
        { addedBefore: '2020-01-01T00:00:00Z' },
        { limit: 100 },
      ];
      for (const args of cases) {
        const viaTool = await callOk(client, 'contacts_search', args);
        expect(viaTool, JSON.stringify(args)).toEqual(await restOk(`/api/v1/contacts?${query(args)}`));
      }
      // The same forms REST accepts: one value or comma-separated values, a limit as text.
      expect(await callOk(client, 'contacts_search', { status: 'qualified,assigned', limit: '5' })).toEqual(
        await restOk('/api/v1/contacts?status=qualified,assigned&limit=5'),
      );
      // A null argument counts as not sent.
      expect(await callOk(client, 'contacts_search', { searchTerm: null, status: null, limit: null })).toEqual(
        await restOk('/api/v1/contacts'),
      );
      const ada = await callOk(client, 'contacts_search', { searchTerm: 'ada' });
      expect(ada.data.map((c: { id: string }) => c.id)).toEqual([data.ada.id]);
      expectContactShape(ada.data[0]);
      expect(await callOk(client, 'contacts_search', { searchTerm: 'nobody-matches' })).toEqual({ data: [] });
    });

    it('contact_get as GET /api/v1/contacts/{id}', async () => {
      for (const contact of [data.ada, data.grace, data.callsContact]) {
        const viaTool = await callOk(client, 'contact_get', { id: contact.id });
        expect(viaTool).toEqual(await restOk(`/api/v1/contacts/${contact.id}`));
        expectContactShape(viaTool);
      }
      // An upper-case UUID is the same id, as in the path.
      expect(await callOk(client, 'contact_get', { id: data.ada.id.toUpperCase() })).toEqual(
        await restOk(`/api/v1/contacts/${data.ada.id}`),
      );
    });

    it('contact_get_by_external_id as GET /api/v1/contacts/source/{sourceKind}/external-id/{externalId}', async () => {
      for (const [sourceKind, externalId] of [
        ['hubspot', 'crm-ada'],
        ['salesforce', 'sf-grace'],
        ['csv', 'csv-alan-3'],
        ['hubspot', 'crm-ada  '],
      ]) {
        const viaTool = await callOk(client, 'contact_get_by_external_id', { sourceKind, externalId });
        expect(viaTool, externalId).toEqual(await restOk(externalIdPath(sourceKind, externalId)));
      }
    });

    it('contact_calls_list, oldest first, as GET .../calls', async () => {
      const viaTool = await callOk(client, 'contact_calls_list', { sourceKind: 'api', externalId: 'calls-1' });
      expect(viaTool).toEqual(await restOk(callsPath('api', 'calls-1')));
      expect(viaTool.data.map((c: { id: string }) => c.id).slice(0, 3)).toEqual([
        data.readyCall,
        data.emptyCall,
        data.pendingCall,
      ]);
      expect(viaTool.data).toHaveLength(6);
      expect(viaTool.data[0]).toMatchObject({
        result: 'converted',
        durationSeconds: 65,
        lastCall: true,
        transcriptAvailable: true,
        workflowId: data.workflows[0],
      });
      expect(viaTool.data[1].transcriptAvailable).toBe(false);
      expect(viaTool.data[2].transcriptAvailable).toBe(false);
      // A contact without calls: an empty page.
      expect(await callOk(client, 'contact_calls_list', { sourceKind: 'hubspot', externalId: 'crm-ada' })).toEqual({
        data: [],
      });
    });

    it('call_transcript_get as GET /api/v1/calls/{id}/transcript: empty until the report is ready and without utterances', async () => {
      const ready = await callOk(client, 'call_transcript_get', { callId: data.readyCall });
      expect(ready).toEqual(await restOk(`/api/v1/calls/${data.readyCall}/transcript`));
      expect(ready).toEqual({
        utterances: [
          { speaker: 'assistant', content: 'Hi, this is Dana.', timestamp: '2026-03-01T10:00:01.000Z' },
          { speaker: 'user', content: 'Yes, tomorrow works.', timestamp: '2026-03-01T10:00:09.000Z' },
        ],
      });
      for (const id of [data.pendingCall, data.emptyCall]) {
        const empty = await callOk(client, 'call_transcript_get', { callId: id });
        expect(empty).toEqual({ utterances: [] });
        expect(empty).toEqual(await restOk(`/api/v1/calls/${id}/transcript`));
      }
    });

    it('webhook_endpoints_list and webhook_deliveries_list as GET /api/v1/webhook-endpoints and …/deliveries', async () => {
      const created = await server.request(mine.apiKey, 'POST', '/api/v1/webhook-endpoints', {
        url: 'https://93.184.216.34/tools',
        events: ['contact.created'],
      });
      expect(created.status, created.text).toBe(201);
      const endpointId = created.json.id;
      const prisma = server.service.services.db.prisma;
      await prisma.webhookDelivery.create({
        data: {
          id: randomUUID(),
          endpointId,
          accountId: mine.accountId,
          eventId: randomUUID(),
          eventType: 'contact.created',
          payload: JSON.stringify({ type: 'contact.created', timestamp: server.now().toISOString(), data: {} }),
          status: 'failed',
          attempts: 12,
          responseStatus: 500,
          lastError: 'HTTP 500',
          lastAttemptAt: server.now(),
          giveUpAt: server.now(),
          createdAt: server.now(),
        },
      });
      const endpoints = await callOk(client, 'webhook_endpoints_list');
      expect(endpoints).toEqual(await restOk('/api/v1/webhook-endpoints'));
      expect(JSON.stringify(endpoints)).not.toContain(created.json.secret);
      const log = await callOk(client, 'webhook_deliveries_list', { endpointId, status: 'failed' });
      expect(log).toEqual(await restOk(`/api/v1/webhook-endpoints/${endpointId}/deliveries?status=failed`));
      expect(log.data).toHaveLength(1);
      expect(await callOk(client, 'webhook_deliveries_list', { endpointId, status: 'delivered' })).toEqual({
        data: [],
      });
      expect((await callError(client, 'webhook_deliveries_list', { endpointId: randomUUID() })).code).toBe('not_found');
      expect(await callError(client, 'webhook_deliveries_list', { endpointId: 'nope' })).toMatchObject({
        code: 'bad_request',
        message: 'endpointId must be a UUID',
      });
      const other = await connect(server, theirs.apiKey);
      try {
        expect(await callOk(other.client, 'webhook_endpoints_list')).toEqual({ data: [] });
        expect((await callError(other.client, 'webhook_deliveries_list', { endpointId })).code).toBe('not_found');
      } finally {
        await other.close();
      }
    });

    it('import_get, imports_list and bulk_update_get as GET /api/v1/imports/{id}, /imports and /bulk-updates/{id}', async () => {
      const imported = await server.request(mine.apiKey, 'POST', '/api/v1/contacts/bulk', {
        contacts: [
          { sourceKind: 'csv', externalId: null, phone: uniquePhone() },
          { sourceKind: 'csv', externalId: null, phone: '+1 123' },
        ],
      });
      const { importId } = imported.json;
      const done = await server.eventually(async () => {
        const job = await restOk(`/api/v1/imports/${importId}`);
        return job.status === 'done' ? job : undefined;
      });
      expect(await callOk(client, 'import_get', { importId })).toEqual(done);
      expect(done).toMatchObject({ created: 1, rejected: [{ index: 1, reason: 'invalid-phone' }] });
      expect(await callOk(client, 'imports_list', { limit: 1 })).toEqual(await restOk('/api/v1/imports?limit=1'));
      expect(await callOk(client, 'imports_list')).toEqual(await restOk('/api/v1/imports'));

      const updated = await server.request(mine.apiKey, 'POST', '/api/v1/contacts/bulk-update', {
        filter: { firstName: 'Nobody-by-this-name' },
        data: { priority: 9 },
      });
      const { updateId } = updated.json;
      const finished = await server.eventually(async () => {
        const job = await restOk(`/api/v1/bulk-updates/${updateId}`);
        return job.status === 'done' ? job : undefined;
      });
      expect(await callOk(client, 'bulk_update_get', { updateId })).toEqual(finished);

      // Unknown, another Account's, or malformed: the REST errors, naming the tool's argument.
      for (const [tool, args] of [
        ['import_get', { importId: randomUUID() }],
        ['bulk_update_get', { updateId: randomUUID() }],
      ] as const)
        expect((await callError(client, tool, args)).code).toBe('not_found');
      const other = await connect(server, theirs.apiKey);
      try {
        expect((await callError(other.client, 'import_get', { importId })).code).toBe('not_found');
        expect((await callError(other.client, 'bulk_update_get', { updateId })).code).toBe('not_found');
        expect(await callOk(other.client, 'imports_list')).toEqual({ data: [] });
      } finally {
        await other.close();
      }
      expect(await callError(client, 'import_get', { importId: 'not-a-uuid' })).toMatchObject({
        code: 'bad_request',
        message: 'importId must be a UUID',
      });
      expect(await callError(client, 'bulk_update_get', { updateId: 'not-a-uuid' })).toMatchObject({
        code: 'bad_request',
        message: 'updateId must be a UUID',
      });
    });

    it('workflows_list as GET /api/v1/workflows', async () => {
      const viaTool = await callOk(client, 'workflows_list');
      expect(viaTool).toEqual(await restOk('/api/v1/workflows'));
      expect(viaTool.nextToken).toBeNull();
      expect(viaTool.data.map((w: { name: string }) => w.name).sort()).toEqual([
        'Draft flow',
        'Renewals',
        'Spring outreach',
        'Win-back',
      ]);
      for (const w of viaTool.data) expect(Object.keys(w).sort()).toEqual(['id', 'name', 'status']);
    });
  });

  describe('paging', () => {
    /** Pages through a list tool and the REST route side by side; returns the ids in order. */
    async function pageBoth(
      tool: string,
      args: Record<string, unknown>,
      restPath: (q: string) => string,
      limit: number,
    ) {
      const ids: string[] = [];
      let token: string | undefined;
      for (let page = 0; page < 50; page++) {
        const pageArgs = { ...args, limit, ...(token ? { nextToken: token } : {}) };
        const viaTool = await callOk(client, tool, pageArgs);
        expect(viaTool, `${tool} page ${page}`).toEqual(await restOk(restPath(query(pageArgs))));
        expect(viaTool.data.length).toBeLessThanOrEqual(limit);
        ids.push(...viaTool.data.map((r: { id: string }) => r.id));
        if (!viaTool.nextToken) return ids;
        expect(viaTool.data).toHaveLength(limit);
        token = viaTool.nextToken;
      }
      throw new Error('too many pages');
    }

    it('contacts_search pages through every match without overlap', async () => {
      const all = (await restOk('/api/v1/contacts?limit=100')).data.map((c: { id: string }) => c.id);
      for (const limit of [1, 2, 4]) {
        expect(await pageBoth('contacts_search', {}, (q) => `/api/v1/contacts?${q}`, limit), `limit ${limit}`).toEqual(
          all,
        );
      }
      expect(await pageBoth('contacts_search', { searchTerm: 'tur' }, (q) => `/api/v1/contacts?${q}`, 2)).toHaveLength(
        5,
      );
    });

    it('contact_calls_list pages oldest first', async () => {
      for (const limit of [1, 4]) {
        expect(
          await pageBoth(
            'contact_calls_list',
            { sourceKind: 'api', externalId: 'calls-1' },
            (q) => {
              const params = new URLSearchParams(q);
              params.delete('sourceKind');
              params.delete('externalId');
              return callsPath('api', 'calls-1', params.toString());
            },
            limit,
          ),
        ).toEqual(data.callIds);
      }
    });

    it('workflows_list pages, its last page with nextToken null', async () => {
      const all = (await restOk('/api/v1/workflows?limit=100')).data.map((w: { id: string }) => w.id);
      expect(all).toHaveLength(4);
      expect(await pageBoth('workflows_list', {}, (q) => `/api/v1/workflows?${q}`, 3)).toEqual(all);
      const last = await callOk(client, 'workflows_list', { limit: 4 });
      expect(last.nextToken).toBeNull();
    });
  });

  describe('failures are tool errors whose text is the REST error body', () => {
    it('404 not_found for an unknown id, external ID or call', async () => {
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['contact_get', { id: randomUUID() }, ''],
        ['contact_get_by_external_id', { sourceKind: 'api', externalId: 'nobody' }, externalIdPath('api', 'nobody')],
        ['contact_calls_list', { sourceKind: 'api', externalId: 'nobody' }, callsPath('api', 'nobody')],
        ['call_transcript_get', { callId: randomUUID() }, ''],
      ];
      for (const [tool, args, path] of cases) {
        const body = await callError(client, tool, args);
        expect(body, tool).toMatchObject({ code: 'not_found', error: 'Not Found' });
        expect(body.requestId).toMatch(UUID_RE);
        const restPath =
          path || (tool === 'contact_get' ? `/api/v1/contacts/${args.id}` : `/api/v1/calls/${args.callId}/transcript`);
        const viaRest = await rest(restPath);
        expect(viaRest.status).toBe(404);
        expect(withoutRequestId(body), tool).toEqual(withoutRequestId(viaRest.json));
      }
    });

    it('409 conflict with every matching contact when an external ID is shared', async () => {
      for (const [tool, path] of [
        ['contact_get_by_external_id', externalIdPath('csv', 'dup-1')],
        ['contact_calls_list', callsPath('csv', 'dup-1')],
      ]) {
        const body = await callError(client, tool, { sourceKind: 'csv', externalId: 'dup-1' });
        expect(body).toMatchObject({ code: 'conflict', error: 'Conflict' });
        expect(body.contacts.map((c: { id: string }) => c.id).sort()).toEqual(data.duplicates.map((c) => c.id).sort());
        for (const c of body.contacts) expectContactShape(c);
        const viaRest = await rest(path);
        expect(viaRest.status).toBe(409);
        expect(withoutRequestId(body)).toEqual(withoutRequestId(viaRest.json));
      }
    });

    it('a bad argument is the same 400 as the REST request with that value', async () => {
      const badToken = Buffer.from('["2026-01-01T00:00:00.000Z","not-a-uuid"]').toString('base64url');
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ...[0, 101, -1, 1.5, 'x', ''].map((limit): [string, Record<string, unknown>, string] => [
          'contacts_search',
          { limit },
          `/api/v1/contacts?limit=${enc(String(limit))}`,
        ]),
        ['contacts_search', { status: ['bogus'] }, '/api/v1/contacts?status=bogus'],
        ['contacts_search', { status: 'assigned,bogus' }, '/api/v1/contacts?status=assigned,bogus'],
        ['contacts_search', { status: [] }, '/api/v1/contacts?status='],
        ['contacts_search', { sourceKind: ['zapier'] }, '/api/v1/contacts?sourceKind=zapier'],
        ['contacts_search', { addedSince: 'yesterday' }, '/api/v1/contacts?addedSince=yesterday'],
        ['contacts_search', { addedBefore: '2026-03-01' }, '/api/v1/contacts?addedBefore=2026-03-01'],
        ['contacts_search', { assignedWorkflowId: 'not-a-uuid' }, '/api/v1/contacts?assignedWorkflowId=not-a-uuid'],
        ['contacts_search', { searchTerm: '' }, '/api/v1/contacts?searchTerm='],
        ['contacts_search', { searchTerm: 'x'.repeat(101) }, `/api/v1/contacts?searchTerm=${'x'.repeat(101)}`],
        ['contacts_search', { nextToken: 'garbage' }, '/api/v1/contacts?nextToken=garbage'],
        ['contacts_search', { nextToken: badToken }, `/api/v1/contacts?nextToken=${badToken}`],
        ['contact_get', { id: 'not-a-uuid' }, '/api/v1/contacts/not-a-uuid'],
        ['contact_get', { id: `${data.ada.id}z` }, `/api/v1/contacts/${data.ada.id}z`],
        ['contact_get_by_external_id', { sourceKind: 'zapier', externalId: 'x' }, externalIdPath('zapier', 'x')],
        [
          'contact_get_by_external_id',
          { sourceKind: 'api', externalId: 'e'.repeat(257) },
          externalIdPath('api', 'e'.repeat(257)),
        ],
        ['contact_get_by_external_id', { sourceKind: 'api', externalId: '   ' }, externalIdPath('api', '   ')],
        [
          'contact_calls_list',
          { sourceKind: 'api', externalId: 'calls-1', limit: 0 },
          callsPath('api', 'calls-1', 'limit=0'),
        ],
        [
          'contact_calls_list',
          { sourceKind: 'api', externalId: 'calls-1', limit: 101 },
          callsPath('api', 'calls-1', 'limit=101'),
        ],
        [
          'contact_calls_list',
          { sourceKind: 'api', externalId: 'calls-1', limit: 1e12 },
          callsPath('api', 'calls-1', 'limit=1000000000000'),
        ],
        [
          'contact_calls_list',
          { sourceKind: 'api', externalId: 'calls-1', nextToken: 'garbage' },
          callsPath('api', 'calls-1', 'nextToken=garbage'),
        ],
        ['contact_calls_list', { sourceKind: 'zapier', externalId: 'calls-1' }, callsPath('zapier', 'calls-1')],
        ['workflows_list', { limit: 0 }, '/api/v1/workflows?limit=0'],
        ['workflows_list', { limit: 'x' }, '/api/v1/workflows?limit=x'],
        ['workflows_list', { nextToken: 'garbage' }, '/api/v1/workflows?nextToken=garbage'],
      ];
      for (const [tool, args, path] of cases) {
        const body = await callError(client, tool, args);
        const viaRest = await rest(path);
        expect(viaRest.status, `${path}: ${viaRest.text}`).toBe(400);
        expect(body, `${tool} ${JSON.stringify(args)}`).toMatchObject({ code: 'bad_request', error: 'Bad Request' });
        expect(withoutRequestId(body), `${tool} ${JSON.stringify(args)}`).toEqual(withoutRequestId(viaRest.json));
      }
    });

    it('a missing required argument or a value no query string could carry is a 400 naming it', async () => {
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['contact_get', {}, 'id'],
        ['contact_get_by_external_id', { externalId: 'crm-ada' }, 'sourceKind'],
        ['contact_get_by_external_id', { sourceKind: 'hubspot' }, 'externalId'],
        ['contact_calls_list', { sourceKind: 'api' }, 'externalId'],
        ['call_transcript_get', {}, 'callId'],
        ['contacts_search', { searchTerm: { $ne: '' } }, 'searchTerm'],
        ['contacts_search', { status: [{ any: 1 }] }, 'status'],
        ['contact_get', { id: { id: data.ada.id } }, 'id'],
        // A limit beyond GraphQL's 32-bit Int still reaches the operation's bound check.
        ['contacts_search', { limit: 1e12 }, 'limit'],
        ['workflows_list', { limit: 3e9 }, 'limit'],
      ];
      for (const [tool, args, name] of cases) {
        const body = await callError(client, tool, args);
        expect(body, `${tool} ${JSON.stringify(args)}`).toMatchObject({
          code: 'bad_request',
          error: 'Bad Request',
          message: expect.stringContaining(name),
        });
      }
    });

    it("a malformed callId is the REST 400, naming the tool's argument (REST names its path's id)", async () => {
      const body = await callError(client, 'call_transcript_get', { callId: 'not-a-uuid' });
      const viaRest = await rest('/api/v1/calls/not-a-uuid/transcript');
      expect(viaRest.json).toMatchObject({ code: 'bad_request', message: 'id must be a UUID' });
      expect(withoutRequestId(body)).toEqual({ ...withoutRequestId(viaRest.json), message: 'callId must be a UUID' });
    });

    it('the error body carries the request id of the HTTP request', async () => {
      const tagged = await connect(server, mine.apiKey, { 'x-request-id': 'assistant-req-42' });
      try {
        expect(await callError(tagged.client, 'contact_get', { id: randomUUID() })).toMatchObject({
          code: 'not_found',
          requestId: 'assistant-req-42',
        });
      } finally {
        await tagged.close();
      }
    });
  });

  describe('account isolation', () => {
    it("another Account's contacts, calls and workflows are invisible", async () => {
      expect((await callError(client, 'contact_get', { id: data.theirContact.id })).code).toBe('not_found');
      expect(
        (await callError(client, 'contact_get_by_external_id', { sourceKind: 'hubspot', externalId: 'theirs-1' })).code,
      ).toBe('not_found');
      expect(
        (await callError(client, 'contact_calls_list', { sourceKind: 'hubspot', externalId: 'theirs-1' })).code,
      ).toBe('not_found');
      expect((await callError(client, 'call_transcript_get', { callId: data.theirCall })).code).toBe('not_found');
      // Same external ID in both Accounts: each key reads its own contact and calls.
      expect(
        (await callOk(client, 'contact_calls_list', { sourceKind: 'api', externalId: 'calls-1' })).data,
      ).toHaveLength(6);
      const searched = await callOk(client, 'contacts_search', { limit: 100 });
      expect(searched.data.every((c: { accountId: string }) => c.accountId === mine.accountId)).toBe(true);
      expect(searched.data.map((c: { id: string }) => c.id)).not.toContain(data.theirContact.id);
      const workflows = await callOk(client, 'workflows_list');
      expect(workflows.data.map((w: { name: string }) => w.name)).not.toContain('Their flow');

      const other = await connect(server, theirs.apiKey);
      try {
        expect((await callOk(other.client, 'contact_get', { id: data.theirContact.id })).id).toBe(data.theirContact.id);
        expect((await callError(other.client, 'contact_get', { id: data.ada.id })).code).toBe('not_found');
        expect((await callOk(other.client, 'call_transcript_get', { callId: data.theirCall })).utterances).toHaveLength(
          1,
        );
        expect(
          (await callOk(other.client, 'contact_calls_list', { sourceKind: 'api', externalId: 'calls-1' })).data,
        ).toEqual([]);
        expect((await callOk(other.client, 'workflows_list')).data.map((w: { name: string }) => w.name)).toEqual([
          'Their flow',
        ]);
        expect(
          (await callOk(other.client, 'contacts_search', { searchTerm: 'ada' })).data.map((c: { id: string }) => c.id),
        ).toEqual([data.theirContact.id]);
      } finally {
        await other.close();
      }
    });
  });

  it('an assistant can find a contact, follow it to a real (simulated) call and read the transcript', async () => {
    // A live agent that calls new contacts at once, so one dialer pass calls the enrolled contact.
    const agent = await prisma().agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: mine.accountId,
        name: 'Ava',
        status: 'live',
        timezone: 'America/Chicago',
        defaultLanguage: 'en-US',
        attemptLimit: 3,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
        callNewContactsImmediately: true,
      },
    });
    const workflow = await prisma().workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: mine.accountId,
        agentId: agent.id,
        name: 'Live outreach',
        status: 'published',
      },
    });
    const phone = uniquePhone();
    await upsertOk(server, mine.apiKey, {
      firstName: 'Margaret',
      lastName: 'Hamilton',
      phone,
      sourceKind: 'hubspot',
      externalId: 'crm-margaret',
      assignmentOptions: { workflowId: workflow.id },
      // A US telemarketing call needs the contact's prior express written consent.
      consent: writtenConsent(server.now()),
    });
    const services = server.service.services;
    const telephony = createSimulatedTelephony({
      sink: async (event) => void (await applyTelephonyEvent(services, event)),
      delayMs: 0,
      script: { [phone]: { result: 'converted', durationSeconds: 80 } },
    });
    const run = await runDialerOnce(services, telephony);
    await telephony.settled();
    expect(run.placed).toHaveLength(1);

    const found = await callOk(client, 'contacts_search', { searchTerm: 'margaret ham' });
    expect(found.data).toHaveLength(1);
    const contact = found.data[0];
    expect(contact).toMatchObject({ status: 'converted', callCount: 1, assignedWorkflowId: workflow.id });
    const calls = await callOk(client, 'contact_calls_list', {
      sourceKind: contact.sourceKind,
      externalId: contact.externalId,
    });
    expect(calls.data).toHaveLength(1);
    expect(calls.data[0]).toMatchObject({
      status: 'ended',
      result: 'converted',
      durationSeconds: 80,
      lastCall: true,
      transcriptAvailable: true,
      agentId: agent.id,
    });
    const transcript = await callOk(client, 'call_transcript_get', { callId: calls.data[0].id });
    expect(transcript.utterances.length).toBeGreaterThan(2);
    expect(transcript.utterances.map((u: { speaker: string }) => u.speaker)).toEqual(
      expect.arrayContaining(['assistant', 'user']),
    );
    expect(transcript).toEqual(await restOk(`/api/v1/calls/${calls.data[0].id}/transcript`));
  });
});
