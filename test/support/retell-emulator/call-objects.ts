/**
 * Retell call objects as the API returns them and webhooks carry them, at each stage of a call,
 * typed with the SDK's own `PhoneCallResponse` so that the emulator's shapes cannot drift from
 * the SDK's. Stage contents follow "Webhook overview": call_started has the basic call
 * information, call_ended every field but `call_analysis`, call_analyzed the full call.
 * `metadata` and `retell_llm_dynamic_variables` are left out when the create did not give them.
 */
import type { PhoneCallResponse } from 'retell-sdk/resources/call';
import { CALLBACK_AT_FIELD, LANGUAGE_FIELD, OUTCOME_FIELD } from '../../../src/calls/telephony/retell/analysis.js';
import type { EmulatedCall } from './state.js';

export type CallStatus = PhoneCallResponse['call_status'];

/**
 * The call status Retell gives a call ended for each reason ("Debug call disconnection"): pick-up
 * reasons end "ended", dialling failures "not_connected", refusals and platform errors "error".
 */
export function finalStatusFor(reason: string, connected: boolean): CallStatus {
  if (NOT_CONNECTED_REASONS.has(reason)) return 'not_connected';
  if (reason === 'manual_stopped') return connected ? 'ended' : 'not_connected';
  if (ERROR_REASONS.has(reason) || reason.startsWith('error_')) return 'error';
  return 'ended';
}

const NOT_CONNECTED_REASONS = new Set([
  'dial_busy',
  'dial_failed',
  'dial_no_answer',
  'invalid_destination',
  'telephony_provider_permission_denied',
  'telephony_provider_unavailable',
  'sip_routing_error',
  'marked_as_spam',
  'user_declined',
]);
const ERROR_REASONS = new Set([
  'concurrency_limit_reached',
  'no_concurrency_fallback',
  'no_valid_payment',
  'scam_detected',
  'registered_call_timeout',
]);

/** The call as create-phone-call answers it (and get-call shows it before it starts). */
export function registeredCall(call: EmulatedCall): PhoneCallResponse {
  const object: PhoneCallResponse = {
    call_id: call.providerCallId,
    call_type: 'phone_call',
    agent_id: call.agentId,
    agent_version: 1,
    agent_name: 'Emulated agent',
    call_status: 'registered',
    direction: call.direction,
    from_number: call.fromNumber,
    to_number: call.toNumber,
    data_storage_setting: 'everything',
    opt_in_signed_url: false,
  };
  if (call.metadata !== undefined) object.metadata = call.metadata;
  if (call.dynamicVariables !== undefined) object.retell_llm_dynamic_variables = call.dynamicVariables;
  return object;
}

/** A call refused for capacity at create time: already over, in status "error". */
export function refusedCall(
  call: EmulatedCall,
  reason: NonNullable<PhoneCallResponse['disconnection_reason']>,
  atMs: number,
): PhoneCallResponse {
  return {
    ...registeredCall(call),
    call_status: 'error',
    disconnection_reason: reason,
    end_timestamp: atMs,
    duration_ms: 0,
  };
}

/** The call at its start (the call_started webhook). */
export function startedCall(call: EmulatedCall, startMs: number): PhoneCallResponse {
  return { ...registeredCall(call), call_status: 'ongoing', start_timestamp: startMs };
}

/** The call once ended (the call_ended webhook): everything but the analysis. */
export function endedCall(call: EmulatedCall, times: { startMs: number; endMs: number }): PhoneCallResponse {
  const { outcome } = call;
  const connected = outcome.connected;
  const object: PhoneCallResponse = {
    ...registeredCall(call),
    call_status: finalStatusFor(outcome.disconnectionReason, connected),
    // The SDK types the known reasons; the emulator may send others (retired, future) on purpose.
    disconnection_reason: outcome.disconnectionReason as PhoneCallResponse['disconnection_reason'],
    end_timestamp: times.endMs,
    duration_ms: connected ? times.endMs - times.startMs : 0,
  };
  if (connected) {
    object.start_timestamp = times.startMs;
    const transcriptObject = outcome.transcript.map((line) => ({
      role: line.role,
      content: line.content,
      words: line.content
        .split(/\s+/)
        .filter(Boolean)
        .map((word, index) => ({
          word,
          start: line.atSeconds + index * 0.3,
          end: line.atSeconds + index * 0.3 + 0.25,
        })),
    }));
    object.transcript = outcome.transcript
      .map((line) => `${line.role === 'agent' ? 'Agent' : 'User'}: ${line.content}`)
      .join('\n');
    object.transcript_object = transcriptObject;
    object.transcript_with_tool_calls = transcriptObject;
    object.public_log_url = `https://retell-emulator.invalid/${call.providerCallId}/public_log.txt`;
  } else {
    object.transcript = '';
    object.transcript_object = [];
  }
  if (outcome.recordingUrl) object.recording_url = outcome.recordingUrl;
  if (outcome.transferDestination) object.transfer_destination = outcome.transferDestination;
  if (connected && call.dynamicVariables) object.collected_dynamic_variables = { ...call.dynamicVariables };
  return object;
}

/** The call with its post-call analysis (the call_analyzed webhook, and get-call afterwards). */
export function analyzedCall(call: EmulatedCall, times: { startMs: number; endMs: number }): PhoneCallResponse {
  const { analysis } = call.outcome;
  const custom: Record<string, unknown> = { ...analysis.custom };
  if (analysis.outcome !== undefined) custom[OUTCOME_FIELD] = analysis.outcome;
  if (analysis.callbackAt !== undefined) custom[CALLBACK_AT_FIELD] = analysis.callbackAt;
  if (analysis.language !== undefined) custom[LANGUAGE_FIELD] = analysis.language;
  return {
    ...endedCall(call, times),
    call_analysis: {
      call_summary: analysis.summary ?? 'Emulated call.',
      call_successful: call.outcome.connected,
      in_voicemail: analysis.inVoicemail ?? call.outcome.disconnectionReason === 'voicemail_reached',
      user_sentiment: 'Neutral',
      custom_analysis_data: custom,
    },
  };
}
