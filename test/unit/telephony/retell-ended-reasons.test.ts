// Every Retell disconnection reason maps onto a call result. The list of reasons is read from
// the installed SDK's own declaration of `PhoneCallResponse.disconnection_reason`, so a reason
// added by an SDK upgrade fails here until it is mapped (and documented in docs/calls-retell.md).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISCONNECTION_REASON_RULES,
  classifyEnded,
  ruleFor,
} from '../../../src/calls/telephony/retell/ended-reasons.js';
import { createRetellAdapter } from '../../../src/calls/telephony/retell/retell.adapter.js';
import { readAnalysis } from '../../../src/calls/telephony/retell/analysis.js';
import type { CallResult } from '../../../src/calls/telephony/telephony.port.js';
import type { ProviderCredentials, ProviderEvent } from '../../../src/calls/telephony/voice-provider.port.js';
import { startRetellEmulator, type RetellEmulator } from '../../support/retell-emulator/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/provider-webhook-receiver.js';

/** The reasons of the SDK's union type, read from its declaration file. */
function sdkDisconnectionReasons(): string[] {
  const require = createRequire(import.meta.url);
  const declaration = require.resolve('retell-sdk/resources/call').replace(/\.js$/, '.d.ts');
  const text = fs.readFileSync(declaration, 'utf8');
  const phoneCall = text.slice(text.indexOf('export interface PhoneCallResponse {'));
  const union = /disconnection_reason\?:\s*([^;]+);/.exec(phoneCall)![1];
  return [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
}

/** The mapping as docs/calls-retell.md states it: a conversation reason → what the analysis says. */
const EXPECTED: Record<string, CallResult | 'conversation' | 'not_placed'> = {
  user_hangup: 'conversation',
  agent_hangup: 'conversation',
  inactivity: 'conversation',
  max_duration_reached: 'conversation',
  call_transfer: 'conversation',
  transfer_bridged: 'conversation',
  transfer_cancelled: 'conversation',
  call_take_over: 'conversation',
  manual_stopped: 'conversation',
  voicemail_reached: 'voicemail',
  ivr_reached: 'ivr',
  dial_busy: 'busy',
  dial_no_answer: 'no_answer',
  user_declined: 'no_answer',
  invalid_destination: 'invalid_number',
  marked_as_spam: 'carrier_blocked',
  dial_failed: 'unknown',
  telephony_provider_permission_denied: 'unknown',
  telephony_provider_unavailable: 'unknown',
  sip_routing_error: 'unknown',
  concurrency_limit_reached: 'not_placed',
  no_concurrency_fallback: 'not_placed',
  no_valid_payment: 'new',
  scam_detected: 'new',
  registered_call_timeout: 'new',
  error_llm_websocket_open: 'unknown',
  error_llm_websocket_lost_connection: 'unknown',
  error_llm_websocket_runtime: 'unknown',
  error_llm_websocket_corrupt_payload: 'unknown',
  error_no_audio_received: 'unknown',
  error_asr: 'unknown',
  error_retell: 'unknown',
  error_unknown: 'unknown',
  error_user_not_joined: 'unknown',
};

const TRANSFERRED = new Set(['call_transfer', 'transfer_bridged', 'call_take_over']);

describe('Retell disconnection reasons', () => {
  const reasons = sdkDisconnectionReasons();

  it('the SDK lists the reasons the rules map, no more, no less', () => {
    expect(reasons.length).toBeGreaterThanOrEqual(34);
    expect([...reasons].sort()).toEqual(Object.keys(DISCONNECTION_REASON_RULES).sort());
    expect([...reasons].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  describe('end to end, through the emulator and readWebhook', () => {
    const API_KEY = 'key_api';
    let retell: RetellEmulator;
    let receiver: WebhookReceiver;
    let credentials: ProviderCredentials;
    const adapter = createRetellAdapter({ timeoutMs: 2000 });
    let clockMs = Date.parse('2026-11-20T15:00:00Z');
    const now = () => new Date(clockMs);

    beforeAll(async () => {
      retell = await startRetellEmulator({
        apiKey: API_KEY,
        webhookSecret: 'key_webhook',
        now,
        concurrencyLimit: 1000,
      });
      credentials = { apiKey: API_KEY, webhookSecret: 'key_webhook', baseUrl: retell.baseUrl };
      receiver = await startWebhookReceiver({ adapter, credentials, now });
    });
    afterAll(async () => {
      await receiver.stop();
      await retell.stop();
    });

    async function endedFor(
      reason: string,
      index: number,
      analysis: { outcome?: string } = {},
    ): Promise<ProviderEvent[]> {
      const toNumber = `+1415555${String(1000 + index)}`;
      retell.script(toNumber, { disconnectionReason: reason, analysis });
      const callId = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
      const outcome = await adapter.placeCall(credentials, {
        callId,
        toNumber,
        assistantId: 'agent_1',
        fromNumber: '+14155550000',
        webhookUrl: receiver.url,
        variables: {
          firstName: null,
          lastName: null,
          fullName: null,
          language: 'en-US',
          timezone: 'America/New_York',
          customFields: {},
        },
      });
      expect(outcome.kind).toBe('accepted');
      receiver.events.length = 0;
      const { providerCallId } = outcome as { providerCallId: string };
      clockMs = retell.timeline(providerCallId).reportAt.getTime(); // the call's life runs as scripted
      await retell.finishCall(providerCallId);
      return receiver.events.filter((e) => e.type === 'call.ended' && e.callId === callId);
    }

    it.each(sdkDisconnectionReasons().map((reason, index) => [reason, index] as const))('%s', async (reason, index) => {
      const expected = EXPECTED[reason];
      // The analysis says converted: only a conversation may become converted.
      const ended = await endedFor(reason, index, { outcome: 'converted' });
      if (expected === 'not_placed') {
        expect(ended).toEqual([]);
        return;
      }
      expect(ended.length).toBeGreaterThan(0);
      const event = ended[0] as Extract<ProviderEvent, { type: 'call.ended' }>;
      expect(event.endReason).toBe(reason);
      expect(event.result).toBe(expected === 'conversation' ? 'converted' : expected);
      expect(event.transferred === true).toBe(TRANSFERRED.has(reason));
      if (expected !== 'conversation') {
        // Without analysis too: the reason alone decides, already at call_ended.
        const again = await endedFor(reason, index + 100);
        expect((again[0] as typeof event).result).toBe(expected);
      } else {
        const fallback = await endedFor(reason, index + 200);
        expect((fallback[0] as typeof event).result).toBe('answered');
      }
    });
  });

  describe('rules outside the SDK list', () => {
    const analysis = readAnalysis({ custom_analysis_data: { contactline_outcome: 'converted' } });

    it('retired reasons keep their old meaning; an absent or unknown reason is unknown', () => {
      expect(classifyEnded({ disconnectionReason: 'machine_detected', connected: true, analysis })).toEqual({
        kind: 'ended',
        result: 'voicemail',
        transferred: false,
      });
      expect(classifyEnded({ disconnectionReason: 'error_inbound_webhook', connected: true, analysis })).toEqual({
        kind: 'ended',
        result: 'unknown',
        transferred: false,
      });
      expect(classifyEnded({ disconnectionReason: 'some_future_reason', connected: true, analysis })).toEqual({
        kind: 'ended',
        result: 'unknown',
        transferred: false,
      });
      expect(classifyEnded({ disconnectionReason: undefined, connected: false, analysis: 'pending' })).toEqual({
        kind: 'ended',
        result: 'unknown',
        transferred: false,
      });
      expect(ruleFor('constructor')).toEqual({ kind: 'result', result: 'unknown' });
    });

    it('a call stopped through the API before it connected is new; after, a conversation', () => {
      expect(classifyEnded({ disconnectionReason: 'manual_stopped', connected: false, analysis })).toEqual({
        kind: 'ended',
        result: 'new',
        transferred: false,
      });
      expect(classifyEnded({ disconnectionReason: 'manual_stopped', connected: true, analysis: 'pending' })).toEqual({
        kind: 'awaiting_analysis',
      });
      expect(classifyEnded({ disconnectionReason: 'manual_stopped', connected: true, analysis })).toEqual({
        kind: 'ended',
        result: 'converted',
        transferred: false,
      });
    });
  });
});
