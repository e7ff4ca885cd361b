// The simulated Telephony adapter: deterministic outcomes, ordered events, transcripts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createSimulatedTelephony,
  defaultSimulatedOutcome,
  simulatedCallEvents,
  type SimulatedOutcome,
} from '../../../src/calls/telephony/simulator.adapter.js';
import {
  CALL_RESULTS,
  TelephonyEventSchema,
  isConversationResult,
  type PlaceCallRequest,
  type TelephonyEvent,
  type TelephonyEventOf,
} from '../../../src/calls/telephony/telephony.port.js';

const startedAt = new Date('2026-11-22T10:00:00.000Z');
const PHONE = '+14155552671';

function request(overrides: Partial<PlaceCallRequest> = {}): PlaceCallRequest {
  return {
    callId: 'call-1',
    phone: PHONE,
    agentId: 'agent-1',
    workflowId: 'wf-1',
    contactId: 'contact-1',
    language: null,
    startedAt,
    ...overrides,
  };
}

function recorder() {
  const events: TelephonyEvent[] = [];
  const sink = async (event: TelephonyEvent) => {
    events.push(event);
  };
  return { events, sink };
}

function ofType<T extends TelephonyEvent['type']>(events: TelephonyEvent[], type: T): TelephonyEventOf<T> {
  const found = events.find((e) => e.type === type);
  if (!found) throw new Error(`no ${type} event`);
  return found as TelephonyEventOf<T>;
}

async function runCall(outcome: SimulatedOutcome | undefined, overrides: Partial<PlaceCallRequest> = {}) {
  const { events, sink } = recorder();
  const phone = overrides.phone ?? PHONE;
  const telephony = createSimulatedTelephony({ sink, script: outcome ? { [phone]: outcome } : undefined });
  await telephony.placeCall(request(overrides));
  await telephony.settled();
  return events;
}

const phones = Array.from({ length: 300 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`);

afterEach(() => {
  vi.useRealTimers();
});

describe('default outcome', () => {
  it('is the same for the same phone, whatever its formatting', () => {
    expect(defaultSimulatedOutcome(PHONE)).toEqual(defaultSimulatedOutcome(PHONE));
    expect(defaultSimulatedOutcome('+1 (415) 555-2671')).toEqual(defaultSimulatedOutcome(PHONE));
  });

  it('spreads phones over answered, no_answer, voicemail, converted and busy', () => {
    const results = new Set(phones.map((p) => defaultSimulatedOutcome(p).result));
    expect([...results].sort()).toEqual(['answered', 'busy', 'converted', 'no_answer', 'voicemail']);
  });

  it('has durations that fit the result', () => {
    for (const phone of phones) {
      const { result, durationSeconds } = defaultSimulatedOutcome(phone);
      const [min, max] =
        result === 'no_answer' || result === 'busy' ? [0, 0] : result === 'voicemail' ? [15, 30] : [60, 240];
      expect(durationSeconds).toBeGreaterThanOrEqual(min);
      expect(durationSeconds).toBeLessThanOrEqual(max);
    }
  });

  it('is invalid_number for a phone without digits', () => {
    expect(defaultSimulatedOutcome('not a phone').result).toBe('invalid_number');
  });

  it('gives two simulators the same events for the same call', async () => {
    const a = await runCall(undefined);
    const b = await runCall(undefined);
    expect(a).toEqual(b);
  });

  it('can be replaced with defaultOutcome', async () => {
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({ sink, defaultOutcome: () => ({ result: 'ivr' }) });
    await telephony.placeCall(request());
    await telephony.settled();
    expect(ofType(events, 'call.ended').result).toBe('ivr');
  });
});

describe('emitted events', () => {
  it('are call.started, call.ended, report.ready in order, with deterministic ids and valid shapes', async () => {
    const events = await runCall({ result: 'converted', durationSeconds: 90 });
    expect(events.map((e) => [e.type, e.eventId, e.callId])).toEqual([
      ['call.started', 'call-1:started', 'call-1'],
      ['call.ended', 'call-1:ended', 'call-1'],
      ['report.ready', 'call-1:report', 'call-1'],
    ]);
    for (const event of events) expect(TelephonyEventSchema.parse(event)).toEqual(event);
  });

  it('time the call from request.startedAt', async () => {
    const events = await runCall({ result: 'answered', durationSeconds: 125 });
    expect(ofType(events, 'call.started').occurredAt).toBe('2026-11-22T10:00:00.000Z');
    const ended = ofType(events, 'call.ended');
    expect(ended.occurredAt).toBe('2026-11-22T10:02:05.000Z');
    expect(ended.durationSeconds).toBe(125);
    expect(ofType(events, 'report.ready').occurredAt).toBe(ended.occurredAt);
  });

  it('use the scripted outcome fields', async () => {
    const events = await runCall({
      result: 'qualified',
      durationSeconds: 200,
      endReason: 'customer_hung_up',
      language: 'fr-FR',
      nextAttemptInMinutes: 90,
      transferred: true,
      testCall: true,
    });
    expect(ofType(events, 'call.ended')).toEqual({
      type: 'call.ended',
      eventId: 'call-1:ended',
      callId: 'call-1',
      occurredAt: '2026-11-22T10:03:20.000Z',
      result: 'qualified',
      endReason: 'customer_hung_up',
      durationSeconds: 200,
      language: 'fr-FR',
      nextAttemptAt: '2026-11-22T11:33:20.000Z',
      transferred: true,
      testCall: true,
    });
  });

  it('omit transferred and testCall unless set', async () => {
    const ended = ofType(await runCall({ result: 'answered' }), 'call.ended');
    expect('transferred' in ended).toBe(false);
    expect('testCall' in ended).toBe(false);
  });

  it.each([
    ['callback_requested', '2026-11-23T10:02:00.000Z'], // called tomorrow: 24 h after the end
    ['no_answer', '2026-11-22T12:00:00.000Z'],
    ['busy', '2026-11-22T10:30:00.000Z'],
    ['converted', null],
    ['do_not_call', null],
  ] as const)('set a default next attempt for %s', async (result, expected) => {
    const events = await runCall({ result, durationSeconds: result === 'callback_requested' ? 120 : 0 });
    expect(ofType(events, 'call.ended').nextAttemptAt).toBe(expected);
  });

  it('let the script remove the next attempt', async () => {
    const events = await runCall({ result: 'no_answer', nextAttemptInMinutes: null });
    expect(ofType(events, 'call.ended').nextAttemptAt).toBeNull();
  });

  it('report the call language for conversations only', async () => {
    expect(ofType(await runCall({ result: 'answered' }, { language: 'de-DE' }), 'call.ended').language).toBe('de-DE');
    expect(ofType(await runCall({ result: 'answered' }), 'call.ended').language).toBe('en-US');
    expect(ofType(await runCall({ result: 'no_answer' }, { language: 'de-DE' }), 'call.ended').language).toBeNull();
    expect(ofType(await runCall({ result: 'answered', language: null }), 'call.ended').language).toBeNull();
  });

  it('use default durations for a scripted result without one', async () => {
    expect(ofType(await runCall({ result: 'no_answer' }), 'call.ended').durationSeconds).toBe(0);
    const voicemail = ofType(await runCall({ result: 'voicemail' }), 'call.ended').durationSeconds;
    expect(voicemail).toBeGreaterThanOrEqual(15);
    expect(voicemail).toBeLessThanOrEqual(30);
    const answered = ofType(await runCall({ result: 'not_interested' }), 'call.ended').durationSeconds;
    expect(answered).toBeGreaterThanOrEqual(60);
    expect(answered).toBeLessThanOrEqual(240);
  });
});

describe('transcripts', () => {
  it.each(CALL_RESULTS)('fit the result %s', async (result) => {
    const events = await runCall({ result, durationSeconds: 100 });
    const { utterances } = ofType(events, 'report.ready');
    if (!isConversationResult(result)) {
      expect(utterances).toEqual([]);
      return;
    }
    expect(utterances.length).toBeGreaterThanOrEqual(2);
    expect(utterances[0].speaker).toBe('assistant');
    expect(new Set(utterances.map((u) => u.speaker))).toEqual(new Set(['assistant', 'user']));
    // Timestamps are inside the call and in order.
    const times = utterances.map((u) => Date.parse(u.timestamp));
    expect(times[0]).toBe(startedAt.getTime());
    expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
    expect(times[times.length - 1]).toBeLessThan(startedAt.getTime() + 100_000);
  });

  it.each([
    ['converted', /thursday at 10/i],
    ['not_interested', /not interested/i],
    ['do_not_call', /do not call/i],
    ['callback_requested', /tomorrow/i],
  ] as const)('%s says what happened', async (result, pattern) => {
    const text = ofType(await runCall({ result }), 'report.ready')
      .utterances.map((u) => u.content)
      .join(' ');
    expect(text).toMatch(pattern);
  });

  it.each(['voicemail', 'no_answer', 'busy'] as const)('%s has an empty report', async (result) => {
    expect(ofType(await runCall({ result }), 'report.ready').utterances).toEqual([]);
  });

  it('are skipped with transcript: false', async () => {
    const events = await runCall({ result: 'converted', transcript: false });
    expect(events.map((e) => e.type)).toEqual(['call.started', 'call.ended']);
  });
});

describe('script', () => {
  it('matches phones by digits and can be changed and cleared', async () => {
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({ sink, script: { '+1 415 555 2671': { result: 'do_not_call' } } });
    expect(telephony.outcomeFor(PHONE).result).toBe('do_not_call');
    telephony.setScript(PHONE, { result: 'wrong_number' });
    await telephony.placeCall(request({ callId: 'a' }));
    telephony.setScript(PHONE, null);
    await telephony.placeCall(request({ callId: 'b' }));
    telephony.setScript(PHONE, { result: 'ivr' });
    telephony.clearScript();
    await telephony.placeCall(request({ callId: 'c' }));
    await telephony.settled();
    const results = events.filter((e) => e.type === 'call.ended').map((e) => [e.callId, e.result]);
    const unscripted = defaultSimulatedOutcome(PHONE).result;
    expect(results).toEqual([
      ['a', 'wrong_number'],
      ['b', unscripted],
      ['c', unscripted],
    ]);
  });

  it('fixes the outcome when the call is placed', async () => {
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({ sink, delayMs: 5, script: { [PHONE]: { result: 'converted' } } });
    await telephony.placeCall(request());
    telephony.setScript(PHONE, { result: 'busy' });
    await telephony.settled();
    expect(ofType(events, 'call.ended').result).toBe('converted');
  });

  it('rejects invalid scripted values', () => {
    const telephony = createSimulatedTelephony({ sink: async () => {} });
    expect(() => telephony.setScript(PHONE, { result: 'answered', durationSeconds: -1 })).toThrow(RangeError);
    expect(() => telephony.setScript(PHONE, { result: 'answered', durationSeconds: 1.5 })).toThrow(RangeError);
    expect(() => telephony.setScript(PHONE, { result: 'answered', nextAttemptInMinutes: -5 })).toThrow(RangeError);
    expect(() => createSimulatedTelephony({ sink: async () => {}, delayMs: -1 })).toThrow(RangeError);
  });

  it('eventsFor matches what is emitted', async () => {
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({ sink });
    const expected = telephony.eventsFor(request());
    await telephony.placeCall(request());
    await telephony.settled();
    expect(events).toEqual(expected);
    expect(simulatedCallEvents(request(), defaultSimulatedOutcome(PHONE))).toEqual(expected);
    expect(telephony.placed).toEqual([request()]);
  });
});

describe('asynchrony and failures', () => {
  it('emits nothing before placeCall returns, then everything after delayMs', async () => {
    vi.useFakeTimers();
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({ sink, delayMs: 1000 });
    await telephony.placeCall(request());
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(999);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await telephony.settled();
    expect(events.map((e) => e.type)).toEqual(['call.started', 'call.ended', 'report.ready']);
  });

  it('with the default delay, emits on a later macrotask, not inside placeCall', async () => {
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({ sink });
    await telephony.placeCall(request());
    expect(events).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events).toHaveLength(3);
  });

  it('waits for each sink call before the next event', async () => {
    const log: string[] = [];
    const telephony = createSimulatedTelephony({
      sink: async (event) => {
        log.push(`begin ${event.type}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
        log.push(`end ${event.type}`);
      },
    });
    await telephony.placeCall(request());
    await telephony.settled();
    expect(log).toEqual([
      'begin call.started',
      'end call.started',
      'begin call.ended',
      'end call.ended',
      'begin report.ready',
      'end report.ready',
    ]);
  });

  it('keeps calls apart', async () => {
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({
      sink,
      script: { '+14155550001': { result: 'busy' }, '+14155550002': { result: 'converted' } },
    });
    await telephony.placeCall(request({ callId: 'x', phone: '+14155550001' }));
    await telephony.placeCall(request({ callId: 'y', phone: '+14155550002' }));
    await telephony.settled();
    expect(events.filter((e) => e.callId === 'x').map((e) => e.type)).toEqual([
      'call.started',
      'call.ended',
      'report.ready',
    ]);
    expect(events.filter((e) => e.type === 'call.ended').map((e) => [e.callId, e.result])).toEqual([
      ['x', 'busy'],
      ['y', 'converted'],
    ]);
  });

  it('never throws into the caller when the sink fails, and still emits the rest', async () => {
    const errors: Array<[unknown, string | undefined]> = [];
    const seen: string[] = [];
    const telephony = createSimulatedTelephony({
      sink: async (event) => {
        seen.push(event.type);
        if (event.type === 'call.started') throw new Error('sink down');
      },
      onError: (error, event) => {
        errors.push([error, event?.type]);
        throw new Error('onError also fails');
      },
    });
    await expect(telephony.placeCall(request())).resolves.toBeUndefined();
    await telephony.settled();
    expect(seen).toEqual(['call.started', 'call.ended', 'report.ready']);
    expect(errors).toHaveLength(1);
    expect(errors[0][1]).toBe('call.started');
  });

  it('reports a throwing defaultOutcome as an unknown result', async () => {
    const { events, sink } = recorder();
    const errors: unknown[] = [];
    const telephony = createSimulatedTelephony({
      sink,
      defaultOutcome: () => {
        throw new Error('boom');
      },
      onError: (e) => errors.push(e),
    });
    await telephony.placeCall(request());
    await telephony.settled();
    expect(errors).toHaveLength(1);
    expect(ofType(events, 'call.ended')).toMatchObject({ result: 'unknown', durationSeconds: 0 });
  });

  it('is not affected by later changes to the request object', async () => {
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({ sink });
    const req = request({ startedAt: new Date(startedAt) });
    await telephony.placeCall(req);
    req.callId = 'changed';
    req.startedAt.setUTCFullYear(2000);
    await telephony.settled();
    expect(ofType(events, 'call.started')).toMatchObject({ callId: 'call-1', occurredAt: '2026-11-22T10:00:00.000Z' });
  });
});

describe('simulateInbound', () => {
  it('emits call.inbound stamped by the clock', async () => {
    const { events, sink } = recorder();
    const telephony = createSimulatedTelephony({ sink, clock: { now: () => new Date('2026-11-22T09:30:00.000Z') } });
    await telephony.simulateInbound({ callId: 'in-1', from: '+14155559999' });
    await telephony.settled();
    expect(events).toEqual([
      {
        type: 'call.inbound',
        eventId: 'in-1:inbound',
        callId: 'in-1',
        occurredAt: '2026-11-22T09:30:00.000Z',
        from: '+14155559999',
        to: null,
      },
    ]);
    expect(TelephonyEventSchema.safeParse(events[0]).success).toBe(true);
  });
});

describe('paced calls (callSpeed): a call lasts what it reports', () => {
  it('sends the end and the report only once the clock has passed the scaled end, and nothing it reports is later than when it sends it', async () => {
    const clock = { now: () => new Date() };
    const sent: Array<{ event: TelephonyEvent; at: number }> = [];
    const telephony = createSimulatedTelephony({
      sink: async (event) => void sent.push({ event, at: Date.now() }),
      clock,
      delayMs: 0,
      callSpeed: 100,
      script: { [PHONE]: { result: 'converted', durationSeconds: 150 } },
    });
    const placedAt = new Date();
    await telephony.placeCall(request({ startedAt: placedAt }));
    await telephony.settled();
    expect(sent.map((s) => s.event.type)).toEqual(['call.started', 'call.ended', 'report.ready']);
    const ended = sent[1].event as TelephonyEventOf<'call.ended'>;
    expect(ended.durationSeconds).toBe(2); // 150 s at 100x, rounded
    expect(Date.parse(ended.occurredAt)).toBe(placedAt.getTime() + 2000);
    for (const { event, at } of sent) {
      expect(Date.parse(event.occurredAt)).toBeLessThanOrEqual(at);
      if (event.type === 'report.ready')
        for (const u of event.utterances) expect(Date.parse(u.timestamp)).toBeLessThanOrEqual(at);
    }
    expect(sent[1].at - placedAt.getTime()).toBeGreaterThanOrEqual(2000);
  });

  it('refuses a speed that is not positive', () => {
    expect(() => createSimulatedTelephony({ sink: async () => {}, callSpeed: 0 })).toThrow(/callSpeed/);
  });
});
