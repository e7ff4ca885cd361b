// The provider emulators date every call as a real provider's messages are dated: created ≤
// ringing ≤ picked up ≤ each utterance ≤ ended ≤ the report ≤ the moment the message is sent (its
// signature's time, the emulator's now()). finishCall refuses, sending nothing, until the
// emulator's clock has reached the call's report, and says how far to advance it. Checked on the
// raw webhooks of each kind of call (a conversation, a busy line, no answer, a call never
// dialled, a concurrency refusal at create time or, Retell, just after it, an inbound call) and
// on the events the adapters read from them.
import { afterEach, describe, expect, it } from 'vitest';
import type {
  ProviderCallRequest,
  ProviderCredentials,
  ProviderEvent,
  VoiceProviderAdapter,
} from '../../../src/calls/telephony/voice-provider.port.js';
import { createVapiAdapter } from '../../../src/calls/telephony/vapi/vapi.adapter.js';
import { createRetellAdapter } from '../../../src/calls/telephony/retell/retell.adapter.js';
import { startVapiEmulator, type VapiCallScript, type VapiEmulator } from '../../support/vapi-emulator/index.js';
import {
  startRetellEmulator,
  type RetellCallScript,
  type RetellEmulator,
} from '../../support/retell-emulator/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/provider-webhook-receiver.js';

const START = Date.parse('2026-11-22T10:00:00.000Z');
let clockMs = START;
const now = () => new Date(clockMs);

const CONTACT = '+14155552671';
const OUR_NUMBER = '+14155550100';

function request(webhookUrl: string, assistantId: string, fromNumber: string): ProviderCallRequest {
  return {
    callId: '3b1f0c9e-0000-4000-8000-000000000001',
    toNumber: CONTACT,
    assistantId,
    fromNumber,
    webhookUrl,
    variables: {
      firstName: 'Jane',
      lastName: 'Doe',
      fullName: 'Jane Doe',
      language: 'en-US',
      timezone: 'America/Los_Angeles',
      customFields: {},
    },
  };
}

/** Labelled times that must not go backwards. */
type Chain = Array<[label: string, ms: number]>;

function expectInOrder(chain: Chain, context: string): void {
  for (let i = 1; i < chain.length; i++) {
    const [before, a] = chain[i - 1];
    const [after, b] = chain[i];
    expect(
      a,
      `${context}: ${before} ${new Date(a).toISOString()} is after ${after} ${new Date(b).toISOString()}`,
    ).toBeLessThanOrEqual(b);
  }
}

/** No time an event reports is later than the clock when it was read. */
function expectEventsNotAhead(events: ProviderEvent[]): void {
  for (const event of events) {
    expect(Date.parse(event.occurredAt), `${event.type} occurredAt`).toBeLessThanOrEqual(clockMs);
    if (event.type === 'report.ready')
      for (const u of event.utterances) expect(Date.parse(u.timestamp), u.content).toBeLessThanOrEqual(clockMs);
  }
}

const ms = (iso: string | undefined) => Date.parse(iso!);

let stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.reverse()) await stop();
  stops = [];
  clockMs = START;
});

async function receiverFor(adapter: VoiceProviderAdapter, credentials: ProviderCredentials): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver({ adapter, credentials, now });
  stops.push(() => receiver.stop());
  return receiver;
}

describe('Vapi emulator timeline', () => {
  const KEY = 'vapi-private-key-test';
  const SECRET = 'vapi-webhook-secret-test';
  const ASSISTANT = '0f3c2a55-9a0e-4d6b-8c1e-2b7f4a9d1e00';
  const PHONE_NUMBER_ID = 'a1d0c7e2-5b4f-4e3a-9c8d-7f6e5d4c3b2a';

  async function harness(concurrencyLimit = 10) {
    const vapi: VapiEmulator = await startVapiEmulator({
      apiKey: KEY,
      webhookSecret: SECRET,
      now,
      concurrencyLimit,
      phoneNumbers: { [PHONE_NUMBER_ID]: OUR_NUMBER },
    });
    stops.push(() => vapi.stop());
    const credentials = { apiKey: KEY, webhookSecret: SECRET, baseUrl: vapi.baseUrl };
    const adapter = createVapiAdapter({ timeoutMs: 2_000 });
    const receiver = await receiverFor(adapter, credentials);
    return { vapi, credentials, adapter, receiver };
  }

  /** Every message received: its times in the order a call lives them, ending with the moment it was signed (sent). */
  function chains(receiver: WebhookReceiver): Array<[string, Chain]> {
    return receiver.received.map(({ rawBody, headers }) => {
      const { message } = JSON.parse(rawBody.toString()) as { message: Record<string, any> };
      const call = message.call as Record<string, string | undefined>;
      const chain: Chain = [['created', ms(call.createdAt)]];
      if (call.startedAt) chain.push(['picked up', ms(call.startedAt)]);
      for (const line of (message.artifact?.messages ?? []) as Array<{
        role: string;
        time: number;
        endTime?: number;
      }>) {
        if (line.role === 'system') continue;
        chain.push([`${line.role} line`, line.time]);
        if (line.endTime !== undefined) chain.push([`${line.role} line end`, line.endTime]);
      }
      if (call.endedAt) chain.push(['ended', ms(call.endedAt)]);
      if (message.endedAt) chain.push(['report endedAt', ms(message.endedAt)]);
      chain.push(['message timestamp', message.timestamp as number]);
      chain.push(['sent (x-timestamp)', Number(headers['x-timestamp'])]);
      chain.push(['clock', clockMs]);
      return [`${message.type}${message.status ? ` ${message.status}` : ''}`, chain];
    });
  }

  const scripts: Array<[string, VapiCallScript, { connected: boolean }]> = [
    [
      'a conversation',
      { endedReason: 'customer-ended-call', durationSeconds: 95, analysis: { outcome: 'converted' } },
      { connected: true },
    ],
    ['a busy line', { endedReason: 'customer-busy' }, { connected: false }],
    ['no answer', { endedReason: 'customer-did-not-answer' }, { connected: false }],
    [
      'a call never dialled',
      { endedReason: 'call.start.error-subscription-insufficient-credits' },
      { connected: false },
    ],
  ];

  it.each(scripts)(
    '%s: refused until the clock reaches its report, then every time it sends is in order and not after it was sent',
    async (_name, script, { connected }) => {
      const h = await harness();
      h.vapi.script(CONTACT, script);
      const placed = await h.adapter.placeCall(h.credentials, request(h.receiver.url, ASSISTANT, PHONE_NUMBER_ID));
      if (placed.kind !== 'accepted') throw new Error(JSON.stringify(placed));
      const life = h.vapi.timeline(placed.providerCallId);
      expect(life.createdAt.getTime()).toBe(START);
      expect(life.startedAt !== null).toBe(connected);
      if (life.startedAt) expect(life.endedAt.getTime() - life.startedAt.getTime()).toBe(95_000);
      expect(life.endedAt.getTime()).toBeGreaterThanOrEqual(life.createdAt.getTime());
      expect(life.reportAt.getTime()).toBeGreaterThan(life.endedAt.getTime());

      clockMs = life.reportAt.getTime() - 1;
      await expect(h.vapi.finishCall(placed.providerCallId)).rejects.toThrow(
        /is not over yet .* advance it by 0\.001 s before finishCall/,
      );
      expect(h.receiver.received).toEqual([]);
      expect(h.vapi.calls[0].call.status).toBe('queued');

      clockMs = life.reportAt.getTime();
      const { statuses } = await h.vapi.finishCall(placed.providerCallId);
      expect(statuses.every((s) => s === 200)).toBe(true);
      for (const [message, chain] of chains(h.receiver)) expectInOrder(chain, message);
      expectEventsNotAhead(h.receiver.events);
      const ended = h.receiver.events.find((e) => e.type === 'call.ended');
      expect(ended?.type === 'call.ended' && ended.durationSeconds).toBe(connected ? 95 : 0);
    },
  );

  it('a call blocked at the concurrency limit ended when it was created; its report follows 3 s later', async () => {
    const h = await harness(0);
    expect((await h.adapter.placeCall(h.credentials, request(h.receiver.url, ASSISTANT, PHONE_NUMBER_ID))).kind).toBe(
      'unknown',
    );
    const { id, call } = h.vapi.calls[0];
    expect(call.endedAt).toBe(call.createdAt);
    const life = h.vapi.timeline(id);
    expect(life).toMatchObject({ startedAt: null, endedAt: new Date(START), reportAt: new Date(START + 3_000) });
    await expect(h.vapi.finishCall(id)).rejects.toThrow(/advance it by 3 s/);
    clockMs = life.reportAt.getTime();
    await h.vapi.finishCall(id);
    expect(h.receiver.received.length).toBeGreaterThan(0);
    for (const [message, chain] of chains(h.receiver)) expectInOrder(chain, message);
  });

  it('an inbound call is reported when it is over: it came in before now by the length of its life', async () => {
    const h = await harness();
    const { call } = await h.vapi.inboundCall({
      from: '+14155559876',
      to: OUR_NUMBER,
      webhookUrl: h.receiver.url,
      assistantRequest: true,
    });
    // 4 s to pick up, 42 s of talk (the default), 3 s of analysis.
    expect(call.createdAt).toBe(new Date(START - 49_000).toISOString());
    expect(call.endedAt).toBe(new Date(START - 3_000).toISOString());
    for (const [message, chain] of chains(h.receiver)) expectInOrder(chain, message);
    expectEventsNotAhead(h.receiver.events);
  });

  it('refuses a transcript that does not fit in the call', async () => {
    const h = await harness();
    h.vapi.script(CONTACT, {
      endedReason: 'customer-ended-call',
      durationSeconds: 5,
      transcript: [
        { role: 'assistant', message: 'Hi' },
        { role: 'user', message: 'Hello' },
      ],
    });
    const placed = await h.adapter.placeCall(h.credentials, request(h.receiver.url, ASSISTANT, PHONE_NUMBER_ID));
    if (placed.kind !== 'accepted') throw new Error(JSON.stringify(placed));
    expect(() => h.vapi.timeline(placed.providerCallId)).toThrow(
      /2 transcript lines take 8 s, longer than the call \(durationSeconds 5\)/,
    );
  });
});

describe('Retell emulator timeline', () => {
  const KEY = 'key_api_timeline';
  const SECRET = 'key_webhook_timeline';
  const AGENT = 'agent_0123456789abcdef';

  async function harness(
    concurrencyLimit = 20,
    concurrencyRefusal?: 'errored-call' | 'registered-then-error' | 'status-429',
  ) {
    const retell: RetellEmulator = await startRetellEmulator({
      apiKey: KEY,
      webhookSecret: SECRET,
      now,
      concurrencyLimit,
      concurrencyRefusal,
    });
    stops.push(() => retell.stop());
    const credentials = { apiKey: KEY, webhookSecret: SECRET, baseUrl: retell.baseUrl };
    const adapter = createRetellAdapter({ timeoutMs: 2_000 });
    const receiver = await receiverFor(adapter, credentials);
    return { retell, credentials, adapter, receiver };
  }

  /** Every webhook received: its times in the order a call lives them, ending with the moment it was signed (sent). */
  function chains(receiver: WebhookReceiver, createdAt: Date): Array<[string, Chain]> {
    return receiver.received.map(({ rawBody, headers }) => {
      const { event, call } = JSON.parse(rawBody.toString()) as { event: string; call: Record<string, any> };
      const chain: Chain = [['created', createdAt.getTime()]];
      if (call.start_timestamp !== undefined) {
        chain.push(['picked up', call.start_timestamp]);
        for (const line of (call.transcript_object ?? []) as Array<{
          role: string;
          words: Array<{ start: number; end: number }>;
        }>) {
          for (const word of line.words)
            chain.push(
              [`${line.role} word`, call.start_timestamp + word.start * 1000],
              [`${line.role} word end`, call.start_timestamp + word.end * 1000],
            );
        }
      }
      if (call.end_timestamp !== undefined) {
        chain.push(['ended', call.end_timestamp]);
        expect(call.duration_ms).toBe(
          call.start_timestamp === undefined ? 0 : call.end_timestamp - call.start_timestamp,
        );
      }
      chain.push(['sent (x-retell-signature v=)', Number(/^v=(\d+),/.exec(headers['x-retell-signature']!)![1])]);
      chain.push(['clock', clockMs]);
      return [event, chain];
    });
  }

  const scripts: Array<[string, RetellCallScript, { connected: boolean }]> = [
    [
      'a conversation',
      { disconnectionReason: 'agent_hangup', durationSeconds: 95, analysis: { outcome: 'converted' } },
      { connected: true },
    ],
    ['a busy line', { disconnectionReason: 'dial_busy' }, { connected: false }],
    ['no answer', { disconnectionReason: 'dial_no_answer' }, { connected: false }],
    ['a call never dialled', { disconnectionReason: 'no_valid_payment' }, { connected: false }],
  ];

  it.each(scripts)(
    '%s: refused until the clock reaches call_analyzed, then every time it sends is in order and not after it was sent',
    async (_name, script, { connected }) => {
      const h = await harness();
      h.retell.script(CONTACT, script);
      const placed = await h.adapter.placeCall(h.credentials, request(h.receiver.url, AGENT, OUR_NUMBER));
      if (placed.kind !== 'accepted') throw new Error(JSON.stringify(placed));
      const life = h.retell.timeline(placed.providerCallId);
      expect(life.createdAt.getTime()).toBe(START);
      expect(life.startedAt !== null).toBe(connected);
      if (life.startedAt) {
        expect(life.startedAt.getTime()).toBeGreaterThan(life.createdAt.getTime());
        expect(life.endedAt.getTime() - life.startedAt.getTime()).toBe(95_000);
      }
      expect(life.endedAt.getTime()).toBeGreaterThanOrEqual(life.createdAt.getTime());
      expect(life.reportAt.getTime()).toBeGreaterThan(life.endedAt.getTime());

      clockMs = life.reportAt.getTime() - 1;
      await expect(h.retell.finishCall(placed.providerCallId)).rejects.toThrow(
        /is not over yet .* advance it by 0\.001 s before finishCall/,
      );
      expect(h.receiver.received).toEqual([]);
      expect(h.retell.calls[0].object.call_status).toBe('registered');

      clockMs = life.reportAt.getTime();
      const { statuses } = await h.retell.finishCall(placed.providerCallId);
      expect(statuses.every((s) => s === 200)).toBe(true);
      for (const [event, chain] of chains(h.receiver, life.createdAt)) expectInOrder(chain, event);
      expectEventsNotAhead(h.receiver.events);
    },
  );

  it('a call refused for concurrency at create time ended when it was created; call_analyzed follows 3 s later', async () => {
    const h = await harness(0);
    expect((await h.adapter.placeCall(h.credentials, request(h.receiver.url, AGENT, OUR_NUMBER))).kind).toBe(
      'retry_later',
    );
    const { providerCallId, object } = h.retell.calls[0];
    expect(object).toMatchObject({ call_status: 'error', end_timestamp: START, duration_ms: 0 });
    const life = h.retell.timeline(providerCallId);
    expect(life).toMatchObject({ startedAt: null, endedAt: new Date(START), reportAt: new Date(START + 3_000) });
    await expect(h.retell.finishCall(providerCallId)).rejects.toThrow(/advance it by 3 s/);
    clockMs = life.reportAt.getTime();
    await h.retell.finishCall(providerCallId);
    expect(h.receiver.received.length).toBe(2);
    for (const [event, chain] of chains(h.receiver, life.createdAt)) expectInOrder(chain, event);
  });

  it('a call registered over the concurrency limit errors 0.5 s after it was created; call_analyzed follows 3 s later', async () => {
    const h = await harness(0, 'registered-then-error');
    const placed = await h.adapter.placeCall(h.credentials, request(h.receiver.url, AGENT, OUR_NUMBER));
    expect(placed.kind).toBe('accepted');
    const { providerCallId, object } = h.retell.calls[0];
    expect(object.call_status).toBe('registered');
    const life = h.retell.timeline(providerCallId);
    expect(life).toMatchObject({
      startedAt: null,
      endedAt: new Date(START + 500),
      reportAt: new Date(START + 3_500),
    });
    await expect(h.retell.finishCall(providerCallId)).rejects.toThrow(/advance it by 3.5 s/);
    clockMs = life.reportAt.getTime();
    await h.retell.finishCall(providerCallId);
    expect(h.retell.calls[0].object).toMatchObject({
      call_status: 'error',
      disconnection_reason: 'concurrency_limit_reached',
      end_timestamp: START + 500,
    });
    expect(h.receiver.received.map((r) => JSON.parse(r.rawBody.toString()).event)).toEqual([
      'call_ended',
      'call_analyzed',
    ]);
    for (const [event, chain] of chains(h.receiver, life.createdAt)) expectInOrder(chain, event);
  });

  it('an inbound call is reported when it is over: it came in before now by the length of its life', async () => {
    const h = await harness();
    const { providerCallId } = await h.retell.inboundCall({
      from: '+12025550143',
      to: OUR_NUMBER,
      webhookUrl: h.receiver.url,
    });
    const life = h.retell.timeline(providerCallId);
    // 4 s to pick up, 60 s of talk (the default), 3 s of analysis.
    expect(life).toMatchObject({
      createdAt: new Date(START - 67_000),
      startedAt: new Date(START - 63_000),
      endedAt: new Date(START - 3_000),
      reportAt: new Date(START),
    });
    for (const [event, chain] of chains(h.receiver, life.createdAt)) expectInOrder(chain, event);
    expectEventsNotAhead(h.receiver.events);
  });

  it('refuses a transcript that does not fit in the call', async () => {
    const h = await harness();
    h.retell.script(CONTACT, {
      disconnectionReason: 'user_hangup',
      durationSeconds: 5,
      transcript: [
        { role: 'agent', content: 'Hi there', atSeconds: 0 },
        { role: 'user', content: 'Hello', atSeconds: 6 },
      ],
    });
    const placed = await h.adapter.placeCall(h.credentials, request(h.receiver.url, AGENT, OUR_NUMBER));
    if (placed.kind !== 'accepted') throw new Error(JSON.stringify(placed));
    expect(() => h.retell.timeline(placed.providerCallId)).toThrow(
      /transcript runs 6\.25 s, longer than the call \(durationSeconds 5\)/,
    );
  });
});
