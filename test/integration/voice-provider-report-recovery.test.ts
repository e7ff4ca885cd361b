// A call whose final report never came, through Vapi and Retell end to end (the service on a
// real database, the official SDKs against the emulators, the emulators on the test's clock so
// that their signatures and call times agree with the service's). The dialer's sweep
// (recoverUnreportedCalls) asks the provider instead of failing the call blindly:
//   - the report was lost: the call ends with the provider's own result, duration, transcript
//     and recording; the report arriving late is a duplicate; the contact is called once;
//   - the provider still has the call in flight: left as it is, asked again only after
//     REPORT_ASK_AGAIN_MS (two dialers ask once), and ended by its webhooks as usual; still in
//     flight REPORT_GIVE_UP_MS after it was placed, it is given up;
//   - the provider has no such call (404): failed, and placed again once;
//   - the provider cannot be asked (5xx, credentials removed): left as it is until
//     REPORT_GIVE_UP_MS after it was placed, then given up and placed again;
//   - Retell never analyses a conversation: it ends without the analysis (the fallbacks).
import { describe, expect, it } from 'vitest';
import { VapiClient } from '@vapi-ai/server-sdk';
import Retell from 'retell-sdk';
import {
  providerCases,
  startRetellBase,
  startVapiBase,
  useProviderSuite,
  type Provider,
  type ProviderBase,
} from '../support/voice-providers.js';
import { recoverUnreportedCalls, UNREPORTED_PLACED_MS, UNREPORTED_STARTED_MS } from '../../src/jobs/dialer.js';
import { REPORT_ASK_AGAIN_MS, REPORT_GIVE_UP_MS } from '../../src/jobs/provider-report-recovery.js';
import { NO_PROVIDER_REPORT } from '../../src/jobs/provider-report-recovery.store.js';
import { PLACING_LEASE_MS, reconcilePlacements } from '../../src/jobs/provider-placement.js';
import { REPORT_GRACE_MS } from '../../src/calls/telephony/voice-provider.port.js';
import { writtenConsent } from '../support/consent.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The first 16:00 UTC at or after `at`: 10:00 in Chicago (11:00 in summer), the contacts' zone. */
function nextMorningInChicago(at: Date): Date {
  const morning = new Date(at);
  morning.setUTCHours(16, 0, 0, 0);
  if (morning < at) morning.setUTCDate(morning.getUTCDate() + 1);
  return morning;
}

/** One provider's emulator behind the same few verbs. */
interface Driver extends ProviderBase {
  /** How many calls were created at the provider to this phone (from its request log: a deleted call counts). */
  createdFor(phone: string): number;
  /** Ends the call and delivers its webhooks. */
  finish(providerCallId: string): Promise<number[]>;
  /** Ends the call; its webhooks up to the start arrive, its final report is lost. */
  loseReport(providerCallId: string): Promise<void>;
  /** Ends the call; none of its webhooks arrive. */
  loseAll(providerCallId: string): Promise<void>;
  /** The lost report arrives after all. */
  lateReport(providerCallId: string): Promise<number[]>;
  /** How many times the call was read (GET), i.e. asked about. */
  asks(providerCallId: string): number;
  /** Deletes the call at the provider, through its SDK: the provider no longer has it. */
  deleteCall(providerCallId: string): Promise<void>;
  outage(status: number | null): void;
  /** Retell only: the call ends, call_ended comes, and Retell never analyses it (no call_analyzed). */
  endWithoutAnalysis?(providerCallId: string): Promise<number[]>;
}

/** The test's clock as the drivers see it: no call is finished before its life is over. */
interface DriverClock {
  now(): Date;
  /** Moves the clock on to `at` when it is not there yet. */
  reach(at: Date): void;
}

async function startDriver(provider: Provider, clock: DriverClock): Promise<Driver> {
  const now = () => clock.now();
  if (provider === 'vapi') {
    const { vapi, base } = await startVapiBase({ now, concurrencyLimit: 100 });
    // The call's life (ring, talk, end, report) has passed before it is finished.
    const over = (id: string) => {
      clock.reach(vapi.timeline(id).reportAt);
      return id;
    };
    return {
      ...base,
      createdFor: (phone) =>
        vapi.requests.filter(
          (r) =>
            r.method === 'POST' &&
            r.path === '/call' &&
            r.status === 201 &&
            (r.body as { customer?: { number?: string } }).customer?.number === phone,
        ).length,
      finish: async (id) => (await vapi.finishCall(over(id))).statuses,
      async loseReport(id) {
        const { statuses } = await vapi.finishCall(over(id), { lose: ['end-of-call-report'] });
        expect(
          statuses.every((s) => s === 200),
          JSON.stringify(statuses),
        ).toBe(true);
      },
      async loseAll(id) {
        expect((await vapi.finishCall(over(id), { lose: ['status-update', 'end-of-call-report'] })).statuses).toEqual(
          [],
        );
      },
      lateReport: async (id) => (await vapi.deliverLost(id)).statuses,
      asks: (id) => vapi.requests.filter((r) => r.method === 'GET' && r.path === `/call/${id}`).length,
      async deleteCall(id) {
        await new VapiClient({ token: base.credentials.apiKey, baseUrl: vapi.baseUrl }).calls.delete({ id });
      },
      outage: (status) => vapi.outage(status),
    };
  }
  const { retell, base } = await startRetellBase({ now, concurrencyLimit: 100 });
  const over = (id: string) => {
    clock.reach(retell.timeline(id).reportAt);
    return id;
  };
  const statuses = (result: { statuses: Array<number | null> }) => result.statuses.map((s) => s ?? 0);
  return {
    ...base,
    createdFor: (phone) =>
      retell.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/v2/create-phone-call' &&
          r.status === 201 &&
          (r.body as { to_number?: string }).to_number === phone,
      ).length,
    finish: async (id) => statuses(await retell.finishCall(over(id))),
    async loseReport(id) {
      expect(statuses(await retell.finishCall(over(id), { order: ['call_started'] }))).toEqual([200]);
    },
    async loseAll(id) {
      expect((await retell.finishCall(over(id), { order: [] })).statuses).toEqual([]);
    },
    lateReport: async (id) => statuses(await retell.finishCall(over(id), { order: ['call_ended', 'call_analyzed'] })),
    asks: (id) => retell.requests.filter((r) => r.method === 'GET' && r.path === `/v2/get-call/${id}`).length,
    async deleteCall(id) {
      await new Retell({ apiKey: base.credentials.apiKey, baseURL: retell.baseUrl }).call.delete(id);
    },
    outage: (status) => retell.outage(status),
    endWithoutAnalysis: async (id) => statuses(await retell.finishCall(over(id), { analysisPending: true })),
  };
}

describe.each(providerCases())('final reports that never came, on %s through %s', (kind, provider) => {
  let phoneSeq = 0;
  // One clock for the service and the emulator, only ever moved forward. It starts on Monday 23
  // November 2026, 10:00 in Chicago, and each test starts at 10:00 there: inside the law's
  // calling hours (src/domain/calling-rules/) for the contacts' Chicago numbers.
  const clock = {
    at: new Date('2026-11-23T16:00:00.000Z'),
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
  const { server, driver, services, prisma, dial, graphql, setupAccount } = useProviderSuite(
    kind,
    () => startDriver(provider, clock),
    { clock },
  );
  const sweep = () => recoverUnreportedCalls(services());
  const freshPhone = () => `+1312558${String(1000 + phoneSeq++).padStart(4, '0')}`;

  /**
   * An Account with the provider's credentials, a live agent (calls new contacts at once) and a
   * published workflow. The clock first moves on past every earlier test's calls, to the next
   * morning in Chicago (the sweep settles them on the way; each test checks only its own).
   */
  async function setup() {
    clock.advance(REPORT_GIVE_UP_MS + DAY);
    clock.reach(nextMorningInChicago(clock.now()));
    const account = await setupAccount();
    await sweep();
    return account;
  }

  /** Enrolls a new contact and places its call: the call is queued at the provider. */
  async function placeOne(ctx: { apiKey: string; workflowId: string }, script?: (phone: string) => void) {
    const phone = freshPhone();
    script?.(phone);
    const res = await server.request(ctx.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      firstName: 'Ada',
      assignmentOptions: { workflowId: ctx.workflowId },
      // A US telemarketing call needs the contact's prior express written consent.
      consent: writtenConsent(clock.now()),
    });
    expect(res.status, res.text).toBeLessThan(300);
    const contactId = res.json.id as string;
    await dial();
    const [call] = await callsOf(contactId);
    expect(call).toMatchObject({ provider, status: 'queued' });
    return { contactId, phone, callId: call.id, providerCallId: call.providerCallId!, placedAt: clock.now() };
  }

  const callsOf = (contactId: string) =>
    prisma().call.findMany({ where: { contactId }, orderBy: { createdAt: 'asc' } });
  const callOf = (callId: string) => prisma().call.findUniqueOrThrow({ where: { id: callId } });
  const enrollmentOf = (contactId: string) => prisma().enrollment.findFirstOrThrow({ where: { contactId } });
  const endedEvents = (contactId: string) =>
    prisma().domainEvent.count({ where: { type: 'call.ended', payload: { path: ['contactId'], equals: contactId } } });

  it("the report was lost: the call ends with the provider's result, duration, transcript and recording; the late report is a duplicate; the contact is called once", async () => {
    const ctx = await setup();
    const placed = await placeOne(ctx, driver.scriptConverted);
    await driver.loseReport(placed.providerCallId);
    expect(await callOf(placed.callId)).toMatchObject({ status: 'in_progress', result: null });

    // Half an hour on: a call in progress is not swept before three hours.
    clock.advance(UNREPORTED_PLACED_MS + MINUTE);
    await sweep();
    expect(driver.asks(placed.providerCallId)).toBe(0);
    expect(await callOf(placed.callId)).toMatchObject({ status: 'in_progress' });

    // Past the cut-off two dialers sweep at once: the provider is asked once.
    clock.advance(UNREPORTED_STARTED_MS);
    await Promise.all([sweep(), sweep()]);
    expect(driver.asks(placed.providerCallId)).toBe(1);
    const ended = await callOf(placed.callId);
    expect(ended).toMatchObject({
      status: 'ended',
      result: 'converted',
      endReason: driver.convertedReason,
      durationSeconds: 95,
      reportReady: true,
      recordingUrl: driver.recordingUrl,
      language: 'en-US',
    });
    const transcript = await server.request(ctx.apiKey, 'GET', `/api/v1/calls/${placed.callId}/transcript`);
    expect(transcript.json.utterances).toEqual(
      expect.arrayContaining([expect.objectContaining({ speaker: 'user', content: 'Sure, go ahead.' })]),
    );
    expect((await server.request(ctx.apiKey, 'GET', `/api/v1/contacts/${placed.contactId}`)).json).toMatchObject({
      status: 'converted',
      callCount: 1,
    });
    expect(await enrollmentOf(placed.contactId)).toMatchObject({ active: false, attempts: 1, endReason: 'converted' });
    expect(await endedEvents(placed.contactId)).toBe(1);

    // The lost report comes after all: accepted, and a duplicate.
    const statuses = await driver.lateReport(placed.providerCallId);
    expect(statuses.length).toBeGreaterThan(0);
    expect(
      statuses.every((s) => s === 200),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(await callOf(placed.callId)).toEqual(ended);
    expect(await endedEvents(placed.contactId)).toBe(1);
    expect(await prisma().contact.findUniqueOrThrow({ where: { id: placed.contactId } })).toMatchObject({
      callCount: 1,
    });

    // Nothing is asked or placed again.
    clock.advance(REPORT_ASK_AGAIN_MS);
    await sweep();
    await dial();
    expect(driver.asks(placed.providerCallId)).toBe(1);
    expect(driver.createdFor(placed.phone)).toBe(1);
    expect(await callsOf(placed.contactId)).toHaveLength(1);
  });

  it("a call lost before it connected is read after half an hour: the line's result, and the agent's retry delay, not a blind retry", async () => {
    const ctx = await setup();
    const placed = await placeOne(ctx, driver.scriptBusy);
    await driver.loseAll(placed.providerCallId);
    clock.advance(UNREPORTED_PLACED_MS + MINUTE);
    await sweep();
    const ended = await callOf(placed.callId);
    expect(ended).toMatchObject({ status: 'ended', result: 'busy', endReason: driver.busyReason, durationSeconds: 0 });
    const enrollment = await enrollmentOf(placed.contactId);
    expect(enrollment).toMatchObject({ active: true, attempts: 1 });
    expect(enrollment.nextAttemptAt!.getTime()).toBeGreaterThan(clock.now().getTime());
    await dial();
    expect(driver.createdFor(placed.phone)).toBe(1);
  });

  it('the provider still has the call: left as it is, asked again only after REPORT_ASK_AGAIN_MS, and ended by its webhooks', async () => {
    const ctx = await setup();
    const placed = await placeOne(ctx, driver.scriptConverted);
    clock.advance(UNREPORTED_PLACED_MS + MINUTE);
    await Promise.all([sweep(), sweep()]);
    expect(driver.asks(placed.providerCallId)).toBe(1);
    await sweep();
    expect(driver.asks(placed.providerCallId)).toBe(1);
    expect(await callOf(placed.callId)).toMatchObject({ status: 'queued', result: null, endReason: null });
    expect(await enrollmentOf(placed.contactId)).toMatchObject({ active: true, attempts: 0, nextAttemptAt: null });

    clock.advance(REPORT_ASK_AGAIN_MS);
    await sweep();
    expect(driver.asks(placed.providerCallId)).toBe(2);
    expect(await callOf(placed.callId)).toMatchObject({ status: 'queued' });
    await dial();
    expect(driver.createdFor(placed.phone)).toBe(1);

    const statuses = await driver.finish(placed.providerCallId);
    expect(
      statuses.every((s) => s === 200),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(await callOf(placed.callId)).toMatchObject({ status: 'ended', result: 'converted' });
  });

  it('a call its provider still has in flight REPORT_GIVE_UP_MS after placing is given up: it only holds a place under the caps', async () => {
    const ctx = await setup();
    const placed = await placeOne(ctx);
    clock.at = new Date(placed.placedAt.getTime() + REPORT_GIVE_UP_MS);
    await sweep();
    expect(driver.asks(placed.providerCallId)).toBe(1);
    expect(await callOf(placed.callId)).toMatchObject({ status: 'failed', endReason: NO_PROVIDER_REPORT });
  });

  it('the provider has no such call (404): failed, its enrollment due again, and placed again once', async () => {
    const ctx = await setup();
    const placed = await placeOne(ctx);
    await driver.deleteCall(placed.providerCallId);
    clock.advance(UNREPORTED_PLACED_MS + MINUTE);
    await sweep();
    expect(driver.asks(placed.providerCallId)).toBe(1);
    expect(await callOf(placed.callId)).toMatchObject({
      status: 'failed',
      endReason: NO_PROVIDER_REPORT,
      result: null,
    });
    expect(await enrollmentOf(placed.contactId)).toMatchObject({
      active: true,
      attempts: 0,
      nextAttemptAt: clock.now(),
    });
    expect(await prisma().contact.findUniqueOrThrow({ where: { id: placed.contactId } })).toMatchObject({
      callCount: 0,
    });

    await dial();
    await dial();
    expect(driver.createdFor(placed.phone)).toBe(2);
    expect((await callsOf(placed.contactId)).map((c) => c.status)).toEqual(['failed', 'queued']);
  });

  it('while the provider cannot be asked (5xx), calls are left as they are, one asked per pass; REPORT_GIVE_UP_MS after placing they are given up and placed again', async () => {
    const ctx = await setup();
    const first = await placeOne(ctx);
    const second = await placeOne(ctx);
    const asked = () => driver.asks(first.providerCallId) + driver.asks(second.providerCallId);
    driver.outage(503);
    try {
      clock.advance(UNREPORTED_PLACED_MS + MINUTE);
      await sweep();
      // The first to fail keeps the Account's other calls from being asked in this pass.
      expect(asked()).toBe(1);
      clock.advance(REPORT_ASK_AGAIN_MS);
      await sweep();
      // The one not asked goes first in the next pass.
      expect([driver.asks(first.providerCallId), driver.asks(second.providerCallId)]).toEqual([1, 1]);
      // The last pass before the ceiling (both leases run out by the ceiling).
      clock.at = new Date(second.placedAt.getTime() + REPORT_GIVE_UP_MS - REPORT_ASK_AGAIN_MS);
      await sweep();
      for (const placed of [first, second])
        expect(await callOf(placed.callId)).toMatchObject({ status: 'queued', endReason: null });

      clock.at = new Date(second.placedAt.getTime() + REPORT_GIVE_UP_MS);
      await sweep();
      for (const placed of [first, second]) {
        expect(await callOf(placed.callId)).toMatchObject({ status: 'failed', endReason: NO_PROVIDER_REPORT });
        expect(await enrollmentOf(placed.contactId)).toMatchObject({
          active: true,
          attempts: 0,
          nextAttemptAt: clock.now(),
        });
      }
    } finally {
      driver.outage(null);
    }
    await dial();
    for (const placed of [first, second]) expect(driver.createdFor(placed.phone)).toBe(2);
  });

  it("the Account's credentials were removed: left as it is, then given up REPORT_GIVE_UP_MS after placing", async () => {
    const ctx = await setup();
    const placed = await placeOne(ctx);
    expect(
      (
        await graphql(
          'mutation ($a: String!, $p: String!) { removeProviderCredentials(accountId: $a, provider: $p) }',
          { a: ctx.accountId, p: provider },
        )
      ).removeProviderCredentials,
    ).toBe(true);
    clock.advance(UNREPORTED_PLACED_MS + MINUTE);
    await sweep();
    expect(await callOf(placed.callId)).toMatchObject({ status: 'queued' });
    clock.at = new Date(placed.placedAt.getTime() + REPORT_GIVE_UP_MS);
    await sweep();
    expect(driver.asks(placed.providerCallId)).toBe(0);
    expect(await callOf(placed.callId)).toMatchObject({ status: 'failed', endReason: NO_PROVIDER_REPORT });
    expect(await enrollmentOf(placed.contactId)).toMatchObject({ active: true, nextAttemptAt: clock.now() });
  });

  it('a call still placing (no answer from the provider) when the credentials were removed: kept, then given up REPORT_GIVE_UP_MS after placing', async () => {
    const ctx = await setup();
    const placed = await placeOne(ctx);
    // As if the create's answer had been lost: placing, with its lease from the placing time.
    await prisma().call.update({
      where: { id: placed.callId },
      data: { status: 'placing', providerCallId: null, placingSince: placed.placedAt },
    });
    expect(
      (
        await graphql(
          'mutation ($a: String!, $p: String!) { removeProviderCredentials(accountId: $a, provider: $p) }',
          { a: ctx.accountId, p: provider },
        )
      ).removeProviderCredentials,
    ).toBe(true);
    clock.advance(PLACING_LEASE_MS + MINUTE);
    await reconcilePlacements(services());
    expect(await callOf(placed.callId)).toMatchObject({ status: 'placing' });
    clock.at = new Date(placed.placedAt.getTime() + REPORT_GIVE_UP_MS);
    await reconcilePlacements(services());
    expect(await callOf(placed.callId)).toMatchObject({
      status: 'failed',
      endReason: NO_PROVIDER_REPORT,
      placingSince: null,
    });
    expect(await enrollmentOf(placed.contactId)).toMatchObject({ active: true, nextAttemptAt: clock.now() });
    expect(driver.createdFor(placed.phone)).toBe(1);
  });

  it("a provider call without the provider's id is given up at the cut-off, as before", async () => {
    const ctx = await setup();
    const placed = await placeOne(ctx);
    await prisma().call.update({ where: { id: placed.callId }, data: { providerCallId: null } });
    clock.advance(UNREPORTED_PLACED_MS + MINUTE);
    await sweep();
    expect(driver.asks(placed.providerCallId)).toBe(0);
    expect(await callOf(placed.callId)).toMatchObject({ status: 'failed', endReason: NO_PROVIDER_REPORT });
  });

  it.runIf(provider === 'retell')(
    'Retell never analyses a conversation: in flight for REPORT_GRACE_MS after it ended, then ended without the analysis (answered)',
    async () => {
      const ctx = await setup();
      // A conversation that ends late in its third hour; call_ended comes, call_analyzed never does.
      const talk = (UNREPORTED_STARTED_MS - 5 * MINUTE) / 1000;
      const placed = await placeOne(ctx, (phone) => driver.scriptConverted(phone, talk));
      expect(await driver.endWithoutAnalysis!(placed.providerCallId)).toEqual([200, 200]);
      expect(await callOf(placed.callId)).toMatchObject({ status: 'in_progress', reportReady: true });

      clock.advance(6 * MINUTE);
      await sweep();
      expect(driver.asks(placed.providerCallId)).toBe(1);
      expect(await callOf(placed.callId)).toMatchObject({ status: 'in_progress' });

      clock.advance(Math.max(REPORT_ASK_AGAIN_MS, REPORT_GRACE_MS - 6 * MINUTE + MINUTE));
      await sweep();
      expect(driver.asks(placed.providerCallId)).toBe(2);
      expect(await callOf(placed.callId)).toMatchObject({
        status: 'ended',
        result: 'answered',
        durationSeconds: talk,
        recordingUrl: driver.recordingUrl,
      });
    },
  );
});
