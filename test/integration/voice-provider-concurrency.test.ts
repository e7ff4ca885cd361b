// A provider's concurrency refusal, through Vapi and Retell end to end (the service on a real
// database, the official SDKs against the emulators, on the test's clock). Each provider account
// here takes one call at a time, while Contactline's own caps allow more: the second of two calls
// placed at once is refused. A refusal is never an attempt, and a contact is never called twice:
//   - Vapi answers the create 201 with `subscriptionLimits.concurrencyBlocked` and its call's id.
//     Whether that call is dialled when a slot frees or never starts, Vapi's documents have said
//     both ways, so the Call row is kept (placing, with Vapi's id) and looked up like a create
//     whose answer never came: found queued at Vapi, it is that call (the contact is called once);
//     ended unplaced (`call.start.error-subscription-concurrency-limit-reached`), the messages
//     reporting its end withdraw the call (failed, not an attempt) and the contact is due again a
//     minute later; those messages lost, the lookup finds the call unplaced and places it again, once.
//   - Retell accepts the call, then reports `concurrency_limit_reached` on its webhooks: the call
//     is withdrawn at once (failed with that reason, not an attempt) and the contact is due again
//     a minute later, without waiting for the sweep of unreported calls (30 minutes); the same
//     webhook sent to another Account's URL changes nothing.
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import {
  startRetellBase,
  startVapiBase,
  useProviderSuite,
  type ProviderBase,
  type ProviderSuite,
} from '../support/voice-providers.js';
import type { VapiEmulator } from '../support/vapi-emulator/index.js';
import type { RetellEmulator } from '../support/retell-emulator/index.js';
import { DEFAULT_RETRY_LATER_MS, PLACING_LEASE_MS, reconcilePlacements } from '../../src/jobs/provider-placement.js';

const VAPI_BLOCKED = 'call.start.error-subscription-concurrency-limit-reached';

/**
 * One clock for the service and the emulator, only ever moved forward. It starts on a Monday at
 * 10:00 in Chicago, the contacts' zone: inside the law's calling hours (src/domain/calling-rules/).
 */
function testClock() {
  return {
    at: new Date('2026-11-30T16:00:00.000Z'),
    now() {
      return this.at;
    },
    advance(ms: number) {
      this.at = new Date(this.at.getTime() + ms);
    },
    reach(at: Date) {
      if (at > this.at) this.at = at;
    },
  };
}

/** The suite's own verbs over useProviderSuite: two contacts enrolled and placed at once, and their rows. */
function concurrencySuite<D extends ProviderBase>(suite: ProviderSuite<D>) {
  let phoneSeq = 0;
  const prisma = () => suite.prisma();
  return {
    /**
     * A fresh Account whose agent places two new contacts in one dialer pass: the first takes the
     * provider's one slot, the second is refused. Returns both, in the order they were placed.
     */
    async placeTwo(script?: (phone: string) => void) {
      const ctx = await suite.setupAccount();
      const phones = [0, 1].map(() => `+1312559${String(1000 + phoneSeq++).padStart(4, '0')}`);
      const contactIds: string[] = [];
      for (const phone of phones) {
        script?.(phone);
        const res = await suite.server.request(ctx.apiKey, 'PUT', '/api/v1/contacts/upsert', {
          phone,
          firstName: 'Ada',
          assignmentOptions: { workflowId: ctx.workflowId },
          // A US telemarketing call needs the contact's prior express written consent.
          consent: { kind: 'express_written', method: 'web_form', obtainedAt: '2026-11-01T00:00:00.000Z' },
        });
        expect(res.status, res.text).toBeLessThan(300);
        contactIds.push(res.json.id as string);
      }
      const { placed } = await suite.dial();
      expect(placed.map((p) => p.contactId).sort()).toEqual([...contactIds].sort());
      const [first, second] = placed.map((p) => ({ contactId: p.contactId, callId: p.callId, phone: p.phone }));
      return { first, second };
    },
    callOf: (callId: string) => prisma().call.findUniqueOrThrow({ where: { id: callId } }),
    callsOf: (contactId: string) => prisma().call.findMany({ where: { contactId }, orderBy: { createdAt: 'asc' } }),
    enrollmentOf: (contactId: string) => prisma().enrollment.findFirstOrThrow({ where: { contactId } }),
    contactOf: (contactId: string) => prisma().contact.findUniqueOrThrow({ where: { id: contactId } }),
  };
}

describe.each(testDatabaseKinds())(
  'Vapi blocks a call at its concurrency limit and dials it once a slot frees, on %s',
  (kind) => {
    const clock = testClock();
    let vapi: VapiEmulator;
    const suite = useProviderSuite(
      kind,
      async () => {
        const started = await startVapiBase({
          now: () => clock.now(),
          concurrencyLimit: 1,
          concurrencyRefusal: 'queued-call',
        });
        vapi = started.vapi;
        return started.base;
      },
      { clock },
    );
    const s = concurrencySuite(suite);
    const createsTo = (phone: string) =>
      vapi.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/call' &&
          (r.body as { customer?: { number?: string } }).customer?.number === phone,
      ).length;

    it("keeps the Call row with Vapi's call id, finds that call queued at Vapi, and calls the contact once", async () => {
      const before = vapi.calls.length;
      const { first, second } = await s.placeTwo(suite.driver.scriptConverted);
      const [placed, blocked] = vapi.calls.slice(before);
      expect(blocked.call.status).toBe('queued');

      // Not withdrawn: Vapi may still dial it. Our row waits, with Vapi's id, in flight (not due).
      expect(await s.callOf(second.callId)).toMatchObject({ status: 'placing', providerCallId: blocked.id });
      expect(await s.enrollmentOf(second.contactId)).toMatchObject({ attempts: 0, nextAttemptAt: null });
      expect((await suite.dial()).placed).toEqual([]);

      // The lookup after the placing lease finds Vapi's call by our id: that call, not a new one.
      clock.advance(PLACING_LEASE_MS + 1_000);
      expect(await reconcilePlacements(suite.services())).toBe(1);
      expect(await s.callOf(second.callId)).toMatchObject({ status: 'queued', providerCallId: blocked.id });
      expect((await suite.dial()).placed).toEqual([]);

      // Vapi dials it when the first call's slot frees; its report ends our call.
      for (const call of [placed, blocked]) {
        clock.reach(vapi.timeline(call.id).reportAt);
        const { statuses } = await vapi.finishCall(call.id);
        expect(
          statuses.every((status) => status === 200),
          JSON.stringify(statuses),
        ).toBe(true);
      }
      expect(await s.callsOf(second.contactId)).toMatchObject([
        { id: second.callId, status: 'ended', result: 'converted' },
      ]);
      expect(await s.contactOf(second.contactId)).toMatchObject({ callCount: 1 });
      expect(createsTo(second.phone)).toBe(1);
      expect(createsTo(first.phone)).toBe(1);
    });
  },
);

describe.each(testDatabaseKinds())('Vapi blocks a call at its concurrency limit and never starts it, on %s', (kind) => {
  const clock = testClock();
  let vapi: VapiEmulator;
  const suite = useProviderSuite(
    kind,
    async () => {
      const started = await startVapiBase({ now: () => clock.now(), concurrencyLimit: 1 });
      vapi = started.vapi;
      return started.base;
    },
    { clock },
  );
  const s = concurrencySuite(suite);
  const createsTo = (phone: string) =>
    vapi.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === '/call' &&
        r.status === 201 &&
        (r.body as { customer?: { number?: string } }).customer?.number === phone,
    ).length;

  /** Ends every call still going on at Vapi (each test leaves the one slot free). */
  async function finishAll() {
    for (const call of vapi.calls.filter((c) => !c.ended)) {
      clock.reach(vapi.timeline(call.id).reportAt);
      await vapi.finishCall(call.id);
    }
  }

  it('the messages that report its end withdraw the call without counting an attempt; the contact is due again a minute later', async () => {
    const before = vapi.calls.length;
    const { second } = await s.placeTwo();
    const [, blocked] = vapi.calls.slice(before);
    expect(blocked.call).toMatchObject({ status: 'ended', endedReason: VAPI_BLOCKED });
    expect(await s.callOf(second.callId)).toMatchObject({ status: 'placing', providerCallId: blocked.id });

    clock.reach(vapi.timeline(blocked.id).reportAt);
    const reportedAt = clock.now();
    const { statuses } = await vapi.finishCall(blocked.id);
    expect(
      statuses.every((status) => status === 200),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(await s.callOf(second.callId)).toMatchObject({
      status: 'failed',
      result: null,
      endReason: VAPI_BLOCKED,
      providerCallId: blocked.id,
    });
    const enrollment = await s.enrollmentOf(second.contactId);
    expect(enrollment.attempts).toBe(0);
    expect(enrollment.nextAttemptAt).toEqual(new Date(reportedAt.getTime() + DEFAULT_RETRY_LATER_MS));
    expect(await s.contactOf(second.contactId)).toMatchObject({ callCount: 0 });

    // Not before its time, then placed again as a new call (a new attempt of the same count).
    expect((await suite.dial()).placed).toEqual([]);
    await finishAll();
    clock.reach(enrollment.nextAttemptAt!);
    expect((await suite.dial()).placed.map((p) => p.contactId)).toEqual([second.contactId]);
    expect(await s.callsOf(second.contactId)).toMatchObject([{ status: 'failed' }, { status: 'queued' }]);
    expect(createsTo(second.phone)).toBe(2);
    await finishAll();
  });

  it('its report lost, the lookup finds it was never placed and places the call again, once', async () => {
    const before = vapi.calls.length;
    const { first, second } = await s.placeTwo();
    const [, blocked] = vapi.calls.slice(before);
    expect(await s.callOf(second.callId)).toMatchObject({ status: 'placing', providerCallId: blocked.id });
    await finishAll(); // the first call ends (its slot frees); the blocked call's report is never sent
    expect(await s.callOf(first.callId)).toMatchObject({ status: 'ended' });

    clock.advance(PLACING_LEASE_MS + 1_000);
    expect(await reconcilePlacements(suite.services())).toBe(1);
    const placedAgain = vapi.calls.at(-1)!;
    expect(placedAgain.id).not.toBe(blocked.id);
    expect(placedAgain.call.status).toBe('queued');
    expect(await s.callOf(second.callId)).toMatchObject({ status: 'queued', providerCallId: placedAgain.id });
    expect(createsTo(second.phone)).toBe(2);
    expect(await s.enrollmentOf(second.contactId)).toMatchObject({ attempts: 0, nextAttemptAt: null });

    // Its lookup is over: a later pass places nothing more.
    clock.advance(PLACING_LEASE_MS + 1_000);
    expect(await reconcilePlacements(suite.services())).toBe(0);
    expect(createsTo(second.phone)).toBe(2);
    await finishAll();
    expect(await s.callOf(second.callId)).toMatchObject({ status: 'ended' });
  });
});

describe.each(testDatabaseKinds())('Retell accepts a call, then refuses it for concurrency, on %s', (kind) => {
  const clock = testClock();
  let retell: RetellEmulator;
  const suite = useProviderSuite(
    kind,
    async () => {
      const started = await startRetellBase({
        now: () => clock.now(),
        concurrencyLimit: 1,
        concurrencyRefusal: 'registered-then-error',
      });
      retell = started.retell;
      return started.base;
    },
    { clock },
  );
  const s = concurrencySuite(suite);

  it('its concurrency_limit_reached webhooks withdraw the call at once, without counting an attempt; the contact is due again a minute later', async () => {
    const before = retell.calls.length;
    const { second } = await s.placeTwo();
    const [, refused] = retell.calls.slice(before);
    expect(refused.object.call_status).toBe('registered');
    expect(await s.callOf(second.callId)).toMatchObject({ status: 'queued', providerCallId: refused.providerCallId });

    clock.reach(retell.timeline(refused.providerCallId).reportAt);
    // Signed, but sent to another Account's webhook URL (same Retell workspace): not its call.
    const other = await suite.setupAccount();
    const elsewhere = await retell.finishCall(refused.providerCallId, {
      url: `${suite.server.baseUrl}/api/telephony/retell/${other.accountId}`,
    });
    expect(elsewhere.statuses).toEqual([200, 200]);
    expect(await s.callOf(second.callId)).toMatchObject({ status: 'queued', endReason: null });

    const reportedAt = clock.now();
    const { statuses } = await retell.finishCall(refused.providerCallId);
    expect(statuses).toEqual([200, 200]); // call_ended, then call_analyzed (a no-op)
    expect(refused.object).toMatchObject({ call_status: 'error', disconnection_reason: 'concurrency_limit_reached' });

    expect(await s.callOf(second.callId)).toMatchObject({
      status: 'failed',
      result: null,
      endReason: 'concurrency_limit_reached',
      providerCallId: refused.providerCallId,
    });
    const enrollment = await s.enrollmentOf(second.contactId);
    expect(enrollment.attempts).toBe(0);
    expect(enrollment.nextAttemptAt).toEqual(new Date(reportedAt.getTime() + DEFAULT_RETRY_LATER_MS));
    expect(await s.contactOf(second.contactId)).toMatchObject({ callCount: 0 });

    expect((await suite.dial()).placed).toEqual([]);
    clock.reach(enrollment.nextAttemptAt!);
    expect((await suite.dial()).placed.map((p) => p.contactId)).toEqual([second.contactId]);
    expect(await s.callsOf(second.contactId)).toMatchObject([{ status: 'failed' }, { status: 'queued' }]);
  });
});
