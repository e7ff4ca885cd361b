// The Retell adapter against the Retell emulator, through the SDK's base-URL option: placing
// calls (request body, refusals, rate limits, concurrency, unknown answers and findCall) and
// reading webhooks (authentication, events, de-duplication, inbound calls). No database.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRetellAdapter } from '../../../src/calls/telephony/retell/retell.adapter.js';
import {
  callIdForProviderCall,
  type ProviderCallRequest,
  type ProviderCredentials,
  type ProviderEvent,
} from '../../../src/calls/telephony/voice-provider.port.js';
import { parseTelephonyEvent } from '../../../src/calls/telephony/telephony.port.js';
import {
  startRetellEmulator,
  type RetellEmulator,
  type StartRetellEmulatorOptions,
} from '../../support/retell-emulator/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/provider-webhook-receiver.js';

const API_KEY = 'key_api_0123456789';
const WEBHOOK_SECRET = 'key_webhook_abcdef';
const CALL_ID = '3f1c2a9e-6b7d-4c1e-9f0a-1b2c3d4e5f60';
const TO = '+14155550123';
const FROM = '+14155559999';
const AGENT = 'agent_0123456789abcdef';

let clockMs = Date.parse('2026-11-20T15:00:00.000Z');
const now = () => new Date(clockMs);

let retell: RetellEmulator;
let receiver: WebhookReceiver;
let credentials: ProviderCredentials;
// Long enough for an answer on a busy machine; the stalled-create case has an impatient one.
const adapter = createRetellAdapter({ timeoutMs: 5_000 });

function callRequest(overrides: Partial<ProviderCallRequest> = {}): ProviderCallRequest {
  return {
    callId: CALL_ID,
    toNumber: TO,
    assistantId: AGENT,
    fromNumber: FROM,
    webhookUrl: receiver.url,
    variables: {
      firstName: 'Ana',
      lastName: 'García',
      fullName: 'Ana García',
      language: 'es-ES',
      timezone: 'Europe/Madrid',
      customFields: { plan: 'pro', seats: 12, vip: true, notes: null, tags: ['a', 'b'] },
    },
    ...overrides,
  };
}

async function start(options: Partial<StartRetellEmulatorOptions> = {}): Promise<void> {
  retell = await startRetellEmulator({ apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET, now, ...options });
  credentials = { apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET, baseUrl: retell.baseUrl };
  receiver = await startWebhookReceiver({ adapter, credentials, now });
}

async function placed(request = callRequest()): Promise<string> {
  const outcome = await adapter.placeCall(credentials, request);
  if (outcome.kind !== 'accepted') throw new Error(`expected accepted, got ${JSON.stringify(outcome)}`);
  return outcome.providerCallId;
}

/** The call's life runs as scripted: the clock moves on to when Retell sends call_analyzed. */
function callIsOver(providerCallId: string): void {
  clockMs = Math.max(clockMs, retell.timeline(providerCallId).reportAt.getTime());
}

/** A call placed, and over: the clock has moved on past its life. */
async function placedAndOver(request = callRequest()): Promise<string> {
  const providerCallId = await placed(request);
  callIsOver(providerCallId);
  return providerCallId;
}

function eventsOfType<T extends ProviderEvent['type']>(type: T): Array<Extract<ProviderEvent, { type: T }>> {
  return receiver.events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);
}

function endedEvent() {
  const ended = eventsOfType('call.ended');
  expect(ended.length).toBeGreaterThan(0);
  return ended[0];
}

beforeEach(async () => {
  clockMs = Date.parse('2026-11-20T15:00:00.000Z');
  await start();
});

afterEach(async () => {
  await receiver.stop();
  await retell.stop();
});

describe('placeCall', () => {
  it('creates the call with our id in metadata, the contact as string variables, the agent and the webhook URL, once', async () => {
    const providerCallId = await placed();
    expect(retell.calls).toHaveLength(1);
    expect(retell.calls[0].providerCallId).toBe(providerCallId);
    expect(retell.calls[0].request).toEqual({
      from_number: FROM,
      to_number: TO,
      override_agent_id: AGENT,
      metadata: { contactline_call_id: CALL_ID },
      retell_llm_dynamic_variables: {
        plan: 'pro',
        seats: '12',
        vip: 'true',
        notes: '',
        tags: '["a","b"]',
        first_name: 'Ana',
        last_name: 'García',
        full_name: 'Ana García',
        language: 'es-ES',
        timezone: 'Europe/Madrid',
      },
      agent_override: {
        agent: { webhook_url: receiver.url, webhook_events: ['call_started', 'call_ended', 'call_analyzed'] },
      },
    });
    const creates = retell.requests.filter((r) => r.path === '/v2/create-phone-call');
    expect(creates).toHaveLength(1);
    expect(creates[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('a null contact name is an empty string, and our variables win over a custom field of the same name', async () => {
    const request = callRequest();
    await placed({
      ...request,
      variables: { ...request.variables, firstName: null, customFields: { first_name: 'Custom', language: 'xx' } },
    });
    const variables = retell.calls[0].request!.retell_llm_dynamic_variables!;
    expect(variables.first_name).toBe('');
    expect(variables.language).toBe('es-ES');
  });

  it('a 500 is unknown and is not retried by the SDK (a retry could dial twice)', async () => {
    retell.failNextCreate({ status: 500 });
    const outcome = await adapter.placeCall(credentials, callRequest());
    expect(outcome).toEqual({ kind: 'unknown', reason: 'retell_500: An unexpected server error occurred.' });
    expect(retell.requests.filter((r) => r.path === '/v2/create-phone-call')).toHaveLength(1);
  });

  it('502, 503, 408 and 409 are unknown', async () => {
    for (const status of [502, 503, 408, 409]) {
      retell.failNextCreate({ status });
      expect((await adapter.placeCall(credentials, callRequest())).kind, String(status)).toBe('unknown');
    }
    expect(retell.requests.filter((r) => r.path === '/v2/create-phone-call')).toHaveLength(4);
  });

  it('a 429 is retry_later honouring Retry-After (seconds) and retry-after-ms', async () => {
    retell.failNextCreate({ status: 429, retryAfterSeconds: 30 });
    expect(await adapter.placeCall(credentials, callRequest())).toEqual({
      kind: 'retry_later',
      reason: 'retell_429: Account rate limited, please throttle your requests.',
      retryAfterMs: 30_000,
    });
    retell.failNextCreate({ status: 429, retryAfterMs: 1500, retryAfterSeconds: 30 });
    expect(await adapter.placeCall(credentials, callRequest())).toMatchObject({
      kind: 'retry_later',
      retryAfterMs: 1500,
    });
    retell.failNextCreate({ status: 429 });
    expect(await adapter.placeCall(credentials, callRequest())).toMatchObject({
      kind: 'retry_later',
      retryAfterMs: null,
    });
    expect(retell.requests.filter((r) => r.path === '/v2/create-phone-call')).toHaveLength(3);
  });

  it('refuses with the best result: invalid number, no payment, unknown agent or number, bad key', async () => {
    const cases: Array<[Parameters<RetellEmulator['failNextCreate']>[0], string, string]> = [
      [
        { status: 400, body: { status: 'error', message: 'Invalid to_number: must be E.164.' } },
        'invalid_number',
        'retell_400: Invalid to_number: must be E.164.',
      ],
      [
        { status: 422, body: { status: 'error', message: 'Invalid destination number' } },
        'invalid_number',
        'retell_422: Invalid destination number',
      ],
      [{ status: 402 }, 'new', 'retell_402: Trial has ended, please add payment method.'],
      [{ status: 422 }, 'new', 'retell_422: Cannot find requested asset under given api key.'],
      [{ status: 400 }, 'new', 'retell_400: Invalid request format, please check API reference.'],
      [{ status: 401 }, 'new', 'retell_401: API key is missing or invalid.'],
      [{ status: 403 }, 'new', 'retell_403: Error 403'],
      [{ status: 404 }, 'new', 'retell_404: Error 404'],
    ];
    for (const [failure, result, endReason] of cases) {
      retell.failNextCreate(failure);
      expect(await adapter.placeCall(credentials, callRequest()), JSON.stringify(failure)).toEqual({
        kind: 'refused',
        result,
        endReason,
      });
    }
  });

  it('an agent or from-number unknown to the account is a 422 and refused as new', async () => {
    await retell.stop();
    await receiver.stop();
    await start({ agentIds: [AGENT], phoneNumbers: [FROM] });
    expect(await adapter.placeCall(credentials, callRequest({ assistantId: 'agent_other' }))).toEqual({
      kind: 'refused',
      result: 'new',
      endReason: 'retell_422: Cannot find requested asset under given api key.',
    });
    expect(await adapter.placeCall(credentials, callRequest({ fromNumber: '+14155550000' }))).toMatchObject({
      kind: 'refused',
      result: 'new',
    });
    expect((await adapter.placeCall(credentials, callRequest())).kind).toBe('accepted');
  });

  it('a wrong API key is a 401 from Retell, refused as new', async () => {
    const outcome = await adapter.placeCall({ ...credentials, apiKey: 'key_wrong' }, callRequest());
    expect(outcome).toEqual({
      kind: 'refused',
      result: 'new',
      endReason: 'retell_401: API key is missing or invalid.',
    });
    expect(retell.calls).toHaveLength(0);
  });

  it('the concurrency refusal is retry_later, whether the create answers an errored call or a 429', async () => {
    await retell.stop();
    await receiver.stop();
    await start({ concurrencyLimit: 1 });
    const first = await placed();
    expect(
      await adapter.placeCall(credentials, callRequest({ callId: '00000000-0000-4000-8000-000000000002' })),
    ).toEqual({
      kind: 'retry_later',
      reason: 'retell refused the call: concurrency_limit_reached',
      retryAfterMs: null,
    });
    callIsOver(first);
    await retell.finishCall(first);
    expect(
      (await adapter.placeCall(credentials, callRequest({ callId: '00000000-0000-4000-8000-000000000003' }))).kind,
    ).toBe('accepted');

    await retell.stop();
    await receiver.stop();
    await start({ concurrencyLimit: 1, concurrencyRefusal: 'status-429' });
    await placed();
    expect(
      await adapter.placeCall(credentials, callRequest({ callId: '00000000-0000-4000-8000-000000000004' })),
    ).toMatchObject({ kind: 'retry_later', retryAfterMs: null });
  });

  it('webhooks of a call refused for concurrency carry no events, and findCall does not count it as placed', async () => {
    await retell.stop();
    await receiver.stop();
    await start({ concurrencyLimit: 0 });
    expect((await adapter.placeCall(credentials, callRequest())).kind).toBe('retry_later');
    callIsOver(retell.calls[0].providerCallId);
    const { statuses } = await retell.finishCall(retell.calls[0].providerCallId);
    expect(statuses).toEqual([200, 200]);
    expect(receiver.events).toEqual([]);
    expect(
      await adapter.findCall(credentials, { callId: CALL_ID, placedAt: now(), request: callRequest() }),
    ).toBeNull();
  });

  it('names a call Retell registered and then refused for concurrency as not placed: call_ended and call_analyzed, no events', async () => {
    await retell.stop();
    await receiver.stop();
    await start({ concurrencyLimit: 0, concurrencyRefusal: 'registered-then-error' });
    const providerCallId = await placedAndOver();
    const { statuses } = await retell.finishCall(providerCallId);
    expect(statuses).toEqual([200, 200]);
    expect(receiver.events).toEqual([]);
    const notPlaced = { callId: CALL_ID, providerCallId, reason: 'concurrency_limit_reached' };
    expect(receiver.received.map((r) => r.result)).toEqual([
      { ok: true, events: [], notPlaced },
      { ok: true, events: [], notPlaced },
    ]);
    expect(
      await adapter.findCall(credentials, { callId: CALL_ID, placedAt: now(), request: callRequest() }),
    ).toBeNull();
    expect(await adapter.fetchCallState(credentials, { callId: CALL_ID, providerCallId }, now())).toEqual({
      kind: 'not_found',
    });
  });

  it('names no call as not placed for another reason, or for a refused call that is not ours', async () => {
    const providerCallId = await placedAndOver();
    await retell.finishCall(providerCallId);
    expect(receiver.received.map((r) => r.result.ok && r.result.notPlaced)).toEqual([undefined, undefined, undefined]);
    // A refused call without our id in its metadata (an inbound call, a call placed elsewhere).
    const { statuses } = await retell.inboundCall({
      from: '+14155550001',
      to: FROM,
      webhookUrl: receiver.url,
      outcome: { disconnectionReason: 'concurrency_limit_reached' },
    });
    expect(statuses).toEqual([200, 200]);
    expect(receiver.received.slice(3).map((r) => r.result)).toEqual([
      { ok: true, events: [] },
      { ok: true, events: [] },
    ]);
  });

  it('a stalled create is unknown (timeout); findCall then finds the call, and null for a call never created', async () => {
    retell.stallNextCreate(1500);
    const outcome = await createRetellAdapter({ timeoutMs: 300 }).placeCall(credentials, callRequest());
    expect(outcome.kind).toBe('unknown');
    expect(retell.calls).toHaveLength(1);
    expect(retell.requests.filter((r) => r.path === '/v2/create-phone-call').map((r) => r.status)).toEqual([null]); // still unanswered
    const found = await adapter.findCall(credentials, { callId: CALL_ID, placedAt: now(), request: callRequest() });
    expect(found).toEqual({ providerCallId: retell.calls[0].providerCallId });
    const list = retell.requests.find((r) => r.path === '/v3/list-calls')!;
    expect(list.body).toMatchObject({
      filter_criteria: { metadata: [{ key: 'contactline_call_id', type: 'string', op: 'eq', value: CALL_ID }] },
    });
    expect(
      await adapter.findCall(credentials, {
        callId: '00000000-0000-4000-8000-0000000000ff',
        placedAt: now(),
        request: callRequest(),
      }),
    ).toBeNull();
  });

  it('a connection refused is unknown', async () => {
    const outcome = await adapter.placeCall({ ...credentials, baseUrl: 'http://127.0.0.1:9' }, callRequest());
    expect(outcome.kind).toBe('unknown');
  });

  it('findCall throws when Retell cannot be asked', async () => {
    await expect(
      adapter.findCall(
        { ...credentials, apiKey: 'key_wrong' },
        { callId: CALL_ID, placedAt: now(), request: callRequest() },
      ),
    ).rejects.toThrow(/401/);
  });
});

describe('readWebhook: a call from create to analysis', () => {
  it('a converted conversation: started, ended after the analysis, the report with utterances and recording', async () => {
    retell.script(TO, {
      disconnectionReason: 'agent_hangup',
      durationSeconds: 95,
      transcript: [
        { role: 'agent', content: 'Hola Ana, soy Alex de Contactline.', atSeconds: 0.5 },
        { role: 'user', content: 'Hola, ¿qué tal?', atSeconds: 3.2 },
        { role: 'transfer_target', content: 'not part of the conversation', atSeconds: 10 },
        { role: 'agent', content: '¿Le viene bien el jueves a las diez?', atSeconds: 12 },
        { role: 'user', content: 'Sí, perfecto.', atSeconds: 15.75 },
      ],
      analysis: { outcome: 'converted', language: 'es-ES' },
      recordingUrl: 'https://example.invalid/rec.wav',
    });
    const providerCallId = await placed();
    callIsOver(providerCallId);
    const { statuses, deliveries } = await retell.finishCall(providerCallId);
    expect(deliveries.map((d) => d.event)).toEqual(['call_started', 'call_ended', 'call_analyzed']);
    expect(statuses).toEqual([200, 200, 200]);

    // Placed at 15:00:00: picked up at 15:00:04, 95 s of talk, call_analyzed 3 s after the end.
    const startMs = Date.parse('2026-11-20T15:00:04.000Z');
    const endMs = startMs + 95_000;
    expect(clockMs).toBe(endMs + 3_000);
    const started = eventsOfType('call.started');
    expect(started[0]).toEqual({
      type: 'call.started',
      eventId: `${CALL_ID}:started`,
      callId: CALL_ID,
      occurredAt: new Date(startMs).toISOString(),
      providerCallId,
    });
    expect(eventsOfType('call.ended')).toEqual([
      {
        type: 'call.ended',
        eventId: `${CALL_ID}:ended`,
        callId: CALL_ID,
        occurredAt: new Date(endMs).toISOString(),
        result: 'converted',
        endReason: 'agent_hangup',
        durationSeconds: 95,
        language: 'es-ES',
        nextAttemptAt: null,
        providerCallId,
      },
    ]);
    const reports = eventsOfType('report.ready');
    expect(reports).toHaveLength(2); // call_ended and call_analyzed: one event id
    expect(new Set(reports.map((r) => r.eventId))).toEqual(new Set([`${CALL_ID}:report`]));
    expect(reports[0]).toEqual(reports[1]);
    expect(reports[0].recordingUrl).toBe('https://example.invalid/rec.wav');
    expect(reports[0].utterances).toEqual([
      {
        speaker: 'assistant',
        content: 'Hola Ana, soy Alex de Contactline.',
        timestamp: new Date(startMs + 500).toISOString(),
      },
      { speaker: 'user', content: 'Hola, ¿qué tal?', timestamp: new Date(startMs + 3200).toISOString() },
      {
        speaker: 'assistant',
        content: '¿Le viene bien el jueves a las diez?',
        timestamp: new Date(startMs + 12_000).toISOString(),
      },
      { speaker: 'user', content: 'Sí, perfecto.', timestamp: new Date(startMs + 15_750).toISOString() },
    ]);
    // Every event, stripped of the provider-only fields, is a valid port event.
    for (const event of receiver.events) {
      const { providerCallId: _p, recordingUrl: _r, ...portEvent } = event;
      expect(parseTelephonyEvent(portEvent).ok, JSON.stringify(event)).toBe(true);
    }
  });

  it('a busy line ends at call_ended, has no call_started, and an analysis cannot make it converted', async () => {
    retell.script(TO, { disconnectionReason: 'dial_busy', analysis: { outcome: 'converted' } });
    const providerCallId = await placed();
    callIsOver(providerCallId);
    const { deliveries } = await retell.finishCall(providerCallId);
    expect(deliveries.map((d) => d.event)).toEqual(['call_ended', 'call_analyzed']);
    expect(eventsOfType('call.started')).toEqual([]);
    const ended = eventsOfType('call.ended');
    expect(ended).toHaveLength(2);
    expect(ended[0]).toEqual(ended[1]);
    expect(ended[0]).toMatchObject({
      result: 'busy',
      endReason: 'dial_busy',
      durationSeconds: 0,
      language: null,
      nextAttemptAt: null,
    });
    // The first delivery (call_ended) already carried it.
    expect(receiver.received[0].result).toMatchObject({
      ok: true,
      events: [
        expect.objectContaining({ type: 'call.ended', result: 'busy' }),
        expect.objectContaining({ type: 'report.ready', utterances: [] }),
      ],
    });
  });

  it('a conversation without an outcome is answered, in the language we asked for', async () => {
    retell.script(TO, { disconnectionReason: 'user_hangup', analysis: {} });
    await retell.finishCall(await placedAndOver());
    expect(endedEvent()).toMatchObject({ result: 'answered', endReason: 'user_hangup', language: 'es-ES' });
    // call_ended carried no ended event for a conversation: it waits for the analysis.
    expect(receiver.received[1].result).toMatchObject({
      ok: true,
      events: [expect.objectContaining({ type: 'call.started' }), expect.objectContaining({ type: 'report.ready' })],
    });
  });

  it("an outcome the agent does not define falls back to answered; Retell's voicemail detection wins", async () => {
    retell.script(TO, { disconnectionReason: 'user_hangup', analysis: { outcome: 'booked_demo' } });
    await retell.finishCall(await placedAndOver());
    expect(endedEvent().result).toBe('answered');

    receiver.events.length = 0;
    retell.script(TO, { disconnectionReason: 'inactivity', analysis: { outcome: 'converted', inVoicemail: true } });
    await retell.finishCall(await placedAndOver(callRequest({ callId: '00000000-0000-4000-8000-000000000010' })));
    expect(endedEvent()).toMatchObject({ result: 'voicemail', endReason: 'inactivity', language: null });
  });

  it('every analysis outcome becomes its result', async () => {
    const outcomes = [
      'converted',
      'qualified',
      'disqualified',
      'contact_verified',
      'identified',
      'neutral_value_call',
      'not_interested',
      'do_not_call',
      'wrong_language',
      'wrong_number',
      'human_busy',
      'callback_requested',
      'answered',
      'voicemail',
      'ivr',
    ];
    for (const [index, outcome] of outcomes.entries()) {
      receiver.events.length = 0;
      retell.script(TO, { disconnectionReason: 'user_hangup', analysis: { outcome } });
      const callId = `00000000-0000-4000-8000-0000000001${String(index).padStart(2, '0')}`;
      await retell.finishCall(await placedAndOver(callRequest({ callId })));
      expect(endedEvent().result, outcome).toBe(outcome);
    }
  });

  it('a requested callback time becomes nextAttemptAt; one without an offset, past or too far is ignored', async () => {
    const cases: Array<[string, string | null]> = [
      ['2026-11-21T10:00:00+01:00', '2026-11-21T09:00:00.000Z'],
      ['2026-11-21T10:00:00Z', '2026-11-21T10:00:00.000Z'],
      ['2026-11-21T10:00:00', null],
      ['tomorrow at ten', null],
      ['2026-11-19T10:00:00Z', null],
      ['2027-01-30T10:00:00Z', null],
      ['', null],
    ];
    for (const [index, [callbackAt, expected]] of cases.entries()) {
      receiver.events.length = 0;
      retell.script(TO, {
        disconnectionReason: 'agent_hangup',
        analysis: { outcome: 'callback_requested', callbackAt },
      });
      await retell.finishCall(
        await placedAndOver(
          callRequest({ callId: `00000000-0000-4000-8000-0000000002${String(index).padStart(2, '0')}` }),
        ),
      );
      expect(endedEvent(), callbackAt).toMatchObject({ result: 'callback_requested', nextAttemptAt: expected });
    }
  });

  it('the analysed language wins over the requested one; a malformed one is ignored', async () => {
    retell.script(TO, {
      disconnectionReason: 'user_hangup',
      analysis: { outcome: 'wrong_language', language: 'pt-BR' },
    });
    await retell.finishCall(await placedAndOver());
    expect(endedEvent()).toMatchObject({ result: 'wrong_language', language: 'pt-BR' });

    receiver.events.length = 0;
    retell.script(TO, {
      disconnectionReason: 'user_hangup',
      analysis: { outcome: 'answered', language: 'Spanish, mostly' },
    });
    await retell.finishCall(await placedAndOver(callRequest({ callId: '00000000-0000-4000-8000-000000000301' })));
    expect(endedEvent().language).toBe('es-ES');
  });

  it('transfers set transferred; a call with no recording has recordingUrl null', async () => {
    retell.script(TO, {
      disconnectionReason: 'call_transfer',
      transferDestination: '+14155550111',
      recordingUrl: null,
      analysis: { outcome: 'qualified' },
    });
    await retell.finishCall(await placedAndOver());
    expect(endedEvent()).toMatchObject({ result: 'qualified', transferred: true, endReason: 'call_transfer' });
    expect(eventsOfType('report.ready')[0].recordingUrl).toBeNull();
  });

  it('redeliveries and duplicates give the same event ids; out-of-order delivery still ends the call once', async () => {
    retell.script(TO, { disconnectionReason: 'user_hangup', analysis: { outcome: 'not_interested' } });
    const providerCallId = await placed();
    callIsOver(providerCallId);
    const { statuses } = await retell.finishCall(providerCallId, { duplicates: 2, order: 'reversed' });
    expect(statuses).toEqual(Array(9).fill(200));
    const ids = receiver.events.map((e) => e.eventId);
    expect(new Set(ids)).toEqual(new Set([`${CALL_ID}:started`, `${CALL_ID}:ended`, `${CALL_ID}:report`]));
    const ended = eventsOfType('call.ended');
    expect(ended.length).toBe(3);
    expect(new Set(ended.map((e) => JSON.stringify(e))).size).toBe(1);
    expect(ended[0].result).toBe('not_interested');
    // A second finish re-sends the same life: the same events again.
    const before = receiver.events.map((e) => JSON.stringify(e));
    receiver.events.length = 0;
    await retell.finishCall(providerCallId, { order: 'reversed', duplicates: 2 });
    expect(receiver.events.map((e) => JSON.stringify(e))).toEqual(before);
  });

  it('Retell redelivers after a non-2xx answer, up to 3 times', async () => {
    const providerCallId = await placed();
    receiver.failNext(500, 2);
    callIsOver(providerCallId);
    const { deliveries } = await retell.finishCall(providerCallId);
    expect(deliveries[0].attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    receiver.failNext(503, 4);
    const again = await retell.finishCall(providerCallId, { order: ['call_ended'] });
    expect(again.deliveries[0].attempts.map((a) => a.status)).toEqual([503, 503, 503, 503]);
    expect(again.statuses).toEqual([503]);
  });

  it('a webhook secret of null means the API key signs', async () => {
    await retell.stop();
    await receiver.stop();
    retell = await startRetellEmulator({ apiKey: API_KEY, webhookSecret: API_KEY, now });
    credentials = { apiKey: API_KEY, webhookSecret: null, baseUrl: retell.baseUrl };
    receiver = await startWebhookReceiver({ adapter, credentials, now });
    const { statuses } = await retell.finishCall(await placedAndOver());
    expect(statuses).toEqual([200, 200, 200]);
  });
});

describe('readWebhook: authentication', () => {
  async function firstResult(options: Parameters<RetellEmulator['finishCall']>[1]) {
    const providerCallId = await placed();
    callIsOver(providerCallId);
    const { statuses } = await retell.finishCall(providerCallId, { ...options, order: ['call_ended'] });
    return { statuses, result: receiver.received.at(-1)!.result };
  }

  it('a missing signature is refused (401), and Retell retries it 3 times', async () => {
    const { statuses, result } = await firstResult({ omitSignature: true });
    expect(statuses).toEqual([401]);
    expect(result).toEqual({ ok: false, reason: 'missing x-retell-signature header' });
    expect(receiver.received).toHaveLength(4);
    expect(receiver.events).toEqual([]);
  });

  it('another key, a stale or future timestamp, a changed body are refused', async () => {
    expect((await firstResult({ secret: 'key_someone_else' })).result).toEqual({
      ok: false,
      reason: 'signature does not match the body and key',
    });
    expect((await firstResult({ signatureAgeMs: 5 * 60_000 + 1000 })).result).toEqual({
      ok: false,
      reason: 'signature timestamp outside the 5-minute window',
    });
    expect((await firstResult({ signatureAgeMs: -(5 * 60_000 + 1000) })).result).toEqual({
      ok: false,
      reason: 'signature timestamp outside the 5-minute window',
    });
    expect(
      (await firstResult({ tamper: (body) => body.replace('"dial', '"xdial').replace('user_hangup', 'agent_hangup') }))
        .result,
    ).toEqual({
      ok: false,
      reason: 'signature does not match the body and key',
    });
    expect(receiver.events).toEqual([]);
  });

  it('a signature 4 minutes old is accepted: the window is 5 minutes around the given now', async () => {
    const { statuses } = await firstResult({ signatureAgeMs: 4 * 60_000 });
    expect(statuses).toEqual([200]);
  });

  it('the window is judged against the now given, not the process clock', async () => {
    clockMs = Date.parse('2031-01-01T00:00:00Z'); // emulator and receiver both use this clock
    const { statuses } = await firstResult({});
    expect(statuses).toEqual([200]);
    const body = retell.webhooksFor(retell.calls.at(-1)!.providerCallId)[0];
    const rawBody = Buffer.from(JSON.stringify(body));
    const headers = await retell.headersFor(rawBody.toString());
    const later = new Date(clockMs + 6 * 60_000);
    expect(await adapter.readWebhook(credentials, { rawBody, headers }, later)).toEqual({
      ok: false,
      reason: 'signature timestamp outside the 5-minute window',
    });
  });

  it('a malformed header is refused; an authentic body we do not use is accepted with no events', async () => {
    const rawBody = Buffer.from(JSON.stringify({ event: 'transcript_updated', call: { call_id: 'x' } }));
    expect(
      await adapter.readWebhook(credentials, { rawBody, headers: { 'x-retell-signature': 'sha256=abc' } }, now()),
    ).toEqual({
      ok: false,
      reason: 'malformed x-retell-signature header',
    });
    expect(
      await adapter.readWebhook(credentials, { rawBody, headers: await retell.headersFor(rawBody.toString()) }, now()),
    ).toEqual({ ok: true, events: [] });
    const notJson = Buffer.from('not json');
    expect(
      await adapter.readWebhook(
        credentials,
        { rawBody: notJson, headers: { 'x-retell-signature': await retell.sign('not json') } },
        now(),
      ),
    ).toEqual({ ok: true, events: [] });
  });

  it('an outbound call made elsewhere (no id of ours) gives no events', async () => {
    const body = JSON.stringify({
      event: 'call_ended',
      call: {
        call_id: 'abc',
        call_type: 'phone_call',
        direction: 'outbound',
        call_status: 'ended',
        disconnection_reason: 'user_hangup',
        from_number: FROM,
        to_number: TO,
        agent_id: AGENT,
        agent_version: 1,
      },
    });
    expect(
      await adapter.readWebhook(
        credentials,
        { rawBody: Buffer.from(body), headers: await retell.headersFor(body) },
        now(),
      ),
    ).toEqual({ ok: true, events: [] });
  });
});

describe('readWebhook: inbound calls', () => {
  it('every webhook of an inbound call carries call.inbound with a call id stable across webhooks', async () => {
    const { providerCallId, statuses } = await retell.inboundCall({
      from: '+12025550143',
      to: FROM,
      webhookUrl: receiver.url,
      outcome: {
        disconnectionReason: 'user_hangup',
        analysis: { outcome: 'callback_requested', callbackAt: '2026-11-23T09:30:00-05:00' },
      },
    });
    expect(statuses).toEqual([200, 200, 200]);
    const callId = callIdForProviderCall('retell', providerCallId);
    const inbound = eventsOfType('call.inbound');
    expect(inbound).toHaveLength(3);
    expect(inbound[0]).toEqual({
      type: 'call.inbound',
      eventId: `${callId}:inbound`,
      callId,
      occurredAt: new Date(clockMs - 63_000).toISOString(),
      from: '+12025550143',
      to: FROM,
      providerCallId,
    });
    expect(new Set(receiver.events.map((e) => e.callId))).toEqual(new Set([callId]));
    expect(endedEvent()).toMatchObject({
      callId,
      result: 'callback_requested',
      nextAttemptAt: '2026-11-23T14:30:00.000Z',
    });
  });
});
