// The Retell emulator keeps to Retell: its webhooks pass the SDK's own public verifier, its call
// objects have only fields the SDK's PhoneCallResponse declares (with the required ones), the SDK
// reads them back as it would Retell's, and it answers bad keys as Retell documents.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Retell, { AuthenticationError, RateLimitError } from 'retell-sdk';
import { createRetellAdapter } from '../../../src/calls/telephony/retell/retell.adapter.js';
import { startRetellEmulator, type RetellEmulator } from '../../support/retell-emulator/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/provider-webhook-receiver.js';

const API_KEY = 'key_api';
const WEBHOOK_SECRET = 'key_webhook';

/** PhoneCallResponse's property names, and the required ones, from the SDK's declaration file. */
function sdkPhoneCallFields(): { all: Set<string>; required: string[] } {
  const require = createRequire(import.meta.url);
  const text = fs.readFileSync(require.resolve('retell-sdk/resources/call').replace(/\.js$/, '.d.ts'), 'utf8');
  const block = /^export interface PhoneCallResponse \{([\s\S]*?)^\}/m.exec(text)![1];
  const fields = [...block.matchAll(/^ {4}([a-z_]+)(\??):/gm)];
  return { all: new Set(fields.map((m) => m[1])), required: fields.filter((m) => m[2] === '').map((m) => m[1]) };
}

let retell: RetellEmulator;
let receiver: WebhookReceiver;
let client: Retell;
/** How far the emulator's clock is behind the process clock. */
let behindMs = 0;

/** The calls placed so far are over: the emulator's clock catches up with the process clock. */
function callsAreOver(): void {
  behindMs = 0;
}

beforeEach(async () => {
  // Webhooks are signed on the process clock: Retell.verify, the SDK's public function, judges
  // the window on it. Calls are placed ten minutes earlier on the emulator's clock, so that
  // their lives are over when callsAreOver() brings it to the process time.
  behindMs = 10 * 60_000;
  retell = await startRetellEmulator({
    apiKey: API_KEY,
    webhookSecret: WEBHOOK_SECRET,
    now: () => new Date(Date.now() - behindMs),
  });
  client = new Retell({ apiKey: API_KEY, baseURL: retell.baseUrl, maxRetries: 0 });
  receiver = await startWebhookReceiver({
    adapter: createRetellAdapter(),
    credentials: { apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET, baseUrl: retell.baseUrl },
    now: () => new Date(),
  });
});

afterEach(async () => {
  await receiver.stop();
  await retell.stop();
});

async function createdCall(): Promise<string> {
  const call = await client.call.createPhoneCall({
    from_number: '+14155550000',
    to_number: '+14155550001',
    metadata: { contactline_call_id: 'c-1' },
    retell_llm_dynamic_variables: { first_name: 'Ana' },
    agent_override: { agent: { webhook_url: receiver.url } },
  });
  expect(call.call_status).toBe('registered');
  return call.call_id;
}

describe('Retell emulator', () => {
  it("signs webhooks so that the SDK's own Retell.verify accepts them, and nothing else", async () => {
    const id = await createdCall();
    callsAreOver();
    const { deliveries } = await retell.finishCall(id);
    for (const delivery of deliveries) {
      expect(await Retell.verify(delivery.body, WEBHOOK_SECRET, delivery.headers['x-retell-signature'])).toBe(true);
      expect(await Retell.verify(delivery.body, API_KEY, delivery.headers['x-retell-signature'])).toBe(false);
      expect(await Retell.verify(`${delivery.body} `, WEBHOOK_SECRET, delivery.headers['x-retell-signature'])).toBe(
        false,
      );
    }
    expect(await Retell.verify('{}', WEBHOOK_SECRET, await retell.sign('{}'))).toBe(true);
    expect((await retell.headersFor('{}'))['x-retell-signature']).toMatch(/^v=\d+,d=[0-9a-f]{64}$/);
  });

  it('call objects have only PhoneCallResponse fields, all the required ones, and the webhook call is what get-call returns', async () => {
    const { all, required } = sdkPhoneCallFields();
    expect(required).toEqual(
      expect.arrayContaining(['call_id', 'agent_id', 'call_status', 'from_number', 'to_number']),
    );
    const id = await createdCall();
    const payloads = [...retell.webhooksFor(id)];
    callsAreOver();
    const { deliveries } = await retell.finishCall(id);
    for (const delivery of deliveries) {
      const { event, call, ...rest } = JSON.parse(delivery.body) as { event: string; call: Record<string, unknown> };
      expect(rest).toEqual({});
      expect(['call_started', 'call_ended', 'call_analyzed']).toContain(event);
      for (const field of Object.keys(call)) expect(all.has(field), `${event}.${field}`).toBe(true);
      for (const field of required) expect(call, `${event} lacks ${field}`).toHaveProperty(field);
      expect(call.metadata).toEqual({ contactline_call_id: 'c-1' });
    }
    expect(payloads.map((p) => p.event)).toEqual(['call_started', 'call_ended', 'call_analyzed']);
    const last = JSON.parse(deliveries.at(-1)!.body).call;
    expect(await client.call.retrieve(id)).toEqual(last);
    expect('call_analysis' in JSON.parse(deliveries[1].body).call).toBe(false);
    const listed = await client.call.list({
      filter_criteria: { metadata: [{ key: 'contactline_call_id', type: 'string', op: 'eq', value: 'c-1' }] },
    });
    expect(listed.items.map((c) => c.call_id)).toEqual([id]);
    expect(listed.has_more).toBe(false);
  });

  it('a call that never connected sends no call_started, and metadata is left out when not given', async () => {
    retell.script('+14155550009', { disconnectionReason: 'dial_no_answer' });
    const call = await client.call.createPhoneCall({
      from_number: '+14155550000',
      to_number: '+14155550009',
      agent_override: { agent: { webhook_url: receiver.url } },
    });
    callsAreOver();
    const { deliveries } = await retell.finishCall(call.call_id);
    expect(deliveries.map((d) => d.event)).toEqual(['call_ended', 'call_analyzed']);
    const ended = JSON.parse(deliveries[0].body).call;
    expect(ended).toMatchObject({
      call_status: 'not_connected',
      disconnection_reason: 'dial_no_answer',
      duration_ms: 0,
    });
    expect('metadata' in ended).toBe(false);
    expect('retell_llm_dynamic_variables' in ended).toBe(false);
  });

  it("answers a missing or wrong API key with 401 and Retell's body; the SDK sees an AuthenticationError", async () => {
    const response = await fetch(`${retell.baseUrl}/v2/get-call/x`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ status: 'error', message: 'API key is missing or invalid.' });
    const wrong = new Retell({ apiKey: 'key_wrong', baseURL: retell.baseUrl, maxRetries: 0 });
    await expect(wrong.call.retrieve('x')).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.call.retrieve('unknown')).rejects.toMatchObject({ status: 422 });
  });

  it('an injected 429 carries Retry-After; non-string dynamic variables are a 400', async () => {
    retell.failNextCreate({ status: 429, retryAfterSeconds: 7 });
    const error = await client.call.createPhoneCall({ from_number: '+1', to_number: '+2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers.get('retry-after')).toBe('7');
    const bad = await fetch(`${retell.baseUrl}/v2/create-phone-call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from_number: '+1', to_number: '+2', retell_llm_dynamic_variables: { seats: 12 } }),
    });
    expect(bad.status).toBe(400);
  });
});
