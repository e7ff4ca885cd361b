// TelephonyEventSchema: the validation of events a real provider POSTs (after the signature check).
import { describe, expect, it } from 'vitest';
import {
  CALL_RESULTS,
  CONVERSATION_RESULTS,
  MAX_UTTERANCE_CHARS,
  MAX_UTTERANCES,
  TelephonyEventSchema,
  isConversationResult,
  parseTelephonyEvent,
} from '../../../src/calls/telephony/telephony.port.js';

const base = { eventId: 'evt-1', callId: 'call-1', occurredAt: '2026-11-22T10:00:00.000Z' };
const started = { type: 'call.started', ...base };
const ended = {
  type: 'call.ended',
  ...base,
  result: 'converted',
  endReason: 'assistant_ended_call',
  durationSeconds: 120,
  language: 'en-US',
  nextAttemptAt: null,
};
const report = {
  type: 'report.ready',
  ...base,
  utterances: [
    { speaker: 'assistant', content: 'Hello!', timestamp: '2026-11-22T10:00:01Z' },
    { speaker: 'user', content: 'Hi.', timestamp: '2026-11-22T12:00:02+02:00' },
  ],
};
const inbound = { type: 'call.inbound', ...base, from: '+14155552671', to: '+14155550000' };

function ok(input: unknown): boolean {
  return TelephonyEventSchema.safeParse(input).success;
}

describe('CALL_RESULTS', () => {
  it('lists the 21 call results, converted first', () => {
    expect(CALL_RESULTS).toHaveLength(21);
    expect(new Set(CALL_RESULTS).size).toBe(21);
    expect(CALL_RESULTS[0]).toBe('converted');
  });

  it('classifies conversation results', () => {
    expect(CONVERSATION_RESULTS.every((r) => CALL_RESULTS.includes(r))).toBe(true);
    for (const r of ['converted', 'not_interested', 'do_not_call', 'callback_requested', 'answered'] as const)
      expect(isConversationResult(r)).toBe(true);
    for (const r of [
      'busy',
      'no_answer',
      'voicemail',
      'ivr',
      'invalid_number',
      'carrier_blocked',
      'unknown',
      'new',
    ] as const)
      expect(isConversationResult(r)).toBe(false);
  });
});

describe('TelephonyEventSchema: valid events', () => {
  it.each([
    ['call.started', started],
    ['call.ended', ended],
    [
      'call.ended with flags and a next attempt',
      {
        ...ended,
        result: 'no_answer',
        durationSeconds: 0,
        language: null,
        nextAttemptAt: '2026-11-22T12:00:00-05:00',
        transferred: false,
        testCall: true,
      },
    ],
    ['report.ready', report],
    ['report.ready with no utterances', { ...report, utterances: [] }],
    ['call.inbound', inbound],
    ['call.inbound with no callee', { ...inbound, to: null }],
  ])('%s', (_name, event) => {
    const parsed = TelephonyEventSchema.parse(event);
    expect(parsed).toEqual(event); // no transforms: strings stay as sent
  });

  it.each(CALL_RESULTS)('accepts result %s', (result) => {
    expect(ok({ ...ended, result })).toBe(true);
  });

  it('accepts the size limits exactly', () => {
    const utterance = { speaker: 'user', content: 'x'.repeat(MAX_UTTERANCE_CHARS), timestamp: base.occurredAt };
    expect(ok({ ...report, utterances: Array.from({ length: MAX_UTTERANCES }, () => utterance) })).toBe(true);
  });
});

describe('TelephonyEventSchema: invalid events', () => {
  it.each([
    ['unknown type', { ...started, type: 'call.ringing' }],
    ['missing type', { eventId: 'e', callId: 'c', occurredAt: base.occurredAt }],
    ['not an object', 'call.started'],
    ['null', null],
    ['empty eventId', { ...started, eventId: '' }],
    ['missing callId', { type: 'call.started', eventId: 'e', occurredAt: base.occurredAt }],
    ['date without time', { ...started, occurredAt: '2026-11-22' }],
    ['datetime without offset', { ...started, occurredAt: '2026-11-22T10:00:00' }],
    ['not a datetime', { ...started, occurredAt: 'yesterday' }],
    ['numeric timestamp', { ...started, occurredAt: 1700000000 }],
    ['extra key (strict)', { ...started, result: 'converted' }],
  ])('call.started: %s', (_name, event) => {
    expect(ok(event)).toBe(false);
  });

  it.each([
    ['unknown result', { ...ended, result: 'hung_up' }],
    ['missing result', { ...ended, result: undefined }],
    ['negative duration', { ...ended, durationSeconds: -1 }],
    ['fractional duration', { ...ended, durationSeconds: 1.5 }],
    ['string duration', { ...ended, durationSeconds: '60' }],
    ['missing language (must be present, may be null)', (({ language: _l, ...rest }) => rest)(ended)],
    ['missing nextAttemptAt', (({ nextAttemptAt: _n, ...rest }) => rest)(ended)],
    ['nextAttemptAt without offset', { ...ended, nextAttemptAt: '2026-11-23T10:00:00' }],
    ['non-boolean transferred', { ...ended, transferred: 'yes' }],
    ['extra key', { ...ended, utterances: [] }],
  ])('call.ended: %s', (_name, event) => {
    expect(ok(event)).toBe(false);
  });

  it.each([
    [
      'too many utterances',
      { ...report, utterances: Array.from({ length: MAX_UTTERANCES + 1 }, () => report.utterances[0]) },
    ],
    [
      'content too long',
      { ...report, utterances: [{ ...report.utterances[0], content: 'x'.repeat(MAX_UTTERANCE_CHARS + 1) }] },
    ],
    ['unknown speaker', { ...report, utterances: [{ ...report.utterances[0], speaker: 'agent' }] }],
    [
      'utterance timestamp without offset',
      { ...report, utterances: [{ ...report.utterances[0], timestamp: '2026-11-22T10:00:00' }] },
    ],
    ['extra utterance key', { ...report, utterances: [{ ...report.utterances[0], confidence: 0.9 }] }],
    ['utterances missing', (({ utterances: _u, ...rest }) => rest)(report)],
  ])('report.ready: %s', (_name, event) => {
    expect(ok(event)).toBe(false);
  });

  it.each([
    ['empty from', { ...inbound, from: '' }],
    ['missing to', (({ to: _t, ...rest }) => rest)(inbound)],
    ['fields of another type', { ...inbound, result: 'answered' }],
  ])('call.inbound: %s', (_name, event) => {
    expect(ok(event)).toBe(false);
  });
});

describe('parseTelephonyEvent', () => {
  it('returns the event', () => {
    expect(parseTelephonyEvent(ended)).toEqual({ ok: true, event: ended });
  });

  it('returns issues with dotted paths', () => {
    const result = parseTelephonyEvent({
      ...report,
      utterances: [report.utterances[0], { ...report.utterances[1], speaker: 'bot' }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path)).toContain('utterances.1.speaker');
  });
});
