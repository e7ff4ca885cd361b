// Bulk imports and bulk-updates read back after their 202, through a real listening server:
// GET /api/v1/imports/{id}, GET /api/v1/imports (newest first, paged) and
// GET /api/v1/bulk-updates/{id}, with exact counts, the rejected items' indexes, the skipped
// contacts' ids, and Account scoping; the same jobs over GraphQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, listAll, uniquePhone, upsertOk } from '../support/api-helpers.js';

interface ImportJob {
  id: string;
  status: 'queued' | 'running' | 'done';
  accepted: number;
  created: number;
  updated: number;
  rejected: Array<{ index: number; reason: string }>;
  createdAt: string;
  finishedAt: string | null;
}

interface BulkUpdateJob {
  id: string;
  status: 'queued' | 'running' | 'done';
  matched: number;
  changed: number;
  skipped: Array<{ contactId: string; reason: string; conflictsWith: string | null }>;
  skippedCount: number;
  createdAt: string;
  finishedAt: string | null;
}

const STATUS_ORDER = ['queued', 'running', 'done'];

describe.each(testDatabaseKinds())('import and bulk-update jobs on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  const item = (phone: string, extra: Record<string, unknown> = {}) => ({
    sourceKind: 'api',
    externalId: null,
    phone,
    ...extra,
  });

  async function startImport(key: string, contacts: unknown[]): Promise<string> {
    const res = await server.request(key, 'POST', '/api/v1/contacts/bulk', { contacts });
    expect(res.status, res.text).toBe(202);
    return res.json.importId;
  }

  const getImport = (key: string, id: string) => server.request(key, 'GET', `/api/v1/imports/${id}`);

  /** Reads the import until it is done, checking each status seen only moves forward. */
  async function importDone(key: string, id: string): Promise<ImportJob> {
    let last = 0;
    return server.eventually(async () => {
      const res = await getImport(key, id);
      expect(res.status, res.text).toBe(200);
      const job = res.json as ImportJob;
      const at = STATUS_ORDER.indexOf(job.status);
      expect(at).toBeGreaterThanOrEqual(last);
      last = at;
      return job.status === 'done' ? job : undefined;
    });
  }

  it('an import goes from queued to done with exact created and updated counts, and rejected items by index', async () => {
    const { apiKey } = await server.createAccount();
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    const firstId = await startImport(
      apiKey,
      phones.map((phone) => item(phone)),
    );
    const first = await importDone(apiKey, firstId);
    expect(first).toMatchObject({ id: firstId, accepted: 3, created: 3, updated: 0, rejected: [] });
    expect(Date.parse(first.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.createdAt));

    // Two already stored, one new, one bad phone, and the new one twice: it is created once.
    const fresh = uniquePhone();
    const secondId = await startImport(apiKey, [
      item(phones[0], { firstName: 'Again' }),
      item(phones[1], { firstName: 'Again' }),
      item('+1 123'),
      item(fresh, { firstName: 'New' }),
      item(fresh, { lastName: 'Twice' }),
    ]);
    const queued = (await getImport(apiKey, secondId)).json as ImportJob;
    expect(STATUS_ORDER).toContain(queued.status);
    expect(queued).toMatchObject({ accepted: 4, rejected: [{ index: 2, reason: 'invalid-phone' }] });
    if (queued.status !== 'done') expect(queued.finishedAt).toBeNull();
    const second = await importDone(apiKey, secondId);
    expect(second).toMatchObject({
      id: secondId,
      accepted: 4,
      created: 1,
      updated: 3,
      rejected: [{ index: 2, reason: 'invalid-phone' }],
    });
    expect(second.finishedAt).not.toBeNull();
    expect(await listAll(server, apiKey)).toHaveLength(4);
  });

  it('an import with every item rejected is done at once', async () => {
    const { apiKey } = await server.createAccount();
    const id = await startImport(apiKey, [
      item('+1 123'),
      { sourceKind: 'api', externalId: null, firstName: 'NoPhone' },
    ]);
    const res = await getImport(apiKey, id);
    expect(res.json).toMatchObject({
      status: 'done',
      accepted: 0,
      created: 0,
      updated: 0,
      rejected: [
        { index: 0, reason: 'invalid-phone' },
        { index: 1, reason: 'missing-dedup-field' },
      ],
    });
  });

  it('lists the imports newest first, page by page', async () => {
    const { apiKey } = await server.createAccount();
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) posted.push(await startImport(apiKey, [item(uniquePhone())]));
    const seen: ImportJob[] = [];
    let nextToken: string | undefined;
    let pages = 0;
    do {
      const query = nextToken ? `?limit=2&nextToken=${nextToken}` : '?limit=2';
      const res = await server.request(apiKey, 'GET', `/api/v1/imports${query}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.json.data);
      nextToken = res.json.nextToken;
      pages++;
    } while (nextToken);
    expect(pages).toBe(3);
    expect(seen.map((job) => job.id).sort()).toEqual([...posted].sort());
    const times = seen.map((job) => Date.parse(job.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Imports posted in distinct milliseconds come back in the reverse order of posting.
    if (new Set(times).size === times.length) expect(seen.map((job) => job.id)).toEqual([...posted].reverse());
  });

  it("another Account's import or bulk-update is a 404, a malformed id a 400, with the error body", async () => {
    const owner = await server.createAccount();
    const other = await server.createAccount();
    const importId = await startImport(owner.apiKey, [item(uniquePhone())]);
    const update = await server.request(owner.apiKey, 'POST', '/api/v1/contacts/bulk-update', {
      filter: { firstName: 'Nobody' },
      data: { priority: 3 },
    });
    const updateId = update.json.updateId;
    expectError(await getImport(other.apiKey, importId), 404, 'not_found');
    expectError(await server.request(other.apiKey, 'GET', `/api/v1/bulk-updates/${updateId}`), 404, 'not_found');
    expectError(await getImport(owner.apiKey, randomUUID()), 404, 'not_found');
    expectError(await server.request(owner.apiKey, 'GET', `/api/v1/bulk-updates/${randomUUID()}`), 404, 'not_found');
    expectError(await getImport(owner.apiKey, 'not-a-uuid'), 400, 'bad_request');
    expectError(await server.request(owner.apiKey, 'GET', '/api/v1/bulk-updates/not-a-uuid'), 400, 'bad_request');
    const othersList = await server.request(other.apiKey, 'GET', '/api/v1/imports');
    expect(othersList.json).toEqual({ data: [] });
  });

  it('a bulk-update reports matched, changed and the contacts skipped for a dedup conflict', async () => {
    const { apiKey } = await server.createAccount();
    const tag = { customFields: { batch: 'move' } };
    // Oldest first: the first to move takes the phone, the next two then conflict with it.
    const first = await upsertOk(server, apiKey, { phone: uniquePhone(), ...tag });
    const second = await upsertOk(server, apiKey, { phone: uniquePhone(), ...tag });
    const third = await upsertOk(server, apiKey, { phone: uniquePhone(), ...tag });
    await upsertOk(server, apiKey, { phone: uniquePhone(), customFields: { batch: 'stay' } });
    const target = uniquePhone();
    const res = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk-update', {
      filter: { customFields: [{ key: 'batch', value: 'move' }] },
      data: { phone: target },
    });
    expect(res.status, res.text).toBe(202);
    expect(Object.keys(res.json)).toEqual(['updateId']);
    const job = await server.eventually(async () => {
      const read = await server.request(apiKey, 'GET', `/api/v1/bulk-updates/${res.json.updateId}`);
      expect(read.status, read.text).toBe(200);
      return read.json.status === 'done' ? (read.json as BulkUpdateJob) : undefined;
    });
    expect(job).toMatchObject({ id: res.json.updateId, matched: 3, changed: 1, skippedCount: 2 });
    expect(job.finishedAt).not.toBeNull();
    expect(job.skipped).toEqual([
      { contactId: second.id, reason: 'dedup-conflict', conflictsWith: first.id },
      { contactId: third.id, reason: 'dedup-conflict', conflictsWith: first.id },
    ]);
    const moved = await server.request(apiKey, 'GET', `/api/v1/contacts/${first.id}`);
    expect(moved.json.phone).toBe(target);
  });

  it('a bulk-update of nothing is done at once', async () => {
    const { apiKey } = await server.createAccount();
    const res = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk-update', { filter: {}, data: {} });
    const read = await server.request(apiKey, 'GET', `/api/v1/bulk-updates/${res.json.updateId}`);
    expect(read.json).toMatchObject({ status: 'done', matched: 0, changed: 0, skipped: [], skippedCount: 0 });
  });

  it('GraphQL reads the same jobs: import(id), imports(limit, nextToken), bulkUpdate(id)', async () => {
    const { apiKey } = await server.createAccount();
    const importId = await startImport(apiKey, [item(uniquePhone()), item('+1 123')]);
    const rest = await importDone(apiKey, importId);
    const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await server.request(apiKey, 'POST', '/graphql', { query, variables });
      expect(res.json.errors, res.text).toBeUndefined();
      return res.json.data;
    };
    const fields = 'id status accepted created updated rejected { index reason } createdAt finishedAt';
    const one = await graphql(`query ($id: String!) { import(id: $id) { ${fields} } }`, { id: importId });
    expect(one.import).toEqual(rest);
    const page = await graphql(`{ imports(limit: 10) { data { id } nextToken } }`);
    expect(page.imports).toEqual({ data: [{ id: importId }], nextToken: null });

    const started = await graphql(`mutation ($input: JSON!) { startBulkUpdate(input: $input) { updateId } }`, {
      input: { filter: {}, data: { priority: 7 } },
    });
    const updateId = started.startBulkUpdate.updateId;
    const done = await server.eventually(async () => {
      const read = await graphql(`query ($id: String!) { bulkUpdate(id: $id) { status matched changed } }`, {
        id: updateId,
      });
      return read.bulkUpdate.status === 'done' ? read.bulkUpdate : undefined;
    });
    expect(done).toEqual({ status: 'done', matched: 1, changed: 1 });
  });
});
