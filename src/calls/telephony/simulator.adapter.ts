// The default Telephony adapter: a deterministic, offline call simulator.
//
// placeCall() accepts the call and returns at once; after `delayMs` (setTimeout, default 0) it
// emits, in order and each awaited before the next:
//   call.started  (eventId `${callId}:started`, occurredAt = request.startedAt)
//   call.ended    (eventId `${callId}:ended`,   occurredAt = startedAt + durationSeconds)
//   report.ready  (eventId `${callId}:report`,  occurredAt = ended time; skipped when the outcome
//                  says transcript: false). Conversation results (see isConversationResult) carry a
//                  short English transcript that fits the result; the others carry no utterances.
// A sink failure never reaches the caller of placeCall: it goes to `onError` (default: ignored)
// and the remaining events of that call are still emitted, as a real provider delivers each event
// independently. `settled()` resolves when every call placed so far has emitted all its events.
//
// Outcome: the script entry for the phone (keys compared as "+digits", so "+1 415-555-2671" and
// "+14155552671" are the same), else `defaultOutcome(phone)`, else defaultSimulatedOutcome(phone),
// a pure function of the phone's digits. A phone with no digits always ends as invalid_number.
// Unset outcome fields get per-result defaults (durations, end reasons, next attempt) that are
// also derived from the phone's digits, so the same phone always gives the same events.
// `clock` only stamps simulated inbound calls (simulateInbound); outbound timestamps derive from
// request.startedAt so that they are reproducible.
import { createHash } from 'node:crypto';
import { systemClock, type Clock } from '../../domain/shared/clock.js';
import {
  isConversationResult,
  type CallResult,
  type PlaceCallRequest,
  type Telephony,
  type TelephonyEvent,
  type TelephonyEventSink,
  type Utterance,
} from './telephony.port.js';

export interface SimulatedOutcome {
  result: CallResult;
  /** Seconds; default depends on the result (0 for unanswered, 15–30 voicemail, 60–240 conversations). */
  durationSeconds?: number;
  endReason?: string;
  /** Language the call ended in; default: request.language ?? 'en-US' for conversations, else null. */
  language?: string | null;
  /** Minutes after the call ended; null for none. Default depends on the result (see DEFAULT_RETRY_MINUTES). */
  nextAttemptInMinutes?: number | null;
  /** false: emit no report.ready at all. Default true. */
  transcript?: boolean;
  /** Sets call.ended `transferred: true` (the board trigger ignores transferred calls). */
  transferred?: boolean;
  /** Sets call.ended `testCall: true` (the board trigger ignores test calls). */
  testCall?: boolean;
}

export interface SimulatedTelephonyOptions {
  sink: TelephonyEventSink;
  script?: Record<string, SimulatedOutcome>;
  defaultOutcome?: (phone: string) => SimulatedOutcome;
  delayMs?: number;
  clock?: Clock;
  /**
   * Simulated calls last their duration divided by this, in real time, and report what they
   * lasted: call.ended and report.ready are sent once the clock has reached the call's end, so
   * no time they carry is later than the moment they are sent. Unset (tests that drive time
   * themselves): all events are sent at once, timed from the call's start as scripted.
   */
  callSpeed?: number;
  /** Called when the sink rejects (or defaultOutcome throws); default ignores the error. */
  onError?: (error: unknown, event: TelephonyEvent | null) => void;
}

export interface SimulatedTelephony extends Telephony {
  /** Scripts the outcome of every later call to this phone (or clears it with null). */
  setScript(phone: string, outcome: SimulatedOutcome | null): void;
  /** Removes every scripted outcome. */
  clearScript(): void;
  /** The outcome a call to this phone would have now (script, else default). */
  outcomeFor(phone: string): SimulatedOutcome;
  /** Builds, without emitting, the events a call would produce. */
  eventsFor(request: PlaceCallRequest): TelephonyEvent[];
  /** Emits a call.inbound event (eventId `${callId}:inbound`, occurredAt = clock.now()), after delayMs. */
  simulateInbound(input: { callId: string; from: string; to?: string | null }): Promise<void>;
  /** Resolves when every call placed so far has emitted all its events. */
  settled(): Promise<void>;
  /** Calls placed so far, in order (for tests and the demo). */
  readonly placed: readonly PlaceCallRequest[];
}

/** Default end reasons per result (the provider's wording is free text; these are ours). */
const DEFAULT_END_REASONS: Record<CallResult, string> = {
  converted: 'assistant_ended_call',
  disqualified: 'assistant_ended_call',
  wrong_language: 'assistant_ended_call',
  not_interested: 'customer_ended_call',
  do_not_call: 'customer_ended_call',
  answered: 'customer_ended_call',
  contact_verified: 'assistant_ended_call',
  identified: 'assistant_ended_call',
  qualified: 'assistant_ended_call',
  callback_requested: 'assistant_ended_call',
  neutral_value_call: 'customer_ended_call',
  busy: 'busy',
  human_busy: 'customer_ended_call',
  no_answer: 'no_answer',
  voicemail: 'voicemail',
  ivr: 'ivr_detected',
  invalid_number: 'invalid_number',
  wrong_number: 'customer_ended_call',
  carrier_blocked: 'carrier_blocked',
  unknown: 'error',
  new: 'not_connected',
};

/** Default minutes from call end to the next attempt; results not listed get none (null). */
const DEFAULT_RETRY_MINUTES: Partial<Record<CallResult, number>> = {
  busy: 30,
  human_busy: 60,
  no_answer: 120,
  voicemail: 240,
  ivr: 120,
  unknown: 60,
  callback_requested: 24 * 60,
};

function digitsOf(phone: string): string {
  return phone.replace(/\D/g, '');
}

function scriptKey(phone: string): string {
  return `+${digitsOf(phone)}`;
}

/** A stable unsigned 32-bit number for (phone digits, salt). */
function hash32(phone: string, salt: string): number {
  return createHash('sha256')
    .update(`${salt}:${digitsOf(phone)}`)
    .digest()
    .readUInt32BE(0);
}

function inRange(phone: string, salt: string, min: number, max: number): number {
  return min + (hash32(phone, salt) % (max - min + 1));
}

/** Weighted table the default outcome picks from (weights out of 20). */
const DEFAULT_OUTCOME_TABLE: ReadonlyArray<readonly [CallResult, number]> = [
  ['answered', 6],
  ['no_answer', 5],
  ['voicemail', 4],
  ['converted', 3],
  ['busy', 2],
];
const DEFAULT_OUTCOME_WEIGHT = DEFAULT_OUTCOME_TABLE.reduce((sum, [, weight]) => sum + weight, 0);

/** Default duration for a result on this phone, deterministic. */
function defaultDurationSeconds(result: CallResult, phone: string): number {
  if (result === 'voicemail') return inRange(phone, 'duration', 15, 30);
  if (result === 'human_busy' || result === 'wrong_number') return inRange(phone, 'duration', 5, 15);
  if (result === 'ivr') return inRange(phone, 'duration', 10, 40);
  if (isConversationResult(result)) return inRange(phone, 'duration', 60, 240);
  return 0;
}

/**
 * The outcome of a call to an unscripted phone: a pure function of its digits, one of answered,
 * no_answer, voicemail, converted or busy, with a matching duration. No digits: invalid_number.
 */
export function defaultSimulatedOutcome(phone: string): SimulatedOutcome {
  if (digitsOf(phone).length === 0) return { result: 'invalid_number', durationSeconds: 0 };
  let pick = hash32(phone, 'result') % DEFAULT_OUTCOME_WEIGHT;
  let result: CallResult = DEFAULT_OUTCOME_TABLE[0][0];
  for (const [candidate, weight] of DEFAULT_OUTCOME_TABLE) {
    if (pick < weight) {
      result = candidate;
      break;
    }
    pick -= weight;
  }
  return { result, durationSeconds: defaultDurationSeconds(result, phone) };
}

type Line = readonly ['assistant' | 'user', string];

/** Transcript scripts per conversation result (English). */
const TRANSCRIPTS: Partial<Record<CallResult, readonly Line[]>> = {
  converted: [
    ['assistant', 'Hi, this is Alex calling from Contactline. Is now a good time for a quick chat?'],
    ['user', 'Sure, I have a couple of minutes.'],
    ['assistant', 'Great. I wanted to see if you would like a short demo with one of our specialists.'],
    ['user', 'That sounds useful, actually.'],
    ['assistant', 'Wonderful. Would Thursday at 10 AM work for you?'],
    ['user', 'Thursday at 10 works.'],
    ['assistant', "Perfect, you're booked for Thursday at 10 AM. You'll get a calendar invite by email."],
    ['user', 'Thanks, talk then.'],
  ],
  answered: [
    ['assistant', 'Hi, this is Alex calling from Contactline. Is now a good time for a quick chat?'],
    ['user', 'Hi, what is this about?'],
    ['assistant', 'We help teams reach their contacts faster. I wanted to share a little about how it works.'],
    ['user', 'Okay, I might look at it later.'],
    ['assistant', 'No problem at all. Thanks for your time, and have a great day.'],
  ],
  not_interested: [
    ['assistant', 'Hi, this is Alex calling from Contactline. Is now a good time for a quick chat?'],
    ['user', 'What is it about?'],
    ['assistant', 'I wanted to see if you would be interested in a short demo of our platform.'],
    ['user', "Thanks, but I'm not interested."],
    ['assistant', 'Understood, thank you for letting me know. Have a great day.'],
  ],
  do_not_call: [
    ['assistant', 'Hi, this is Alex calling from Contactline. Is now a good time for a quick chat?'],
    ['user', 'Please take me off your list and do not call this number again.'],
    ['assistant', "I'm sorry for the trouble. I've removed your number, and you won't be called again."],
  ],
  callback_requested: [
    ['assistant', 'Hi, this is Alex calling from Contactline. Is now a good time for a quick chat?'],
    ['user', "I'm in the middle of something. Can you call me back tomorrow?"],
    ['assistant', 'Of course. I will call you back tomorrow at about this time.'],
    ['user', 'Thanks, that works.'],
  ],
  disqualified: [
    ['assistant', 'Hi, this is Alex calling from Contactline. Do you manage outreach for your company?'],
    ['user', "No, I'm a student. I don't run a business."],
    ['assistant', "Thanks for clarifying. It sounds like this isn't a fit right now. Have a good day."],
  ],
  wrong_language: [
    ['assistant', 'Hi, this is Alex calling from Contactline. Is now a good time for a quick chat?'],
    ['user', 'Perdón, no hablo inglés.'],
    ['assistant', "I'm sorry, I can only continue in English today. We will reach out another way. Goodbye."],
  ],
  contact_verified: [
    ['assistant', 'Hi, this is Alex from Contactline. Am I speaking with the account owner?'],
    ['user', "Yes, that's me."],
    ['assistant', 'Thanks. Can you confirm this is still the best number to reach you?'],
    ['user', 'Yes, it is.'],
    ['assistant', 'Great, your details are confirmed. Thank you and have a nice day.'],
  ],
  identified: [
    ['assistant', 'Hi, this is Alex from Contactline. Who am I speaking with?'],
    ['user', 'This is the office manager.'],
    ['assistant', 'Thank you. I will note that down and follow up by email. Have a great day.'],
  ],
  qualified: [
    ['assistant', 'Hi, this is Alex from Contactline. How many people on your team make outbound calls?'],
    ['user', 'About twenty, and we are looking for a better tool.'],
    ['assistant', 'That is exactly what we help with. A specialist will reach out with next steps.'],
    ['user', 'Sounds good.'],
  ],
  neutral_value_call: [
    ['assistant', 'Hi, this is Alex from Contactline, just checking in on how things are going.'],
    ['user', 'Everything is fine, thanks.'],
    ['assistant', 'Glad to hear it. Have a great day.'],
  ],
  human_busy: [
    ['assistant', 'Hi, this is Alex calling from Contactline.'],
    ['user', "Sorry, I'm busy right now."],
    ['assistant', 'No problem, I will try another time. Goodbye.'],
  ],
  wrong_number: [
    ['assistant', 'Hi, this is Alex calling from Contactline. Am I speaking with the right person?'],
    ['user', 'No, you have the wrong number.'],
    ['assistant', 'Apologies for the mix-up. Have a good day.'],
  ],
};

/** The simulated transcript of a call: empty unless the result is a conversation. */
function simulatedTranscript(result: CallResult, startedAt: Date, durationSeconds: number): Utterance[] {
  if (!isConversationResult(result)) return [];
  const lines = TRANSCRIPTS[result] ?? TRANSCRIPTS.answered ?? [];
  const step = durationSeconds > 0 ? (durationSeconds * 1000) / lines.length : 0;
  return lines.map(([speaker, content], index) => ({
    speaker,
    content,
    timestamp: new Date(startedAt.getTime() + Math.floor(index * step)).toISOString(),
  }));
}

function checkOutcome(outcome: SimulatedOutcome): void {
  const { durationSeconds, nextAttemptInMinutes } = outcome;
  if (durationSeconds !== undefined && !(Number.isInteger(durationSeconds) && durationSeconds >= 0)) {
    throw new RangeError(`durationSeconds must be an integer >= 0, got ${durationSeconds}`);
  }
  if (nextAttemptInMinutes != null && !(Number.isFinite(nextAttemptInMinutes) && nextAttemptInMinutes >= 0)) {
    throw new RangeError(`nextAttemptInMinutes must be a number >= 0 or null, got ${nextAttemptInMinutes}`);
  }
}

/** The events a call with this outcome produces (pure; what the simulator emits). */
export function simulatedCallEvents(request: PlaceCallRequest, outcome: SimulatedOutcome): TelephonyEvent[] {
  const { callId, phone, startedAt } = request;
  const { result } = outcome;
  const durationSeconds = outcome.durationSeconds ?? defaultDurationSeconds(result, phone);
  const endedAt = new Date(startedAt.getTime() + durationSeconds * 1000);
  const conversation = isConversationResult(result);
  const retry =
    outcome.nextAttemptInMinutes !== undefined ? outcome.nextAttemptInMinutes : (DEFAULT_RETRY_MINUTES[result] ?? null);
  const language =
    outcome.language !== undefined ? outcome.language : conversation ? (request.language ?? 'en-US') : null;

  const ended: TelephonyEvent = {
    type: 'call.ended',
    eventId: `${callId}:ended`,
    callId,
    occurredAt: endedAt.toISOString(),
    result,
    endReason: outcome.endReason ?? DEFAULT_END_REASONS[result],
    durationSeconds,
    language,
    nextAttemptAt: retry === null ? null : new Date(endedAt.getTime() + Math.round(retry * 60_000)).toISOString(),
  };
  if (outcome.transferred) ended.transferred = true;
  if (outcome.testCall) ended.testCall = true;

  const events: TelephonyEvent[] = [
    { type: 'call.started', eventId: `${callId}:started`, callId, occurredAt: startedAt.toISOString() },
    ended,
  ];
  if (outcome.transcript !== false) {
    events.push({
      type: 'report.ready',
      eventId: `${callId}:report`,
      callId,
      occurredAt: endedAt.toISOString(),
      utterances: simulatedTranscript(result, startedAt, durationSeconds),
    });
  }
  return events;
}

export function createSimulatedTelephony(options: SimulatedTelephonyOptions): SimulatedTelephony {
  const { sink } = options;
  const delayMs = options.delayMs ?? 0;
  if (!(Number.isFinite(delayMs) && delayMs >= 0)) throw new RangeError(`delayMs must be >= 0, got ${delayMs}`);
  if (options.callSpeed !== undefined && !(options.callSpeed > 0))
    throw new RangeError(`callSpeed must be > 0, got ${options.callSpeed}`);
  const clock = options.clock ?? systemClock;
  const reportError = options.onError ?? (() => {});
  /** An onError that throws must not reach the caller nor stop the remaining events. */
  const onError = (error: unknown, event: TelephonyEvent | null): void => {
    try {
      reportError(error, event);
    } catch {
      // ignored
    }
  };
  const defaultOutcome = options.defaultOutcome ?? defaultSimulatedOutcome;
  const script = new Map<string, SimulatedOutcome>();
  const pending = new Set<Promise<void>>();
  const placed: PlaceCallRequest[] = [];

  for (const [phone, outcome] of Object.entries(options.script ?? {})) {
    checkOutcome(outcome);
    script.set(scriptKey(phone), { ...outcome });
  }

  function outcomeFor(phone: string): SimulatedOutcome {
    if (digitsOf(phone).length === 0) return defaultSimulatedOutcome(phone);
    return script.get(scriptKey(phone)) ?? defaultOutcome(phone);
  }

  /**
   * Runs `build` after delayMs and delivers its events one by one, each no earlier than
   * `notBefore(event)` ms after that (0 when unset); never rejects.
   */
  function schedule(build: () => TelephonyEvent[], notBefore: (event: TelephonyEvent) => number = () => 0): void {
    const run = new Promise<void>((resolve) => {
      setTimeout(() => {
        void (async () => {
          let events: TelephonyEvent[];
          try {
            events = build();
          } catch (error) {
            onError(error, null);
            return;
          }
          for (const event of events) {
            // Asked again after each wait: a timer may fire a millisecond before the clock
            // reads its end (timers and Date.now round differently), and no event may carry a
            // time later than when it is sent.
            for (let wait = notBefore(event); wait > 0; wait = notBefore(event))
              await new Promise((r) => setTimeout(r, wait));
            try {
              await sink(event);
            } catch (error) {
              onError(error, event);
            }
          }
        })().finally(resolve);
      }, delayMs);
    });
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  return {
    placed,
    async placeCall(request) {
      const snapshot: PlaceCallRequest = { ...request, startedAt: new Date(request.startedAt.getTime()) };
      placed.push(snapshot);
      // The outcome is chosen when the call is placed, so a later setScript does not change it.
      let outcome: SimulatedOutcome;
      try {
        outcome = outcomeFor(snapshot.phone);
        checkOutcome(outcome);
      } catch (error) {
        onError(error, null);
        outcome = { result: 'unknown', durationSeconds: 0 };
      }
      if (options.callSpeed === undefined) {
        const chosen = outcome;
        schedule(() => simulatedCallEvents(snapshot, chosen));
        return;
      }
      // A paced call lasts its scaled duration: its end (and report) wait until the clock has
      // passed it, and carry the duration it really lasted.
      const lasted = Math.round(
        (outcome.durationSeconds ?? defaultDurationSeconds(outcome.result, snapshot.phone)) / options.callSpeed,
      );
      const paced: SimulatedOutcome = { ...outcome, durationSeconds: lasted };
      const endsAt = snapshot.startedAt.getTime() + lasted * 1000;
      schedule(
        () => simulatedCallEvents(snapshot, paced),
        (event) => (event.type === 'call.started' ? 0 : endsAt - clock.now().getTime()),
      );
    },
    setScript(phone, outcome) {
      if (outcome === null) {
        script.delete(scriptKey(phone));
        return;
      }
      checkOutcome(outcome);
      script.set(scriptKey(phone), { ...outcome });
    },
    clearScript() {
      script.clear();
    },
    outcomeFor,
    eventsFor(request) {
      return simulatedCallEvents(request, outcomeFor(request.phone));
    },
    async simulateInbound({ callId, from, to = null }) {
      const occurredAt = clock.now().toISOString();
      schedule(() => [{ type: 'call.inbound', eventId: `${callId}:inbound`, callId, occurredAt, from, to }]);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
