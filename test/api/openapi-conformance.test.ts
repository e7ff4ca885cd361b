// Every operation of schema/openapi.json, called through a real listening server, answers as
// the document says: each success and each error status we can provoke is checked for its
// status, content type, headers and body (test/support/openapi-conformance.ts). The suite
// fails when an answer's status is not documented for its operation, and when an operation
// or one of its documented statuses was never exercised (500 alone is exempt: provoking it
// needs a failing database).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { uniquePhone } from '../support/api-helpers.js';
import { loadConformance, type Conformance } from '../support/openapi-conformance.js';

/** Over express.json's 10 MB limit on /api/v1 bodies. */
const OVERSIZED = `{"padding":"${'x'.repeat(10 * 1024 * 1024)}"}`;

/** A request path for a path template: a known source kind, any external ID, fresh UUIDs. */
const examplePath = (template: string) =>
  template
    .replace('{sourceKind}', 'api')
    .replace('{externalId}', 'x')
    .replace('{id}', randomUUID())
    .replace('{deliveryId}', randomUUID())
    .replace('{registry}', 'us_national');

const byExternalId = (sourceKind: string, externalId: string, suffix = '') =>
  `/api/v1/contacts/source/${sourceKind}/external-id/${encodeURIComponent(externalId)}${suffix}`;

describe.each(testDatabaseKinds())('schema/openapi.json describes every answer on %s', (kind) => {
  let server: TestServer;
  let conformance: Conformance;
  let apiKey: string;
  let accountId: string;
  let userId: string;
  let otherKey: string;

  beforeAll(async () => {
    conformance = await loadConformance();
    server = await startTestServer(kind);
    ({ apiKey, accountId, userId } = await server.createAccount());
    ({ apiKey: otherKey } = await server.createAccount());
  });
  afterAll(() => server?.stop());

  /** Sends the request, checks the answer against the document, and returns it. */
  async function call(
    key: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) {
    const answer = await server.request(key, method, path, body, headers);
    conformance.check(method, path, answer, typeof body === 'string' ? undefined : body);
    return answer;
  }

  /** Like `call`, and the answer has this status (and error code). */
  async function expectAnswer(
    status: number,
    code: string | null,
    key: string | null,
    method: string,
    path: string,
    body?: unknown,
  ) {
    const answer = await call(key, method, path, body);
    expect(
      { status: answer.status, code: (answer.json as { code?: string } | undefined)?.code ?? null },
      answer.text.slice(0, 300),
    ).toEqual({ status, code });
    return answer;
  }

  /** Every operation answers 401 without a key and with an unknown one. */
  async function expectUnauthenticated(method: string, path: string, body?: unknown) {
    await expectAnswer(401, 'unauthenticated', null, method, path, body);
    await expectAnswer(401, 'unauthenticated', 'svc_pk_unknown', method, path, body);
  }

  async function contact(fields: Record<string, unknown> = {}) {
    return (
      await expectAnswer(201, null, apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: uniquePhone(), ...fields })
    ).json as { id: string; phone: string };
  }

  /** A list of two items read a page at a time: the first page's nextToken leads to the last, whose nextToken is null. */
  async function expectTwoPagesEndingInNull(firstPage: string) {
    const first = await expectAnswer(200, null, apiKey, 'GET', firstPage);
    const { nextToken } = first.json as { nextToken: string };
    expect(typeof nextToken).toBe('string');
    const last = await expectAnswer(
      200,
      null,
      apiKey,
      'GET',
      `${firstPage}&nextToken=${encodeURIComponent(nextToken)}`,
    );
    expect(last.json).toMatchObject({ nextToken: null });
  }

  it('GET /api/v1/workflows: pages with a nextToken, the last one with nextToken null; 400, 401', async () => {
    await server.createWorkflow(accountId, { name: 'First' });
    await server.createWorkflow(accountId, { name: 'Second' });
    await expectTwoPagesEndingInNull('/api/v1/workflows?limit=1');
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/workflows?limit=0');
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/workflows?nextToken=garbage');
    await expectUnauthenticated('GET', '/api/v1/workflows');
  });

  it('GET /api/v1/workflows/{id}/results: 200 by day and by agent; 400, 401, 404', async () => {
    const workflowId = await server.createWorkflow(accountId, { name: 'Results' });
    const path = `/api/v1/workflows/${workflowId}/results`;
    const byDay = await expectAnswer(200, null, apiKey, 'GET', `${path}?timeZone=America/Chicago`);
    expect(byDay.json).toMatchObject({ workflowId, timeZone: 'America/Chicago', groupBy: 'day', days: [] });
    await expectAnswer(
      200,
      null,
      apiKey,
      'GET',
      `${path}?groupBy=agent&from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`,
    );
    await expectAnswer(400, 'bad_request', apiKey, 'GET', `${path}?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', `${path}?groupBy=week`);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', `${path}?timeZone=Nowhere/Else`);
    await expectAnswer(404, 'not_found', apiKey, 'GET', `/api/v1/workflows/${randomUUID()}/results`);
    await expectAnswer(404, 'not_found', otherKey, 'GET', path);
    await expectUnauthenticated('GET', path);
  });

  it("a workflow's enrollments: listed (200, pages), stopped (200); 400, 401, 404 (unknown, or another Account's), 413", async () => {
    const workflowId = await server.createWorkflow(accountId, { name: 'Enrolling' });
    const enrolled = [];
    for (let i = 0; i < 2; i++) enrolled.push(await contact({ assignmentOptions: { workflowId } }));
    const base = `/api/v1/workflows/${workflowId}/enrollments`;
    await expectTwoPagesEndingInNull(`${base}?limit=1&state=active`);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', `${base}?state=paused`);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/workflows/not-a-uuid/enrollments');
    await expectAnswer(404, 'not_found', apiKey, 'GET', `/api/v1/workflows/${randomUUID()}/enrollments`);
    await expectAnswer(404, 'not_found', otherKey, 'GET', base);
    await expectUnauthenticated('GET', base);
    const stopped = await expectAnswer(200, null, apiKey, 'POST', `${base}/stop`, {
      contactIds: [enrolled[0].id, randomUUID()],
    });
    expect(stopped.json).toMatchObject({ stopped: 1 });
    await expectAnswer(400, 'bad_request', apiKey, 'POST', `${base}/stop`, {});
    await expectAnswer(400, 'bad_request', apiKey, 'POST', `${base}/stop`, { contactIds: [] });
    await expectAnswer(400, 'bad_request', apiKey, 'POST', `${base}/stop`, {
      contactIds: [enrolled[1].id],
      filter: {},
    });
    await expectAnswer(404, 'not_found', otherKey, 'POST', `${base}/stop`, { contactIds: [enrolled[1].id] });
    await expectAnswer(413, 'payload_too_large', apiKey, 'POST', `${base}/stop`, OVERSIZED);
    await expectUnauthenticated('POST', `${base}/stop`, { filter: {} });
  });

  it("enrolling a workflow's existing contacts: 202 with the job, which reads back (200); 400, 401, 404 (unknown, or another Account's), 413", async () => {
    const workflowId = await server.createWorkflow(accountId, { name: 'Enroll existing' });
    const stored = await contact();
    const base = `/api/v1/workflows/${workflowId}/enrollments`;
    const accepted = await expectAnswer(202, null, apiKey, 'POST', base, { contactIds: [stored.id] });
    const { id } = accepted.json as { id: string };
    expect(accepted.headers.get('location')).toBe(`/api/v1/enrollment-jobs/${id}`);
    await expectAnswer(202, null, apiKey, 'POST', base, { filter: { searchTerm: 'nobody-at-all' } });
    await expectAnswer(200, null, apiKey, 'GET', `/api/v1/enrollment-jobs/${id}`);
    await expectAnswer(400, 'bad_request', apiKey, 'POST', base, {});
    await expectAnswer(400, 'bad_request', apiKey, 'POST', base, { contactIds: [stored.id], reEnroll: true });
    const draft = await server.createWorkflow(accountId, { name: 'Draft', status: 'draft' });
    await expectAnswer(400, 'bad_request', apiKey, 'POST', `/api/v1/workflows/${draft}/enrollments`, {
      contactIds: [stored.id],
    });
    await expectAnswer(404, 'not_found', apiKey, 'POST', `/api/v1/workflows/${randomUUID()}/enrollments`, {
      contactIds: [stored.id],
    });
    await expectAnswer(404, 'not_found', otherKey, 'POST', base, { contactIds: [stored.id] });
    await expectAnswer(413, 'payload_too_large', apiKey, 'POST', base, OVERSIZED);
    await expectUnauthenticated('POST', base, { contactIds: [stored.id] });
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/enrollment-jobs/not-a-uuid');
    await expectAnswer(404, 'not_found', apiKey, 'GET', `/api/v1/enrollment-jobs/${randomUUID()}`);
    await expectAnswer(404, 'not_found', otherKey, 'GET', `/api/v1/enrollment-jobs/${id}`);
    await expectUnauthenticated('GET', `/api/v1/enrollment-jobs/${id}`);
  });

  it('PUT /api/v1/contacts/upsert: 201, 200; 400, 401, 413, 422', async () => {
    const phone = uniquePhone();
    const workflowId = await server.createWorkflow(accountId);
    await expectAnswer(201, null, apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      fullName: 'Ada Lovelace',
      externalId: 'conformance-1',
      customFields: { plan: 'pro' },
      assignmentOptions: { workflowId },
    });
    await expectAnswer(200, null, apiKey, 'PUT', '/api/v1/contacts/upsert', { phone, language: 'en' });
    await expectAnswer(400, 'bad_request', apiKey, 'PUT', '/api/v1/contacts/upsert', { phone, phoneNumber: phone });
    await expectAnswer(400, 'bad_request', apiKey, 'PUT', '/api/v1/contacts/upsert', '{"phone": "+1415');
    await expectAnswer(400, 'bad_request', apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      assignmentOptions: { workflowId: randomUUID() },
    });
    await expectUnauthenticated('PUT', '/api/v1/contacts/upsert', { phone });
    await expectAnswer(413, 'payload_too_large', apiKey, 'PUT', '/api/v1/contacts/upsert', OVERSIZED);
    await expectAnswer(422, 'invalid_phone', apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: '+1 123' });
    await expectAnswer(422, 'missing_dedup_field', apiKey, 'PUT', '/api/v1/contacts/upsert', { firstName: 'Nobody' });
  });

  it('PUT /api/v1/contacts/upsert: 409 when the contact keeps changing under the upsert', async () => {
    // Stands in for concurrent writers: every update of this contact is skipped, as when
    // another writer changed the row between the upsert's read and its write, every time.
    const externalId = `contended-${randomUUID()}`;
    const phone = uniquePhone();
    await contact({ phone, externalId });
    const sql = server.service.services.db.sql;
    await sql.query(
      'CREATE OR REPLACE FUNCTION conformance_skip_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$',
    );
    await sql.query(
      `CREATE TRIGGER conformance_contended BEFORE UPDATE ON "Contact" FOR EACH ROW WHEN (OLD."externalId" = '${externalId}') EXECUTE FUNCTION conformance_skip_update()`,
    );
    try {
      await expectAnswer(409, 'conflict', apiKey, 'PUT', '/api/v1/contacts/upsert', { phone, firstName: 'Changed' });
    } finally {
      await sql.query('DROP TRIGGER conformance_contended ON "Contact"');
    }
  });

  it('POST /api/v1/contacts/bulk: 202 with importId, accepted and rejected; 400, 401, 413', async () => {
    const queued = await expectAnswer(202, null, apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: [
        { sourceKind: 'csv', externalId: null, phone: uniquePhone(), firstName: 'Grace' },
        { sourceKind: 'csv', externalId: null, phone: '+1 123' },
      ],
    });
    expect(queued.json).toEqual({
      importId: expect.any(String),
      accepted: 1,
      rejected: [{ reason: 'invalid-phone', index: 1 }],
    });
    await expectAnswer(400, 'bad_request', apiKey, 'POST', '/api/v1/contacts/bulk', { contacts: [] });
    await expectUnauthenticated('POST', '/api/v1/contacts/bulk', {
      contacts: [{ sourceKind: 'csv', externalId: null, phone: uniquePhone() }],
    });
    await expectAnswer(413, 'payload_too_large', apiKey, 'POST', '/api/v1/contacts/bulk', OVERSIZED);
  });

  it('GET /api/v1/contacts: a page with a nextToken, the last one without; 400, 401', async () => {
    const { apiKey: key } = await server.createAccount();
    for (const firstName of ['One', 'Two'])
      await expectAnswer(201, null, key, 'PUT', '/api/v1/contacts/upsert', { phone: uniquePhone(), firstName });
    const first = await expectAnswer(200, null, key, 'GET', '/api/v1/contacts?limit=1');
    const { nextToken } = first.json as { nextToken: string };
    const last = await expectAnswer(
      200,
      null,
      key,
      'GET',
      `/api/v1/contacts?limit=1&nextToken=${encodeURIComponent(nextToken)}`,
    );
    expect(Object.keys(last.json as object)).toEqual(['data']);
    await expectAnswer(400, 'bad_request', key, 'GET', '/api/v1/contacts?limit=101');
    await expectAnswer(400, 'bad_request', key, 'GET', '/api/v1/contacts?status=bogus');
    await expectUnauthenticated('GET', '/api/v1/contacts');
  });

  it('GET /api/v1/contacts/csv: text/csv with x-next-token, the last page without it; 400, 401', async () => {
    const { apiKey: key } = await server.createAccount();
    for (const firstName of ['One', 'Two'])
      await expectAnswer(201, null, key, 'PUT', '/api/v1/contacts/upsert', { phone: uniquePhone(), firstName });
    const first = await expectAnswer(200, null, key, 'GET', '/api/v1/contacts/csv?limit=1');
    const token = first.headers.get('x-next-token');
    expect(token).toBeTruthy();
    expect(first.text.split('\n')[0]).toMatch(/^id,accountId,firstName,/);
    const last = await expectAnswer(
      200,
      null,
      key,
      'GET',
      `/api/v1/contacts/csv?limit=1&nextToken=${encodeURIComponent(token!)}`,
    );
    expect(last.headers.get('x-next-token')).toBeNull();
    await expectAnswer(400, 'bad_request', key, 'GET', '/api/v1/contacts/csv?limit=abc');
    await expectUnauthenticated('GET', '/api/v1/contacts/csv');
  });

  it('POST /api/v1/contacts/bulk-update: 202 { updateId }; 400, 401, 413', async () => {
    const update = { filter: { customFields: [{ key: 'plan', value: 'pro' }] }, data: { priority: 500 } };
    const queued = await expectAnswer(202, null, apiKey, 'POST', '/api/v1/contacts/bulk-update', update);
    expect(queued.json).toEqual({ updateId: expect.any(String) });
    await expectAnswer(400, 'bad_request', apiKey, 'POST', '/api/v1/contacts/bulk-update', { data: { priority: 1 } });
    await expectUnauthenticated('POST', '/api/v1/contacts/bulk-update', update);
    await expectAnswer(413, 'payload_too_large', apiKey, 'POST', '/api/v1/contacts/bulk-update', OVERSIZED);
  });

  it("GET /api/v1/imports and /imports/{id}: 200 (queued or done); 400, 401, 404 (unknown, or another Account's)", async () => {
    const queued = await expectAnswer(202, null, apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: [
        { sourceKind: 'csv', externalId: null, phone: uniquePhone() },
        { sourceKind: 'csv', externalId: null, phone: '+1 123' },
      ],
    });
    const { importId } = queued.json as { importId: string };
    await expectAnswer(200, null, apiKey, 'GET', `/api/v1/imports/${importId}`);
    const done = await server.eventually(async () => {
      const read = await expectAnswer(200, null, apiKey, 'GET', `/api/v1/imports/${importId}`);
      return (read.json as { status: string }).status === 'done' ? read.json : undefined;
    });
    expect(done).toMatchObject({ created: 1, rejected: [{ index: 1, reason: 'invalid-phone' }] });
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/imports/not-a-uuid');
    await expectUnauthenticated('GET', `/api/v1/imports/${importId}`);
    await expectAnswer(404, 'not_found', apiKey, 'GET', `/api/v1/imports/${randomUUID()}`);
    await expectAnswer(404, 'not_found', otherKey, 'GET', `/api/v1/imports/${importId}`);

    const first = await expectAnswer(200, null, apiKey, 'GET', '/api/v1/imports?limit=1');
    const { nextToken } = first.json as { nextToken: string };
    expect(nextToken).toEqual(expect.any(String));
    await expectAnswer(200, null, apiKey, 'GET', `/api/v1/imports?nextToken=${nextToken}`);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/imports?limit=0');
    await expectUnauthenticated('GET', '/api/v1/imports');
  });

  it("GET /api/v1/bulk-updates/{id}: 200 (with skipped contacts); 400, 401, 404 (unknown, or another Account's)", async () => {
    const taken = await contact({ firstName: 'Taken' });
    const mover = await contact({ customFields: { conformance: 'move' } });
    const update = { filter: { customFields: [{ key: 'conformance', value: 'move' }] }, data: { phone: taken.phone } };
    const queued = await expectAnswer(202, null, apiKey, 'POST', '/api/v1/contacts/bulk-update', update);
    const { updateId } = queued.json as { updateId: string };
    const done = await server.eventually(async () => {
      const read = await expectAnswer(200, null, apiKey, 'GET', `/api/v1/bulk-updates/${updateId}`);
      return (read.json as { status: string }).status === 'done' ? read.json : undefined;
    });
    expect(done).toMatchObject({
      skipped: [{ contactId: mover.id, reason: 'dedup-conflict', conflictsWith: taken.id }],
    });
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/bulk-updates/not-a-uuid');
    await expectUnauthenticated('GET', `/api/v1/bulk-updates/${updateId}`);
    await expectAnswer(404, 'not_found', apiKey, 'GET', `/api/v1/bulk-updates/${randomUUID()}`);
    await expectAnswer(404, 'not_found', otherKey, 'GET', `/api/v1/bulk-updates/${updateId}`);
  });

  it("GET /api/v1/contacts/{id}: 200; 400, 401, 404 (unknown, or another Account's)", async () => {
    const { id } = await contact();
    await expectAnswer(200, null, apiKey, 'GET', `/api/v1/contacts/${id}`);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/contacts/not-a-uuid');
    await expectUnauthenticated('GET', `/api/v1/contacts/${id}`);
    await expectAnswer(404, 'not_found', apiKey, 'GET', `/api/v1/contacts/${randomUUID()}`);
    await expectAnswer(404, 'not_found', otherKey, 'GET', `/api/v1/contacts/${id}`);
  });

  it('GET and PATCH by external ID: 200; 400, 401, 404, 409 (several match, with contacts), 413 and 422 for PATCH', async () => {
    const path = byExternalId('hubspot', 'conformance/one');
    await contact({ sourceKind: 'hubspot', externalId: 'conformance/one' });
    await expectAnswer(200, null, apiKey, 'GET', path);
    await expectAnswer(200, null, apiKey, 'PATCH', path, { status: 'paused', customFields: { plan: null } });
    await expectAnswer(400, 'bad_request', apiKey, 'GET', byExternalId('hubspot', 'e'.repeat(257)));
    await expectAnswer(400, 'bad_request', apiKey, 'PATCH', path, { phoneNumber: '+14155552671' });
    await expectUnauthenticated('GET', path);
    await expectUnauthenticated('PATCH', path, { priority: 1 });
    await expectAnswer(404, 'not_found', apiKey, 'GET', byExternalId('hubspot', 'nobody'));
    await expectAnswer(404, 'not_found', apiKey, 'PATCH', byExternalId('hubspot', 'nobody'), { priority: 1 });
    await expectAnswer(413, 'payload_too_large', apiKey, 'PATCH', path, OVERSIZED);
    // The Account keys on phone alone: removing it leaves the contact without a dedup field.
    await expectAnswer(422, 'missing_dedup_field', apiKey, 'PATCH', path, { phone: null });

    const duplicated = byExternalId('csv', 'conformance-dup');
    await contact({ sourceKind: 'csv', externalId: 'conformance-dup' });
    await contact({ sourceKind: 'csv', externalId: 'conformance-dup' });
    const several = await expectAnswer(409, 'conflict', apiKey, 'GET', duplicated);
    expect((several.json as { contacts: unknown[] }).contacts).toHaveLength(2);
    await expectAnswer(409, 'conflict', apiKey, 'PATCH', duplicated, { priority: 3 });
  });

  it("DELETE by id and by external ID: 204; 400, 401, 404 (unknown, erased, or another Account's), 409 (several match)", async () => {
    const { id } = await contact();
    await expectAnswer(400, 'bad_request', apiKey, 'DELETE', '/api/v1/contacts/not-a-uuid');
    await expectAnswer(400, 'bad_request', apiKey, 'DELETE', `/api/v1/contacts/${id}?block=yes`);
    await expectUnauthenticated('DELETE', `/api/v1/contacts/${id}`);
    await expectAnswer(404, 'not_found', otherKey, 'DELETE', `/api/v1/contacts/${id}`);
    await expectAnswer(204, null, apiKey, 'DELETE', `/api/v1/contacts/${id}?block=true`);
    await expectAnswer(404, 'not_found', apiKey, 'DELETE', `/api/v1/contacts/${id}`);

    const path = byExternalId('hubspot', 'conformance-erase');
    await contact({ sourceKind: 'hubspot', externalId: 'conformance-erase' });
    await expectAnswer(400, 'bad_request', apiKey, 'DELETE', byExternalId('hubspot', 'e'.repeat(257)));
    await expectUnauthenticated('DELETE', path);
    await expectAnswer(404, 'not_found', otherKey, 'DELETE', path);
    await expectAnswer(204, null, apiKey, 'DELETE', path);
    await expectAnswer(404, 'not_found', apiKey, 'DELETE', path);
    const duplicated = byExternalId('csv', 'conformance-erase-dup');
    await contact({ sourceKind: 'csv', externalId: 'conformance-erase-dup' });
    await contact({ sourceKind: 'csv', externalId: 'conformance-erase-dup' });
    const several = await expectAnswer(409, 'conflict', apiKey, 'DELETE', duplicated);
    expect((several.json as { contacts: unknown[] }).contacts).toHaveLength(2);
  });

  it("GET a contact's calls by external ID: pages; 400, 401, 404, 409", async () => {
    const { id } = await contact({ sourceKind: 'hubspot', externalId: 'conformance-calls' });
    const prisma = server.service.services.db.prisma;
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    for (const offset of [0, 1000]) {
      await prisma.call.create({
        data: {
          id: randomUUID(),
          accountId,
          contactId: id,
          startedAt: new Date(t0 + offset),
          createdAt: server.now(),
          status: 'completed',
          result: 'converted',
          durationSeconds: 30,
          reportReady: true,
        },
      });
    }
    const path = byExternalId('hubspot', 'conformance-calls', '/calls');
    const first = await expectAnswer(200, null, apiKey, 'GET', `${path}?limit=1`);
    const { nextToken } = first.json as { nextToken: string };
    const last = await expectAnswer(
      200,
      null,
      apiKey,
      'GET',
      `${path}?limit=1&nextToken=${encodeURIComponent(nextToken)}`,
    );
    expect(Object.keys(last.json as object)).toEqual(['data']);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', `${path}?limit=0`);
    await expectUnauthenticated('GET', path);
    await expectAnswer(404, 'not_found', apiKey, 'GET', byExternalId('hubspot', 'nobody', '/calls'));
    await contact({ sourceKind: 'csv', externalId: 'conformance-calls-dup' });
    await contact({ sourceKind: 'csv', externalId: 'conformance-calls-dup' });
    await expectAnswer(409, 'conflict', apiKey, 'GET', byExternalId('csv', 'conformance-calls-dup', '/calls'));
  });

  it('GET /api/v1/calls/{id}/transcript: 200 with utterances; 400, 401, 404', async () => {
    const { id: contactId } = await contact();
    const callId = randomUUID();
    const prisma = server.service.services.db.prisma;
    await prisma.call.create({
      data: {
        id: callId,
        accountId,
        contactId,
        startedAt: new Date('2026-03-01T10:00:00.000Z'),
        createdAt: server.now(),
        reportReady: true,
      },
    });
    await prisma.callUtterance.createMany({
      data: [
        { callId, seq: 1, speaker: 'assistant', content: 'Hello', timestamp: new Date('2026-03-01T10:00:01.000Z') },
        { callId, seq: 2, speaker: 'user', content: null, timestamp: null },
      ],
    });
    const transcript = await expectAnswer(200, null, apiKey, 'GET', `/api/v1/calls/${callId}/transcript`);
    expect((transcript.json as { utterances: unknown[] }).utterances).toHaveLength(2);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/calls/not-a-uuid/transcript');
    await expectUnauthenticated('GET', `/api/v1/calls/${callId}/transcript`);
    await expectAnswer(404, 'not_found', apiKey, 'GET', `/api/v1/calls/${randomUUID()}/transcript`);
    await expectAnswer(404, 'not_found', otherKey, 'GET', `/api/v1/calls/${callId}/transcript`);
  });

  /** A delivery row of the endpoint (the conformance server sends none itself). */
  async function storedDelivery(endpointId: string) {
    const prisma = server.service.services.db.prisma;
    const eventId = randomUUID();
    return prisma.webhookDelivery.create({
      data: {
        id: randomUUID(),
        endpointId,
        accountId,
        eventId,
        eventType: 'contact.created',
        payload: JSON.stringify({ type: 'contact.created', timestamp: server.now().toISOString(), data: {} }),
        status: 'failed',
        attempts: 3,
        responseStatus: 500,
        lastError: 'HTTP 500',
        lastAttemptAt: server.now(),
        giveUpAt: server.now(),
        createdAt: server.now(),
      },
    });
  }

  it('webhook endpoints: 201, 200, 202, 204; 400, 401, 404, 409, 413, 503', async () => {
    const url = 'https://93.184.216.34/contactline';
    await expectAnswer(400, 'bad_request', apiKey, 'POST', '/api/v1/webhook-endpoints', { url, events: [] });
    await expectAnswer(413, 'payload_too_large', apiKey, 'POST', '/api/v1/webhook-endpoints', OVERSIZED);
    await expectUnauthenticated('POST', '/api/v1/webhook-endpoints', { url, events: ['call.ended'] });
    const created = await expectAnswer(201, null, apiKey, 'POST', '/api/v1/webhook-endpoints', {
      url,
      events: ['call.ended'],
    });
    const { id } = created.json as { id: string };
    const path = `/api/v1/webhook-endpoints/${id}`;
    await expectAnswer(200, null, apiKey, 'GET', '/api/v1/webhook-endpoints?limit=1');
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/webhook-endpoints?limit=0');
    await expectUnauthenticated('GET', '/api/v1/webhook-endpoints');
    await expectAnswer(200, null, apiKey, 'GET', path);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/webhook-endpoints/not-a-uuid');
    await expectAnswer(404, 'not_found', otherKey, 'GET', path);
    await expectUnauthenticated('GET', path);
    await expectAnswer(200, null, apiKey, 'PATCH', path, { description: 'conformance' });
    await expectAnswer(400, 'bad_request', apiKey, 'PATCH', path, { events: ['nope'] });
    await expectAnswer(404, 'not_found', otherKey, 'PATCH', path, { description: 'x' });
    await expectAnswer(413, 'payload_too_large', apiKey, 'PATCH', path, OVERSIZED);
    await expectUnauthenticated('PATCH', path, { description: 'x' });
    await expectAnswer(200, null, apiKey, 'POST', `${path}/rotate-secret`);
    await expectAnswer(400, 'bad_request', apiKey, 'POST', '/api/v1/webhook-endpoints/nope/rotate-secret');
    await expectAnswer(404, 'not_found', otherKey, 'POST', `${path}/rotate-secret`);
    await expectUnauthenticated('POST', `${path}/rotate-secret`);
    const delivery = await storedDelivery(id);
    await expectAnswer(200, null, apiKey, 'GET', `${path}/deliveries?status=failed`);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', `${path}/deliveries?status=lost`);
    await expectAnswer(404, 'not_found', otherKey, 'GET', `${path}/deliveries`);
    await expectUnauthenticated('GET', `${path}/deliveries`);
    const retry = `${path}/deliveries/${delivery.id}/retry`;
    await expectAnswer(202, null, apiKey, 'POST', retry);
    await expectAnswer(400, 'bad_request', apiKey, 'POST', `${path}/deliveries/nope/retry`);
    await expectAnswer(404, 'not_found', apiKey, 'POST', `${path}/deliveries/${randomUUID()}/retry`);
    await expectUnauthenticated('POST', retry);
    await expectAnswer(200, null, apiKey, 'PATCH', path, { disabled: true });
    await expectAnswer(409, 'conflict', apiKey, 'POST', retry);
    // An Account's 20 endpoints are its limit.
    const { apiKey: full } = await server.createAccount();
    for (let i = 0; i < 20; i++)
      await expectAnswer(201, null, full, 'POST', '/api/v1/webhook-endpoints', { url, events: ['call.ended'] });
    await expectAnswer(409, 'conflict', full, 'POST', '/api/v1/webhook-endpoints', { url, events: ['call.ended'] });
    await expectAnswer(400, 'bad_request', apiKey, 'DELETE', '/api/v1/webhook-endpoints/nope');
    await expectUnauthenticated('DELETE', path);
    await expectAnswer(404, 'not_found', otherKey, 'DELETE', path);
    await expectAnswer(204, null, apiKey, 'DELETE', path);
    // A service with no key to keep secrets with.
    const keyless = await startTestServer(kind, { webhooks: { noSecretsKey: true } });
    try {
      const account = await keyless.createAccount();
      const answer = await keyless.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', {
        url,
        events: ['call.ended'],
      });
      conformance.check('POST', '/api/v1/webhook-endpoints', answer);
      expect({ status: answer.status, code: answer.json.code }).toEqual({ status: 503, code: 'unavailable' });
    } finally {
      await keyless.stop();
    }
  });

  it('the calling policy, consents and dialing: 200, 201; 400, 401, 404, 409 (several match)', async () => {
    const policy = await expectAnswer(200, null, apiKey, 'GET', '/api/v1/calling-policy');
    expect(policy.json).toMatchObject({ purpose: 'telemarketing', updatedAt: null });
    await expectAnswer(200, null, apiKey, 'PUT', '/api/v1/calling-policy', {
      requireWrittenConsent: true,
      attemptCap: { max: 2, periodHours: 24 },
    });
    await expectAnswer(400, 'bad_request', apiKey, 'PUT', '/api/v1/calling-policy', {
      attemptCap: { max: -1, periodHours: 24 },
    });
    await expectAnswer(400, 'bad_request', apiKey, 'PUT', '/api/v1/calling-policy', {
      disabledJurisdictions: ['XX-ZZ'],
    });
    await expectAnswer(413, 'payload_too_large', apiKey, 'PUT', '/api/v1/calling-policy', OVERSIZED);
    await expectUnauthenticated('PUT', '/api/v1/calling-policy', {});
    await expectUnauthenticated('GET', '/api/v1/calling-policy');
    const changes = await expectAnswer(200, null, apiKey, 'GET', '/api/v1/calling-policy/changes?limit=5');
    expect((changes.json as { data: unknown[] }).data.length).toBeGreaterThan(0);
    await expectAnswer(400, 'bad_request', apiKey, 'GET', '/api/v1/calling-policy/changes?limit=0');
    await expectUnauthenticated('GET', '/api/v1/calling-policy/changes');
    const audit = await expectAnswer(200, null, apiKey, 'GET', '/api/v1/calls/audit.csv?limit=10');
    expect(audit.text.split('\n')[0]).toBe(
      'callId,contactId,workflowId,agentId,provider,placedAt,status,result,ruleSetVersion,purpose,timeZones,jurisdictions,ruleIds,consentId,consentKind,attemptCounts',
    );
    await expectAnswer(
      400,
      'bad_request',
      apiKey,
      'GET',
      '/api/v1/calls/audit.csv?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
    );
    await expectUnauthenticated('GET', '/api/v1/calls/audit.csv');

    const externalId = `conformance-consent-${randomUUID()}`;
    const stored = await contact({ sourceKind: 'hubspot', externalId });
    const consent = {
      kind: 'express_written',
      method: 'web_form',
      evidence: 'form',
      obtainedAt: new Date(server.now().getTime() - 86_400_000).toISOString(),
    };
    const duplicated = `conformance-consent-dup-${randomUUID()}`;
    await contact({ sourceKind: 'csv', externalId: duplicated });
    await contact({ sourceKind: 'csv', externalId: duplicated });
    for (const base of [`/api/v1/contacts/${stored.id}`, byExternalId('hubspot', externalId)]) {
      await expectAnswer(201, null, apiKey, 'POST', `${base}/consents`, consent);
      await expectAnswer(400, 'bad_request', apiKey, 'POST', `${base}/consents`, { ...consent, kind: 'implied' });
      await expectAnswer(400, 'bad_request', apiKey, 'POST', `${base}/consents`, {
        ...consent,
        obtainedAt: new Date(server.now().getTime() + 3_600_000).toISOString(),
      });
      await expectAnswer(413, 'payload_too_large', apiKey, 'POST', `${base}/consents`, OVERSIZED);
      const listed = await expectAnswer(200, null, apiKey, 'GET', `${base}/consents`);
      expect((listed.json as { data: unknown[] }).data.length).toBeGreaterThan(0);
      const dialing = await expectAnswer(200, null, apiKey, 'GET', `${base}/dialing`);
      expect(dialing.json).toMatchObject({ contactId: stored.id, enrollment: null });
      const revoked = await expectAnswer(200, null, apiKey, 'POST', `${base}/consents/revoke`, {});
      expect((revoked.json as { data: unknown[] }).data.length).toBeGreaterThan(0);
      await expectAnswer(400, 'bad_request', apiKey, 'POST', `${base}/consents/revoke`, { workflowId: 'x' });
      await expectAnswer(413, 'payload_too_large', apiKey, 'POST', `${base}/consents/revoke`, OVERSIZED);
      for (const [method, suffix, sent] of [
        ['GET', '/consents', undefined],
        ['POST', '/consents', consent],
        ['POST', '/consents/revoke', {}],
        ['GET', '/dialing', undefined],
      ] as const) {
        await expectUnauthenticated(method, `${base}${suffix}`, sent);
      }
    }
    for (const [method, suffix, sent] of [
      ['GET', '/consents', undefined],
      ['POST', '/consents', consent],
      ['POST', '/consents/revoke', {}],
      ['GET', '/dialing', undefined],
    ] as const) {
      await expectAnswer(404, 'not_found', apiKey, method, `/api/v1/contacts/${randomUUID()}${suffix}`, sent);
      await expectAnswer(404, 'not_found', otherKey, method, `/api/v1/contacts/${stored.id}${suffix}`, sent);
      await expectAnswer(400, 'bad_request', apiKey, method, `/api/v1/contacts/not-a-uuid${suffix}`, sent);
      await expectAnswer(
        404,
        'not_found',
        apiKey,
        method,
        byExternalId('hubspot', `missing-${randomUUID()}`, suffix),
        sent,
      );
      await expectAnswer(409, 'conflict', apiKey, method, byExternalId('csv', duplicated, suffix), sent);
    }
  });

  it('do-not-call registries: 201 (an import, streamed as text), 200 (the copies); 400, 401', async () => {
    const today = server.now().toISOString().slice(0, 10);
    const text = { 'content-type': 'text/plain' };
    const importPath = (registry: string, query: string) => `/api/v1/dnc-registries/${registry}/imports?${query}`;
    const imported = await call(
      apiKey,
      'POST',
      importPath('us_national', `downloadedAt=${today}&areaCodes=628`),
      '# area code 415\n4155550123\n(415) 555-0187\n',
      text,
    );
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json).toMatchObject({ numbers: 2, scopes: ['415', '628'] });
    const octets = await call(apiKey, 'POST', importPath('fr_bloctel', `downloadedAt=${today}`), '06 12 34 56 78\n', {
      'content-type': 'application/octet-stream',
    });
    expect(octets.status, octets.text).toBe(201);
    const listed = await expectAnswer(200, null, apiKey, 'GET', '/api/v1/dnc-registries');
    expect((listed.json as { data: unknown[] }).data).toHaveLength(3);
    for (const [registry, query, body] of [
      ['us_national', `downloadedAt=${today}`, '4155550123\n415555012\n'],
      ['nowhere', `downloadedAt=${today}`, '4155550123\n'],
      ['us_national', 'downloadedAt=2999-01-01', '4155550123\n'],
    ]) {
      const refused = await call(apiKey, 'POST', importPath(registry, query), body, text);
      expect({ status: refused.status, code: (refused.json as { code: string }).code }).toEqual({
        status: 400,
        code: 'bad_request',
      });
    }
    for (const key of [null, 'svc_pk_unknown']) {
      const refused = await call(key, 'POST', importPath('us_national', `downloadedAt=${today}`), '4155550123\n', text);
      expect(refused.status).toBe(401);
    }
    await expectUnauthenticated('GET', '/api/v1/dnc-registries');
    // Another Account's copies are not listed.
    expect((await call(otherKey, 'GET', '/api/v1/dnc-registries')).json).toEqual({ data: [] });
  });

  it('every write with an Idempotency-Key: the replay with Idempotent-Replayed; 400, 409 in use, 422 reused', async () => {
    const externalId = `conformance-keyed-${randomUUID()}`;
    const keyed = await contact({ sourceKind: 'hubspot', externalId });
    const endpoint = (
      await expectAnswer(201, null, apiKey, 'POST', '/api/v1/webhook-endpoints', {
        url: 'https://93.184.216.34/keyed',
        events: ['call.ended'],
      })
    ).json as { id: string };
    const delivery = await storedDelivery(endpoint.id);
    const other = (
      await expectAnswer(201, null, apiKey, 'POST', '/api/v1/webhook-endpoints', {
        url: 'https://93.184.216.34/keyed-other',
        events: ['call.ended'],
      })
    ).json as { id: string };
    const otherDelivery = await storedDelivery(other.id);
    // Operations without a body are told apart by their path: the key reused on another one.
    const writes: Array<[string, string, Record<string, unknown>, string?]> = [
      ['PUT', '/api/v1/contacts/upsert', { phone: uniquePhone() }],
      ['POST', '/api/v1/contacts/bulk', { contacts: [{ sourceKind: 'csv', externalId: null, phone: uniquePhone() }] }],
      [
        'POST',
        '/api/v1/contacts/bulk-update',
        { filter: { customFields: [{ key: 'plan', value: 'keyed' }] }, data: { priority: 7 } },
      ],
      ['PATCH', byExternalId('hubspot', externalId), { priority: 9 }],
      ['PUT', '/api/v1/calling-policy', { purpose: 'informational' }],
      [
        'POST',
        `/api/v1/workflows/${await server.createWorkflow(accountId, { name: 'Keyed enrollments' })}/enrollments`,
        { filter: { sourceKind: ['hubspot'] } },
      ],
      [
        'POST',
        `/api/v1/workflows/${await server.createWorkflow(accountId, { name: 'Keyed stops' })}/enrollments/stop`,
        { filter: { sourceKind: ['hubspot'] } },
      ],
      [
        'POST',
        byExternalId('hubspot', externalId, '/consents'),
        { kind: 'express', method: 'paper', obtainedAt: server.now().toISOString() },
      ],
      ['POST', byExternalId('hubspot', externalId, '/consents/revoke'), { workflowId: null }],
      [
        'POST',
        `/api/v1/contacts/${keyed.id}/consents`,
        { kind: 'express', method: 'paper', obtainedAt: server.now().toISOString() },
      ],
      ['POST', `/api/v1/contacts/${keyed.id}/consents/revoke`, {}],
      ['POST', '/api/v1/webhook-endpoints', { url: 'https://93.184.216.34/keyed', events: ['call.ended'] }],
      ['PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { description: 'keyed' }],
      [
        'POST',
        `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
        {},
        `/api/v1/webhook-endpoints/${other.id}/rotate-secret`,
      ],
      [
        'POST',
        `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`,
        {},
        `/api/v1/webhook-endpoints/${other.id}/deliveries/${otherDelivery.id}/retry`,
      ],
    ];
    const prisma = server.service.services.db.prisma;
    for (const [method, path, body, otherPath] of writes) {
      const key = `conformance-${randomUUID()}`;
      const first = await call(apiKey, method, path, body, { 'idempotency-key': key });
      expect(first.status, first.text).toBeLessThan(300);
      const replayed = await call(apiKey, method, path, body, { 'idempotency-key': key });
      expect({ status: replayed.status, replayed: replayed.headers.get('idempotent-replayed') }).toEqual({
        status: first.status,
        replayed: 'true',
      });
      const reused = otherPath
        ? await call(apiKey, method, otherPath, body, { 'idempotency-key': key })
        : await call(apiKey, method, path, { ...body, unexpected: true }, { 'idempotency-key': key });
      expect((reused.json as { code: string }).code).toBe('idempotency_key_reused');
      const empty = await call(apiKey, method, path, body, { 'idempotency-key': '' });
      expect((empty.json as { code: string }).code).toBe('bad_request');
      // A claim without an answer stands for a request still running with the key.
      const running = `conformance-running-${randomUUID()}`;
      await prisma.idempotencyKey.create({
        data: {
          accountId,
          key: running,
          requestHash: 'still running',
          owner: randomUUID(),
          claimedAt: server.now(),
          expiresAt: new Date(server.now().getTime() + 86_400_000),
        },
      });
      const inUse = await call(apiKey, method, path, body, { 'idempotency-key': running });
      expect({ status: inUse.status, code: (inUse.json as { code: string }).code }).toEqual({
        status: 409,
        code: 'idempotency_key_in_use',
      });
    }
  });

  it('every operation refuses a query parameter it does not list: 400 bad_request naming it', async () => {
    // OPTIONS runs no operation (it names a path's methods, and answers preflights): it takes any query.
    const operations = conformance.operations.filter((operation) => operation.method !== 'options');
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      const method = operation.method.toUpperCase();
      const path = examplePath(operation.template);
      const body = operation.requestBody ? {} : undefined;
      for (const [query, names] of [
        ['serachTerm=ada', ['serachTerm']],
        // limit is refused too where the operation has no pages.
        ['limit=10&unknown[key]=1&also=2&also=3', ['limit', 'unknown', 'also']],
      ] as const) {
        const answer = await expectAnswer(400, 'bad_request', apiKey, method, `${path}?${query}`, body);
        const issues = (answer.json as { issues: Array<{ path: string; message: string }> }).issues;
        const known = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        expect(
          issues.map((issue) => issue.path),
          `${operation.name}?${query}`,
        ).toEqual(names.filter((name) => !known.includes(name)));
        for (const issue of issues) expect(issue.message).toMatch(/^unknown query parameter \(this operation takes /);
        expect((answer.json as { message: string }).message).toContain(
          `${names[names.length - 1]}: unknown query parameter`,
        );
      }
    }
    // Nothing of a refused write was done.
    expect((await call(apiKey, 'GET', '/api/v1/contacts?searchTerm=serachTerm')).json).toEqual({ data: [] });
  });

  it('every operation refuses a key whose scopes do not allow it: 403 forbidden naming the scope, which then allows it', async () => {
    const keyWith = async (scopes: string[]) => {
      const created = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
        query:
          'mutation ($u: String!, $s: [String!]) { createApiKey(userId: $u, name: "scoped", scopes: $s) { secret } }',
        variables: { u: userId, s: scopes },
      });
      return created.json.data.createApiKey.secret as string;
    };
    // boards:manage opens no REST operation: every one is refused to a key that has only it.
    const boardsOnly = await keyWith(['boards:manage']);
    const contactsBefore = (await call(apiKey, 'GET', '/api/v1/contacts?limit=100')).json.data.length;
    const operations = conformance.operations.filter((operation) => operation.method !== 'options');
    const keyOf = new Map<string, string>();
    for (const operation of operations) {
      const method = operation.method.toUpperCase();
      const path = examplePath(operation.template);
      // A registry file is sent as text; every other body is JSON.
      const asText = operation.template.includes('/dnc-registries/');
      const body = asText ? '+12025550143\n' : operation.requestBody ? {} : undefined;
      const headers = asText ? { 'content-type': 'text/plain' } : undefined;
      const refused = await call(boardsOnly, method, path, body, headers);
      expect([refused.status, refused.json?.code], `${operation.name}: ${refused.text.slice(0, 200)}`).toEqual([
        403,
        'forbidden',
      ]);
      const scope = (refused.json as { scope: string }).scope;
      expect(scope, operation.name).toMatch(/^[a-z-]+:(read|write|manage)$/);
      // A key with that scope alone gets past the check (to whatever the example request earns).
      if (!keyOf.has(scope)) keyOf.set(scope, await keyWith([scope]));
      const allowed = await server.request(keyOf.get(scope)!, method, path, body, headers);
      expect(allowed.status, `${operation.name} with ${scope}: ${allowed.text.slice(0, 200)}`).not.toBe(403);
    }
    expect((await call(apiKey, 'GET', '/api/v1/contacts?limit=100')).json.data.length).toBe(contactsBefore);
  });

  it('known query parameters, repeated or bracketed, still work', async () => {
    const { id } = await contact({ firstName: 'Querida', status: 'dnc' });
    const found = async (query: string) => {
      const answer = await expectAnswer(200, null, apiKey, 'GET', `/api/v1/contacts?${query}`);
      return (answer.json as { data: Array<{ id: string }> }).data.map((c) => c.id);
    };
    expect(await found('searchTerm=querida&status=new&status=dnc')).toEqual([id]);
    expect(await found('searchTerm=querida&status[]=dnc&sourceKind[0]=api&limit=5')).toEqual([id]);
    expect(await found('searchTerm=querida&status=new')).toEqual([]);
    await expectAnswer(204, null, apiKey, 'DELETE', `/api/v1/contacts/${id}?block=false`);
  });

  it('OPTIONS on every path: 204, the Allow header, no body; no key needed', async () => {
    const paths = [...new Set(conformance.operations.map((operation) => operation.template))];
    for (const template of paths) {
      await expectAnswer(204, null, apiKey, 'OPTIONS', examplePath(template));
      await expectAnswer(204, null, null, 'OPTIONS', examplePath(template));
    }
  });

  it("every operation, OPTIONS included: 429 rate_limited with Retry-After once the address's limit is spent", async () => {
    const limited = await startTestServer(kind, { edge: { RATE_LIMIT_PER_ADDRESS: 1 } });
    try {
      const { apiKey: key } = await limited.createAccount();
      expect((await limited.request(key, 'GET', '/api/v1/workflows')).status).toBe(200);
      for (const operation of conformance.operations) {
        const path = examplePath(operation.template);
        const body = operation.requestBody ? { phone: uniquePhone() } : undefined;
        const answer = await limited.request(key, operation.method.toUpperCase(), path, body);
        conformance.check(operation.method.toUpperCase(), path, answer);
        expect(
          { status: answer.status, code: (answer.json as { code?: string } | undefined)?.code },
          operation.name,
        ).toEqual({ status: 429, code: 'rate_limited' });
      }
    } finally {
      await limited.stop();
    }
  });

  it('exercised every operation of the document, and each status it documents but 500', () => {
    expect(conformance.unexercised((_operation, status) => status === '500')).toEqual([]);
  });
});
