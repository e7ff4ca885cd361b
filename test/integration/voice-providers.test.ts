// Real calls through Vapi and Retell, end to end against local emulators of both providers (the
// official SDKs pointed at them through VAPI_API_URL / RETELL_API_URL): a contact enrolled on a
// provider agent is placed by the dialer through the SDK, the provider's signed webhooks reach
// POST /api/telephony/{provider}/{accountId}, and the contact, the call and its transcript
// follow. Also: refused webhooks change nothing, duplicates and out-of-order delivery apply
// once, a 429 and a concurrency refusal answered to the create are retried without counting an
// attempt, a timeout is reconciled (placed once), a refused number ends the call, and the caps
// hold with two dialers. A refusal that comes later, or that leaves the call open (Vapi's
// concurrencyBlocked): voice-provider-concurrency.test.ts.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer } from '../support/test-server.js';
import {
  providerCases,
  startRetellBase,
  startVapiBase,
  useProviderSuite,
  type Provider,
  type ProviderBase,
} from '../support/voice-providers.js';
import { createVoiceProviderAdapters } from '../../src/calls/telephony/voice-providers.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import { reconcilePlacements, PLACING_LEASE_MS } from '../../src/jobs/provider-placement.js';
import { ALWAYS_OPEN } from '../support/working-hours.js';
import { clockFrom } from '../support/clocks.js';
import { writtenConsent } from '../support/consent.js';

/** One provider's emulator behind the same few verbs. */
interface Driver extends ProviderBase {
  /** Provider call ids, in creation order, and the create requests' bodies. */
  created(): Array<{ providerCallId: string; request: any }>;
  /** Sends the call's webhooks; the provider refuses (throws) while its clock is before timeline().reportAt. */
  finish(
    providerCallId: string,
    options?: { duplicates?: boolean; reversed?: boolean; wrongSecret?: boolean; stale?: boolean; tamper?: boolean },
  ): Promise<number[]>;
  failNextCreate(status: number, retryAfterSeconds?: number): void;
  /** An inbound call from `from` to our number `to`, its webhooks sent to `webhookUrl`. */
  inbound(from: string, to: string, webhookUrl: string): Promise<number[]>;
  stallNextCreate(ms: number): void;
}

/** The provider's emulator, on the service's clock (`now`); `vapiRefusal`: how Vapi shows its concurrency refusal. */
async function startDriver(
  provider: Provider,
  now: () => Date,
  concurrencyLimit = 50,
  vapiRefusal?: 'blocked-call' | 'queued-call' | 'bad-request',
): Promise<Driver> {
  if (provider === 'vapi') {
    const { vapi, base } = await startVapiBase({ now, concurrencyLimit, concurrencyRefusal: vapiRefusal });
    return {
      ...base,
      created: () => vapi.calls.filter((c) => c.request).map((c) => ({ providerCallId: c.id, request: c.request })),
      async finish(id, o = {}) {
        const { statuses } = await vapi.finishCall(id, {
          duplicates: o.duplicates ? 1 : 0,
          reversed: o.reversed,
          secret: o.wrongSecret ? 'another-secret-0000000' : undefined,
          staleSeconds: o.stale ? 600 : undefined,
          tamper: o.tamper ? (body) => `${body} ` : undefined,
        });
        return statuses;
      },
      failNextCreate: (status, retryAfterSeconds) => vapi.failNextCreate({ status, retryAfterSeconds }),
      inbound: async (from, to, webhookUrl) =>
        (
          await vapi.inboundCall({
            from,
            to,
            webhookUrl,
            script: { endedReason: 'customer-ended-call', analysis: { outcome: 'answered' } },
          })
        ).statuses,
      stallNextCreate: (ms) => vapi.stallNextCreate(ms),
    };
  }
  const { retell, base } = await startRetellBase({ now, concurrencyLimit });
  return {
    ...base,
    created: () =>
      retell.calls.filter((c) => c.request).map((c) => ({ providerCallId: c.providerCallId, request: c.request })),
    async finish(id, o = {}) {
      const { statuses } = await retell.finishCall(id, {
        duplicates: o.duplicates ? 1 : 0,
        order: o.reversed ? 'reversed' : 'documented',
        secret: o.wrongSecret ? 'key_another_000000' : undefined,
        signatureAgeMs: o.stale ? 600_000 : undefined,
        tamper: o.tamper ? (body) => `${body} ` : undefined,
      });
      return statuses.map((s) => s ?? 0);
    },
    failNextCreate: (status, retryAfterSeconds) => retell.failNextCreate({ status, retryAfterSeconds }),
    inbound: async (from, to, webhookUrl) =>
      (
        await retell.inboundCall({
          from,
          to,
          webhookUrl,
          outcome: { disconnectionReason: 'user_hangup', analysis: { outcome: 'answered' } },
        })
      ).statuses.map((s) => s ?? 0),
    stallNextCreate: (ms) => retell.stallNextCreate(ms),
  };
}

describe.each(providerCases())('real calls on %s through %s', (kind, provider) => {
  let phoneSeq = 0;
  // The time each test starts from: Monday 23 November 2026, 10:00 in Chicago (the contacts' zone:
  // inside the law's calling hours) when the suite starts, moving on with the real time.
  const daytime = clockFrom(new Date('2026-11-23T16:00:00.000Z'));
  const clock = {
    at: daytime.now(),
    now() {
      return this.at;
    },
  };
  // Short create timeouts, so that a stalled provider is a quick `unknown`.
  const { server, driver, services, prisma, simulator, dial, graphql, setupAccount } = useProviderSuite(
    kind,
    () => startDriver(provider, () => clock.now()),
    {
      clock,
      adapters: createVoiceProviderAdapters({ timeoutMs: 1500 }),
    },
  );
  const freshPhone = () => `+1312557${String(1000 + phoneSeq++).padStart(4, '0')}`;

  /** An Account with the provider's credentials, a live agent on it (calls new contacts at once) and a published workflow. */
  async function setup(agent: { maxConcurrentCalls?: number } = {}, credentials: { maxConcurrentCalls?: number } = {}) {
    clock.at = daytime.now();
    return setupAccount({ agent, credentials });
  }

  async function enroll(ctx: { apiKey: string; workflowId: string }, body: Record<string, unknown> = {}) {
    const phone = (body.phone as string) ?? freshPhone();
    const res = await server.request(ctx.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      firstName: 'Ada',
      lastName: 'Lovelace',
      customFields: { plan: 'gold' },
      // A US telemarketing call needs the contact's prior express written consent.
      consent: writtenConsent(clock.now()),
      ...body,
      assignmentOptions: { workflowId: ctx.workflowId },
    });
    expect(res.status, res.text).toBeLessThan(300);
    return res.json as { id: string; phone: string };
  }

  /** The call's life runs as the provider scripted it: the clock moves on to when the provider reports its end. */
  const callIsOver = (providerCallId: string) => {
    clock.at = new Date(Math.max(clock.at.getTime(), driver.timeline(providerCallId).reportAt.getTime()));
  };

  const callsOf = (contactId: string) =>
    prisma().call.findMany({ where: { contactId }, orderBy: { createdAt: 'asc' } });

  it('places the call through the SDK with our call id and the contact, then applies the signed webhooks', async () => {
    const ctx = await setup();
    const phone = freshPhone();
    driver.scriptConverted(phone);
    const contact = await enroll(ctx, { phone });
    const before = driver.created().length;
    expect((await dial()).placed.map((p) => p.contactId)).toEqual([contact.id]);
    const [call] = await callsOf(contact.id);
    expect(call).toMatchObject({ provider, status: 'queued' });
    const [created] = driver.created().slice(before);
    expect(call.providerCallId).toBe(created.providerCallId);
    // Our call id and the contact's variables reached the provider.
    expect(JSON.stringify(created.request)).toContain(call.id);
    expect(JSON.stringify(created.request)).toContain('Lovelace');
    expect(JSON.stringify(created.request)).toContain('gold');
    expect(JSON.stringify(created.request)).toContain(`/api/telephony/${provider}/${ctx.accountId}`);

    callIsOver(created.providerCallId);
    const statuses = await driver.finish(created.providerCallId);
    expect(
      statuses.every((s) => s === 200),
      JSON.stringify(statuses),
    ).toBe(true);
    const ended = (await callsOf(contact.id))[0];
    expect(ended).toMatchObject({
      status: 'ended',
      result: 'converted',
      reportReady: true,
      providerCallId: created.providerCallId,
    });
    expect(ended.recordingUrl).toMatch(/^https:\/\//);
    const stored = await server.request(ctx.apiKey, 'GET', `/api/v1/contacts/${contact.id}`);
    expect(stored.json).toMatchObject({ status: 'converted', callCount: 1 });
    const listed = await server.request(
      ctx.apiKey,
      'GET',
      `/api/v1/contacts/source/api/external-id/${contact.id}/calls`,
    );
    expect(listed.json.data).toMatchObject([{ id: call.id, result: 'converted', recordingUrl: ended.recordingUrl }]);
    const transcript = await server.request(ctx.apiKey, 'GET', `/api/v1/calls/${call.id}/transcript`);
    expect(transcript.json.utterances.length).toBeGreaterThan(0);
    expect(transcript.json.utterances[0]).toMatchObject({
      speaker: expect.stringMatching(/^(assistant|user)$/),
      content: expect.any(String),
    });
  });

  it('dates the call as the provider did: placed ≤ picked up ≤ utterances ≤ ended ≤ when its report was applied, duration from pick-up to end', async () => {
    const ctx = await setup();
    const phone = freshPhone();
    driver.scriptConverted(phone);
    const contact = await enroll(ctx, { phone });
    const placedAt = clock.at;
    await dial();
    const { providerCallId } = driver.created().at(-1)!;
    const life = driver.timeline(providerCallId);
    const pickUp = life.startedAt!;
    expect(pickUp.getTime()).toBeGreaterThan(placedAt.getTime());
    expect(life.endedAt.getTime() - pickUp.getTime()).toBe(95_000);
    // While the call is still going on, the provider has nothing to report.
    clock.at = new Date(life.endedAt.getTime() - 1_000);
    await expect(driver.finish(providerCallId)).rejects.toThrow(/not over yet.*advance it by \d+(\.\d+)? s/);
    expect((await callsOf(contact.id))[0]).toMatchObject({ status: 'queued' });
    // It reports a little after the end; the service applies the report then.
    clock.at = new Date(life.reportAt.getTime() + 2_000);
    const reportedAt = clock.at;
    expect((await driver.finish(providerCallId)).every((s) => s === 200)).toBe(true);

    const listed = await server.request(
      ctx.apiKey,
      'GET',
      `/api/v1/contacts/source/api/external-id/${contact.id}/calls`,
    );
    expect(listed.status, listed.text).toBe(200);
    const [call] = listed.json.data as Array<{
      id: string;
      status: string;
      startedAt: string;
      endedAt: string;
      durationSeconds: number;
    }>;
    expect(call).toMatchObject({ status: 'ended', durationSeconds: 95 });
    // startedAt: when the dialer placed the call (the list's order); endedAt: the provider's end.
    expect(call.startedAt).toBe(placedAt.toISOString());
    expect(call.endedAt).toBe(life.endedAt.toISOString());
    expect(Date.parse(call.endedAt)).toBeLessThanOrEqual(reportedAt.getTime());
    expect(call.durationSeconds * 1000).toBe(Date.parse(call.endedAt) - pickUp.getTime());

    const transcript = await server.request(ctx.apiKey, 'GET', `/api/v1/calls/${call.id}/transcript`);
    const times = (transcript.json.utterances as Array<{ timestamp: string }>).map((u) => Date.parse(u.timestamp));
    expect(times.length).toBeGreaterThan(0);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Date.parse(call.startedAt)).toBeLessThanOrEqual(pickUp.getTime());
    expect(times[0]).toBeGreaterThanOrEqual(pickUp.getTime());
    expect(times.at(-1)!).toBeLessThanOrEqual(Date.parse(call.endedAt));
  });

  it('dates a call nobody picked up: no pick-up, a zero duration, ended after it was placed and before its report', async () => {
    const ctx = await setup();
    const phone = freshPhone();
    driver.scriptBusy(phone);
    const contact = await enroll(ctx, { phone });
    const placedAt = clock.at;
    await dial();
    const { providerCallId } = driver.created().at(-1)!;
    const life = driver.timeline(providerCallId);
    expect(life.startedAt).toBeNull();
    callIsOver(providerCallId);
    const reportedAt = clock.at;
    expect((await driver.finish(providerCallId)).every((s) => s === 200)).toBe(true);
    const listed = await server.request(
      ctx.apiKey,
      'GET',
      `/api/v1/contacts/source/api/external-id/${contact.id}/calls`,
    );
    const [call] = listed.json.data as Array<{
      id: string;
      result: string;
      startedAt: string;
      endedAt: string;
      durationSeconds: number;
    }>;
    expect(call).toMatchObject({
      result: 'busy',
      durationSeconds: 0,
      startedAt: placedAt.toISOString(),
      endedAt: life.endedAt.toISOString(),
    });
    expect(Date.parse(call.endedAt)).toBeGreaterThan(placedAt.getTime());
    expect(Date.parse(call.endedAt)).toBeLessThanOrEqual(reportedAt.getTime());
    expect((await server.request(ctx.apiKey, 'GET', `/api/v1/calls/${call.id}/transcript`)).json.utterances).toEqual(
      [],
    );
  });

  it('refuses webhooks with a wrong secret, a stale timestamp or a changed body (401, nothing applied); applies duplicates and reversed order once', async () => {
    const ctx = await setup();
    const placeOne = async () => {
      const phone = freshPhone();
      driver.scriptConverted(phone);
      const contact = await enroll(ctx, { phone });
      await dial();
      return { contact, providerCallId: driver.created().at(-1)!.providerCallId };
    };
    // Each forged delivery on a call of its own (a provider ends a call once).
    for (const attack of [{ wrongSecret: true }, { stale: true }, { tamper: true }]) {
      const { contact, providerCallId } = await placeOne();
      callIsOver(providerCallId);
      const statuses = await driver.finish(providerCallId, attack);
      expect(statuses.length).toBeGreaterThan(0);
      expect(
        statuses.every((s) => s === 401),
        `${JSON.stringify(attack)}: ${JSON.stringify(statuses)}`,
      ).toBe(true);
      expect((await callsOf(contact.id))[0]).toMatchObject({ status: 'queued', result: null });
      expect(await prisma().contact.findUniqueOrThrow({ where: { id: contact.id } })).toMatchObject({ callCount: 0 });
    }
    const { contact, providerCallId } = await placeOne();
    callIsOver(providerCallId);
    const statuses = await driver.finish(providerCallId, { duplicates: true, reversed: true });
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await callsOf(contact.id))[0]).toMatchObject({ status: 'ended', result: 'converted' });
    expect(await prisma().contact.findUniqueOrThrow({ where: { id: contact.id } })).toMatchObject({ callCount: 1 });
    expect(
      await prisma().domainEvent.count({
        where: { type: 'call.ended', payload: { path: ['contactId'], equals: contact.id } },
      }),
    ).toBe(1);
  });

  it('a 429 is retried later without counting an attempt', async () => {
    const ctx = await setup();
    const contact = await enroll(ctx);
    driver.failNextCreate(429, 30);
    expect((await dial()).placed).toHaveLength(1);
    expect(await callsOf(contact.id)).toEqual([]);
    const enrollment = await prisma().enrollment.findFirstOrThrow({ where: { contactId: contact.id, active: true } });
    expect(enrollment.attempts).toBe(0);
    expect(enrollment.nextAttemptAt!.getTime()).toBe(clock.at.getTime() + 30_000);
    clock.at = new Date(clock.at.getTime() + 31_000);
    expect((await dial()).placed.map((p) => p.contactId)).toEqual([contact.id]);
    expect(await callsOf(contact.id)).toMatchObject([{ status: 'queued' }]);
  });

  it("the provider's concurrency refusal answered to the create is retried later without counting an attempt", async () => {
    // A provider account that takes one call at a time, behind a service of its own. Vapi's
    // refusal here is its 400: a 201 with concurrencyBlocked names a call Vapi may still dial,
    // which is kept and looked up instead (voice-provider-concurrency.test.ts).
    const tight = await startDriver(provider, () => clock.now(), 1, 'bad-request');
    const own = await startTestServer(kind, { clock, voice: tight.env });
    try {
      const account = await own.createAccount();
      const op = async (query: string, variables: Record<string, unknown>) =>
        (await own.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables })).json.data;
      await op('mutation ($i: JSON!) { setProviderCredentials(input: $i) { provider } }', {
        i: { accountId: account.accountId, provider, ...tight.credentials, maxConcurrentCalls: 100 },
      });
      const { createAgent } = await op('mutation ($i: JSON!) { createAgent(input: $i) { id } }', {
        i: {
          accountId: account.accountId,
          name: 'Ava',
          status: 'live',
          provider,
          ...tight.agent,
          callNewContactsImmediately: true,
          workingHours: ALWAYS_OPEN,
          maxConcurrentCalls: 100,
        },
      });
      const { createWorkflow } = await op(
        'mutation ($a: String!, $g: String!) { createWorkflow(accountId: $a, agentId: $g, name: "W", status: published) { id } }',
        { a: account.accountId, g: createAgent.id },
      );
      const contacts = [];
      for (let i = 0; i < 2; i++) {
        const res = await own.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
          phone: freshPhone(),
          assignmentOptions: { workflowId: createWorkflow.id },
          consent: writtenConsent(clock.now()),
        });
        expect(res.status, res.text).toBeLessThan(300);
        contacts.push(res.json.id as string);
      }
      await runDialerOnce(own.service.services, simulator);
      const calls = await own.service.services.db.prisma.call.findMany({ where: { accountId: account.accountId } });
      expect(calls).toMatchObject([{ status: 'queued' }]);
      const refused = contacts.find((id) => id !== calls[0].contactId)!;
      const enrollment = await own.service.services.db.prisma.enrollment.findFirstOrThrow({
        where: { contactId: refused, active: true },
      });
      expect(enrollment.attempts).toBe(0);
      expect(enrollment.nextAttemptAt!.getTime()).toBeGreaterThan(clock.at.getTime());
      expect(await own.service.services.db.prisma.contact.findUniqueOrThrow({ where: { id: refused } })).toMatchObject({
        callCount: 0,
      });
    } finally {
      await own.stop();
      await tight.stop();
    }
  });

  it('an inbound call to the agent number creates the caller and records the call', async () => {
    const ctx = await setup();
    const agentNumber = `+1646558${String(1000 + phoneSeq++).padStart(4, '0')}`;
    await graphql('mutation ($id: String!, $i: JSON!) { updateAgent(id: $id, input: $i) { id } }', {
      id: ctx.agentId,
      i: { phoneNumber: agentNumber },
    });
    const caller = freshPhone();
    const statuses = await driver.inbound(
      caller,
      agentNumber,
      `${server.baseUrl}/api/telephony/${provider}/${ctx.accountId}`,
    );
    expect(
      statuses.every((s) => s === 200),
      JSON.stringify(statuses),
    ).toBe(true);
    const contact = await prisma().contact.findFirstOrThrow({ where: { accountId: ctx.accountId, phone: caller } });
    expect(contact).toMatchObject({ sourceKind: 'oneai', callCount: 1, status: 'reached' });
    expect(await callsOf(contact.id)).toMatchObject([
      { direction: 'inbound', provider, status: 'ended', result: 'answered', agentId: ctx.agentId },
    ]);
    // Another Account's credentials cannot report it: the route is per Account.
    const other = await setup();
    const forged = await driver.inbound(
      freshPhone(),
      agentNumber,
      `${server.baseUrl}/api/telephony/${provider}/${other.accountId}`,
    );
    expect(
      forged.every((s) => s === 404),
      JSON.stringify(forged),
    ).toBe(true);
  });

  it('a refused number ends the call with a result that says so', async () => {
    const ctx = await setup();
    const contact = await enroll(ctx);
    driver.failNextCreate(provider === 'vapi' ? 400 : 422);
    await dial();
    const [call] = await callsOf(contact.id);
    expect(call.status).toBe('ended');
    expect(call.result).toMatch(/^(invalid_number|new)$/);
    expect(call.endReason).toBeTruthy();
  });

  it('a timeout is reconciled by looking the call up: placed once, never twice', async () => {
    const ctx = await setup();
    const contact = await enroll(ctx);
    const before = driver.created().length;
    driver.stallNextCreate(4000);
    await dial();
    const [placing] = await callsOf(contact.id);
    expect(placing).toMatchObject({ status: 'placing', providerCallId: null });
    await new Promise((r) => setTimeout(r, 3000)); // the stalled create lands at the provider
    clock.at = new Date(clock.at.getTime() + PLACING_LEASE_MS + 1000);
    expect(await reconcilePlacements(services())).toBe(1);
    const [found] = await callsOf(contact.id);
    expect(found.status).toBe('queued');
    expect(driver.created().slice(before)).toHaveLength(1);
    expect(found.providerCallId).toBe(driver.created().at(-1)!.providerCallId);
  });

  it('never places past the agent cap or the key cap, with two dialers at once', async () => {
    const ctx = await setup({ maxConcurrentCalls: 3 }, { maxConcurrentCalls: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await enroll(ctx)).id);
    const [a, b] = await Promise.all([runDialerOnce(services(), simulator), runDialerOnce(services(), simulator)]);
    expect(a.placed.length + b.placed.length).toBe(3);
    expect(await prisma().call.count({ where: { agentId: ctx.agentId } })).toBe(3);
    // A second agent of the Account shares the key's cap of 5: two more at most.
    const { createAgent } = await graphql('mutation ($i: JSON!) { createAgent(input: $i) { id } }', {
      i: {
        accountId: ctx.accountId,
        name: 'Bo',
        status: 'live',
        provider,
        ...driver.agent,
        callNewContactsImmediately: true,
        workingHours: ALWAYS_OPEN,
      },
    });
    const { createWorkflow } = await graphql(
      'mutation ($a: String!, $g: String!) { createWorkflow(accountId: $a, agentId: $g, name: "W2", status: published) { id } }',
      { a: ctx.accountId, g: createAgent.id },
    );
    for (let i = 0; i < 4; i++) await enroll({ apiKey: ctx.apiKey, workflowId: createWorkflow.id });
    const [c, d] = await Promise.all([runDialerOnce(services(), simulator), runDialerOnce(services(), simulator)]);
    expect(c.placed.length + d.placed.length).toBe(2);
    // A finished call frees a place.
    const first = driver
      .created()
      .find((x) => JSON.stringify(x.request).includes(a.placed[0]?.callId ?? b.placed[0].callId))!;
    callIsOver(first.providerCallId);
    await driver.finish(first.providerCallId);
    expect((await dial()).placed).toHaveLength(1);
  });
});
