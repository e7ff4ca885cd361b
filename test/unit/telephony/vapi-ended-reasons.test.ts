// Every Vapi ended reason (the SDK's own Vapi.CallEndedReason enum) gets a result, by ordered
// rules, except the concurrency refusal, which is no result (not placed: not an attempt); the
// post-call analysis refines only reasons where the contact could have talked.
import { describe, expect, it } from 'vitest';
import { Vapi } from '@vapi-ai/server-sdk';
import { CALL_RESULTS, type CallResult } from '../../../src/calls/telephony/telephony.port.js';
import {
  ENDED_REASON_RULES,
  isNotPlacedReason,
  ruleForEndedReason,
} from '../../../src/calls/telephony/vapi/ended-reasons.js';
import { resultForEndedCall } from '../../../src/calls/telephony/vapi/call-result.js';
import {
  ANALYSIS_OUTCOMES,
  ANALYSIS_OUTPUT_NAME,
  ANALYSIS_SCHEMA,
  readCallAnalysis,
  type CallAnalysis,
} from '../../../src/calls/telephony/vapi/analysis.js';

const ALL_REASONS: string[] = Object.values(Vapi.CallEndedReason);
const endedAt = new Date('2026-11-22T10:05:00.000Z');
const NO_ANALYSIS: CallAnalysis = { outcome: null, callbackAt: null, language: null };

const NOT_PLACED = 'call.start.error-subscription-concurrency-limit-reached';

function result(
  endedReason: string,
  facts: Partial<{ started: boolean; contactSpoke: boolean; analysis: CallAnalysis }> = {},
): CallResult | 'not_placed' {
  const outcome = resultForEndedCall({
    endedReason,
    started: true,
    contactSpoke: false,
    analysis: NO_ANALYSIS,
    endedAt,
    ...facts,
  });
  return outcome.kind === 'ended' ? outcome.result : 'not_placed';
}

describe('Vapi ended reasons', () => {
  it('covers the SDK enum (sanity: it is the ~600 values of SDK 2.0.1)', () => {
    expect(ALL_REASONS.length).toBe(597);
  });

  it('maps every reason of the SDK enum onto one of the 21 results, with or without a conversation, but the concurrency refusal', () => {
    for (const reason of ALL_REASONS.filter((r) => r !== NOT_PLACED)) {
      for (const contactSpoke of [false, true]) {
        for (const started of [false, true]) {
          expect(CALL_RESULTS, reason).toContain(result(reason, { started, contactSpoke }));
        }
      }
    }
  });

  it('gives the concurrency refusal no result, whatever the analysis says: not placed', () => {
    const converted: CallAnalysis = { outcome: 'converted', callbackAt: null, language: null };
    expect(ALL_REASONS).toContain(NOT_PLACED);
    expect(result(NOT_PLACED, { started: false })).toBe('not_placed');
    expect(result(NOT_PLACED, { contactSpoke: true, analysis: converted })).toBe('not_placed');
    expect(isNotPlacedReason(NOT_PLACED)).toBe(true);
    expect(ALL_REASONS.filter((reason) => isNotPlacedReason(reason))).toEqual([NOT_PLACED]);
    expect([null, undefined, 'call.start.error-subscription-insufficient-credits'].map(isNotPlacedReason)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('sends only failures to the last, catch-all rule (a new kind of reason needs a decision)', () => {
    const catchAll = ENDED_REASON_RULES[ENDED_REASON_RULES.length - 1];
    const caught = ALL_REASONS.filter((reason) => ruleForEndedReason(reason) === catchAll);
    const failureLike = /error|fault|failed|worker|closed-websocket|join-timed-out|disconnected/;
    expect(caught.filter((reason) => !failureLike.test(reason))).toEqual([]);
    expect(caught.length).toBeGreaterThan(400);
  });

  it('maps reasons the catch-all never sees to a rule of their own (each rule is used)', () => {
    for (const rule of ENDED_REASON_RULES)
      expect(
        ALL_REASONS.some((reason) => ruleForEndedReason(reason) === rule),
        rule.name,
      ).toBe(true);
  });

  it('maps a reason the SDK does not know yet to unknown', () => {
    expect(result('some-new-reason-2027')).toBe('unknown');
    expect(result('hangup', { contactSpoke: true })).toBe('answered');
  });

  const expected: Array<[string, CallResult | 'not_placed', Partial<{ started: boolean; contactSpoke: boolean }>?]> = [
    ['customer-did-not-answer', 'no_answer'],
    ['call.in-progress.error-providerfault-outbound-sip-408-request-timeout', 'no_answer'],
    ['call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable', 'no_answer'],
    ['customer-busy', 'busy'],
    ['voicemail', 'voicemail'],
    ['twilio-reported-customer-misdialed', 'invalid_number'],
    ['call.start.error-subscription-insufficient-credits', 'new'],
    ['call.start.error-subscription-concurrency-limit-reached', 'not_placed', { started: false }],
    ['call.start.error-vapi-number-outbound-daily-limit', 'new'],
    ['call.start.error-get-assistant', 'new'],
    ['call.start.error-vapifault-database-error', 'new'],
    ['call-start-error-neither-assistant-nor-server-set', 'new'],
    ['assistant-not-found', 'new'],
    ['assistant-request-returned-error', 'new'],
    ['scheduled-call-deleted', 'new'],
    ['manually-canceled', 'new', { started: false }],
    ['manually-canceled', 'answered', { started: true, contactSpoke: true }],
    ['call-deleted', 'new', { started: false }],
    ['customer-ended-call', 'answered', { contactSpoke: true }],
    ['customer-ended-call', 'unknown', { contactSpoke: false }],
    ['assistant-ended-call-after-message-spoken', 'answered', { contactSpoke: true }],
    ['assistant-said-end-call-phrase', 'answered', { contactSpoke: true }],
    ['assistant-forwarded-call', 'answered', { contactSpoke: true }],
    ['silence-timed-out', 'answered', { contactSpoke: true }],
    ['exceeded-max-duration', 'answered', { contactSpoke: true }],
    ['call.forwarding.operator-busy', 'answered', { contactSpoke: true }],
    ['call.in-progress.error-warm-transfer-max-duration', 'answered', { contactSpoke: true }],
    ['call.in-progress.error-transfer-failed', 'answered', { contactSpoke: true }],
    ['call.in-progress.twilio-completed-call', 'answered', { contactSpoke: true }],
    ['call.ending.hook-executed-say', 'answered', { contactSpoke: true }],
    ['call.in-progress.error-providerfault-outbound-sip-403-forbidden', 'unknown', { contactSpoke: true }],
    ['call.in-progress.error-providerfault-transport-never-connected', 'unknown', { contactSpoke: true }],
    ['twilio-failed-to-connect-call', 'unknown', { contactSpoke: true }],
    ['vonage-rejected', 'unknown', { contactSpoke: true }],
    ['call.ringing.hook-executed-transfer', 'unknown', { contactSpoke: true }],
    ['pipeline-error-openai-llm-failed', 'unknown'],
    ['pipeline-error-openai-llm-failed', 'answered', { contactSpoke: true }],
    ['worker-shutdown', 'unknown'],
    ['phone-call-provider-closed-websocket', 'answered', { contactSpoke: true }],
  ];
  it.each(expected)('%s → %s (%o)', (reason, want, facts) => {
    expect(ALL_REASONS, 'a reason of the SDK enum').toContain(reason);
    expect(result(reason, facts ?? {})).toBe(want);
  });

  it('never lets the analysis turn a reason with a fixed result into another result', () => {
    const converted: CallAnalysis = { outcome: 'converted', callbackAt: null, language: null };
    for (const reason of ALL_REASONS) {
      const rule = ruleForEndedReason(reason);
      if (rule.decides.kind !== 'fixed') continue;
      expect(result(reason, { contactSpoke: true, analysis: converted }), reason).toBe(rule.decides.result);
    }
  });

  it('lets the analysis refine every conversation reason', () => {
    const outcome: CallAnalysis = { outcome: 'not_interested', callbackAt: null, language: null };
    for (const reason of ALL_REASONS.filter((r) => ruleForEndedReason(r).decides.kind === 'conversation')) {
      expect(result(reason, { analysis: outcome }), reason).toBe('not_interested');
    }
  });

  it('keeps endReason within the port’s 256 characters for every reason', () => {
    expect(Math.max(...ALL_REASONS.map((r) => r.length))).toBeLessThanOrEqual(256);
  });
});

describe('the analysis definition', () => {
  it('names a structured output Vapi accepts (at most 40 characters)', () => {
    expect(ANALYSIS_OUTPUT_NAME.length).toBeLessThanOrEqual(40);
  });

  it('offers only port results as outcomes', () => {
    for (const outcome of ANALYSIS_OUTCOMES) expect(CALL_RESULTS).toContain(outcome);
    expect(ANALYSIS_SCHEMA.properties.outcome.enum).toEqual(ANALYSIS_OUTCOMES);
  });

  it('reads our structured output and ignores others', () => {
    const artifact = {
      structuredOutputs: {
        a: { name: 'Customer Info', result: { outcome: 'converted' } },
        b: {
          name: ANALYSIS_OUTPUT_NAME,
          result: { outcome: ' Callback_Requested ', callbackAt: '2026-11-23T09:00:00+01:00', language: 'es-ES' },
        },
      },
    };
    expect(readCallAnalysis({ artifact })).toEqual({
      outcome: 'callback_requested',
      callbackAt: '2026-11-23T08:00:00.000Z',
      language: 'es-ES',
    });
    expect(readCallAnalysis({ artifact: { structuredOutputs: { a: artifact.structuredOutputs.a } } })).toEqual(
      NO_ANALYSIS,
    );
    expect(readCallAnalysis({})).toEqual(NO_ANALYSIS);
    expect(
      readCallAnalysis({ artifact: { structuredOutputs: { b: { name: ANALYSIS_OUTPUT_NAME, result: null } } } }),
    ).toEqual(NO_ANALYSIS);
  });
});
