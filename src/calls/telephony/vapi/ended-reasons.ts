// Vapi's ended reasons (`endedReason` on the call and in the end-of-call-report) onto the port's
// call results, as ordered rules: the first rule that matches a reason decides, and the last
// rule matches every reason, so a reason Vapi adds tomorrow still gets a result (`unknown`).
// Rules, not a closed table: Vapi.CallEndedReason has ~600 values, most generated per AI vendor
// (pipeline-error-<vendor>-…, …-vapifault-…, …-providerfault-…), and it grows with each vendor.
//
// A rule says how much the post-call analysis (./analysis.ts) may say:
//   fixed        the reason alone is the result (busy, no answer, never dialled…): analysis is
//                ignored, so it can never turn a busy line into `converted`.
//   conversation the contact picked up and the call ended normally: the analysis outcome, else
//                `answered` when the contact spoke, else `unknown`.
//   error        the call failed (AI vendor, Vapi or carrier fault): `unknown`, unless the contact
//                had spoken before it failed; then as a conversation.
//   cancelled    cancelled or deleted by someone on our side: a conversation when the call had
//                started, else `new` (never attempted).
//   not_placed   refused for capacity (the concurrency limit) before dialling: no result at all;
//                the call is withdrawn, not counted as an attempt, and placed again shortly.
// Meanings follow Vapi's "Call ended reasons" page (docs.vapi.ai/calls/call-ended-reason).
import type { CallResult } from '../telephony.port.js';

export type EndedReasonRuleKind =
  | { kind: 'fixed'; result: CallResult }
  | { kind: 'conversation' }
  | { kind: 'error' }
  | { kind: 'cancelled' }
  | { kind: 'not_placed' };

export interface EndedReasonRule {
  /** What the rule covers, for the documentation and test names. */
  name: string;
  matches(reason: string): boolean;
  decides: EndedReasonRuleKind;
}

const oneOf = (...reasons: string[]) => {
  const set = new Set(reasons);
  return (reason: string) => set.has(reason);
};
const startsWithAny =
  (...prefixes: string[]) =>
  (reason: string) =>
    prefixes.some((prefix) => reason.startsWith(prefix));
const endsWithAny =
  (...suffixes: string[]) =>
  (reason: string) =>
    suffixes.some((suffix) => reason.endsWith(suffix));
const either =
  (...tests: Array<(reason: string) => boolean>) =>
  (reason: string) =>
    tests.some((test) => test(reason));

/** The ordered rules; the first match decides. Exported for the documentation and the tests. */
export const ENDED_REASON_RULES: readonly EndedReasonRule[] = [
  {
    // Vapi's docs group SIP 408/480 with "phone rang but no answer".
    name: 'not answered: customer-did-not-answer, outbound SIP 408 / 480',
    matches: either(
      oneOf('customer-did-not-answer'),
      endsWithAny('-outbound-sip-408-request-timeout', '-outbound-sip-480-temporarily-unavailable'),
    ),
    decides: { kind: 'fixed', result: 'no_answer' },
  },
  { name: 'line busy: customer-busy', matches: oneOf('customer-busy'), decides: { kind: 'fixed', result: 'busy' } },
  {
    // Only with the assistant's voicemailDetection on (off by default); otherwise a voicemail
    // greeting is a "conversation" that the analysis can still call `voicemail`.
    name: 'voicemail detected: voicemail',
    matches: oneOf('voicemail'),
    decides: { kind: 'fixed', result: 'voicemail' },
  },
  {
    name: 'number does not exist: twilio-reported-customer-misdialed',
    matches: oneOf('twilio-reported-customer-misdialed'),
    decides: { kind: 'fixed', result: 'invalid_number' },
  },
  {
    // The create answered 201 with subscriptionLimits.concurrencyBlocked, and Vapi ended the call
    // without dialling it: a capacity refusal like a 429, so no attempt is spent on it.
    name: 'refused for concurrency: call.start.error-subscription-concurrency-limit-reached',
    matches: oneOf('call.start.error-subscription-concurrency-limit-reached'),
    decides: { kind: 'not_placed' },
  },
  {
    // Billing, capacity (a free number's daily cap) and configuration problems found before
    // dialling: the contact was never called.
    name: 'never dialled: call.start.*, call-start-error-neither-assistant-nor-server-set, assistant-not-found, assistant-not-valid, assistant-request-*, scheduled-call-deleted, phone-call-provider-bypass-enabled-but-no-call-received',
    matches: either(
      startsWithAny('call.start.', 'assistant-request-'),
      oneOf(
        'call-start-error-neither-assistant-nor-server-set',
        'assistant-not-found',
        'assistant-not-valid',
        'scheduled-call-deleted',
        'phone-call-provider-bypass-enabled-but-no-call-received',
      ),
    ),
    decides: { kind: 'fixed', result: 'new' },
  },
  {
    name: 'cancelled on our side: manually-canceled, call-deleted',
    matches: oneOf('manually-canceled', 'call-deleted'),
    decides: { kind: 'cancelled' },
  },
  {
    name: 'ended normally after the contact picked up: assistant-ended-call*, assistant-said-end-call-phrase, assistant-forwarded-call, customer-ended-call*, silence-timed-out, exceeded-max-duration, call.forwarding.*, *-completed-call, vonage-completed, call.ending.hook-executed-*, warm-transfer and transfer errors',
    matches: either(
      startsWithAny(
        'assistant-ended-call',
        'customer-ended-call',
        'call.forwarding.',
        'call.ending.hook-executed-',
        'call.in-progress.error-warm-transfer-',
      ),
      oneOf(
        'assistant-said-end-call-phrase',
        'assistant-forwarded-call',
        'silence-timed-out',
        'exceeded-max-duration',
        'call.in-progress.twilio-completed-call',
        'call.in-progress.sip-completed-call',
        'vonage-completed',
        'call.in-progress.error-transfer-failed',
      ),
    ),
    decides: { kind: 'conversation' },
  },
  {
    // The carrier or trunk refused or never connected the call. It could be a bad number, a
    // blocked caller id or our own trunk: no reliable signal, so never a final result.
    name: 'never connected: outbound SIP 403 / 407 / 503, transport-never-connected, twilio/vonage failed to connect, vonage-rejected, SIP failed to connect, inbound call.ringing.*, web microphone refused',
    matches: either(
      endsWithAny(
        '-outbound-sip-403-forbidden',
        '-outbound-sip-407-proxy-authentication-required',
        '-outbound-sip-503-service-unavailable',
        '-transport-never-connected',
      ),
      startsWithAny('call.ringing.'),
      oneOf(
        'twilio-failed-to-connect-call',
        'vonage-failed-to-connect-call',
        'vonage-rejected',
        'call.in-progress.error-sip-outbound-call-failed-to-connect',
        'call.in-progress.error-sip-inbound-call-failed-to-connect',
        'customer-did-not-give-microphone-permission',
      ),
    ),
    decides: { kind: 'fixed', result: 'unknown' },
  },
  {
    // pipeline-error-*, *-vapifault-*, *-providerfault-*, other call.in-progress.error-*,
    // worker-shutdown, phone-call-provider-closed-websocket, assistant-join-timed-out,
    // vonage-disconnected, and any reason Vapi adds later.
    name: 'failed (AI vendor, Vapi, carrier) and every other reason',
    matches: () => true,
    decides: { kind: 'error' },
  },
];

export function ruleForEndedReason(reason: string): EndedReasonRule {
  // The last rule matches everything, so it is the answer when no earlier rule is.
  return ENDED_REASON_RULES.find((rule) => rule.matches(reason)) ?? ENDED_REASON_RULES[ENDED_REASON_RULES.length - 1];
}

/** Whether Vapi refused the call for capacity before dialling it (the not_placed rule). */
export function isNotPlacedReason(reason: string | null | undefined): boolean {
  return typeof reason === 'string' && ruleForEndedReason(reason).decides.kind === 'not_placed';
}

/** Only a call the assistant handed to another number counts as transferred (a failed transfer does not). */
export function isTransferredReason(reason: string): boolean {
  return reason === 'assistant-forwarded-call';
}
