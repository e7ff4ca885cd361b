// A provider's concurrency refusal that comes after the create, end to end (the service on a
// real database, the official SDK against the emulator, on the test's clock). The provider
// account here takes one call at a time, while Contactline's own caps allow more: the second of
// two calls placed at once is refused. A refusal is never an attempt:
//   - Retell accepts the call, then reports `concurrency_limit_reached` on its webhooks: the call
//     is withdrawn at once (failed with that reason, not an attempt) and the contact is due again
//     a minute later, without waiting for the sweep of unreported calls (30 minutes); the same
//     webhook sent to another Account's URL changes nothing.
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import {
  startRetellBase,
  useProviderSuite,
  type ProviderBase,
  type ProviderSuite,
} from '../support/voice-providers.js';
import type { RetellEmulator } from '../support/retell-emulator/index.js';
import { DEFAULT_RETRY_LATER_MS } from '../../src/jobs/provider-placement.js';

/** One clock for the service and the emulator, only ever moved forward. */
function testClock() {
  return {
    at: new Date(),
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
