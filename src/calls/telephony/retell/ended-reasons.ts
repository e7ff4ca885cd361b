// How a Retell call ends maps onto the port's 21 call results.
//
// Every disconnection reason of the SDK's own union type has a rule here (the Record is keyed
// by that type, so a reason added to the SDK fails the type check until it is mapped; a test
// also reads the union from the SDK's declaration file). Meanings from Retell's "Debug call
// disconnection" page. The rules, in order, first match wins:
//   1. A capacity refusal (concurrency) was never dialled: not an attempt, no result at all.
//   2. A reason that says what happened on the line (busy, no answer, voicemail, invalid
//      number, an error…) is the result; the analysis never overrides it, so a busy line can
//      never become "converted".
//   3. A call stopped through the API before it connected is `new` (never reached anyone).
//   4. A conversation reason (someone picked up: hang-ups, transfers, timeouts) waits for the
//      post-call analysis, then: Retell's voicemail detection → voicemail; the agent's
//      `contactline_outcome` → that result; otherwise → answered.
//   5. A reason outside the SDK's list: the retired ones older docs list, else unknown.
import type { CallResult } from '../telephony.port.js';
import type { ContactlineAnalysis } from './analysis.js';
import type { RetellDisconnectionReason } from './retell-call.js';

export type ReasonRule =
  /** Someone picked up: the analysis refines the result (fallback `answered`). */
  | { kind: 'conversation'; transferred: boolean }
  /** A conversation if the call connected, else this result. */
  | { kind: 'conversation_if_connected'; otherwise: CallResult }
  /** The reason itself is the result. */
  | { kind: 'result'; result: CallResult }
  /** Retell refused the call for capacity before dialling: retry later, not an attempt. */
  | { kind: 'not_placed' };

const conversation: ReasonRule = { kind: 'conversation', transferred: false };
const transferred: ReasonRule = { kind: 'conversation', transferred: true };
const result = (value: CallResult): ReasonRule => ({ kind: 'result', result: value });

/** One rule per SDK disconnection reason (retell-sdk 5.66.1 lists 34). */
export const DISCONNECTION_REASON_RULES: Readonly<Record<RetellDisconnectionReason, ReasonRule>> = {
  // Ended after a pick-up (call status "ended").
  user_hangup: conversation,
  agent_hangup: conversation,
  inactivity: conversation, // end_call_after_silence_ms reached
  max_duration_reached: conversation,
  call_transfer: transferred,
  transfer_bridged: transferred,
  transfer_cancelled: conversation, // the transfer failed; the call was still a conversation
  call_take_over: transferred, // a person listening live took the call over from the agent
  manual_stopped: { kind: 'conversation_if_connected', otherwise: 'new' },
  voicemail_reached: result('voicemail'),
  ivr_reached: result('ivr'),

  // Not connected (call status "not_connected").
  dial_busy: result('busy'),
  dial_no_answer: result('no_answer'),
  user_declined: result('no_answer'), // rejected the ringing call: nobody answered
  invalid_destination: result('invalid_number'),
  // "The number dialed is marked as spam": the carrier blocks our caller id's calls.
  marked_as_spam: result('carrier_blocked'),
  // No or an unknown SIP code: a non-existent number or our number blocked; too vague for a final result.
  dial_failed: result('unknown'),
  telephony_provider_permission_denied: result('unknown'),
  telephony_provider_unavailable: result('unknown'),
  sip_routing_error: result('unknown'),

  // Refused by Retell before dialling (call status "error").
  concurrency_limit_reached: { kind: 'not_placed' }, // "add a retry with exponential backoff"
  no_concurrency_fallback: { kind: 'not_placed' }, // undocumented; by its name, no burst capacity left
  no_valid_payment: result('new'),
  scam_detected: result('new'),
  registered_call_timeout: result('new'), // a registered (custom telephony) call never joined

  // Platform errors: the call may or may not have reached anyone.
  error_llm_websocket_open: result('unknown'),
  error_llm_websocket_lost_connection: result('unknown'),
  error_llm_websocket_runtime: result('unknown'),
  error_llm_websocket_corrupt_payload: result('unknown'),
  error_no_audio_received: result('unknown'),
  error_asr: result('unknown'),
  error_retell: result('unknown'),
  error_unknown: result('unknown'),
  error_user_not_joined: result('unknown'),
};

/** Reasons older Retell docs list that the SDK no longer types, should one still arrive. */
const RETIRED_REASON_RULES: Readonly<Record<string, ReasonRule>> = {
  machine_detected: result('voicemail'),
  error_inbound_webhook: result('unknown'),
};

const UNKNOWN_REASON: ReasonRule = result('unknown');

/** The rule for a disconnection reason, whatever Retell sent (absent or unknown: unknown). */
export function ruleFor(reason: string | null | undefined): ReasonRule {
  if (!reason) return UNKNOWN_REASON;
  if (Object.hasOwn(DISCONNECTION_REASON_RULES, reason))
    return DISCONNECTION_REASON_RULES[reason as RetellDisconnectionReason];
  if (Object.hasOwn(RETIRED_REASON_RULES, reason)) return RETIRED_REASON_RULES[reason];
  return UNKNOWN_REASON;
}

/** Whether Retell refused this call before dialling it (a capacity refusal). */
export function isNotPlaced(reason: string | null | undefined): boolean {
  return ruleFor(reason).kind === 'not_placed';
}

export interface EndedFacts {
  disconnectionReason: string | null | undefined;
  connected: boolean;
  /** The analysis, or 'pending' while Retell has not sent it (the call_ended webhook). */
  analysis: ContactlineAnalysis | 'pending';
}

export type EndedClassification =
  | { kind: 'not_placed' }
  /** A conversation whose result needs the analysis, which has not come yet. */
  | { kind: 'awaiting_analysis' }
  | { kind: 'ended'; result: CallResult; transferred: boolean };

/** Applies the rules above, in order. */
export function classifyEnded(facts: EndedFacts): EndedClassification {
  const rule = ruleFor(facts.disconnectionReason);
  if (rule.kind === 'not_placed') return { kind: 'not_placed' };
  if (rule.kind === 'result') return { kind: 'ended', result: rule.result, transferred: false };
  if (rule.kind === 'conversation_if_connected' && !facts.connected)
    return { kind: 'ended', result: rule.otherwise, transferred: false };
  if (facts.analysis === 'pending') return { kind: 'awaiting_analysis' };
  const isTransferred = rule.kind === 'conversation' && rule.transferred;
  return { kind: 'ended', result: conversationResult(facts.analysis), transferred: isTransferred };
}

/** The result of a call someone picked up, from its analysis. */
function conversationResult(analysis: ContactlineAnalysis): CallResult {
  if (analysis.inVoicemail) return 'voicemail';
  if (analysis.outcome) return analysis.outcome;
  return 'answered';
}
