// Enrolling a workflow's existing contacts through the REST API, on a listening server with the
// dialer and the call simulator on a controlled clock: by ids (each contact not enrolled counted
// with its reason: not found, already enrolled, already called, blocked, no consent) and by the
// list's filter (every match, over several chunks; a retry with the Idempotency-Key answers the
// same job; a second run enrolls nobody twice; a filter matching nothing is done with zeros);
// the enrolled contacts are called and the others are not; refusals change nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';
import { expectError } from '../support/api-helpers.js';
import { createContactlineClient } from '../../src/client/index.js';

// Monday 30 November 2026, 10:00 in Chicago (UTC-6): inside the law's hours and the agent's.
const MONDAY_10_CHICAGO = new Date('2026-11-30T16:00:00.000Z');
const ALWAYS = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
);

interface EnrollmentJob {
  id: string;
  workflowId: string;
  status: 'queued' | 'running' | 'done';
  reEnroll: boolean;
  enforceCallNow: boolean;
  matched: number;
  enrolled: number;
  notEnrolledCount: number;
  reasons: Array<{ reason: string; count: number }>;
  notEnrolled: Array<{ contactId: string; reason: string }>;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Every reason's count, zeros included, in the order the API lists them. */
function reasonCounts(counts: Record<string, number>) {
  return ['not_found', 'workflow_not_published', 'already_enrolled', 'already_called', 'blocked', 'no_consent'].map(
    (reason) => ({ reason, count: counts[reason] ?? 0 }),
  );
}

describe.each(testDatabaseKinds())("enrolling a workflow's existing contacts on %s", (kind) => {
  let server: TestServer;
  const clock = {
    at: MONDAY_10_CHICAGO,
    now() {
      return this.at;
    },
  };
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(() => server?.stop());

  const phone = () => `+1312558${String(1000 + seq++).padStart(4, '0')}`;
  const prisma = () => server.service.services.db.prisma;

  async function setup() {
    const account = await server.createAccount();
    const calling = await callingSetup(server, account.accountId, { workingHours: ALWAYS });
    /** A stored contact (with consent unless said), enrolled nowhere unless `workflowId`. */
    const contact = async (fields: Record<string, unknown> = {}, consent = true) => {
      clock.at = new Date(clock.at.getTime() + 1000);
      const res = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: phone(),
        ...(consent ? { consent: writtenConsent(clock.at) } : {}),
        ...fields,
      });
      expect(res.status, res.text).toBeLessThan(300);
      return res.json as { id: string; phone: string };
    };
    const enroll = (body: unknown, headers: Record<string, string> = {}, workflowId = calling.workflowId) =>
      server.request(account.apiKey, 'POST', `/api/v1/workflows/${workflowId}/enrollments`, body, headers);
    /** Reads the job until it is done. */
    const done = (id: string) =>
      server.eventually(async () => {
        const res = await server.request(account.apiKey, 'GET', `/api/v1/enrollment-jobs/${id}`);
        expect(res.status, res.text).toBe(200);
        const job = res.json as EnrollmentJob;
        return job.status === 'done' ? job : undefined;
      });
    const activeIn = async (workflowId = calling.workflowId) =>
      (await prisma().enrollment.findMany({ where: { workflowId, active: true }, select: { contactId: true } })).map(
        (e) => e.contactId,
      );
    return { ...account, ...calling, contact, enroll, done, activeIn };
  }

  it('by ids: enrolls those it may, with a reason for each other one; the enrolled are called, the others not', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const fresh = await ctx.contact({ firstName: 'Fresh' });
    const enrolled = await ctx.contact({ assignmentOptions: { workflowId: ctx.workflowId } });
    const noConsent = await ctx.contact({}, false);
    const blocked = await ctx.contact();
    await prisma().blockedPhone.create({
      data: { accountId: ctx.accountId, phone: blocked.phone, createdAt: clock.at },
    });
    // Called once by this workflow, and finished with a final result.
    const called = await ctx.contact({ assignmentOptions: { workflowId: ctx.workflowId } });
    expect(await ctx.dial({ [called.phone]: { result: 'not_interested' } })).toHaveLength(2);
    const other = await server.createAccount();
    const othersContact = (await server.request(other.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: phone() }))
      .json as { id: string };
    const unknown = randomUUID();

    const ids = [fresh.id, enrolled.id, noConsent.id, blocked.id, called.id, othersContact.id, unknown, fresh.id];
    const res = await ctx.enroll({ contactIds: ids });
    expect(res.status, res.text).toBe(202);
    const accepted = res.json as EnrollmentJob;
    expect(res.headers.get('location')).toBe(`/api/v1/enrollment-jobs/${accepted.id}`);
    expect(accepted).toMatchObject({ workflowId: ctx.workflowId, reEnroll: false, enforceCallNow: false });
    const job = await ctx.done(accepted.id);
    // The duplicate id counts once.
    expect(job).toMatchObject({ matched: 7, enrolled: 1, notEnrolledCount: 6 });
    expect(job.reasons).toEqual(
      reasonCounts({ not_found: 2, already_enrolled: 1, already_called: 1, blocked: 1, no_consent: 1 }),
    );
    expect(new Map(job.notEnrolled.map((n) => [n.contactId, n.reason]))).toEqual(
      new Map([
        [othersContact.id, 'not_found'],
        [unknown, 'not_found'],
        [enrolled.id, 'already_enrolled'],
        [called.id, 'already_called'],
        [blocked.id, 'blocked'],
        [noConsent.id, 'no_consent'],
      ]),
    );
    expect(Date.parse(job.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(job.createdAt));

    // The contact is enrolled as an upsert would enroll it; the dialer calls it and nobody else new.
    const stored = (await server.request(ctx.apiKey, 'GET', `/api/v1/contacts/${fresh.id}`)).json as {
      assignedWorkflowId: string;
      status: string;
    };
    expect(stored).toMatchObject({ assignedWorkflowId: ctx.workflowId, status: 'assigned' });
    expect((await ctx.activeIn()).sort()).toEqual([fresh.id, enrolled.id].sort());
    const placed = await prisma().call.count({ where: { contactId: fresh.id } });
    expect(placed).toBe(0);
    await ctx.dial();
    expect(await prisma().call.count({ where: { contactId: fresh.id } })).toBe(1);
    for (const id of [noConsent.id, blocked.id])
      expect(await prisma().call.count({ where: { contactId: id } })).toBe(0);

    // With reEnroll (and enforceCallNow, sent together), the called contact is enrolled again.
    const again = await ctx.enroll({ contactIds: [called.id], reEnroll: true, enforceCallNow: true });
    expect(again.status, again.text).toBe(202);
    expect(await ctx.done((again.json as EnrollmentJob).id)).toMatchObject({
      matched: 1,
      enrolled: 1,
      notEnrolledCount: 0,
      reEnroll: true,
      enforceCallNow: true,
    });
    expect(await ctx.activeIn()).toContain(called.id);
  });

  it('by filter: every match, once, chunk after chunk; a keyed retry answers the same job; no match is done with zeros', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const matching: string[] = [];
    // More than the embedded database's first chunks hold (they start at 10 contacts).
    for (let i = 0; i < 45; i++)
      matching.push((await ctx.contact({ customFields: { batch: 'b' }, firstName: 'Ann' })).id);
    const others = [await ctx.contact({ firstName: 'Zed' }), await ctx.contact({ firstName: 'Zoe' })];
    const body = { filter: { searchTerm: 'Ann' } };
    const key = { 'idempotency-key': `enroll-${randomUUID()}` };
    const first = await ctx.enroll(body, key);
    expect(first.status, first.text).toBe(202);
    const retry = await ctx.enroll(body, key);
    expect(retry.status).toBe(202);
    expect((retry.json as EnrollmentJob).id).toBe((first.json as EnrollmentJob).id);
    const job = await ctx.done((first.json as EnrollmentJob).id);
    expect(job).toMatchObject({ matched: 45, enrolled: 45, notEnrolledCount: 0, notEnrolled: [] });
    expect((await ctx.activeIn()).sort()).toEqual([...matching].sort());
    for (const o of others) expect(await ctx.activeIn()).not.toContain(o.id);

    // A second run without the key finds them all enrolled: nobody is enrolled twice.
    const second = await ctx.enroll(body);
    const secondJob = await ctx.done((second.json as EnrollmentJob).id);
    expect(secondJob).toMatchObject({ matched: 45, enrolled: 0, notEnrolledCount: 45 });
    expect(secondJob.reasons).toEqual(reasonCounts({ already_enrolled: 45 }));
    expect(await prisma().enrollment.count({ where: { workflowId: ctx.workflowId } })).toBe(45);

    const none = await ctx.enroll({ filter: { searchTerm: 'Nobody' } });
    expect(none.status, none.text).toBe(202);
    expect(await ctx.done((none.json as EnrollmentJob).id)).toMatchObject({
      matched: 0,
      enrolled: 0,
      notEnrolledCount: 0,
      reasons: reasonCounts({}),
      notEnrolled: [],
    });
  });

  it('refuses a bad body, an unknown workflow, and a workflow not published or paused, writing nothing', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const contact = await ctx.contact();
    const jobsBefore = await prisma().enrollmentJob.count();
    for (const body of [
      {},
      { contactIds: [] },
      { contactIds: ['nope'] },
      { contactIds: [contact.id], filter: {} },
      { contactIds: [contact.id], reEnroll: true },
      { filter: { status: ['no-such-status'] } },
      { filter: {}, extra: 1 },
      { contactIds: Array.from({ length: 1001 }, () => contact.id) },
    ])
      expectError(await ctx.enroll(body), 400, 'bad_request');
    expectError(await ctx.enroll({ contactIds: [contact.id] }, {}, randomUUID()), 404, 'not_found');
    const other = await server.createAccount();
    const othersWorkflow = await callingSetup(server, other.accountId);
    expectError(await ctx.enroll({ contactIds: [contact.id] }, {}, othersWorkflow.workflowId), 404, 'not_found');
    for (const data of [
      { paused: true },
      { paused: false, status: 'draft' as const },
      { status: 'archived' as const },
    ]) {
      await prisma().workflow.update({ where: { id: ctx.workflowId }, data });
      const refused = await ctx.enroll({ contactIds: [contact.id] });
      expectError(refused, 400, 'bad_request');
      expect(refused.json.message).toMatch(
        /^workflowId: workflow "Calls" is (paused|draft, not published|archived, not published)$/,
      );
    }
    expect(await prisma().enrollmentJob.count()).toBe(jobsBefore);
    expect(await ctx.activeIn()).toEqual([]);

    expectError(await server.request(ctx.apiKey, 'GET', `/api/v1/enrollment-jobs/${randomUUID()}`), 404, 'not_found');
    expectError(await server.request(ctx.apiKey, 'GET', '/api/v1/enrollment-jobs/not-a-uuid'), 400, 'bad_request');
  });

  it('through the typed client: enroll, read the job, list the enrollments, stop them, read the results', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const contact = await ctx.contact();
    const client = createContactlineClient({ baseUrl: server.service.baseUrl, apiKey: ctx.apiKey });
    const id = ctx.workflowId;
    const started = await client.POST('/api/v1/workflows/{id}/enrollments', {
      params: { path: { id } },
      body: { contactIds: [contact.id] },
    });
    expect(started.response.status).toBe(202);
    const jobId = started.data?.id as string;
    const job = await server.eventually(async () => {
      const read = await client.GET('/api/v1/enrollment-jobs/{id}', { params: { path: { id: jobId } } });
      return read.data?.status === 'done' ? read.data : undefined;
    });
    expect(job).toMatchObject({ matched: 1, enrolled: 1, notEnrolledCount: 0 });
    const listed = await client.GET('/api/v1/workflows/{id}/enrollments', {
      params: { path: { id }, query: { state: 'active' } },
    });
    expect(listed.data?.data.map((e) => e.contactId)).toEqual([contact.id]);
    const stopped = await client.POST('/api/v1/workflows/{id}/enrollments/stop', {
      params: { path: { id } },
      body: { contactIds: [contact.id] },
    });
    expect(stopped.data).toEqual({ stopped: 1, notActive: [] });
    const results = await client.GET('/api/v1/workflows/{id}/results', { params: { path: { id } } });
    expect(results.data?.totals.enrolled).toBe(1);
  });

  it("another Account's job is not found", async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const contact = await ctx.contact();
    const res = await ctx.enroll({ contactIds: [contact.id] });
    const job = await ctx.done((res.json as EnrollmentJob).id);
    const other = await server.createAccount();
    expectError(await server.request(other.apiKey, 'GET', `/api/v1/enrollment-jobs/${job.id}`), 404, 'not_found');
  });
});
