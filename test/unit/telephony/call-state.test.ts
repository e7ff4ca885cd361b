// fetchCallState, each adapter against its provider's emulator: what a provider says about a call
// whose final webhook never came. An ended call gives exactly the events its webhooks gave (one
// mapping rule: same ids, same content); a call in flight, or ended too recently for its report
// (REPORT_GRACE_MS), is in flight; a deleted or never-dialled call (one refused for capacity
// included) is not found; an outage throws.
import { afterEach, describe, expect, it } from 'vitest';
import {
  REPORT_GRACE_MS,
  type ProviderCallRequest,
  type ProviderCredentials,
  type VoiceProviderAdapter,
} from '../../../src/calls/telephony/voice-provider.port.js';
import { createVapiAdapter } from '../../../src/calls/telephony/vapi/vapi.adapter.js';
import { createRetellAdapter } from '../../../src/calls/telephony/retell/retell.adapter.js';
import { startVapiEmulator, type VapiEmulator } from '../../support/vapi-emulator/index.js';
import { startRetellEmulator, type RetellEmulator } from '../../support/retell-emulator/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/provider-webhook-receiver.js';

const KEY = 'key_call_state_0001';
const SECRET = 'key_call_state_webhook_0001';
const CONTACT = '+14155552671';

let clockMs = Date.parse('2026-11-22T10:00:00.000Z');
const now = () => new Date(clockMs);
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length > 0) await stops.pop()!();
  clockMs = Date.parse('2026-11-22T10:00:00.000Z');
});

let seq = 0;
function request(webhookUrl: string, fromNumber: string, assistantId: string): ProviderCallRequest {
  seq += 1;
  return {
    callId: `6a0b1c2d-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    toNumber: CONTACT,
    assistantId,
    fromNumber,
    webhookUrl,
    variables: {
      firstName: 'Jane',
      lastName: 'Doe',
      fullName: 'Jane Doe',
      language: 'en-US',
      timezone: 'America/Chicago',
      customFields: {},
    },
  };
}

async function place(adapter: VoiceProviderAdapter, credentials: ProviderCredentials, call: ProviderCallRequest) {
  const outcome = await adapter.placeCall(credentials, call);
  if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
  return { callId: call.callId, providerCallId: outcome.providerCallId };
}

describe('Vapi fetchCallState (GET /call/{id})', () => {
  const adapter = createVapiAdapter();
  async function harness(options: { concurrencyLimit?: number } = {}): Promise<{
    vapi: VapiEmulator;
    receiver: WebhookReceiver;
    credentials: ProviderCredentials;
    placeOne(): ReturnType<typeof place>;
  }> {
    const vapi = await startVapiEmulator({ apiKey: KEY, webhookSecret: SECRET, now, ...options });
    const credentials = { apiKey: KEY, webhookSecret: SECRET, baseUrl: vapi.baseUrl };
    const receiver = await startWebhookReceiver({ adapter, credentials, now });
    stops.push(
      () => vapi.stop(),
      () => receiver.stop(),
    );
    return {
      vapi,
      receiver,
      credentials,
      placeOne: () =>
        place(
          adapter,
          credentials,
          request(receiver.url, 'a1d0c7e2-5b4f-4e3a-9c8d-7f6e5d4c3b2a', '0f3c2a55-9a0e-4d6b-8c1e-2b7f4a9d1e00'),
        ),
    };
  }

  it('a queued call is in flight', async () => {
    const h = await harness();
    const call = await h.placeOne();
    expect(await adapter.fetchCallState(h.credentials, call, now())).toEqual({ kind: 'in_flight' });
  });

  it('an ended call gives the events its messages gave, once its report had time to come', async () => {
    const h = await harness();
    h.vapi.script(CONTACT, {
      endedReason: 'customer-ended-call',
      durationSeconds: 95,
      analysis: { outcome: 'callback_requested', callbackAt: '2026-11-23T15:00:00-06:00', language: 'es-US' },
    });
    const call = await h.placeOne();
    clockMs = h.vapi.timeline(call.providerCallId).reportAt.getTime(); // the call rings, talks and ends first
    const { call: ended } = await h.vapi.finishCall(call.providerCallId);
    const endedAt = Date.parse(ended.endedAt!);
    expect(await adapter.fetchCallState(h.credentials, call, new Date(endedAt + 60_000))).toEqual({
      kind: 'in_flight',
    });
    const state = await adapter.fetchCallState(h.credentials, call, new Date(endedAt + REPORT_GRACE_MS));
    expect(state.kind).toBe('ended');
    const events = state.kind === 'ended' ? state.events : [];
    expect(events.map((e) => e.type)).toEqual(['call.started', 'call.ended', 'report.ready']);
    expect(events).toEqual(h.receiver.events);
    expect(events[1]).toMatchObject({
      result: 'callback_requested',
      durationSeconds: 95,
      language: 'es-US',
      nextAttemptAt: '2026-11-23T21:00:00.000Z',
    });
  });

  it('a call that never connected gives no call.started', async () => {
    const h = await harness();
    h.vapi.script(CONTACT, { endedReason: 'customer-busy' });
    const call = await h.placeOne();
    clockMs = h.vapi.timeline(call.providerCallId).reportAt.getTime(); // the call rings, talks and ends first
    await h.vapi.finishCall(call.providerCallId, { lose: ['status-update', 'end-of-call-report'] });
    expect(h.receiver.events).toEqual([]);
    const state = await adapter.fetchCallState(h.credentials, call, new Date(clockMs + REPORT_GRACE_MS + 60_000));
    expect(state.kind === 'ended' && state.events.map((e) => [e.type, 'result' in e ? e.result : null])).toEqual([
      ['call.ended', 'busy'],
      ['report.ready', null],
    ]);
  });

  it('a deleted call is not found; an outage throws', async () => {
    const h = await harness();
    const call = await h.placeOne();
    h.vapi.outage(503);
    await expect(adapter.fetchCallState(h.credentials, call, now())).rejects.toThrow();
    h.vapi.outage(null);
    const res = await fetch(`${h.vapi.baseUrl}/call/${call.providerCallId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(200);
    expect(await adapter.fetchCallState(h.credentials, call, now())).toEqual({ kind: 'not_found' });
  });

  it('a call Vapi blocked at the concurrency limit and ended unplaced is not found, even within the report grace', async () => {
    const h = await harness({ concurrencyLimit: 0 });
    const second = request(
      h.receiver.url,
      'a1d0c7e2-5b4f-4e3a-9c8d-7f6e5d4c3b2a',
      '0f3c2a55-9a0e-4d6b-8c1e-2b7f4a9d1e00',
    );
    const outcome = await adapter.placeCall(h.credentials, second);
    expect(outcome).toMatchObject({ kind: 'unknown', providerCallId: h.vapi.calls[0].id });
    const blocked = { callId: second.callId, providerCallId: h.vapi.calls[0].id };
    expect(await adapter.fetchCallState(h.credentials, blocked, now())).toEqual({ kind: 'not_found' });
  });

  it('a call that does not carry our call id is refused', async () => {
    const h = await harness();
    const call = await h.placeOne();
    clockMs = h.vapi.timeline(call.providerCallId).reportAt.getTime(); // the call rings, talks and ends first
    await h.vapi.finishCall(call.providerCallId);
    await expect(
      adapter.fetchCallState(
        h.credentials,
        { ...call, callId: '6a0b1c2d-0000-4000-8000-999999999999' },
        new Date(clockMs + 86_400_000),
      ),
    ).rejects.toThrow(/does not carry/);
  });
});

describe('Retell fetchCallState (GET /v2/get-call/{call_id})', () => {
  const adapter = createRetellAdapter();
  async function harness(options: { concurrencyLimit?: number } = {}): Promise<{
    retell: RetellEmulator;
    receiver: WebhookReceiver;
    credentials: ProviderCredentials;
    placeOne(): ReturnType<typeof place>;
  }> {
    const retell = await startRetellEmulator({
      apiKey: KEY,
      webhookSecret: SECRET,
      now,
      webhookRetries: 0,
      ...options,
    });
    const credentials = { apiKey: KEY, webhookSecret: SECRET, baseUrl: retell.baseUrl };
    const receiver = await startWebhookReceiver({ adapter, credentials, now });
    stops.push(
      () => retell.stop(),
      () => receiver.stop(),
    );
    return {
      retell,
      receiver,
      credentials,
      placeOne: () => place(adapter, credentials, request(receiver.url, '+14155559999', 'agent_0123')),
    };
  }

  it('a registered call is in flight', async () => {
    const h = await harness();
    const call = await h.placeOne();
    expect(await adapter.fetchCallState(h.credentials, call, now())).toEqual({ kind: 'in_flight' });
  });

  it('an analysed call gives the events of its call_analyzed webhook, at once', async () => {
    const h = await harness();
    h.retell.script(CONTACT, {
      disconnectionReason: 'agent_hangup',
      durationSeconds: 95,
      analysis: { outcome: 'converted', language: 'en-US' },
    });
    const call = await h.placeOne();
    clockMs = h.retell.timeline(call.providerCallId).reportAt.getTime(); // the call rings, talks and ends first
    await h.retell.finishCall(call.providerCallId);
    const analysed = h.receiver.received.at(-1)!.result;
    const state = await adapter.fetchCallState(h.credentials, call, now());
    expect(state.kind).toBe('ended');
    expect(state.kind === 'ended' && state.events).toEqual(analysed.ok && analysed.events);
    expect(state.kind === 'ended' && state.events.map((e) => e.type)).toEqual([
      'call.started',
      'call.ended',
      'report.ready',
    ]);
  });

  it('an ended call Retell never analyses: in flight for REPORT_GRACE_MS, then ended without the analysis (the fallbacks apply)', async () => {
    const h = await harness();
    h.retell.script(CONTACT, {
      disconnectionReason: 'user_hangup',
      durationSeconds: 60,
      analysis: { outcome: 'converted' },
    });
    const call = await h.placeOne();
    clockMs = h.retell.timeline(call.providerCallId).reportAt.getTime(); // the call rings, talks and ends first
    await h.retell.finishCall(call.providerCallId, { analysisPending: true });
    // call_ended alone cannot end a conversation: its result needs the analysis.
    expect(h.receiver.events.map((e) => e.type)).not.toContain('call.ended');
    expect(await adapter.fetchCallState(h.credentials, call, new Date(clockMs + 60_000))).toEqual({
      kind: 'in_flight',
    });
    const state = await adapter.fetchCallState(h.credentials, call, new Date(clockMs + REPORT_GRACE_MS));
    expect(state.kind === 'ended' && state.events.find((e) => e.type === 'call.ended')).toMatchObject({
      result: 'answered',
      durationSeconds: 60,
    });
  });

  it('a call that never connected is over at once: its reason is its result', async () => {
    const h = await harness();
    h.retell.script(CONTACT, { disconnectionReason: 'dial_no_answer' });
    const call = await h.placeOne();
    clockMs = h.retell.timeline(call.providerCallId).reportAt.getTime(); // the call rings, talks and ends first
    await h.retell.finishCall(call.providerCallId, { order: [] });
    const state = await adapter.fetchCallState(h.credentials, call, now());
    expect(state.kind === 'ended' && state.events.find((e) => e.type === 'call.ended')).toMatchObject({
      result: 'no_answer',
      durationSeconds: 0,
    });
  });

  it('a deleted call and a call refused for capacity are not found; an outage throws', async () => {
    const h = await harness({ concurrencyLimit: 1 });
    const call = await h.placeOne();
    // Over the workspace's concurrency: Retell answers with the call already in status "error".
    const second = request(h.receiver.url, '+14155559999', 'agent_0123');
    expect((await adapter.placeCall(h.credentials, second)).kind).toBe('retry_later');
    const refused = { callId: second.callId, providerCallId: h.retell.calls.at(-1)!.providerCallId };
    expect(await adapter.fetchCallState(h.credentials, refused, now())).toEqual({ kind: 'not_found' });
    h.retell.outage(500);
    await expect(adapter.fetchCallState(h.credentials, call, now())).rejects.toThrow();
    h.retell.outage(null);
    const res = await fetch(`${h.retell.baseUrl}/v2/delete-call/${call.providerCallId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(204);
    expect(await adapter.fetchCallState(h.credentials, call, now())).toEqual({ kind: 'not_found' });
  });
});
