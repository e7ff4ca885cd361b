// A workflow's enrollments through the REST API, on a listening server with the dialer and the
// call simulator on a controlled clock: the list (newest first, by state, with why each ended),
// stopping by ids and by the list's filter (nextCallAt cleared, the others still called), a stop
// racing the dialer (no call placed after the answer; a call in progress finishes and is
// recorded), and bad input refused with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import { createSimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { applyTelephonyEvent } from '../../src/domain/calls/call-events.service.js';

// Monday 30 November 2026, 10:00 in Chicago (UTC-6): inside the law's hours and the agent's.
const MONDAY_10_CHICAGO = new Date('2026-11-30T16:00:00.000Z');
const ALWAYS = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
);

interface EnrollmentAnswer {
  id: string;
  contactId: string;
  state: 'active' | 'ended';
  endReason: string | null;
  finalResult: string | null;
  attempts: number;
  nextCallAt: string | null;
}

describe.each(testDatabaseKinds())("a workflow's enrollments on %s", (kind) => {
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

  const phone = () => `+1312557${String(1000 + seq++).padStart(4, '0')}`;

  async function setup(options: { attemptLimit?: number } = {}) {
    const account = await server.createAccount();
    // Every hour of every day: the agent's hours are not this suite's subject.
    const calling = await callingSetup(server, account.accountId, { workingHours: ALWAYS, ...options });
    const enroll = async (body: Record<string, unknown> = {}, workflowId = calling.workflowId) => {
      // A second apart: the list's order (newest first) is the order of enrollment.
      clock.at = new Date(clock.at.getTime() + 1000);
      const res = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: phone(),
        consent: writtenConsent(clock.at),
        ...body,
        assignmentOptions: { workflowId },
      });
      expect(res.status, res.text).toBeLessThan(300);
      return res.json as { id: string; phone: string };
    };
    const list = async (query = '', workflowId = calling.workflowId) => {
      const res = await server.request(account.apiKey, 'GET', `/api/v1/workflows/${workflowId}/enrollments${query}`);
      expect(res.status, res.text).toBe(200);
      return res.json as { data: EnrollmentAnswer[]; nextToken: string | null };
    };
    const stop = async (body: unknown, workflowId = calling.workflowId) =>
      server.request(account.apiKey, 'POST', `/api/v1/workflows/${workflowId}/enrollments/stop`, body);
    return { ...account, ...calling, enroll, list, stop };
  }

  const prisma = () => server.service.services.db.prisma;

  it('lists the enrollments newest first, by state, with why each ended', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup({ attemptLimit: 1 });
    const converted = await ctx.enroll({ firstName: 'Converted' });
    const unanswered = await ctx.enroll({ firstName: 'Unanswered' });
    const stopped = await ctx.enroll({ firstName: 'Stopped' });
    const moved = await ctx.enroll({ firstName: 'Moved' });
    const waiting = await ctx.enroll({ firstName: 'Waiting' });
    // The stopped and the moved contacts end before the dialer runs.
    expect((await ctx.stop({ contactIds: [stopped.id] })).json).toEqual({ stopped: 1, notActive: [] });
    const other = await server.createWorkflow(ctx.accountId, { name: 'Other' });
    await ctx.enroll({ phone: moved.phone }, other);
    const waitingUntil = new Date(clock.at.getTime() + 86_400_000);
    await prisma().enrollment.updateMany({
      where: { contactId: waiting.id, active: true },
      data: { nextAttemptAt: waitingUntil },
    });
    const placed = await ctx.dial({
      [converted.phone]: { result: 'converted' },
      [unanswered.phone]: { result: 'no_answer' },
    });
    expect(placed.map((p) => p.contactId).sort()).toEqual([converted.id, unanswered.id].sort());

    const all = await ctx.list();
    expect(all.data.map((e) => e.contactId)).toEqual([waiting.id, moved.id, stopped.id, unanswered.id, converted.id]);
    const byContact = new Map(all.data.map((e) => [e.contactId, e]));
    expect(byContact.get(converted.id)).toMatchObject({
      state: 'ended',
      endReason: 'final_result',
      finalResult: 'converted',
      attempts: 1,
      nextCallAt: null,
    });
    expect(byContact.get(unanswered.id)).toMatchObject({ state: 'ended', endReason: 'attempt_limit', attempts: 1 });
    expect(byContact.get(stopped.id)).toMatchObject({ state: 'ended', endReason: 'stopped', attempts: 0 });
    expect(byContact.get(moved.id)).toMatchObject({ state: 'ended', endReason: 're_enrolled' });
    expect(byContact.get(waiting.id)).toMatchObject({
      state: 'active',
      endReason: null,
      nextCallAt: waitingUntil.toISOString(),
    });
    expect((await ctx.list('?state=active')).data.map((e) => e.contactId)).toEqual([waiting.id]);
    expect((await ctx.list('?state=ended')).data).toHaveLength(4);
    // Pages of two, newest first, then the last one without a token.
    const first = await ctx.list('?limit=2');
    const second = await ctx.list(`?limit=2&nextToken=${encodeURIComponent(first.nextToken as string)}`);
    const third = await ctx.list(`?limit=2&nextToken=${encodeURIComponent(second.nextToken as string)}`);
    expect([...first.data, ...second.data, ...third.data].map((e) => e.id)).toEqual(all.data.map((e) => e.id));
    expect(third.nextToken).toBeNull();
  });

  it("stops by the list's filter: the matching contacts' enrollments end and their next call is cleared; the others are called", async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const crm = [
      await ctx.enroll({ sourceKind: 'hubspot', externalId: `h-${seq}` }),
      await ctx.enroll({ sourceKind: 'hubspot', externalId: `h2-${seq}` }),
    ];
    const api = [await ctx.enroll(), await ctx.enroll()];
    const res = await ctx.stop({ filter: { sourceKind: ['hubspot'] } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ stopped: 2, notActive: [] });
    for (const c of crm) {
      const contact = await server.request(ctx.apiKey, 'GET', `/api/v1/contacts/${c.id}`);
      expect((contact.json as { nextCallAt: string | null }).nextCallAt).toBeNull();
    }
    const placed = await ctx.dial();
    expect(placed.map((p) => p.contactId).sort()).toEqual(api.map((c) => c.id).sort());
    // Stopping again stops nothing, and says which ids had no active enrollment.
    expect((await ctx.stop({ contactIds: [crm[0].id] })).json).toEqual({ stopped: 0, notActive: [crm[0].id] });
    // A filter that matches nothing is answered with zero.
    expect((await ctx.stop({ filter: { searchTerm: 'nobody-matches-this' } })).json).toEqual({
      stopped: 0,
      notActive: [],
    });
  });

  it('a stop racing the dialer: no call is placed after the answer, and a call in progress finishes and is recorded', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const contacts = [];
    for (let i = 0; i < 120; i++) contacts.push(await ctx.enroll());
    const ids = contacts.map((c) => c.id);
    // Calls are placed but end only when the test says: those claimed before the stop are in progress.
    const events: Parameters<typeof applyTelephonyEvent>[1][] = [];
    const telephony = createSimulatedTelephony({ sink: async (e) => void events.push(e), delayMs: 0, clock });
    let stopAnswered = false;
    // The stop is sent once the dialer has placed its first calls, while it goes on, two at a time.
    expect((await runDialerOnce(server.service.services, telephony, 2)).placed).toHaveLength(2);
    const dialing = (async () => {
      while (!stopAnswered) {
        const run = await runDialerOnce(server.service.services, telephony, 2);
        if (run.placed.length === 0) break;
      }
    })();
    const res = await ctx.stop({ contactIds: ids });
    // The calls at the answer: a claim that locked an enrollment first committed its call before
    // the stop could end that enrollment, so none can appear after this.
    const callsAtAnswer = await prisma().call.count({ where: { contactId: { in: ids } } });
    stopAnswered = true;
    await dialing;
    expect(res.status, res.text).toBe(200);
    // Every enrollment ends, those with a call in progress included.
    expect(res.json).toEqual({ stopped: 120, notActive: [] });
    expect(callsAtAnswer).toBeGreaterThanOrEqual(2);
    expect(callsAtAnswer).toBeLessThan(120);
    // Nothing more is placed, however often the dialer runs.
    for (let i = 0; i < 3; i++) expect((await runDialerOnce(server.service.services, telephony)).placed).toEqual([]);
    expect(await prisma().call.count({ where: { contactId: { in: ids } } })).toBe(callsAtAnswer);
    // The calls in progress end and are recorded; their enrollments stay stopped.
    await telephony.settled();
    for (const event of events) await applyTelephonyEvent(server.service.services, event);
    const calls = await prisma().call.findMany({ where: { contactId: { in: ids } } });
    expect(calls.map((c) => c.status)).toEqual(calls.map(() => 'ended'));
    const enrollments = await prisma().enrollment.findMany({ where: { contactId: { in: ids } } });
    expect(enrollments.map((e) => [e.active, e.endReason, e.nextAttemptAt])).toEqual(
      enrollments.map(() => [false, 'stopped', null]),
    );
  });

  it('refuses bad input with the error body and changes nothing; stopping is allowed for a paused or archived workflow', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const contact = await ctx.enroll();
    const other = await ctx.enroll();
    const before = await ctx.list();
    for (const body of [
      {},
      { contactIds: [] },
      { contactIds: ['nope'] },
      { contactIds: [contact.id], filter: {} },
      { filter: { status: ['no-such-status'] } },
      { filter: { unknown: 1 } },
      { contactIds: Array.from({ length: 1001 }, () => contact.id) },
    ]) {
      const res = await ctx.stop(body);
      expect({ status: res.status, code: (res.json as { code: string }).code }, JSON.stringify(body)).toEqual({
        status: 400,
        code: 'bad_request',
      });
    }
    expect(await ctx.list()).toEqual(before);
    await prisma().workflow.update({ where: { id: ctx.workflowId }, data: { paused: true } });
    expect((await ctx.stop({ contactIds: [contact.id] })).json).toEqual({ stopped: 1, notActive: [] });
    // Archived too: stopping is allowed whatever the workflow's status.
    await prisma().workflow.update({ where: { id: ctx.workflowId }, data: { paused: false, status: 'archived' } });
    expect((await ctx.stop({ contactIds: [other.id] })).json).toEqual({ stopped: 1, notActive: [] });
  });
});
