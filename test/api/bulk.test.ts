// POST /api/v1/contacts/bulk through a real listening server: the 202 answer with its
// rejections, the bounds, the asynchronous writes, in-batch dedup and enrollment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectContactShape, expectError, listAll, sleep, uniquePhone } from '../support/api-helpers.js';

const BULK = '/api/v1/contacts/bulk';

describe.each(testDatabaseKinds())('POST /api/v1/contacts/bulk on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  const post = (key: string, body: unknown) => server.request(key, 'POST', BULK, body);
  const item = (extra: Record<string, unknown> = {}) => ({
    sourceKind: 'api',
    externalId: null,
    phone: uniquePhone(),
    ...extra,
  });
  const countIs = (key: string, n: number, query = '') =>
    server.eventually(async () => {
      const all = await listAll(server, key, query);
      return all.length === n ? all : undefined;
    });

  it('answers 202 with accepted and rejected (with indices), then the accepted contacts appear', async () => {
    const { apiKey } = await server.createAccount();
    const phones = [uniquePhone(), uniquePhone()];
    const res = await post(apiKey, {
      contacts: [
        item({ phone: phones[0], firstName: 'First' }),
        item({ phone: '+1 123' }),
        { sourceKind: 'api', externalId: null, firstName: 'NoPhone' },
        item({ phone: phones[1], firstName: 'Fourth' }),
      ],
    });
    expect(res.status).toBe(202);
    expect(Object.keys(res.json).sort()).toEqual(['accepted', 'importId', 'rejected']);
    expect(res.json.accepted).toBe(2);
    expect(res.json.rejected).toEqual(
      expect.arrayContaining([
        { reason: 'invalid-phone', index: 1 },
        { reason: 'missing-dedup-field', index: 2 },
      ]),
    );
    expect(res.json.rejected).toHaveLength(2);
    const all = await countIs(apiKey, 2);
    for (const c of all) expectContactShape(c);
    expect(all.map((c) => c.phone).sort()).toEqual([...phones].sort());
    expect(all.map((c) => c.firstName).sort()).toEqual(['First', 'Fourth']);
  });

  it('rejects dedup-key-too-long with its index', async () => {
    const { apiKey } = await server.createAccount({ dedupFields: ['customFields.k'] });
    const res = await post(apiKey, {
      contacts: [
        { sourceKind: 'api', externalId: null, customFields: { k: 'ok-1' } },
        { sourceKind: 'api', externalId: null, customFields: { k: 'x'.repeat(600) } },
        { sourceKind: 'api', externalId: null, customFields: { other: 'no key' } },
      ],
    });
    expect(res.status).toBe(202);
    expect(res.json.accepted).toBe(1);
    expect(res.json.rejected).toEqual(
      expect.arrayContaining([
        { reason: 'dedup-key-too-long', index: 1 },
        { reason: 'missing-dedup-field', index: 2 },
      ]),
    );
    expect(res.json.rejected).toHaveLength(2);
    const [only] = await countIs(apiKey, 1);
    expect(only.customFields).toEqual({ k: 'ok-1' });
  });

  it('always has both fields, rejected empty when all are accepted', async () => {
    const { apiKey } = await server.createAccount();
    const res = await post(apiKey, { contacts: [item()] });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ importId: expect.any(String), accepted: 1, rejected: [] });
  });

  it('an import with every item rejected is still a 202 and writes nothing', async () => {
    const { apiKey } = await server.createAccount();
    const res = await post(apiKey, { contacts: [item({ phone: '+1 123' })] });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({
      importId: expect.any(String),
      accepted: 0,
      rejected: [{ reason: 'invalid-phone', index: 0 }],
    });
    await sleep(500);
    expect(await listAll(server, apiKey)).toEqual([]);
  });

  it('0 and 1001 items are a 400; 1000 items are accepted and all land', async () => {
    const { apiKey, accountId } = await server.createAccount();
    expectError(await post(apiKey, { contacts: [] }), 400, 'bad_request');
    const many = Array.from({ length: 1001 }, (_, i) => ({
      sourceKind: 'csv',
      externalId: `row-${i}`,
      phone: `+1415${String(3_000_000 + i)}`,
    }));
    expectError(await post(apiKey, { contacts: many }), 400, 'bad_request');
    await sleep(300);
    expect(await listAll(server, apiKey)).toEqual([]);
    const res = await post(apiKey, { contacts: many.slice(0, 1000) });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ importId: expect.any(String), accepted: 1000, rejected: [] });
    const all = await server.eventually(async () => {
      const n = await server.service.services.db.prisma.contact.count({ where: { accountId } });
      return n === 1000 ? n : undefined;
    }, 20_000);
    expect(all).toBe(1000);
    const listed = await listAll(server, apiKey, 'sourceKind=csv');
    expect(listed).toHaveLength(1000);
    expect(new Set(listed.map((c) => c.externalId)).size).toBe(1000);
  });

  it('a body that is not an object with contacts is a 400', async () => {
    const { apiKey } = await server.createAccount();
    expectError(await post(apiKey, {}), 400, 'bad_request');
    expectError(await post(apiKey, [item()]), 400, 'bad_request');
    expectError(await post(apiKey, { contacts: 'x' }), 400, 'bad_request');
    expectError(await post(apiKey, { contacts: [item()], extra: true }), 400, 'bad_request');
    expectError(
      await server.request(apiKey, 'POST', BULK, '{"contacts": [', { 'content-type': 'application/json' }),
      400,
      'bad_request',
    );
  });

  it('an item without the sourceKind or externalId key is a 400 for the whole import', async () => {
    const { apiKey } = await server.createAccount();
    expectError(
      await post(apiKey, { contacts: [item(), { externalId: null, phone: uniquePhone() }] }),
      400,
      'bad_request',
    );
    expectError(
      await post(apiKey, { contacts: [item(), { sourceKind: 'api', phone: uniquePhone() }] }),
      400,
      'bad_request',
    );
    await sleep(500);
    expect(await listAll(server, apiKey)).toEqual([]);
  });

  it('items follow the write-field bounds (a bad item fails the whole import with 400)', async () => {
    const { apiKey } = await server.createAccount();
    const bad: Array<Record<string, unknown>> = [
      { firstName: 'a'.repeat(129) },
      { lastName: 'a'.repeat(129) },
      { fullName: 'a'.repeat(257) },
      { location: 'a'.repeat(65) },
      { timezone: 'a'.repeat(65) },
      { language: 'a'.repeat(65) },
      { externalId: '' },
      { externalId: 'e'.repeat(257) },
      { priority: 1001 },
      { priority: -1 },
      { priority: 2.5 },
      { status: 'bogus' },
      { sourceKind: 'bogus' },
      { phone: 'abc' },
      { unknownField: 1 },
      { createdAt: '2020-01-01' },
    ];
    for (const extra of bad) {
      const res = await post(apiKey, { contacts: [item(), item(extra)] });
      expect(res.status, JSON.stringify(extra).slice(0, 60)).toBe(400);
      expectError(res, 400, 'bad_request');
    }
    await sleep(500);
    expect(await listAll(server, apiKey)).toEqual([]);
  });

  it('a later item with the same dedup key updates the contact the earlier one created', async () => {
    const { apiKey } = await server.createAccount();
    const phone = uniquePhone();
    const formatted = `+1 ${phone.slice(2, 5)} ${phone.slice(5, 8)} ${phone.slice(8)}`;
    const res = await post(apiKey, {
      contacts: [
        item({ phone, firstName: 'Ada', customFields: { a: 1 }, status: 'qualified' }),
        item({ phone: uniquePhone(), firstName: 'Other' }),
        item({ phone: formatted, lastName: 'Lovelace', customFields: { b: 2 } }),
      ],
    });
    expect(res.json).toEqual({ importId: expect.any(String), accepted: 3, rejected: [] });
    const all = await countIs(apiKey, 2);
    await sleep(300);
    expect(await listAll(server, apiKey)).toHaveLength(2);
    const ada = all.find((c) => c.phone === phone);
    expect(ada).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      fullName: 'Ada Lovelace',
      customFields: { a: 1, b: 2 },
      status: 'qualified',
    });
  });

  it('updates a contact that already exists (matched by phone) following the import rules', async () => {
    const { apiKey } = await server.createAccount();
    const phone = uniquePhone();
    const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      sourceKind: 'hubspot',
      externalId: 'h-1',
      status: 'reached',
      language: 'en',
      customFields: { a: 1 },
    });
    expect(created.status).toBe(201);
    const res = await post(apiKey, {
      contacts: [
        { sourceKind: 'hubspot', externalId: null, phone, firstName: 'Bulk', language: 'fr', customFields: { c: 3 } },
      ],
    });
    expect(res.json.accepted).toBe(1);
    const updated = await server.eventually(async () => {
      const [c] = await listAll(server, apiKey);
      return c?.firstName === 'Bulk' ? c : undefined;
    });
    expect(updated).toMatchObject({
      id: created.json.id,
      externalId: 'h-1',
      status: 'reached',
      language: 'en-US',
      customFields: { a: 1, c: 3 },
    });
  });

  it('gives new contacts their own id as external ID when null, and honours createdAt', async () => {
    const { apiKey } = await server.createAccount();
    await post(apiKey, {
      contacts: [
        item({ createdAt: '2019-05-06T07:08:09.123Z' }),
        item({ externalId: 'ext-9', sourceKind: 'salesforce' }),
      ],
    });
    const all = await countIs(apiKey, 2);
    const own = all.find((c) => c.sourceKind === 'api');
    expect(own.externalId).toBe(own.id);
    expect(own.createdAt).toBe('2019-05-06T07:08:09.123Z');
    expect(all.find((c) => c.sourceKind === 'salesforce').externalId).toBe('ext-9');
  });

  describe('assignmentOptions', () => {
    it('enrolls every accepted contact into the workflow', async () => {
      const { apiKey, accountId } = await server.createAccount();
      const wf = await server.createWorkflow(accountId);
      const res = await post(apiKey, {
        contacts: [item(), item(), item({ phone: '+1 123' })],
        assignmentOptions: { workflowId: wf },
      });
      expect(res.status).toBe(202);
      expect(res.json.accepted).toBe(2);
      const enrolled = await countIs(apiKey, 2, `assignedWorkflowId=${wf}`);
      for (const c of enrolled) expect(c).toMatchObject({ assignedWorkflowId: wf, status: 'assigned' });
    });

    it('accepts reEnroll with enforceCallNow', async () => {
      const { apiKey, accountId } = await server.createAccount();
      const wf = await server.createWorkflow(accountId);
      const res = await post(apiKey, {
        contacts: [item()],
        assignmentOptions: { workflowId: wf, reEnroll: true, enforceCallNow: true },
      });
      expect(res.status).toBe(202);
      await countIs(apiKey, 1, `assignedWorkflowId=${wf}`);
    });

    it('an unknown, draft or paused workflow is a 400 and nothing is queued', async () => {
      const { apiKey, accountId } = await server.createAccount();
      const draft = await server.createWorkflow(accountId, { status: 'draft' });
      const paused = await server.createWorkflow(accountId, { paused: true });
      for (const workflowId of [draft, paused, '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', 'nope']) {
        expectError(await post(apiKey, { contacts: [item()], assignmentOptions: { workflowId } }), 400, 'bad_request');
      }
      await sleep(500);
      expect(await listAll(server, apiKey)).toEqual([]);
    });

    it('reEnroll without enforceCallNow (or the reverse) is a 400', async () => {
      const { apiKey, accountId } = await server.createAccount();
      const wf = await server.createWorkflow(accountId);
      expectError(
        await post(apiKey, { contacts: [item()], assignmentOptions: { workflowId: wf, reEnroll: true } }),
        400,
        'bad_request',
      );
      expectError(
        await post(apiKey, { contacts: [item()], assignmentOptions: { workflowId: wf, enforceCallNow: true } }),
        400,
        'bad_request',
      );
      await sleep(500);
      expect(await listAll(server, apiKey)).toEqual([]);
    });
  });
});
