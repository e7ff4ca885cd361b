// The Vapi adapter against the Vapi emulator, through the SDK's baseUrl: placing calls (exact
// request, refusals, rate and concurrency limits, failures), finding a call after a timeout,
// and reading the emulator's webhooks (authentication, events, redeliveries).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Vapi } from '@vapi-ai/server-sdk';
import { createServer } from 'node:net';
import { TelephonyEventSchema } from '../../../src/calls/telephony/telephony.port.js';
import {
  callIdForProviderCall,
  type ProviderCallRequest,
  type ProviderCredentials,
  type ProviderEvent,
  type VoiceProviderAdapter,
} from '../../../src/calls/telephony/voice-provider.port.js';
import { createVapiAdapter } from '../../../src/calls/telephony/vapi/vapi.adapter.js';
import { callWebhookToken } from '../../../src/calls/telephony/vapi/webhook-auth.js';
import { WEBHOOK_BACKOFF_PLAN } from '../../../src/calls/telephony/vapi/create-call-request.js';
import {
  startVapiEmulator,
  type StartVapiEmulatorOptions,
  type VapiEmulator,
} from '../../support/vapi-emulator/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/provider-webhook-receiver.js';

const API_KEY = 'vapi-private-key-test';
const SECRET = 'contactline-vapi-webhook-secret';
const ASSISTANT_ID = '0f3c2a55-9a0e-4d6b-8c1e-2b7f4a9d1e00';
const PHONE_NUMBER_ID = 'a1d0c7e2-5b4f-4e3a-9c8d-7f6e5d4c3b2a';
const FROM_NUMBER = '+14155550100';
const CONTACT = '+14155552671';

let clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;

let callSeq = 0;
function callRequest(webhookUrl: string, overrides: Partial<ProviderCallRequest> = {}): ProviderCallRequest {
  callSeq += 1;
  return {
    callId: `3b1f0c9e-0000-4000-8000-${String(callSeq).padStart(12, '0')}`,
    toNumber: CONTACT,
    assistantId: ASSISTANT_ID,
    fromNumber: PHONE_NUMBER_ID,
    webhookUrl,
    variables: {
      firstName: 'Jane',
      lastName: 'Doe',
      fullName: 'Jane Doe',
      language: 'en-US',
      timezone: 'America/Los_Angeles',
      customFields: { company: 'Acme', seats: 12, vip: true },
    },
    ...overrides,
  };
}

interface Harness {
  vapi: VapiEmulator;
  receiver: WebhookReceiver;
  credentials: ProviderCredentials;
  adapter: VoiceProviderAdapter;
}

const open: Harness[] = [];
async function harness(
  options: Partial<StartVapiEmulatorOptions> = {},
  adapterOptions: { timeoutMs?: number } = {},
): Promise<Harness> {
  const vapi = await startVapiEmulator({
    apiKey: API_KEY,
    webhookSecret: SECRET,
    now,
    backoffTimeScale: 0.001,
    ...options,
  });
  const credentials: ProviderCredentials = { apiKey: API_KEY, webhookSecret: SECRET, baseUrl: vapi.baseUrl };
  const adapter = createVapiAdapter({ timeoutMs: 2_000, ...adapterOptions });
  const receiver = await startWebhookReceiver({ adapter, credentials, now });
  const h = { vapi, receiver, credentials, adapter };
  open.push(h);
  return h;
}

afterEach(async () => {
  while (open.length > 0) {
    const h = open.pop()!;
    await h.receiver.stop();
    await h.vapi.stop();
  }
  clock = new Date('2026-11-22T10:00:00.000Z');
});

/** The port event without what only providers add, validated by the port's schema. */
function portEvent(event: ProviderEvent) {
  const { providerCallId: _p, recordingUrl: _r, ...rest } = event;
  const parsed = TelephonyEventSchema.safeParse(rest);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return rest;
}

async function placeAccepted(h: Harness, overrides: Partial<ProviderCallRequest> = {}) {
  const request = callRequest(h.receiver.url, overrides);
  const outcome = await h.adapter.placeCall(h.credentials, request);
  if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
  return { request, providerCallId: outcome.providerCallId };
}

/** The call's life runs as scripted: the clock moves on to when Vapi sends its end-of-call-report. */
function callIsOver(h: Harness, providerCallId: string): void {
  clock = h.vapi.timeline(providerCallId).reportAt;
}

const creates = (vapi: VapiEmulator) => vapi.requests.filter((r) => r.method === 'POST' && r.path === '/call');

describe('placeCall', () => {
  it('creates the call with our id in metadata and name, the variables, the numbers and this call’s webhook routing', async () => {
    const h = await harness({ phoneNumbers: { [PHONE_NUMBER_ID]: FROM_NUMBER }, assistantIds: [ASSISTANT_ID] });
    const { request, providerCallId } = await placeAccepted(h);

    expect(h.vapi.calls).toHaveLength(1);
    expect(h.vapi.calls[0].id).toBe(providerCallId);
    expect(h.vapi.calls[0].request).toEqual({
      name: request.callId,
      assistantId: ASSISTANT_ID,
      phoneNumberId: PHONE_NUMBER_ID,
      customer: { number: CONTACT },
      assistantOverrides: {
        metadata: { contactlineCallId: request.callId },
        variableValues: {
          firstName: 'Jane',
          lastName: 'Doe',
          fullName: 'Jane Doe',
          language: 'en-US',
          timezone: 'America/Los_Angeles',
          customFields: { company: 'Acme', seats: 12, vip: true },
        },
        serverMessages: ['status-update', 'end-of-call-report'],
        server: {
          url: h.receiver.url,
          timeoutSeconds: 20,
          headers: { 'x-vapi-secret': callWebhookToken(SECRET, request.callId) },
          backoffPlan: WEBHOOK_BACKOFF_PLAN,
        },
      },
    });
    // The secret itself never goes to Vapi.
    expect(JSON.stringify(h.vapi.calls[0].request)).not.toContain(SECRET);
    expect(creates(h.vapi)).toHaveLength(1);
  });

  it('keeps null variables as null (Vapi takes any JSON value)', async () => {
    const h = await harness();
    await placeAccepted(h, {
      variables: {
        firstName: null,
        lastName: null,
        fullName: null,
        language: 'es-ES',
        timezone: 'Europe/Madrid',
        customFields: {},
      },
    });
    const overrides = h.vapi.calls[0].request!.assistantOverrides as { variableValues: Record<string, unknown> };
    expect(overrides.variableValues).toEqual({
      firstName: null,
      lastName: null,
      fullName: null,
      language: 'es-ES',
      timezone: 'Europe/Madrid',
      customFields: {},
    });
  });

  it('refuses an invalid contact number as invalid_number (Vapi’s E.164 validation, 400)', async () => {
    const h = await harness();
    const outcome = await h.adapter.placeCall(h.credentials, callRequest(h.receiver.url, { toNumber: '4155552671' }));
    expect(outcome).toMatchObject({ kind: 'refused', result: 'invalid_number' });
    expect(outcome.kind === 'refused' && outcome.endReason).toContain('E.164');
    expect(h.vapi.calls).toHaveLength(0);
  });

  it.each([
    [
      'an unknown assistant (400)',
      { assistantId: '99999999-9999-4999-8999-999999999999' },
      /configuration: vapi 400: Couldn't Get Assistant/,
    ],
    [
      'an unknown phone number (400)',
      { fromNumber: '88888888-8888-4888-8888-888888888888' },
      /configuration: vapi 400: Couldn't Get Phone Number/,
    ],
  ])('refuses %s as new, saying what is wrong', async (_name, overrides, endReason) => {
    const h = await harness({ phoneNumbers: { [PHONE_NUMBER_ID]: FROM_NUMBER }, assistantIds: [ASSISTANT_ID] });
    const outcome = await h.adapter.placeCall(h.credentials, callRequest(h.receiver.url, overrides));
    expect(outcome).toMatchObject({ kind: 'refused', result: 'new' });
    expect(outcome.kind === 'refused' && outcome.endReason).toMatch(endReason);
  });

  it.each([
    [402, undefined, /^payment required: vapi 402/],
    [
      400,
      { message: 'Insufficient credits. Please add credits to your wallet.', error: 'Bad Request', statusCode: 400 },
      /^account: vapi 400: Insufficient credits/,
    ],
    [
      400,
      {
        message: ['customer.number must be a valid phone number in the E.164 format.'],
        error: 'Bad Request',
        statusCode: 400,
      },
      /^invalid number: vapi 400/,
    ],
    [422, { message: 'customer.number is not a valid number', statusCode: 422 }, /^invalid number: vapi 422/],
    [403, undefined, /^API key refused: vapi 403/],
    [404, undefined, /^assistant or phone number not found: vapi 404/],
    [409, undefined, /^refused: vapi 409/],
  ])('maps a %s refusal onto a refused outcome', async (status, body, endReason) => {
    const h = await harness();
    h.vapi.failNextCreate({ status, body });
    const outcome = await h.adapter.placeCall(h.credentials, callRequest(h.receiver.url));
    expect(outcome.kind).toBe('refused');
    if (outcome.kind !== 'refused') return;
    expect(outcome.endReason).toMatch(endReason);
    expect(outcome.result).toBe(endReason.source.includes('invalid number') ? 'invalid_number' : 'new');
    expect(creates(h.vapi)).toHaveLength(1);
  });

  it('refuses a wrong API key (401) as new, without retrying', async () => {
    const h = await harness();
    const outcome = await h.adapter.placeCall({ ...h.credentials, apiKey: 'wrong' }, callRequest(h.receiver.url));
    expect(outcome).toMatchObject({ kind: 'refused', result: 'new' });
    expect(outcome.kind === 'refused' && outcome.endReason).toMatch(/^API key refused: vapi 401/);
    expect(creates(h.vapi)).toHaveLength(1);
  });

  it.each([
    [{ retryAfterSeconds: 7 }, 7_000],
    [{ retryAfterMs: 1_500 }, 1_500],
    [{}, null],
  ])('answers retry_later on a 429 (%o), once, honouring the retry delay', async (headers, retryAfterMs) => {
    const h = await harness();
    h.vapi.failNextCreate({ status: 429, ...headers });
    const outcome = await h.adapter.placeCall(h.credentials, callRequest(h.receiver.url));
    expect(outcome).toMatchObject({ kind: 'retry_later', retryAfterMs });
    expect(creates(h.vapi)).toHaveLength(1);
  });

  it.each(['blocked-call', 'queued-call'] as const)(
    'answers unknown, with the blocked call’s id, when Vapi blocks the call at the concurrency limit (201 with concurrencyBlocked; %s): it may still be dialled',
    async (concurrencyRefusal) => {
      const h = await harness({ concurrencyLimit: 1, concurrencyRefusal });
      await placeAccepted(h);
      const outcome = await h.adapter.placeCall(h.credentials, callRequest(h.receiver.url));
      expect(outcome).toEqual({
        kind: 'unknown',
        reason: expect.stringContaining('concurrency limit reached (limit 1)'),
        providerCallId: h.vapi.calls[1].id,
      });
      expect(creates(h.vapi)).toHaveLength(2);
    },
  );

  it('answers retry_later on a concurrency refusal given as a 400', async () => {
    const h = await harness({ concurrencyLimit: 1, concurrencyRefusal: 'bad-request' });
    await placeAccepted(h);
    const outcome = await h.adapter.placeCall(h.credentials, callRequest(h.receiver.url));
    expect(outcome).toMatchObject({ kind: 'retry_later', retryAfterMs: null });
  });

  it('frees a slot when a call ends', async () => {
    const h = await harness({ concurrencyLimit: 1 });
    const first = await placeAccepted(h);
    callIsOver(h, first.providerCallId);
    await h.vapi.finishCall(first.providerCallId);
    expect((await h.adapter.placeCall(h.credentials, callRequest(h.receiver.url))).kind).toBe('accepted');
  });

  it.each([500, 502, 503, 504, 408])(
    'answers unknown on a %s, without retrying (a retry could dial twice)',
    async (status) => {
      const h = await harness();
      h.vapi.failNextCreate({ status });
      const outcome = await h.adapter.placeCall(h.credentials, callRequest(h.receiver.url));
      expect(outcome).toMatchObject({ kind: 'unknown' });
      expect(outcome.kind === 'unknown' && outcome.reason).toContain(`vapi ${status}`);
      expect(creates(h.vapi)).toHaveLength(1);
    },
  );

  it('answers unknown when Vapi cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const adapter = createVapiAdapter({ timeoutMs: 1_000 });
    const outcome = await adapter.placeCall(
      { apiKey: API_KEY, webhookSecret: SECRET, baseUrl: `http://127.0.0.1:${port}` },
      callRequest('http://127.0.0.1:1/x'),
    );
    expect(outcome.kind).toBe('unknown');
  });
});

describe('findCall after a create that timed out', () => {
  it('answers unknown on a stalled create, then finds the call Vapi did create; null for a call never created', async () => {
    const h = await harness({}, { timeoutMs: 200 });
    h.vapi.stallNextCreate(1_000);
    const request = callRequest(h.receiver.url);
    const placedAt = clock;
    const outcome = await h.adapter.placeCall(h.credentials, request);
    expect(outcome).toMatchObject({ kind: 'unknown' });
    expect(outcome.kind === 'unknown' && outcome.reason).toMatch(/^timeout/);
    expect(creates(h.vapi)).toHaveLength(1);

    const found = await h.adapter.findCall(h.credentials, { callId: request.callId, placedAt, request });
    expect(found).toEqual({ providerCallId: h.vapi.calls[0].id });
    const list = h.vapi.requests.find((r) => r.method === 'GET' && r.path === '/call')!;
    expect(list.query).toMatchObject({
      phoneNumberId: PHONE_NUMBER_ID,
      createdAtGe: '2026-11-22T09:58:00.000Z',
      createdAtLe: '2026-11-22T10:15:00.000Z',
      limit: '1000',
    });

    const never = callRequest(h.receiver.url);
    expect(await h.adapter.findCall(h.credentials, { callId: never.callId, placedAt, request: never })).toBeNull();
  });

  it('does not find a call created outside the window around placedAt', async () => {
    const h = await harness();
    const { request } = await placeAccepted(h);
    const later = new Date(clock.getTime() + 60 * 60_000);
    expect(await h.adapter.findCall(h.credentials, { callId: request.callId, placedAt: later, request })).toBeNull();
  });

  it('throws when Vapi cannot be asked (the dialer asks again later)', async () => {
    const h = await harness();
    const request = callRequest(h.receiver.url);
    await expect(
      h.adapter.findCall({ ...h.credentials, apiKey: 'wrong' }, { callId: request.callId, placedAt: clock, request }),
    ).rejects.toThrow();
  });

  it('finds a blocked call Vapi holds queued, and none for one Vapi ended unplaced at the concurrency limit', async () => {
    const queued = await harness({ concurrencyLimit: 0, concurrencyRefusal: 'queued-call' });
    const waiting = callRequest(queued.receiver.url);
    expect(await queued.adapter.placeCall(queued.credentials, waiting)).toMatchObject({ kind: 'unknown' });
    expect(
      await queued.adapter.findCall(queued.credentials, { callId: waiting.callId, placedAt: clock, request: waiting }),
    ).toEqual({ providerCallId: queued.vapi.calls[0].id });

    const blocked = await harness({ concurrencyLimit: 0 });
    const refused = callRequest(blocked.receiver.url);
    expect(await blocked.adapter.placeCall(blocked.credentials, refused)).toMatchObject({ kind: 'unknown' });
    expect(blocked.vapi.calls[0].call).toMatchObject({
      status: 'ended',
      endedReason: 'call.start.error-subscription-concurrency-limit-reached',
    });
    expect(
      await blocked.adapter.findCall(blocked.credentials, {
        callId: refused.callId,
        placedAt: clock,
        request: refused,
      }),
    ).toBeNull();
  });
});

describe('webhooks of a call', () => {
  it('turns a call’s life into call.started, call.ended and report.ready, all valid port events', async () => {
    const h = await harness();
    h.vapi.script(CONTACT, {
      endedReason: 'assistant-ended-call',
      durationSeconds: 95,
      transcript: [
        { role: 'assistant', message: 'Hi Jane, this is Ava from Contactline.' },
        { role: 'user', message: 'Hi! Yes, book me for Tuesday.' },
        { role: 'assistant', message: 'Done, see you Tuesday.' },
      ],
      analysis: { outcome: 'converted', language: 'en-GB' },
      recordingUrl: 'https://storage.vapi.ai/rec-1.wav',
    });
    const { request, providerCallId } = await placeAccepted(h);
    // Placed at 10:00:00: picked up at 10:00:04, 95 s of talk, the report 3 s after the end.
    callIsOver(h, providerCallId);
    expect(clock.toISOString()).toBe('2026-11-22T10:01:42.000Z');
    const { statuses, deliveries } = await h.vapi.finishCall(providerCallId);

    expect(deliveries.map((d) => d.status ?? d.type)).toEqual([
      'ringing',
      'in-progress',
      'ended',
      'end-of-call-report',
    ]);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const events = h.receiver.events.map(portEvent);
    const startedAt = '2026-11-22T10:00:04.000Z';
    expect(events).toEqual([
      { type: 'call.started', eventId: `${request.callId}:started`, callId: request.callId, occurredAt: startedAt },
      {
        type: 'call.ended',
        eventId: `${request.callId}:ended`,
        callId: request.callId,
        occurredAt: '2026-11-22T10:01:39.000Z',
        result: 'converted',
        endReason: 'assistant-ended-call',
        durationSeconds: 95,
        language: 'en-GB',
        nextAttemptAt: null,
      },
      {
        type: 'report.ready',
        eventId: `${request.callId}:report`,
        callId: request.callId,
        occurredAt: '2026-11-22T10:01:39.000Z',
        utterances: [
          {
            speaker: 'assistant',
            content: 'Hi Jane, this is Ava from Contactline.',
            timestamp: '2026-11-22T10:00:05.000Z',
          },
          { speaker: 'user', content: 'Hi! Yes, book me for Tuesday.', timestamp: '2026-11-22T10:00:09.000Z' },
          { speaker: 'assistant', content: 'Done, see you Tuesday.', timestamp: '2026-11-22T10:00:13.000Z' },
        ],
      },
    ]);
    expect(h.receiver.events.every((e) => e.providerCallId === providerCallId)).toBe(true);
    expect(h.receiver.events[2].recordingUrl).toBe('https://storage.vapi.ai/rec-1.wav');
  });

  it('reads transcripts whose assistant role is "assistant" as well as "bot", and drops system lines', async () => {
    const h = await harness();
    h.vapi.script(CONTACT, { endedReason: 'customer-ended-call', botRole: 'assistant' });
    const { providerCallId } = await placeAccepted(h);
    callIsOver(h, providerCallId);
    await h.vapi.finishCall(providerCallId);
    const report = h.receiver.events.find((e) => e.type === 'report.ready');
    expect(report?.type === 'report.ready' && report.utterances.map((u) => u.speaker)).toEqual(['assistant', 'user']);
  });

  it.each([
    ['customer-busy', 'busy'],
    ['customer-did-not-answer', 'no_answer'],
    ['voicemail', 'voicemail'],
    ['twilio-reported-customer-misdialed', 'invalid_number'],
    ['call.start.error-subscription-insufficient-credits', 'new'],
    ['call.in-progress.error-providerfault-outbound-sip-403-forbidden', 'unknown'],
    ['pipeline-error-openai-llm-failed', 'unknown'],
  ] as const)('maps %s onto %s, whatever the analysis says', async (endedReason, result) => {
    const h = await harness();
    h.vapi.script(CONTACT, {
      endedReason,
      analysis: { outcome: 'converted' },
      transcript: [{ role: 'assistant', message: 'Hello?' }],
    });
    const { providerCallId } = await placeAccepted(h);
    callIsOver(h, providerCallId);
    await h.vapi.finishCall(providerCallId);
    const ended = h.receiver.events.find((e) => e.type === 'call.ended');
    expect(ended).toMatchObject({ result, endReason: endedReason });
    expect(h.receiver.events.some((e) => e.type === 'call.started')).toBe(h.vapi.calls[0].call.startedAt !== undefined);
  });

  it('sends no call.started for a call nobody picked up, and a zero duration', async () => {
    const h = await harness();
    h.vapi.script(CONTACT, { endedReason: 'customer-did-not-answer' });
    const { providerCallId } = await placeAccepted(h);
    callIsOver(h, providerCallId);
    await h.vapi.finishCall(providerCallId);
    expect(h.receiver.events.map((e) => e.type)).toEqual(['call.ended', 'report.ready']);
    expect(h.receiver.events[0]).toMatchObject({ durationSeconds: 0, language: null });
    expect(h.receiver.events[1]).toMatchObject({ utterances: [], recordingUrl: null });
  });

  it('names the call Vapi blocked at the concurrency limit and ended unplaced as not placed, with no events (no result, no attempt)', async () => {
    const h = await harness({ concurrencyLimit: 0 });
    const request = callRequest(h.receiver.url);
    expect((await h.adapter.placeCall(h.credentials, request)).kind).toBe('unknown');
    const blocked = h.vapi.calls[0].id;
    callIsOver(h, blocked);
    const { statuses } = await h.vapi.finishCall(blocked);
    expect(statuses).toEqual([200, 200]);
    expect(h.receiver.events).toEqual([]);
    const notPlaced = {
      callId: request.callId,
      providerCallId: blocked,
      reason: 'call.start.error-subscription-concurrency-limit-reached',
    };
    // Its status-update `ended`, then its end-of-call-report: either names it.
    expect(h.receiver.received.map((r) => (r.result.ok ? r.result.notPlaced : null))).toEqual([notPlaced, notPlaced]);
    expect(h.receiver.received.map((r) => JSON.parse(r.rawBody.toString()).message.type)).toEqual([
      'status-update',
      'end-of-call-report',
    ]);
  });

  describe('analysis', () => {
    const conversation = [
      { role: 'assistant' as const, message: 'Hi Jane!' },
      { role: 'user' as const, message: 'Hello.' },
    ];

    async function endedWith(
      script: Parameters<VapiEmulator['script']>[1],
      variables?: Partial<ProviderCallRequest['variables']>,
    ) {
      const h = await harness();
      h.vapi.script(CONTACT, { transcript: conversation, ...script });
      const base = callRequest(h.receiver.url);
      const { providerCallId } = await placeAccepted(
        h,
        variables ? { variables: { ...base.variables, ...variables } } : {},
      );
      callIsOver(h, providerCallId);
      await h.vapi.finishCall(providerCallId);
      const ended = h.receiver.events.find((e) => e.type === 'call.ended');
      if (ended?.type !== 'call.ended') throw new Error('no call.ended');
      return ended;
    }

    it.each([
      'converted',
      'qualified',
      'disqualified',
      'not_interested',
      'do_not_call',
      'wrong_language',
      'wrong_number',
      'human_busy',
      'contact_verified',
      'identified',
      'neutral_value_call',
      'ivr',
      'voicemail',
    ])('takes the outcome %s from the structured output', async (outcome) => {
      expect((await endedWith({ endedReason: 'customer-ended-call', analysis: { outcome } })).result).toBe(outcome);
    });

    it('reads the legacy analysis.structuredData too', async () => {
      expect(
        (
          await endedWith({
            endedReason: 'assistant-ended-call',
            analysis: { outcome: 'qualified' },
            analysisVia: 'structured-data',
          })
        ).result,
      ).toBe('qualified');
    });

    it('ignores a structured output with another name', async () => {
      expect(
        (
          await endedWith({
            endedReason: 'assistant-ended-call',
            analysis: { outcome: 'converted' },
            analysisOutputName: 'Customer Info',
          })
        ).result,
      ).toBe('answered');
    });

    it('falls back to answered when the contact spoke and the outcome is missing or unknown', async () => {
      expect((await endedWith({ endedReason: 'customer-ended-call' })).result).toBe('answered');
      expect(
        (await endedWith({ endedReason: 'customer-ended-call', analysis: { outcome: 'super_happy' } })).result,
      ).toBe('answered');
    });

    it('falls back to unknown when the contact never spoke', async () => {
      expect(
        (
          await endedWith({
            endedReason: 'silence-timed-out',
            transcript: [{ role: 'assistant', message: 'Hello? Anyone there?' }],
          })
        ).result,
      ).toBe('unknown');
    });

    it('uses the analysis of a call that failed after the contact spoke, and unknown otherwise', async () => {
      expect(
        (await endedWith({ endedReason: 'phone-call-provider-closed-websocket', analysis: { outcome: 'do_not_call' } }))
          .result,
      ).toBe('do_not_call');
      expect((await endedWith({ endedReason: 'phone-call-provider-closed-websocket', transcript: [] })).result).toBe(
        'unknown',
      );
    });

    it('turns the requested callback time into nextAttemptAt', async () => {
      const ended = await endedWith({
        endedReason: 'assistant-ended-call',
        analysis: { outcome: 'callback_requested', callbackAt: '2026-11-23T10:30:00-08:00' },
      });
      expect(ended).toMatchObject({ result: 'callback_requested', nextAttemptAt: '2026-11-23T18:30:00.000Z' });
    });

    it.each([
      ['in the past', '2026-11-21T10:30:00Z'],
      ['more than 30 days ahead', '2027-01-30T10:30:00Z'],
      ['without an offset', '2026-11-23T10:30:00'],
      ['not a date', 'tomorrow morning'],
    ])('keeps callback_requested but no nextAttemptAt for a callback time %s', async (_name, callbackAt) => {
      expect(
        await endedWith({
          endedReason: 'assistant-ended-call',
          analysis: { outcome: 'callback_requested', callbackAt },
        }),
      ).toMatchObject({ result: 'callback_requested', nextAttemptAt: null });
    });

    it('ignores a callback time when the outcome is not callback_requested', async () => {
      expect(
        await endedWith({
          endedReason: 'assistant-ended-call',
          analysis: { outcome: 'converted', callbackAt: '2026-11-23T10:30:00Z' },
        }),
      ).toMatchObject({ nextAttemptAt: null });
    });

    it('takes the language from the analysis, else the call’s starting language for a conversation', async () => {
      expect(
        (await endedWith({ endedReason: 'customer-ended-call', analysis: { outcome: 'answered', language: 'es-MX' } }))
          .language,
      ).toBe('es-MX');
      expect((await endedWith({ endedReason: 'customer-ended-call' }, { language: 'fr-FR' })).language).toBe('fr-FR');
      expect(
        (
          await endedWith(
            { endedReason: 'customer-ended-call', analysis: { outcome: 'answered', language: 'not a tag!' } },
            { language: 'de-DE' },
          )
        ).language,
      ).toBe('de-DE');
    });

    it('marks transferred and test calls', async () => {
      expect(
        await endedWith({ endedReason: 'assistant-forwarded-call', destinationNumber: '+14155550199' }),
      ).toMatchObject({ transferred: true });
      const web = await endedWith({ endedReason: 'customer-ended-call', callType: 'webCall' });
      expect(web).toMatchObject({ testCall: true });
      expect(web.transferred).toBeUndefined();
    });
  });

  it('gives redelivered and reordered messages the same event ids', async () => {
    const h = await harness();
    const { request, providerCallId } = await placeAccepted(h);
    callIsOver(h, providerCallId);
    const { statuses } = await h.vapi.finishCall(providerCallId, { duplicates: 2, reversed: true });
    expect(statuses.every((s) => s === 200)).toBe(true);
    const ids = h.receiver.events.map((e) => e.eventId);
    expect(ids).toHaveLength(9);
    expect(new Set(ids)).toEqual(
      new Set([`${request.callId}:started`, `${request.callId}:ended`, `${request.callId}:report`]),
    );
    // The copies of one message are the same events.
    const ended = h.receiver.events.filter((e) => e.type === 'call.ended');
    expect(ended[1]).toEqual(ended[0]);
    expect(ended[2]).toEqual(ended[0]);
  });

  it('is redelivered by Vapi per the backoffPlan the adapter sets, until our server accepts it', async () => {
    const h = await harness();
    const { providerCallId } = await placeAccepted(h);
    h.receiver.failNext(503, 2);
    callIsOver(h, providerCallId);
    const { deliveries } = await h.vapi.finishCall(providerCallId);
    expect(deliveries[0].attempts).toEqual([503, 503, 200]);
    expect(deliveries.slice(1).map((d) => d.attempts)).toEqual([[200], [200], [200]]);
  });

  it('is not retried by Vapi after a 401 (excluded status)', async () => {
    const h = await harness();
    const { providerCallId } = await placeAccepted(h);
    callIsOver(h, providerCallId);
    const { deliveries } = await h.vapi.finishCall(providerCallId, { secret: 'not-our-secret' });
    expect(deliveries.map((d) => d.attempts)).toEqual([[401], [401], [401], [401]]);
  });
});

describe('inbound calls', () => {
  it('reports call.inbound with the caller and our number, under a call id derived from Vapi’s, stable across messages', async () => {
    const h = await harness();
    const { call, statuses } = await h.vapi.inboundCall({
      from: '+14155559876',
      to: FROM_NUMBER,
      webhookUrl: h.receiver.url,
      assistantRequest: true,
    });
    expect(statuses.every((s) => s === 200)).toBe(true);
    const callId = callIdForProviderCall('vapi', call.id);
    const inbound = h.receiver.events.filter((e) => e.type === 'call.inbound').map(portEvent);
    expect(inbound.length).toBeGreaterThan(1);
    for (const event of inbound) {
      // Reported at 10:00:00, over by then: it came in 49 s earlier (4 s ringing, 42 s of talk, 3 s of analysis).
      expect(event).toEqual({
        type: 'call.inbound',
        eventId: `${callId}:inbound`,
        callId,
        occurredAt: '2026-11-22T09:59:11.000Z',
        from: '+14155559876',
        to: FROM_NUMBER,
      });
    }
    expect(new Set(h.receiver.events.map((e) => e.callId))).toEqual(new Set([callId]));
    expect(h.receiver.events.map((e) => e.type)).toContain('call.ended');
  });

  it('records an inbound call Vapi refused at the concurrency limit as new (nobody talked), not as a call of ours not placed', async () => {
    const h = await harness();
    const { call, statuses } = await h.vapi.inboundCall({
      from: '+14155559876',
      to: FROM_NUMBER,
      webhookUrl: h.receiver.url,
      script: { endedReason: 'call.start.error-subscription-concurrency-limit-reached' },
    });
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(h.receiver.received.every((r) => r.result.ok && r.result.notPlaced === undefined)).toBe(true);
    expect(h.receiver.events.find((e) => e.type === 'call.ended')).toMatchObject({
      callId: callIdForProviderCall('vapi', call.id),
      result: 'new',
      endReason: 'call.start.error-subscription-concurrency-limit-reached',
      nextAttemptAt: null,
    });
  });
});

describe('webhook authentication', () => {
  let h: Harness;
  let providerCallId: string;
  beforeEach(async () => {
    h = await harness();
    ({ providerCallId } = await placeAccepted(h));
  });

  it.each([
    ['no authentication headers', { omitAuth: true }, 'missing'],
    ['a signature under another secret', { secret: 'not-our-secret' }, 'mismatch'],
    ['a timestamp older than 5 minutes', { staleSeconds: 301 }, 'stale'],
    [
      'a body changed after signing',
      { tamper: (body: string) => body.replaceAll(CONTACT, '+14155550000') },
      'mismatch',
    ],
  ])('rejects %s', async (_name, options, reason) => {
    callIsOver(h, providerCallId);
    const { statuses } = await h.vapi.finishCall(providerCallId, options);
    expect(statuses.every((s) => s === 401)).toBe(true);
    expect(h.receiver.events).toEqual([]);
    expect(h.receiver.received.every((r) => !r.result.ok && r.result.reason.endsWith(reason))).toBe(true);
  });

  it('accepts a timestamp 4 minutes old, in seconds as well as milliseconds', async () => {
    callIsOver(h, providerCallId);
    const { statuses } = await h.vapi.finishCall(providerCallId, { staleSeconds: 240, timestampUnit: 'seconds' });
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('rejects a timestamp from the future beyond the window', async () => {
    callIsOver(h, providerCallId);
    const { statuses } = await h.vapi.finishCall(providerCallId, { staleSeconds: -301 });
    expect(statuses.every((s) => s === 401)).toBe(true);
  });
});

describe('webhook authentication by secret header', () => {
  it('accepts the per-call X-Vapi-Secret token the adapter set on the call (no credential)', async () => {
    const h = await harness({ credential: 'none' });
    const { providerCallId } = await placeAccepted(h);
    callIsOver(h, providerCallId);
    const { statuses } = await h.vapi.finishCall(providerCallId);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(h.receiver.received.every((r) => r.result.ok)).toBe(true);
  });

  it('rejects a per-call token used for another call', async () => {
    const h = await harness({ credential: 'none' });
    const { providerCallId } = await placeAccepted(h);
    // Reuse this call's token on a body naming another call id.
    const body = JSON.stringify({
      message: {
        type: 'status-update',
        status: 'in-progress',
        call: {
          id: providerCallId,
          orgId: 'o',
          createdAt: '',
          updatedAt: '',
          assistantOverrides: { metadata: { contactlineCallId: '3b1f0c9e-0000-4000-8000-999999999999' } },
        },
      },
    });
    const token = (h.vapi.calls[0].request!.assistantOverrides as { server: { headers: Record<string, string> } })
      .server.headers['x-vapi-secret'];
    const result = await h.adapter.readWebhook(
      h.credentials,
      { rawBody: Buffer.from(body), headers: { 'x-vapi-secret': token } },
      clock,
    );
    expect(result.ok).toBe(false);
  });

  it.each(['bearer', 'x-vapi-secret'] as const)(
    'accepts the webhook secret from a %s credential (inbound calls, dashboard-configured numbers)',
    async (credential) => {
      const h = await harness({ credential });
      const { statuses } = await h.vapi.inboundCall({
        from: '+14155559876',
        to: FROM_NUMBER,
        webhookUrl: h.receiver.url,
      });
      expect(statuses.every((s) => s === 200)).toBe(true);
      const wrong = await h.vapi.inboundCall({
        from: '+14155559876',
        to: FROM_NUMBER,
        webhookUrl: h.receiver.url,
        secret: 'nope',
      });
      expect(wrong.statuses.every((s) => s === 401)).toBe(true);
    },
  );

  it('rejects everything when the Account has no webhook secret', async () => {
    const h = await harness();
    const body = JSON.stringify({ message: { type: 'status-update', status: 'ringing' } });
    const result = await h.adapter.readWebhook(
      { ...h.credentials, webhookSecret: null },
      { rawBody: Buffer.from(body), headers: h.vapi.headersFor(body) },
      clock,
    );
    expect(result).toEqual({ ok: false, reason: 'no secret configured' });
  });
});

describe('messages we do not use', () => {
  it('answers ok with no events (authenticated), for unused types and status updates', async () => {
    const h = await harness();
    for (const message of [
      { type: 'conversation-update', messages: [] },
      { type: 'speech-update', status: 'started', role: 'user' },
      {
        type: 'status-update',
        status: 'ringing',
        call: {
          id: 'x',
          orgId: 'o',
          createdAt: clock.toISOString(),
          updatedAt: clock.toISOString(),
          assistantOverrides: { metadata: { contactlineCallId: 'c1' } },
        },
      },
      {
        type: 'status-update',
        status: 'ended',
        endedReason: 'customer-ended-call',
        call: {
          id: 'x',
          orgId: 'o',
          createdAt: clock.toISOString(),
          updatedAt: clock.toISOString(),
          assistantOverrides: { metadata: { contactlineCallId: 'c1' } },
        },
      },
    ]) {
      const body = JSON.stringify({ message });
      expect(
        await h.adapter.readWebhook(
          h.credentials,
          { rawBody: Buffer.from(body), headers: h.vapi.headersFor(body) },
          clock,
        ),
      ).toEqual({ ok: true, events: [] });
    }
  });

  it('answers ok with no events for an authenticated body that is not a server message', async () => {
    const h = await harness();
    const body = 'not json';
    expect(
      await h.adapter.readWebhook(
        h.credentials,
        { rawBody: Buffer.from(body), headers: h.vapi.headersFor(body) },
        clock,
      ),
    ).toEqual({ ok: true, events: [] });
  });
});

describe('the emulator against the SDK types', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });

  it('sends server messages whose enumerated values are the SDK’s, with the Call fields the SDK requires', async () => {
    h.vapi.script(CONTACT, {
      endedReason: 'assistant-forwarded-call',
      destinationNumber: '+14155550199',
      analysis: { outcome: 'qualified' },
    });
    const { providerCallId } = await placeAccepted(h);
    callIsOver(h, providerCallId);
    await h.vapi.finishCall(providerCallId);
    await h.vapi.inboundCall({
      from: '+14155559876',
      to: FROM_NUMBER,
      webhookUrl: h.receiver.url,
      assistantRequest: true,
    });

    const statuses = new Set<string>(Object.values(Vapi.ServerMessageStatusUpdateStatus));
    const reasons = new Set<string>(Object.values(Vapi.CallEndedReason));
    const types = new Set<string>(Object.values(Vapi.CallType));
    for (const { rawBody } of h.receiver.received) {
      const { message } = JSON.parse(rawBody.toString()) as { message: Record<string, any> };
      expect(['status-update', 'end-of-call-report', 'assistant-request', 'conversation-update']).toContain(
        message.type,
      );
      expect(typeof message.timestamp).toBe('number');
      expect(message.call).toMatchObject({
        id: expect.any(String),
        orgId: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(types.has(message.call.type)).toBe(true);
      if (message.type === 'status-update') {
        expect(statuses.has(message.status)).toBe(true);
        if (message.status === 'ended') expect(reasons.has(message.endedReason)).toBe(true);
      }
      if (message.type === 'end-of-call-report') {
        expect(reasons.has(message.endedReason)).toBe(true);
        expect(message).toMatchObject({ artifact: expect.any(Object), analysis: expect.any(Object) });
        for (const line of message.artifact.messages) {
          expect(line).toMatchObject({
            role: expect.any(String),
            message: expect.any(String),
            time: expect.any(Number),
            secondsFromStart: expect.any(Number),
          });
        }
      }
    }
  });

  it('answers creates with a Call (the fields the SDK requires) and subscriptionLimits', async () => {
    const { providerCallId } = await placeAccepted(h);
    const created = await fetch(`${h.vapi.baseUrl}/call/${providerCallId}`, {
      headers: { authorization: `Bearer ${API_KEY}` },
    }).then((r) => r.json());
    expect(created).toMatchObject({
      id: providerCallId,
      orgId: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      status: 'queued',
      type: 'outboundPhoneCall',
    });
    expect(await fetch(`${h.vapi.baseUrl}/call/${providerCallId}`).then((r) => r.status)).toBe(401);
    expect(
      await fetch(`${h.vapi.baseUrl}/call/00000000-0000-4000-8000-000000000000`, {
        headers: { authorization: `Bearer ${API_KEY}` },
      }).then((r) => r.status),
    ).toBe(404);
  });
});

describe('our call id on Vapi’s messages', () => {
  const report = (call: Record<string, unknown>) =>
    JSON.stringify({
      message: {
        type: 'end-of-call-report',
        endedReason: 'customer-busy',
        artifact: {},
        analysis: {},
        call: {
          id: 'vapi-call-1',
          orgId: 'o',
          createdAt: '2026-11-22T10:00:00.000Z',
          updatedAt: '2026-11-22T10:00:00.000Z',
          type: 'outboundPhoneCall',
          ...call,
        },
      },
    });

  it('falls back to the call’s name when the metadata is not echoed', async () => {
    const h = await harness();
    const body = report({ name: '3b1f0c9e-0000-4000-8000-000000000042' });
    const result = await h.adapter.readWebhook(
      h.credentials,
      { rawBody: Buffer.from(body), headers: h.vapi.headersFor(body) },
      clock,
    );
    expect(result.ok && result.events.map((e) => [e.type, e.callId])).toEqual([
      ['call.ended', '3b1f0c9e-0000-4000-8000-000000000042'],
      ['report.ready', '3b1f0c9e-0000-4000-8000-000000000042'],
    ]);
  });

  it('gives no events for an outbound call Contactline did not place (dashboard calls)', async () => {
    const h = await harness();
    const body = report({ name: 'Friday test call' });
    expect(
      await h.adapter.readWebhook(
        h.credentials,
        { rawBody: Buffer.from(body), headers: h.vapi.headersFor(body) },
        clock,
      ),
    ).toEqual({ ok: true, events: [] });
  });

  it('accepts an HMAC signature written with a sha256= prefix (GitHub-style signaturePrefix)', async () => {
    const h = await harness();
    const body = report({ name: '3b1f0c9e-0000-4000-8000-000000000042' });
    const headers = h.vapi.headersFor(body);
    const result = await h.adapter.readWebhook(
      h.credentials,
      { rawBody: Buffer.from(body), headers: { ...headers, 'x-signature': `sha256=${headers['x-signature']}` } },
      clock,
    );
    expect(result.ok).toBe(true);
  });

  it('rejects a malformed signature or timestamp', async () => {
    const h = await harness();
    const body = report({});
    const headers = h.vapi.headersFor(body);
    for (const bad of [
      { ...headers, 'x-signature': 'zz' },
      { ...headers, 'x-timestamp': 'yesterday' },
      { 'x-signature': headers['x-signature'] },
    ]) {
      expect((await h.adapter.readWebhook(h.credentials, { rawBody: Buffer.from(body), headers: bad }, clock)).ok).toBe(
        false,
      );
    }
  });
});
