// The enrollment.started and enrollment.ended webhooks through a real listening service, the
// dialer and the call simulator on a controlled clock, and a real receiver: each event is sent as
// each enrollment starts (an upsert's enrollment, a restart by the status `connecting`) or ends
// (re_enrolled, stopped, final_result, attempt_limit, contact_erased), signed (checked with the
// `standardwebhooks` package), with the enrollment as GET /workflows/{id}/enrollments lists it;
// an endpoint not listening to them hears none, and an Account with no endpoint listening
// writes no event of them at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';
import { ALWAYS_OPEN } from '../support/working-hours.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.js';

// Monday 30 November 2026, 10:00 in Chicago (UTC-6): inside the law's hours and the agent's.
const MONDAY_10_CHICAGO = new Date('2026-11-30T16:00:00.000Z');
const ENROLLMENT_EVENTS = ['enrollment.started', 'enrollment.ended'];

interface EnrollmentAnswer {
  id: string;
  contactId: string | null;
  workflowId: string;
  state: 'active' | 'ended';
  endReason: string | null;
  finalResult: string | null;
}

/**
 * Whether a delivery is signed with `secret`, by the package's sign() against the header's own
 * timestamp (the service's clock is not the real time, which verify() would also check).
 */
const signedWith = (delivery: ReceivedWebhook, secret: string) => {
  const at = new Date(Number(delivery.headers['webhook-timestamp']) * 1000);
  const expected = new Webhook(secret).sign(delivery.webhookId, at, delivery.body);
  return String(delivery.headers['webhook-signature']).split(' ').includes(expected);
};

describe.each(testDatabaseKinds())('enrollment webhooks on %s', (kind) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let deaf: WebhookReceiver;
  const clock = {
    at: MONDAY_10_CHICAGO,
    now() {
      return this.at;
    },
  };
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock, webhooks: { deliver: true, allowHttpLoopback: true } });
    [receiver, deaf] = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([receiver?.close(), deaf?.close()]);
    await server?.stop();
  });

  const phone = () => `+1312558${String(1000 + seq++).padStart(4, '0')}`;

  async function endpoint(apiKey: string, url: string, events: string[]) {
    const res = await server.request(apiKey, 'POST', '/api/v1/webhook-endpoints', { url, events });
    expect(res.status, res.text).toBe(201);
    return res.json as { id: string; secret: string };
  }

  async function setup() {
    const account = await server.createAccount();
    const calling = await callingSetup(server, account.accountId, { workingHours: ALWAYS_OPEN, attemptLimit: 1 });
    const other = await server.createWorkflow(account.accountId, { name: 'Other' });
    const request = (method: string, path: string, body?: unknown) =>
      server.request(account.apiKey, method, path, body);
    const enroll = async (body: Record<string, unknown> = {}, workflowId = calling.workflowId) => {
      // A second apart: each enrollment's times are its own.
      clock.at = new Date(clock.at.getTime() + 1000);
      const res = await request('PUT', '/api/v1/contacts/upsert', {
        phone: phone(),
        consent: writtenConsent(clock.at),
        ...body,
        assignmentOptions: { workflowId },
      });
      expect(res.status, res.text).toBeLessThan(300);
      return res.json as { id: string; phone: string };
    };
    const list = async (workflowId = calling.workflowId) => {
      const res = await request('GET', `/api/v1/workflows/${workflowId}/enrollments?limit=100`);
      expect(res.status, res.text).toBe(200);
      return (res.json as { data: EnrollmentAnswer[] }).data;
    };
    /** The contact's latest enrollment in the workflow, as the list shows it. */
    const enrollmentOf = async (contactId: string, workflowId = calling.workflowId) => {
      const found = (await list(workflowId)).find((e) => e.contactId === contactId);
      expect(found, `an enrollment of ${contactId}`).toBeDefined();
      return found as EnrollmentAnswer;
    };
    const enrollmentEvents = () =>
      server.service.services.db.prisma.domainEvent.findMany({
        where: { accountId: account.accountId, type: { in: ENROLLMENT_EVENTS } },
        select: { type: true },
      });
    return { ...account, ...calling, other, request, enroll, list, enrollmentOf, enrollmentEvents };
  }

  /** The delivery of the `type` event about this enrollment (waits for it). */
  async function delivered(
    type: string,
    enrollmentId: string,
    predicate: (d: ReceivedWebhook) => boolean = () => true,
  ) {
    const matches = (d: ReceivedWebhook) =>
      d.payload.type === type && d.payload.data?.id === enrollmentId && predicate(d);
    await receiver.waitFor((all) => all.some(matches));
    return receiver.received.find(matches) as ReceivedWebhook;
  }

  it('sends enrollment.started and enrollment.ended as enrollments start and end, with the enrollment as the list shows it', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const listening = await endpoint(ctx.apiKey, receiver.url, ENROLLMENT_EVENTS);
    const notListening = await endpoint(ctx.apiKey, deaf.url, ['contact.created']);
    /** Waits for the event, checks its signature and that its data is the list's entry now. */
    const expectEvent = async (type: string, entry: EnrollmentAnswer) => {
      const delivery = await delivered(type, entry.id);
      expect(signedWith(delivery, listening.secret), `${type} signed`).toBe(true);
      expect(delivery.payload.data, type).toEqual(entry);
      return delivery;
    };

    // Started by an upsert with assignmentOptions.
    const moved = await ctx.enroll();
    const first = await ctx.enrollmentOf(moved.id);
    expect(first).toMatchObject({ state: 'active', workflowId: ctx.workflowId });
    const started = await expectEvent('enrollment.started', first);
    expect(started.payload.timestamp).toBe(clock.at.toISOString());

    // Enrolled elsewhere: the first ends (re_enrolled), the second starts.
    await ctx.enroll({ phone: moved.phone }, ctx.other);
    await expectEvent('enrollment.ended', await ctx.enrollmentOf(moved.id));
    expect((await ctx.enrollmentOf(moved.id)).endReason).toBe('re_enrolled');
    await expectEvent('enrollment.started', await ctx.enrollmentOf(moved.id, ctx.other));

    // Stopped.
    const stopped = await ctx.enroll();
    const stop = await ctx.request('POST', `/api/v1/workflows/${ctx.workflowId}/enrollments/stop`, {
      contactIds: [stopped.id],
    });
    expect(stop.json).toEqual({ stopped: 1, notActive: [] });
    const stoppedEntry = await ctx.enrollmentOf(stopped.id);
    expect(stoppedEntry.endReason).toBe('stopped');
    await expectEvent('enrollment.ended', stoppedEntry);

    // Ended by calls: a final result, and the attempt limit (1) on a call that did not reach anyone.
    const converted = await ctx.enroll();
    const unanswered = await ctx.enroll();
    const placed = await ctx.dial({
      [converted.phone]: { result: 'converted' },
      [unanswered.phone]: { result: 'no_answer' },
    });
    expect(placed.map((p) => p.contactId).sort()).toEqual([converted.id, unanswered.id].sort());
    const convertedEntry = await ctx.enrollmentOf(converted.id);
    expect(convertedEntry).toMatchObject({ endReason: 'final_result', finalResult: 'converted' });
    await expectEvent('enrollment.ended', convertedEntry);
    const unansweredEntry = await ctx.enrollmentOf(unanswered.id);
    expect(unansweredEntry.endReason).toBe('attempt_limit');
    await expectEvent('enrollment.ended', unansweredEntry);

    // The status `connecting` restarts the converted contact's ended enrollment: a start, the same id.
    clock.at = new Date(clock.at.getTime() + 1000);
    const restart = await ctx.request('PUT', '/api/v1/contacts/upsert', {
      phone: converted.phone,
      status: 'connecting',
    });
    expect(restart.status, restart.text).toBe(200);
    const restarted = await ctx.enrollmentOf(converted.id);
    expect(restarted).toMatchObject({ id: convertedEntry.id, state: 'active', endReason: null });
    const again = await delivered(
      'enrollment.started',
      restarted.id,
      (d) => d.payload.timestamp === clock.at.toISOString(),
    );
    expect(again.payload.data).toEqual(restarted);

    // Erased while active: the enrollment stays, with no contact, ended as contact_erased.
    const erased = await ctx.enroll();
    const erasedId = (await ctx.enrollmentOf(erased.id)).id;
    expect((await ctx.request('DELETE', `/api/v1/contacts/${erased.id}`)).status).toBe(204);
    const erasedEntry = (await ctx.list()).find((e) => e.id === erasedId) as EnrollmentAnswer;
    expect(erasedEntry).toMatchObject({ contactId: null, state: 'ended', endReason: 'contact_erased' });
    const erasedEvent = await expectEvent('enrollment.ended', erasedEntry);
    expect(erasedEvent.body).not.toContain(erased.id);

    // One event per start and per end, no more: started 7 (one a restart), ended 5.
    const events = await ctx.enrollmentEvents();
    expect(events.filter((e) => e.type === 'enrollment.started')).toHaveLength(7);
    expect(events.filter((e) => e.type === 'enrollment.ended')).toHaveLength(5);
    // Every one of them was fanned out by now: the endpoint not listening to them got none.
    const log = await ctx.request('GET', `/api/v1/webhook-endpoints/${notListening.id}/deliveries?limit=100`);
    expect(log.status, log.text).toBe(200);
    const types = new Set((log.json.data as Array<{ eventType: string }>).map((d) => d.eventType));
    expect(types).toEqual(new Set(['contact.created']));
    expect(deaf.received.filter((d) => d.payload.type.startsWith('enrollment.'))).toEqual([]);
  });

  it('writes no enrollment event for an Account with no endpoint listening to them', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    await endpoint(ctx.apiKey, deaf.url, ['contact.created', 'call.ended', 'contact.deleted']);
    const moved = await ctx.enroll();
    await ctx.enroll({ phone: moved.phone }, ctx.other);
    const stopped = await ctx.enroll();
    const stop = await ctx.request('POST', `/api/v1/workflows/${ctx.workflowId}/enrollments/stop`, {
      contactIds: [stopped.id],
    });
    expect(stop.json).toEqual({ stopped: 1, notActive: [] });
    const called = await ctx.enroll();
    expect(await ctx.dial({ [called.phone]: { result: 'converted' } })).toHaveLength(1);
    await ctx.request('PUT', '/api/v1/contacts/upsert', { phone: called.phone, status: 'connecting' });
    expect((await ctx.enrollmentOf(called.id)).state).toBe('active');
    const erased = await ctx.enroll();
    expect((await ctx.request('DELETE', `/api/v1/contacts/${erased.id}`)).status).toBe(204);
    expect((await ctx.list()).map((e) => e.endReason ?? e.state).sort()).toEqual([
      'active',
      'contact_erased',
      're_enrolled',
      'stopped',
    ]);
    expect(await ctx.enrollmentEvents()).toEqual([]);
  });
});
