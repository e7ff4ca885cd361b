// Concurrent writers of the same contacts never fail for contention: upserts of one phone in
// several formats (100 and 300 in flight, with and without an enrollment), PATCHes of one
// contact, and bulk imports of overlapping contacts. A genuine dedup conflict stays a 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, listAll, uniquePhone } from '../support/api-helpers.js';

/** One US number written five ways (the Account's default location is US). */
const FORMATS = ['+12125550161', '(212) 555-0161', '212-555-0161', '2125550161', '+1 212 555 0161'];

describe.each(testDatabaseKinds())('concurrent writers on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  /** Sends `n` upserts of the one number at once; returns the statuses. */
  async function upsertAtOnce(apiKey: string, n: number, extra: Record<string, unknown> = {}): Promise<number[]> {
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
          phone: FORMATS[i % FORMATS.length],
          firstName: `Writer${i}`,
          ...extra,
        }),
      ),
    );
    return answers.map((a) => a.status);
  }

  function tally(statuses: number[]): Record<number, number> {
    const counts: Record<number, number> = {};
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
    return counts;
  }

  it.each([100, 300])(
    '%i concurrent upserts of one phone in five formats: one 201, the rest 200, one contact',
    async (n) => {
      const { apiKey } = await server.createAccount({ defaultLocation: 'US' });
      expect(tally(await upsertAtOnce(apiKey, n))).toEqual({ 201: 1, 200: n - 1 });
      const all = await listAll(server, apiKey);
      expect(all).toHaveLength(1);
      expect(all[0].phone).toBe('+12125550161');
      expect(all[0].firstName).toMatch(/^Writer\d+$/);
    },
  );

  it('100 concurrent upserts of one phone that enroll it: one 201, the rest 200, one enrollment', async () => {
    const { apiKey, accountId } = await server.createAccount({ defaultLocation: 'US' });
    const workflowId = await server.createWorkflow(accountId);
    expect(tally(await upsertAtOnce(apiKey, 100, { assignmentOptions: { workflowId } }))).toEqual({ 201: 1, 200: 99 });
    const all = await listAll(server, apiKey);
    expect(all).toHaveLength(1);
    expect(all[0].assignedWorkflowId).toBe(workflowId);
    const enrollments = await server.service.services.db.prisma.enrollment.count({
      where: { contactId: all[0].id, active: true },
    });
    expect(enrollments).toBe(1);
  });

  it('50 concurrent PATCHes of one contact all answer 200, and the contact ends with one of them', async () => {
    const { apiKey } = await server.createAccount({ defaultLocation: 'US' });
    const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      sourceKind: 'csv',
      externalId: 'patch-me',
    });
    expect(created.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        server.request(apiKey, 'PATCH', '/api/v1/contacts/source/csv/external-id/patch-me', {
          firstName: `Patch${i}`,
          customFields: { [`k${i}`]: i },
        }),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 50 });
    const [contact] = await listAll(server, apiKey);
    expect(contact.firstName).toMatch(/^Patch\d+$/);
    // Each PATCH merged its own key into what the previous ones left: none was lost.
    expect(Object.keys(contact.customFields).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `k${i}`).sort());
  });

  it('bulk imports of overlapping contacts sent at once all apply, each contact once', async () => {
    const { apiKey } = await server.createAccount({ defaultLocation: 'US' });
    const phones = Array.from({ length: 300 }, () => uniquePhone());
    // Ten batches of 200 of the 300 phones, each in its own order, so they lock rows in turn.
    const batches = Array.from({ length: 10 }, (_, b) => {
      const mine = Array.from({ length: 200 }, (_, i) => phones[(b * 37 + i * 7) % phones.length]);
      return (b % 2 ? mine.reverse() : mine).map((phone) => ({
        sourceKind: 'api',
        externalId: null,
        phone,
        firstName: `Batch${b}`,
      }));
    });
    const answers = await Promise.all(
      batches.map((contacts) => server.request(apiKey, 'POST', '/api/v1/contacts/bulk', { contacts })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202));
    const distinct = new Set(batches.flat().map((c) => c.phone));
    await server.eventually(async () => {
      const pending = await server.service.services.db.prisma.importBatch.count({ where: { status: 'pending' } });
      return pending === 0;
    }, 30_000);
    const all = await listAll(server, apiKey);
    expect(all).toHaveLength(distinct.size);
    expect(new Set(all.map((c) => c.phone))).toEqual(distinct);
  });

  it("a genuine dedup conflict stays a 409: a PATCH giving a contact another contact's phone", async () => {
    const { apiKey } = await server.createAccount({ defaultLocation: 'US' });
    const taken = uniquePhone();
    await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: taken,
      sourceKind: 'csv',
      externalId: 'holder',
    });
    await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      sourceKind: 'csv',
      externalId: 'mover',
    });
    const res = await server.request(apiKey, 'PATCH', '/api/v1/contacts/source/csv/external-id/mover', {
      phone: taken,
    });
    expectError(res, 409, 'conflict');
  });
});
