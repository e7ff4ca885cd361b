// POST /api/telephony/events: signed provider events for real dialed calls, with a controlled
// clock. Covers applying a full call, replays (same body, re-signed), every signature failure,
// secret rotation, unknown calls, invalid bodies and the endpoint being off.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import { createSimulatedTelephony, type SimulatedOutcome } from '../../src/calls/telephony/simulator.adapter.js';
import { SIGNATURE_HEADER, signEvent } from '../../src/calls/telephony/signature.js';
import type { TelephonyEvent, TelephonyEventOf } from '../../src/calls/telephony/telephony.port.js';
import { DEFAULT_WORKING_HOURS } from '../../src/domain/calls/calling-hours.rules.js';
import { createApp } from '../../src/app.js';
import { writtenConsent } from '../support/consent.js';

// Monday 23 November 2026, 10:00 in Chicago (UTC-6).
const MONDAY_10_CHICAGO = new Date('2026-11-23T16:00:00.000Z');
const SECRET = 'whsec-current-0123456789abcdef';
const NEXT_SECRET = 'whsec-next-fedcba9876543210';
const OTHER_SECRET = 'whsec-unknown-000000000000000';
const PATH = '/api/telephony/events';

describe.each(testDatabaseKinds())('telephony events on %s', (kind) => {
  let server: TestServer;
  const clock = {
    at: MONDAY_10_CHICAGO,
    now() {
      return this.at;
    },
  };
  let phoneSeq = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock, telephonyWebhookSecrets: `${SECRET}, ${NEXT_SECRET}` });
  });
  afterAll(() => server?.stop());

  const prisma = () => server.service.services.db.prisma;
  const unix = (at: Date = clock.at) => Math.floor(at.getTime() / 1000);
  const sign = (body: string, secret: string | string[] = SECRET, at: Date = clock.at) =>
    signEvent(body, secret, unix(at));

  /** POSTs the exact body with the given signature header (none when null). */
  async function post(body: string, signature: string | null) {
    const res = await server.request(
      null,
      'POST',
      PATH,
      body,
      signature === null ? {} : { [SIGNATURE_HEADER]: signature },
    );
    expect(res.headers.get('x-request-id')).toBeTruthy();
    if (res.status >= 400)
      expect(res.json).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
        requestId: res.headers.get('x-request-id'),
      });
    return res;
  }
  const postSigned = (event: unknown, secret: string | string[] = SECRET) => {
    const body = JSON.stringify(event);
    return post(body, sign(body, secret));
  };

  /** Dials one contact with a telephony that records its events instead of delivering them. */
  async function dialedCall(outcome: SimulatedOutcome = { result: 'answered', durationSeconds: 90 }) {
    clock.at = MONDAY_10_CHICAGO;
    const account = await server.createAccount();
    const agent = await prisma().agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        name: 'Ava',
        status: 'live',
        timezone: 'America/Chicago',
        defaultLanguage: 'en-US',
        attemptLimit: 3,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
        callNewContactsImmediately: false,
      },
    });
    const workflow = await prisma().workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        agentId: agent.id,
        name: 'W',
        status: 'published',
      },
    });
    const phone = `+1312556${String(1000 + phoneSeq++).padStart(4, '0')}`;
    const upsert = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      assignmentOptions: { workflowId: workflow.id },
      // A US telemarketing call needs the contact's prior express written consent.
      consent: writtenConsent(server.now()),
    });
    expect(upsert.status).toBeLessThan(300);
    const contactId = (upsert.json as { id: string }).id;

    const events: TelephonyEvent[] = [];
    const recorder = createSimulatedTelephony({
      sink: async (e) => void events.push(e),
      delayMs: 0,
      script: { [phone]: outcome },
    });
    const run = await runDialerOnce(server.service.services, recorder);
    await recorder.settled();
    expect(run.placed.map((p) => p.contactId)).toEqual([contactId]);
    const callId = events[0].callId;
    const byType = <T extends TelephonyEvent['type']>(type: T) =>
      events.find((e): e is TelephonyEventOf<T> => e.type === type)!;
    return {
      account,
      contactId,
      callId,
      started: byType('call.started'),
      ended: byType('call.ended'),
      report: byType('report.ready'),
    };
  }

  it('applies a signed started/ended/report sequence to the contact, the call and its transcript', async () => {
    const { account, contactId, callId, started, ended, report } = await dialedCall();
    expect(await prisma().call.findUniqueOrThrow({ where: { id: callId } })).toMatchObject({
      status: expect.not.stringMatching(/^(in_progress|ended)$/),
    });

    const s = await postSigned(started);
    expect(s.status).toBe(200);
    expect(s.json).toEqual({ status: 'applied' });
    expect(await prisma().call.findUniqueOrThrow({ where: { id: callId } })).toMatchObject({ status: 'in_progress' });

    const e = await postSigned(ended);
    expect(e.json).toEqual({ status: 'applied' });
    expect(await prisma().contact.findUniqueOrThrow({ where: { id: contactId } })).toMatchObject({
      callCount: 1,
      status: 'reached',
      lastCallAt: MONDAY_10_CHICAGO,
    });
    expect(await prisma().call.findUniqueOrThrow({ where: { id: callId } })).toMatchObject({
      status: 'ended',
      result: 'answered',
      durationSeconds: 90,
    });

    const r = await postSigned(report);
    expect(r.json).toEqual({ status: 'applied' });
    const transcript = await server.request(account.apiKey, 'GET', `/api/v1/calls/${callId}/transcript`);
    expect(transcript.status).toBe(200);
    expect(transcript.json.utterances).toHaveLength(report.utterances.length);
    expect(report.utterances.length).toBeGreaterThan(0);
    expect(transcript.json.utterances[0]).toMatchObject({
      speaker: report.utterances[0].speaker,
      content: report.utterances[0].content,
    });
  });

  it('a later report under another event id replaces the transcript: longer, then shorter, with no line of the old one left', async () => {
    const { account, callId, report } = await dialedCall();
    const line = (n: number) => ({
      speaker: n % 2 ? 'user' : 'assistant',
      content: `line ${n}`,
      timestamp: MONDAY_10_CHICAGO.toISOString(),
    });
    const transcript = async () =>
      (await server.request(account.apiKey, 'GET', `/api/v1/calls/${callId}/transcript`)).json.utterances.map(
        (u: { content: string }) => u.content,
      );

    expect(
      (await postSigned({ ...report, eventId: randomUUID(), utterances: [1, 2, 3, 4, 5].map(line) })).json,
    ).toEqual({ status: 'applied' });
    expect(await transcript()).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    expect((await postSigned({ ...report, eventId: randomUUID(), utterances: [7, 8].map(line) })).json).toEqual({
      status: 'applied',
    });
    expect(await transcript()).toEqual(['line 7', 'line 8']);
    expect((await postSigned({ ...report, eventId: randomUUID(), utterances: [] })).json).toEqual({
      status: 'applied',
    });
    expect(await transcript()).toEqual([]);
  });

  it('answers a replay (same bytes, or re-signed later) with duplicate and counts the call once', async () => {
    const { contactId, callId, ended } = await dialedCall();
    const body = JSON.stringify(ended);
    const header = sign(body);
    expect((await post(body, header)).json).toEqual({ status: 'applied' });

    const replay = await post(body, header);
    expect(replay.status).toBe(200);
    expect(replay.json).toEqual({ status: 'duplicate' });

    clock.at = new Date(MONDAY_10_CHICAGO.getTime() + 60_000);
    const resigned = await post(body, sign(body));
    expect(resigned.status).toBe(200);
    expect(resigned.json).toEqual({ status: 'duplicate' });

    expect(await prisma().contact.findUniqueOrThrow({ where: { id: contactId } })).toMatchObject({ callCount: 1 });
    expect(
      await prisma().domainEvent.count({
        where: { type: 'call.ended', payload: { path: ['callId'], equals: callId } },
      }),
    ).toBe(1);
  });

  it('refuses missing, malformed, wrong-secret, tampered and stale signatures with 401, applying nothing', async () => {
    const { callId, started } = await dialedCall();
    const body = JSON.stringify(started);

    const missing = await post(body, null);
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({
      code: 'unauthenticated',
      error: 'Unauthorized',
      message: expect.stringMatching(/missing/i),
    });

    const malformed = await post(body, 't=abc,v1=zz');
    expect(malformed.status).toBe(401);
    expect(malformed.json).toMatchObject({ code: 'unauthenticated', message: expect.stringMatching(/malformed/i) });

    const wrongSecret = await post(body, sign(body, OTHER_SECRET));
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.json).toMatchObject({
      code: 'unauthenticated',
      message: expect.stringMatching(/does not match/),
    });

    const tampered = await post(body.replace(started.occurredAt, '2026-11-23T15:00:00.000Z'), sign(body));
    expect(tampered.status).toBe(401);
    expect(tampered.json).toMatchObject({ code: 'unauthenticated', message: expect.stringMatching(/does not match/) });

    // Signed now, received 10 minutes later (and, symmetrically, signed 10 minutes in the future).
    const header = sign(body);
    clock.at = new Date(MONDAY_10_CHICAGO.getTime() + 10 * 60_000);
    const stale = await post(body, header);
    expect(stale.status).toBe(401);
    expect(stale.json).toMatchObject({
      code: 'unauthenticated',
      message: expect.stringMatching(/outside the 5-minute window/),
    });
    const future = await post(body, sign(body, SECRET, new Date(clock.at.getTime() + 10 * 60_000)));
    expect(future.status).toBe(401);
    expect(future.json.message).toMatch(/outside the 5-minute window/);

    // None of these was applied or recorded: the properly signed event still applies.
    expect(await prisma().call.findUniqueOrThrow({ where: { id: callId } })).toMatchObject({
      status: expect.not.stringMatching(/^in_progress$/),
    });
    const ok = await post(body, sign(body));
    expect(ok.json).toEqual({ status: 'applied' });
  });

  it('accepts the second configured secret (rotation), alone or next to an unknown one', async () => {
    const { started, ended } = await dialedCall();
    const a = await postSigned(started, NEXT_SECRET);
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ status: 'applied' });
    const b = await postSigned(ended, [OTHER_SECRET, NEXT_SECRET]);
    expect(b.status).toBe(200);
    expect(b.json).toEqual({ status: 'applied' });
  });

  it('answers 404 for an unknown call id, a UUID or not', async () => {
    const { started } = await dialedCall();
    const unknown = await postSigned({ ...started, eventId: randomUUID(), callId: randomUUID() });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'not_found', error: 'Not Found' });
    const notUuid = await postSigned({ ...started, eventId: randomUUID(), callId: 'provider-call-1' });
    expect(notUuid.status).toBe(404);
    expect(notUuid.json).toMatchObject({ code: 'not_found' });
  });

  it('answers 400 for an invalid event (with issues), a body that is not JSON, and an unusable call.inbound; 413 for a body over 2 MB', async () => {
    const { ended } = await dialedCall();
    const invalid = await postSigned({ ...ended, result: 'maybe' });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ code: 'bad_request', issues: [expect.objectContaining({ path: 'result' })] });

    const notJson = await post('{"type": "call.started",', sign('{"type": "call.started",'));
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/JSON/) });

    const empty = await post('', sign(''));
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ code: 'bad_request' });

    const inbound = {
      type: 'call.inbound',
      eventId: randomUUID(),
      callId: randomUUID(),
      occurredAt: clock.at.toISOString(),
      from: '+13125550000',
      to: null,
    };
    const noTo = await postSigned(inbound);
    expect(noTo.status).toBe(400);
    expect(noTo.json).toMatchObject({ code: 'bad_request' });
    const notUuid = await postSigned({ ...inbound, callId: 'provider-call-2', to: '+13125550001' });
    expect(notUuid.status).toBe(400);
    expect(notUuid.json).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/UUID/) });

    const tooLarge = 'x'.repeat(2 * 1024 * 1024 + 1);
    const large = await post(tooLarge, sign(tooLarge));
    expect(large.status).toBe(413);
    expect(large.json).toMatchObject({
      error: 'Payload Too Large',
      code: 'payload_too_large',
      message: expect.stringMatching(/too large/),
    });
  });

  /** A new Account with a live agent answering its own number (for inbound calls), at the suite's Monday. */
  async function agentWithNumber() {
    clock.at = MONDAY_10_CHICAGO;
    const account = await server.createAccount();
    const agentNumber = `+1646557${String(1000 + phoneSeq++).padStart(4, '0')}`;
    await prisma().agent.create({
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
    return { account, agentNumber };
  }

  it('applies a signed call.inbound to an agent number, then its outcome; 404 for a number no agent has', async () => {
    const { account, agentNumber } = await agentWithNumber();
    const callId = randomUUID();
    const at = clock.at.toISOString();
    const inbound = await postSigned({
      type: 'call.inbound',
      eventId: `${callId}:in`,
      callId,
      occurredAt: at,
      from: '+1 (212) 555-0199',
      to: agentNumber,
    });
    expect(inbound.status).toBe(200);
    expect(inbound.json).toEqual({ status: 'applied' });
    const call = await prisma().call.findUniqueOrThrow({ where: { id: callId } });
    expect(call).toMatchObject({ direction: 'inbound', status: 'in_progress', accountId: account.accountId });
    const ended = await postSigned({
      type: 'call.ended',
      eventId: `${callId}:end`,
      callId,
      occurredAt: at,
      result: 'answered',
      endReason: 'hangup',
      durationSeconds: 30,
      language: null,
      nextAttemptAt: null,
    });
    expect(ended.json).toEqual({ status: 'applied' });
    expect(await prisma().contact.findUniqueOrThrow({ where: { id: call.contactId } })).toMatchObject({
      callCount: 1,
      status: 'reached',
    });

    const nobody = await postSigned({
      type: 'call.inbound',
      eventId: randomUUID(),
      callId: randomUUID(),
      occurredAt: at,
      from: '+12125550199',
      to: '+16465550000',
    });
    expect(nobody.status).toBe(404);
    expect(nobody.json).toMatchObject({ code: 'not_found' });
  });

  it('keeps the reported next attempt of a call outside an active enrollment (no enrollment ended: nothing clears it)', async () => {
    const { account, agentNumber } = await agentWithNumber();
    const callId = randomUUID();
    const at = clock.at.toISOString();
    const next = new Date(MONDAY_10_CHICAGO.getTime() + 86_400_000).toISOString();
    expect(
      (
        await postSigned({
          type: 'call.inbound',
          eventId: `${callId}:in`,
          callId,
          occurredAt: at,
          from: '+12125550177',
          to: agentNumber,
        })
      ).status,
    ).toBe(200);
    const ended = await postSigned({
      type: 'call.ended',
      eventId: `${callId}:end`,
      callId,
      occurredAt: at,
      result: 'callback_requested',
      endReason: 'hangup',
      durationSeconds: 30,
      language: null,
      nextAttemptAt: next,
    });
    expect(ended.json).toEqual({ status: 'applied' });
    const { contactId } = await prisma().call.findUniqueOrThrow({ where: { id: callId } });
    const contact = await server.request(account.apiKey, 'GET', `/api/v1/contacts/${contactId}`);
    expect(contact.json).toMatchObject({ callCount: 1, nextCallAt: next, assignedWorkflowId: null });
    expect(await prisma().call.findUniqueOrThrow({ where: { id: callId } })).toMatchObject({
      nextCallAt: new Date(next),
    });

    // A late report of a call whose enrollment already ended (here: the contact was re-enrolled
    // elsewhere meanwhile) counts, and keeps its reported time too: this call ended no enrollment.
    const late = await dialedCall({ result: 'no_answer', nextAttemptInMinutes: 90 });
    const other = await prisma().workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: late.account.accountId,
        name: 'Other',
        status: 'published',
      },
    });
    const moved = await server.request(late.account.apiKey, 'PUT', `/api/v1/contacts/upsert`, {
      phone: (await prisma().contact.findUniqueOrThrow({ where: { id: late.contactId } })).phone,
      assignmentOptions: { workflowId: other.id },
    });
    expect(moved.status).toBe(200);
    expect((await postSigned(late.ended)).json).toEqual({ status: 'applied' });
    const after = await server.request(late.account.apiKey, 'GET', `/api/v1/contacts/${late.contactId}`);
    expect(late.ended.nextAttemptAt).not.toBeNull();
    expect(after.json).toMatchObject({ callCount: 1, nextCallAt: late.ended.nextAttemptAt });
  });

  it('a do-not-call result outside an enrollment clears nextCallAt (a do-not-call block), even with a reported next attempt', async () => {
    const { account, agentNumber } = await agentWithNumber();
    const callId = randomUUID();
    const at = clock.at.toISOString();
    const next = new Date(MONDAY_10_CHICAGO.getTime() + 86_400_000).toISOString();
    expect(
      (
        await postSigned({
          type: 'call.inbound',
          eventId: `${callId}:in`,
          callId,
          occurredAt: at,
          from: '+12125550166',
          to: agentNumber,
        })
      ).status,
    ).toBe(200);
    await postSigned({
      type: 'call.ended',
      eventId: `${callId}:end`,
      callId,
      occurredAt: at,
      result: 'do_not_call',
      endReason: 'hangup',
      durationSeconds: 20,
      language: null,
      nextAttemptAt: next,
    });
    const { contactId } = await prisma().call.findUniqueOrThrow({ where: { id: callId } });
    const contact = await server.request(account.apiKey, 'GET', `/api/v1/contacts/${contactId}`);
    expect(contact.json).toMatchObject({ status: 'dnc', callCount: 1, nextCallAt: null });
  });

  it('answers 404 when no secrets are configured', async () => {
    const { started } = await dialedCall();
    const app = createApp({ services: server.service.services });
    const listener = createServer(app).listen(0, '127.0.0.1');
    await once(listener, 'listening');
    try {
      const body = JSON.stringify(started);
      const res = await fetch(`http://127.0.0.1:${(listener.address() as AddressInfo).port}${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(body) },
        body,
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(await res.json()).toMatchObject({ code: 'not_found', message: 'Telephony events are not enabled' });
    } finally {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
    // Nothing was applied there: the configured service still applies the event.
    expect((await postSigned(started)).json).toEqual({ status: 'applied' });
  });
});
