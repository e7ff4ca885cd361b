// The dialer and call outcomes with a controlled clock: calling hours across zones, priority,
// attempt limits and retry delays, paused/dnc/blocked contacts, workflows and agents that
// cannot call, duplicate and out-of-order events, and two dialers sharing one database. The
// calling rules are on (a new Account's default): every enrolled contact carries prior express
// written consent, and the clock stays inside the law's hours wherever the contacts are, unless
// a test says otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import {
  createSimulatedTelephony,
  type SimulatedOutcome,
  type SimulatedTelephony,
} from '../../src/calls/telephony/simulator.adapter.js';
import { applyTelephonyEvent } from '../../src/domain/calls/call-events.service.js';
import { DEFAULT_WORKING_HOURS } from '../../src/domain/calls/calling-hours.rules.js';
import { writtenConsent } from '../support/consent.js';

// Monday 23 November 2026, 10:00 in Chicago (UTC-6).
const MONDAY_10_CHICAGO = new Date('2026-11-23T16:00:00.000Z');

describe.each(testDatabaseKinds())('dialer on %s', (kind) => {
  let server: TestServer;
  const clock = {
    at: MONDAY_10_CHICAGO,
    now() {
      return this.at;
    },
  };
  let telephony: SimulatedTelephony;
  let phoneSeq = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    telephony = createSimulatedTelephony({
      sink: async (event) => {
        await applyTelephonyEvent(server.service.services, event);
      },
      delayMs: 0,
    });
  });
  afterAll(() => server?.stop());

  const prisma = () => server.service.services.db.prisma;
  const services = () => server.service.services;
  const dial = async (batchSize = 100) => {
    const run = await runDialerOnce(services(), telephony, batchSize);
    await telephony.settled();
    return run;
  };
  const freshPhone = () => `+1312555${String(1000 + phoneSeq++).padStart(4, '0')}`;
  /** A Tokyo landline (+81 3): Japan has no calling rules in the rule set, so only the agent's hours apply. */
  const freshTokyoPhone = () => `+8135555${String(1000 + phoneSeq++).padStart(4, '0')}`;

  async function setup(
    agent: Partial<{
      attemptLimit: number;
      retryDelayMinutes: number;
      callNewContactsImmediately: boolean;
      status: 'live' | 'paused' | 'draft';
      timezone: string;
      defaultLanguage: string;
      workingHours: object;
    }> = {},
  ) {
    const account = await server.createAccount();
    const a = await prisma().agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        name: 'Ava',
        status: agent.status ?? 'live',
        timezone: agent.timezone ?? 'America/Chicago',
        defaultLanguage: agent.defaultLanguage ?? 'en-US',
        attemptLimit: agent.attemptLimit ?? 2,
        workingHours: agent.workingHours ?? (DEFAULT_WORKING_HOURS as object),
        retryDelayMinutes: agent.retryDelayMinutes ?? 60,
        callNewContactsImmediately: agent.callNewContactsImmediately ?? false,
      },
    });
    const w = await prisma().workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        agentId: a.id,
        name: 'W',
        status: 'published',
      },
    });
    return { ...account, agentId: a.id, workflowId: w.id };
  }

  async function enroll(
    ctx: { apiKey: string; workflowId: string },
    body: Record<string, unknown> = {},
    outcome?: SimulatedOutcome,
  ) {
    const phone = (body.phone as string) ?? freshPhone();
    if (outcome) telephony.setScript(phone, outcome);
    const res = await server.request(ctx.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      // A US telemarketing call needs the contact's prior express written consent.
      consent: writtenConsent(server.now()),
      ...body,
      assignmentOptions: { workflowId: ctx.workflowId, ...(body.assignmentOptions as object) },
    });
    expect(res.status, res.text).toBeLessThan(300);
    return res.json as { id: string; phone: string };
  }

  const contact = (id: string) =>
    server.request(null, 'GET', '/healthz').then(() => prisma().contact.findUniqueOrThrow({ where: { id } }));
  const enrollment = (contactId: string) =>
    prisma().enrollment.findFirstOrThrow({ where: { contactId }, orderBy: { createdAt: 'desc' } });

  it('calls inside working hours, counts outcomes, retries after the delay and stops at the attempt limit', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup({ attemptLimit: 2, retryDelayMinutes: 60 });
    const c = await enroll(ctx, {}, { result: 'no_answer', nextAttemptInMinutes: null });
    expect((await dial()).placed.map((p) => p.contactId)).toEqual([c.id]);
    let stored = await contact(c.id);
    expect(stored).toMatchObject({
      callCount: 1,
      status: 'not_answered',
      maxAttempts: 2,
      lastCallAt: MONDAY_10_CHICAGO,
      nextCallAt: null,
    });
    let e = await enrollment(c.id);
    expect(e).toMatchObject({ attempts: 1, active: true });
    expect(e.nextAttemptAt!.getTime()).toBe(MONDAY_10_CHICAGO.getTime() + 60 * 60_000);

    // Not yet due: nothing placed.
    clock.at = new Date(MONDAY_10_CHICAGO.getTime() + 30 * 60_000);
    expect((await dial()).placed).toHaveLength(0);
    clock.at = new Date(MONDAY_10_CHICAGO.getTime() + 61 * 60_000);
    expect((await dial()).placed).toHaveLength(1);
    stored = await contact(c.id);
    e = await enrollment(c.id);
    expect(stored).toMatchObject({ callCount: 2, lastCallAt: clock.at, nextCallAt: null });
    expect(e).toMatchObject({ attempts: 2, active: false, endReason: 'attempt_limit', nextAttemptAt: null });
    const calls = await prisma().call.findMany({ where: { contactId: c.id }, orderBy: { createdAt: 'asc' } });
    expect(calls.map((x) => [x.result, x.lastCall, x.status])).toEqual([
      ['no_answer', false, 'ended'],
      ['no_answer', true, 'ended'],
    ]);
    // The attempt limit reached, the dialer leaves the contact alone.
    clock.at = new Date(clock.at.getTime() + 24 * 3600_000);
    expect((await dial()).placed).toHaveLength(0);
  });

  it('an agent with no working-hours window keeps its enrollments due, and calls them once hours are set', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup({
      workingHours: {},
      callNewContactsImmediately: false,
      attemptLimit: 3,
      retryDelayMinutes: 60,
    });
    const waiting = await enroll(ctx, {}, { result: 'no_answer', nextAttemptInMinutes: null });
    const dueAt = (await enrollment(waiting.id)).nextAttemptAt!;
    for (let pass = 0; pass < 2; pass++) {
      const run = await dial();
      expect(run.placed).toHaveLength(0);
      // Due as before (never NULL, which means "call in flight"), and not deferred in a loop.
      expect((await enrollment(waiting.id)).nextAttemptAt).toEqual(dueAt);
      clock.at = new Date(clock.at.getTime() + 3600_000);
    }
    // A first attempt the caller asked to place now still goes out; its retry waits for hours.
    const now = await enroll(
      ctx,
      { assignmentOptions: { reEnroll: true, enforceCallNow: true } },
      { result: 'no_answer', nextAttemptInMinutes: null },
    );
    expect((await dial()).placed.map((p) => p.contactId)).toEqual([now.id]);
    clock.at = new Date(clock.at.getTime() + 2 * 3600_000);
    expect((await dial()).placed).toHaveLength(0);

    // Setting hours through the operator API revives both on the next pass, inside the hours.
    const hours = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
      query: 'mutation ($id: String!, $input: JSON!) { updateAgent(id: $id, input: $input) { id } }',
      variables: { id: ctx.agentId, input: { workingHours: DEFAULT_WORKING_HOURS } },
    });
    expect(hours.json.errors).toBeUndefined();
    expect((await dial()).placed.map((p) => p.contactId).sort()).toEqual([waiting.id, now.id].sort());
    await retire(ctx.workflowId);
  });

  /** Pauses a test's workflow, so its enrollments (still active) stay out of later tests' passes. */
  const retire = (workflowId: string) =>
    prisma().workflow.update({ where: { id: workflowId }, data: { paused: true, updatedAt: server.now() } });

  it('revives, by migration, enrollments an earlier dialer stranded with a NULL next attempt', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    // The higher priority makes the first one-call pass claim `stranded` (both are due at once:
    // without it, which one comes first is up to the database).
    const stranded = await enroll(ctx, { priority: 2 });
    const inFlight = await enroll(ctx, { priority: 1 });
    expect((await dial(1)).placed.map((p) => p.contactId)).toEqual([stranded.id]);
    await telephony.settled();
    // The old dialer's state: no call in flight (the call ended), yet no next attempt time.
    await prisma().enrollment.updateMany({
      where: { contactId: stranded.id },
      data: { nextAttemptAt: null, active: true },
    });
    const recorder = createSimulatedTelephony({ sink: async () => {}, delayMs: 0 });
    expect((await runDialerOnce(services(), recorder, 1)).placed.map((p) => p.contactId)).toEqual([inFlight.id]);
    const sql = fs.readFileSync(
      path.resolve(
        import.meta.dirname,
        '../../prisma/migrations/20261124020000_revive_enrollments_without_hours/migration.sql',
      ),
      'utf8',
    );
    await services().db.sql.exec(sql);
    const revived = await enrollment(stranded.id);
    expect(revived.nextAttemptAt).toEqual(revived.createdAt);
    // The enrollment whose call is still in flight keeps NULL.
    expect((await enrollment(inFlight.id)).nextAttemptAt).toBeNull();
    expect((await dial()).placed.map((p) => p.contactId)).toEqual([stranded.id]);
    await retire(ctx.workflowId);
  });

  it('defers calls outside working hours to the next window, in the contact zone or else the agent zone', async () => {
    const saturday = new Date('2026-11-28T18:00:00.000Z'); // Saturday noon in Chicago
    clock.at = saturday;
    const ctx = await setup();
    const chicago = await enroll(ctx);
    // Monday 10:00 in Chicago is 01:00 Tuesday in Tokyo: outside Tokyo's hours. A Tokyo number
    // (a +1312 one would add Illinois's 09:00-21:00 in Chicago, which never meets Tokyo's day).
    const tokyo = await enroll(ctx, { phone: freshTokyoPhone(), timezone: 'Asia/Tokyo' });
    const run = await dial();
    expect(run.placed).toHaveLength(0);
    expect(run.deferred).toBe(2);
    expect((await enrollment(chicago.id)).nextAttemptAt!.toISOString()).toBe('2026-11-30T15:00:00.000Z'); // Monday 09:00 CST
    expect((await enrollment(tokyo.id)).nextAttemptAt!.toISOString()).toBe('2026-11-30T00:00:00.000Z'); // Monday 09:00 JST

    clock.at = new Date('2026-11-30T16:00:00.000Z'); // Monday 10:00 Chicago, 01:00 Tuesday Tokyo
    const monday = await dial();
    expect(monday.placed.map((p) => p.contactId)).toEqual([chicago.id]);
    expect((await enrollment(tokyo.id)).nextAttemptAt!.toISOString()).toBe('2026-12-01T00:00:00.000Z'); // Tuesday 09:00 JST
  });

  it('calls new contacts at once with enforceCallNow or the agent option, even outside hours', async () => {
    clock.at = new Date('2026-11-28T18:00:00.000Z'); // Saturday
    const immediateAgent = await setup({ callNewContactsImmediately: true });
    const a = await enroll(immediateAgent, {}, { result: 'answered' });
    const plain = await setup();
    const b = await enroll(
      plain,
      { assignmentOptions: { reEnroll: true, enforceCallNow: true } },
      { result: 'answered' },
    );
    const c = await enroll(plain);
    const run = await dial();
    expect(run.placed.map((p) => p.contactId).sort()).toEqual([a.id, b.id].sort());
    expect((await contact(c.id)).callCount).toBe(0);
  });

  it('dials the highest priority first', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const low = await enroll(ctx, { priority: 10 });
    const high = await enroll(ctx, { priority: 900 });
    const mid = await enroll(ctx, { priority: 500 });
    const lifted = await enroll(ctx, { priority: 1 });
    // A priority changed after enrollment counts too (upsert without assignmentOptions).
    await server.request(ctx.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: lifted.phone, priority: 950 });
    const order: string[] = [];
    for (let i = 0; i < 4; i++) order.push(...(await dial(1)).placed.map((p) => p.contactId));
    expect(order).toEqual([lifted.id, high.id, mid.id, low.id]);
  });

  it('skips paused, dnc and blocked contacts, paused or unpublished workflows and agents that are not live', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const paused = await enroll(ctx, { status: 'paused' });
    const dnc = await enroll(ctx, { status: 'dnc' });
    const blockedPhone = freshPhone();
    const blocked = await enroll(ctx, { phone: blockedPhone });
    await prisma().blockedPhone.create({
      data: { createdAt: server.now(), accountId: ctx.accountId, phone: blockedPhone },
    });
    const pausedWorkflow = await setup();
    const p1 = await enroll(pausedWorkflow);
    await prisma().workflow.update({ where: { id: pausedWorkflow.workflowId }, data: { paused: true } });
    const draftAgent = await setup();
    const p2 = await enroll(draftAgent);
    await prisma().agent.update({ where: { id: draftAgent.agentId }, data: { status: 'paused' } });
    const placed = (await dial()).placed.map((p) => p.contactId);
    for (const id of [paused.id, dnc.id, blocked.id, p1.id, p2.id]) expect(placed).not.toContain(id);
    // Unpausing the contact lets its queued call go.
    await prisma().contact.update({ where: { id: paused.id }, data: { status: 'assigned' } });
    expect((await dial()).placed.map((p) => p.contactId)).toContain(paused.id);
  });

  it('applies every result: do_not_call blocks the phone and ends the enrollment; answered sets the language', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup({ attemptLimit: 5 });
    const dnc = await enroll(ctx, {}, { result: 'do_not_call' });
    const answered = await enroll(ctx, {}, { result: 'answered', language: 'es-MX' });
    const callback = await enroll(ctx, {}, { result: 'callback_requested', nextAttemptInMinutes: 24 * 60 });
    await dial();
    expect(await contact(dnc.id)).toMatchObject({ status: 'dnc', nextCallAt: null, callCount: 1 });
    expect(
      await prisma().blockedPhone.findFirst({ where: { accountId: ctx.accountId, phone: dnc.phone } }),
    ).not.toBeNull();
    expect(await enrollment(dnc.id)).toMatchObject({ active: false, endReason: 'do_not_call' });
    expect(await contact(answered.id)).toMatchObject({ status: 'reached', language: 'es-MX' });
    const cb = await contact(callback.id);
    expect(cb.status).toBe('reached');
    expect(cb.nextCallAt).not.toBeNull();
    expect((await enrollment(callback.id)).nextAttemptAt).toEqual(cb.nextCallAt);
    // Each ended call emitted one durable call.ended event.
    const events = await prisma().domainEvent.findMany({ where: { accountId: ctx.accountId, type: 'call.ended' } });
    expect(events).toHaveLength(3);
    const byContact = new Map(
      events.map((ev) => [(ev.payload as { contactId: string }).contactId, ev.payload as Record<string, unknown>]),
    );
    expect(byContact.get(dnc.id)).toMatchObject({ result: 'do_not_call', lastCall: true });
    expect(byContact.get(callback.id)).toMatchObject({ result: 'callback_requested', lastCall: false });
  });

  it('applies duplicate and out-of-order events once', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup({ attemptLimit: 5 });
    const c = await enroll(ctx);
    // Place the call with a telephony that records events instead of delivering them.
    const events: Parameters<typeof applyTelephonyEvent>[1][] = [];
    const recorder = createSimulatedTelephony({
      sink: async (e) => void events.push(e),
      delayMs: 0,
      script: { [c.phone]: { result: 'answered', durationSeconds: 90 } },
    });
    await runDialerOnce(services(), recorder);
    await recorder.settled();
    const [started, ended, report] = events;
    expect(await applyTelephonyEvent(services(), ended)).toBe('applied');
    expect(await applyTelephonyEvent(services(), ended)).toBe('duplicate');
    expect(await applyTelephonyEvent(services(), { ...ended, eventId: `${ended.eventId}-again` })).toBe('applied');
    expect(await applyTelephonyEvent(services(), started)).toBe('applied');
    expect(await applyTelephonyEvent(services(), report)).toBe('applied');
    const stored = await contact(c.id);
    expect(stored.callCount).toBe(1);
    const [call] = await prisma().call.findMany({ where: { contactId: c.id } });
    expect(call).toMatchObject({ status: 'ended', result: 'answered', durationSeconds: 90, reportReady: true });
    expect(
      await prisma().domainEvent.count({
        where: { type: 'call.ended', payload: { path: ['callId'], equals: call.id } },
      }),
    ).toBe(1);
    const transcript = await server.request(ctx.apiKey, 'GET', `/api/v1/calls/${call.id}/transcript`);
    expect(transcript.status).toBe(200);
    expect(transcript.json.utterances.length).toBeGreaterThan(0);
    expect(transcript.json.utterances[0].speaker).toBe('assistant');
  });

  it('two dialers on one database place each due call once', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await enroll(ctx)).id);
    const [a, b] = await Promise.all([
      runDialerOnce(services(), telephony, 20),
      runDialerOnce(services(), telephony, 20),
    ]);
    await telephony.settled();
    const placed = [...a.placed, ...b.placed].map((p) => p.contactId).filter((id) => ids.includes(id));
    expect(new Set(placed).size).toBe(placed.length);
    const third = await runDialerOnce(services(), telephony, 100);
    await telephony.settled();
    const all = [...placed, ...third.placed.map((p) => p.contactId).filter((id) => ids.includes(id))];
    expect(all.sort()).toEqual([...ids].sort());
    expect(await prisma().call.count({ where: { contactId: { in: ids } } })).toBe(30);
  });

  it('an enrollment ending (last attempt or a final result) sets nextCallAt to null despite a reported next attempt', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const lastAttempt = await setup({ attemptLimit: 1 });
    const limited = await enroll(
      lastAttempt,
      {},
      { result: 'no_answer', durationSeconds: 0, nextAttemptInMinutes: 90 },
    );
    const finalResult = await setup({ attemptLimit: 5 });
    const refused = await enroll(
      finalResult,
      {},
      { result: 'not_interested', durationSeconds: 60, nextAttemptInMinutes: 90 },
    );
    const placed = (await dial()).placed.map((p) => p.contactId);
    expect(placed).toContain(limited.id);
    expect(placed).toContain(refused.id);
    // Both reports carried a next attempt time (kept on the call)...
    const [limitedCall] = await prisma().call.findMany({ where: { contactId: limited.id } });
    expect(limitedCall.nextCallAt!.toISOString()).toBe(
      new Date(MONDAY_10_CHICAGO.getTime() + 90 * 60_000).toISOString(),
    );
    const [refusedCall] = await prisma().call.findMany({ where: { contactId: refused.id } });
    expect(refusedCall.nextCallAt!.toISOString()).toBe(
      new Date(MONDAY_10_CHICAGO.getTime() + (60 + 90 * 60) * 1000).toISOString(),
    );
    // ...but each ended its enrollment, and an ending enrollment clears the contact's nextCallAt.
    expect(await enrollment(limited.id)).toMatchObject({
      active: false,
      endReason: 'attempt_limit',
      nextAttemptAt: null,
    });
    expect(await contact(limited.id)).toMatchObject({ callCount: 1, lastCallAt: MONDAY_10_CHICAGO, nextCallAt: null });
    expect(await enrollment(refused.id)).toMatchObject({
      active: false,
      endReason: 'not_interested',
      nextAttemptAt: null,
    });
    expect(await contact(refused.id)).toMatchObject({ callCount: 1, lastCallAt: MONDAY_10_CHICAGO, nextCallAt: null });
  });

  it('a requested callback goes past the attempt limit; a callback without a time does not', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup({ attemptLimit: 1 });
    const withTime = await enroll(
      ctx,
      {},
      { result: 'callback_requested', durationSeconds: 60, nextAttemptInMinutes: 120 },
    );
    const withoutTime = await enroll(
      ctx,
      {},
      { result: 'callback_requested', durationSeconds: 60, nextAttemptInMinutes: null },
    );
    const first = (await dial()).placed.map((p) => p.contactId);
    expect(first).toEqual(expect.arrayContaining([withTime.id, withoutTime.id]));
    const callbackAt = new Date(MONDAY_10_CHICAGO.getTime() + (60 + 120 * 60) * 1000); // Monday 12:01 in Chicago
    expect(await enrollment(withTime.id)).toMatchObject({
      active: true,
      attempts: 1,
      endReason: null,
      nextAttemptAt: callbackAt,
    });
    expect(await contact(withTime.id)).toMatchObject({ maxAttempts: 1, callCount: 1, nextCallAt: callbackAt });
    expect(await enrollment(withoutTime.id)).toMatchObject({
      active: false,
      attempts: 1,
      endReason: 'attempt_limit',
      nextAttemptAt: null,
    });

    // At the callback time the contact is dialed again, a second call over a limit of one.
    clock.at = callbackAt;
    const second = (await dial()).placed.map((p) => p.contactId);
    expect(second).toContain(withTime.id);
    expect(second).not.toContain(withoutTime.id);
    expect(await contact(withTime.id)).toMatchObject({ maxAttempts: 1, callCount: 2, lastCallAt: callbackAt });
    expect(await prisma().call.count({ where: { contactId: withTime.id } })).toBe(2);
    expect(await prisma().call.count({ where: { contactId: withoutTime.id } })).toBe(1);
  });

  it('a contact without a time zone is called in the agent zone', async () => {
    clock.at = MONDAY_10_CHICAGO; // 01:00 Tuesday in Tokyo
    const ctx = await setup({ timezone: 'Asia/Tokyo' });
    // An Australian mobile number gives no single zone (the country has several), and the account
    // has no default location: the zone stays null. Australia has no calling rules in the rule
    // set, so only the agent's hours decide. (A US toll-free number is no longer usable here: it
    // may be anywhere on +1, from Guam to Newfoundland, and the law's hours never meet there.)
    const zoneless = await enroll(ctx, { phone: '+61412555010' });
    const chicago = await enroll(ctx, { phone: freshPhone(), timezone: 'America/Chicago' }, { result: 'answered' });
    expect(await contact(zoneless.id)).toMatchObject({ timezone: null, location: null });
    const placed = (await dial()).placed.map((p) => p.contactId);
    // Inside 09:00-17:00 in Chicago (and in UTC), outside it in Tokyo.
    expect(placed).toContain(chicago.id);
    expect(placed).not.toContain(zoneless.id);
    expect((await enrollment(zoneless.id)).nextAttemptAt!.toISOString()).toBe('2026-11-24T00:00:00.000Z'); // Tuesday 09:00 JST
    expect((await contact(zoneless.id)).callCount).toBe(0);
  });

  it('a contact without a language is called in the agent default language; a contact language is kept', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup({ defaultLanguage: 'fr-FR' });
    // The simulator ends an answered call in the language the call was placed in.
    const unknown = await enroll(ctx, {}, { result: 'answered' });
    const german = await enroll(ctx, { language: 'de-DE' }, { result: 'answered' });
    expect(await contact(unknown.id)).toMatchObject({ language: null });
    const run = await dial();
    expect(run.placed.find((p) => p.contactId === unknown.id)?.language).toBe('fr-FR');
    expect(run.placed.find((p) => p.contactId === german.id)?.language).toBe('de-DE');
    expect(await contact(unknown.id)).toMatchObject({ callCount: 1, status: 'reached', language: 'fr-FR' });
    expect(await contact(german.id)).toMatchObject({ callCount: 1, status: 'reached', language: 'de-DE' });
    const [call] = await prisma().call.findMany({ where: { contactId: unknown.id } });
    expect(call.language).toBe('fr-FR');
  });

  it('nextCallAt keeps the reported time when the dialer later defers the attempt to the next window', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await setup({ attemptLimit: 5 });
    // The callback is reported for 19:01 Monday in Chicago, after working hours.
    const c = await enroll(
      ctx,
      {},
      { result: 'callback_requested', durationSeconds: 60, nextAttemptInMinutes: 9 * 60 },
    );
    expect((await dial()).placed.map((p) => p.contactId)).toContain(c.id);
    const reported = new Date('2026-11-24T01:01:00.000Z');
    expect(await contact(c.id)).toMatchObject({ nextCallAt: reported });
    expect((await enrollment(c.id)).nextAttemptAt).toEqual(reported);

    clock.at = reported;
    expect((await dial()).placed.map((p) => p.contactId)).not.toContain(c.id);
    // The attempt moved to Tuesday 09:00 in Chicago; the contact still shows the reported time.
    expect((await enrollment(c.id)).nextAttemptAt!.toISOString()).toBe('2026-11-24T15:00:00.000Z');
    expect(await contact(c.id)).toMatchObject({ nextCallAt: reported, callCount: 1, lastCallAt: MONDAY_10_CHICAGO });
  });
});

describe.each(testDatabaseKinds())('status connecting on %s', (kind) => {
  let server: TestServer;
  const clock = {
    at: MONDAY_10_CHICAGO,
    now() {
      return this.at;
    },
  };
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(() => server?.stop());

  it('restarts a finished call sequence when a write sets connecting (upsert and PATCH)', async () => {
    const prisma = server.service.services.db.prisma;
    const account = await server.createAccount();
    const agent = await prisma.agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        name: 'A',
        status: 'live',
        timezone: 'America/Chicago',
        defaultLanguage: 'en-US',
        attemptLimit: 1,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
      },
    });
    const workflow = await prisma.workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        agentId: agent.id,
        name: 'W',
        status: 'published',
      },
    });
    const telephony = createSimulatedTelephony({
      sink: async (e) => void (await applyTelephonyEvent(server.service.services, e)),
      delayMs: 0,
      script: { '+13125559001': { result: 'no_answer' } },
    });
    const created = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+13125559001',
      externalId: 'x1',
      assignmentOptions: { workflowId: workflow.id },
      consent: writtenConsent(server.now()),
    });
    expect(created.status, created.text).toBeLessThan(300);
    await runDialerOnce(server.service.services, telephony);
    await telephony.settled();
    const ended = await prisma.enrollment.findFirstOrThrow({ where: { contactId: created.json.id } });
    expect(ended).toMatchObject({ active: false, attempts: 1 });

    clock.at = new Date(MONDAY_10_CHICAGO.getTime() + 3600_000);
    await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+13125559001',
      status: 'connecting',
    });
    const restarted = await prisma.enrollment.findFirstOrThrow({ where: { contactId: created.json.id } });
    expect(restarted).toMatchObject({ active: true, attempts: 0, nextAttemptAt: clock.at });
    const run = await runDialerOnce(server.service.services, telephony);
    await telephony.settled();
    expect(run.placed.map((p) => p.contactId)).toEqual([created.json.id]);

    // Again through PATCH once the sequence has ended.
    await server.request(account.apiKey, 'PATCH', '/api/v1/contacts/source/api/external-id/x1', {
      status: 'not_answered',
    });
    await server.request(account.apiKey, 'PATCH', '/api/v1/contacts/source/api/external-id/x1', {
      status: 'connecting',
    });
    expect(await prisma.enrollment.findFirstOrThrow({ where: { contactId: created.json.id } })).toMatchObject({
      active: true,
      attempts: 0,
    });
  });
});

describe.each(testDatabaseKinds())('inbound calls on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  it('creates a oneai contact for an unknown caller, reuses a known one, and applies the outcome', async () => {
    const services = server.service.services;
    const prisma = services.db.prisma;
    const account = await server.createAccount();
    const agentNumber = `+1646555${String(Date.now() % 10000).padStart(4, '0')}`;
    await prisma.agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        name: 'In',
        status: 'live',
        timezone: 'America/New_York',
        defaultLanguage: 'en-US',
        attemptLimit: 3,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
        phoneNumber: agentNumber,
      },
    });
    const callId = crypto.randomUUID();
    const at = new Date().toISOString();
    expect(
      await applyTelephonyEvent(services, {
        type: 'call.inbound',
        eventId: `${callId}:in`,
        callId,
        occurredAt: at,
        from: '+1 (212) 555-0188',
        to: agentNumber,
      }),
    ).toBe('applied');
    const created = await prisma.contact.findFirstOrThrow({
      where: { accountId: account.accountId, phone: '+12125550188' },
    });
    expect(created).toMatchObject({ sourceKind: 'oneai', externalId: created.id, status: 'not_assigned' });
    expect(await prisma.call.findUniqueOrThrow({ where: { id: callId } })).toMatchObject({
      direction: 'inbound',
      contactId: created.id,
      status: 'in_progress',
    });
    await applyTelephonyEvent(services, {
      type: 'call.ended',
      eventId: `${callId}:end`,
      callId,
      occurredAt: at,
      result: 'answered',
      endReason: 'hangup',
      durationSeconds: 30,
      language: 'en-GB',
      nextAttemptAt: null,
    });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
      callCount: 1,
      status: 'reached',
      language: 'en-GB',
    });

    const second = crypto.randomUUID();
    await applyTelephonyEvent(services, {
      type: 'call.inbound',
      eventId: `${second}:in`,
      callId: second,
      occurredAt: at,
      from: '+12125550188',
      to: agentNumber,
    });
    expect(await prisma.contact.count({ where: { accountId: account.accountId } })).toBe(1);
    await expect(
      applyTelephonyEvent(services, {
        type: 'call.inbound',
        eventId: 'x:in',
        callId: crypto.randomUUID(),
        occurredAt: at,
        from: '+12125550188',
        to: '+16465550000',
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe.each(testDatabaseKinds())('a worker that dies mid-call on %s', (kind) => {
  let server: TestServer;
  const clock = {
    at: MONDAY_10_CHICAGO,
    now() {
      return this.at;
    },
  };
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(() => server?.stop());

  it('loses no outcome: a late report still applies, and an unreported call is retried', async () => {
    const services = server.service.services;
    const prisma = services.db.prisma;
    const account = await server.createAccount();
    const agent = await prisma.agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        name: 'A',
        status: 'live',
        timezone: 'America/Chicago',
        defaultLanguage: 'en-US',
        attemptLimit: 3,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
      },
    });
    const workflow = await prisma.workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        agentId: agent.id,
        name: 'W',
        status: 'published',
      },
    });
    for (const phone of ['+13125559101', '+13125559102']) {
      const res = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone,
        assignmentOptions: { workflowId: workflow.id },
        consent: writtenConsent(server.now()),
      });
      expect(res.status, res.text).toBeLessThan(300);
    }
    // The worker claims both calls and dies: the provider got them, but nobody here heard back.
    const lost: Parameters<typeof applyTelephonyEvent>[1][] = [];
    const dying = createSimulatedTelephony({
      sink: async (e) => void lost.push(e),
      delayMs: 0,
      script: { '+13125559101': { result: 'answered' }, '+13125559102': { result: 'answered' } },
    });
    const claimed = await runDialerOnce(services, dying);
    await dying.settled();
    expect(claimed.placed).toHaveLength(2);

    // The provider reports the first call later (to whichever process is up).
    const first = claimed.placed.find((p) => p.phone === '+13125559101')!;
    for (const event of lost.filter((e) => e.callId === first.callId)) await applyTelephonyEvent(services, event);
    const reported = await prisma.contact.findFirstOrThrow({
      where: { phone: '+13125559101', accountId: account.accountId },
    });
    expect(reported).toMatchObject({ callCount: 1, status: 'reached' });

    // The second is never reported: after the grace period it is given up and called again.
    clock.at = new Date(MONDAY_10_CHICAGO.getTime() + 31 * 60_000);
    const { recoverUnreportedCalls } = await import('../../src/jobs/dialer.js');
    expect(await recoverUnreportedCalls(services)).toBe(1);
    const retry = createSimulatedTelephony({
      sink: async (e) => void (await applyTelephonyEvent(services, e)),
      delayMs: 0,
      script: { '+13125559102': { result: 'answered' } },
    });
    const again = await runDialerOnce(services, retry);
    await retry.settled();
    expect(again.placed.map((p) => p.phone)).toEqual(['+13125559102']);
    const calls = await prisma.call.findMany({
      where: { accountId: account.accountId },
      orderBy: { createdAt: 'asc' },
    });
    expect(calls.map((c) => c.status).sort()).toEqual(['ended', 'ended', 'failed']);
  });
});
