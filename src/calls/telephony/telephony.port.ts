// The Telephony port: how the dialer places calls, and the events a telephony adapter reports
// back (through a sink). Two adapters sit behind it: the deterministic simulator (default,
// offline; ./simulator.adapter.ts) and a real provider that POSTs signed events (./signature.ts) which
// are validated with TelephonyEventSchema before they reach the same sink.
//
// The 21 call results a call can end with, `converted` first. What each does to the contact:
// src/domain/calls/call-outcome.rules.ts; its default board label: src/domain/boards/status-labels.ts.
import { z } from 'zod';

export const CALL_RESULTS = [
  'converted',
  'disqualified',
  'wrong_language',
  'not_interested',
  'do_not_call',
  'answered',
  'contact_verified',
  'identified',
  'qualified',
  'callback_requested',
  'neutral_value_call',
  'busy',
  'human_busy',
  'no_answer',
  'voicemail',
  'ivr',
  'invalid_number',
  'wrong_number',
  'carrier_blocked',
  'unknown',
  'new',
] as const;
export type CallResult = (typeof CALL_RESULTS)[number];

export interface PlaceCallRequest {
  callId: string;
  phone: string;
  agentId: string;
  workflowId: string;
  contactId: string;
  language: string | null;
  startedAt: Date;
}

export interface Utterance {
  speaker: 'assistant' | 'user';
  content: string;
  timestamp: string;
}

export type TelephonyEvent =
  | { type: 'call.started'; eventId: string; callId: string; occurredAt: string }
  | {
      type: 'call.ended';
      eventId: string;
      callId: string;
      occurredAt: string;
      result: CallResult;
      endReason: string;
      durationSeconds: number;
      language: string | null;
      nextAttemptAt: string | null;
      transferred?: boolean;
      testCall?: boolean;
    }
  | { type: 'report.ready'; eventId: string; callId: string; occurredAt: string; utterances: Utterance[] }
  | { type: 'call.inbound'; eventId: string; callId: string; occurredAt: string; from: string; to: string | null };

export type TelephonyEventType = TelephonyEvent['type'];
export type TelephonyEventOf<T extends TelephonyEventType> = Extract<TelephonyEvent, { type: T }>;

/** Places calls. Resolves once the call is accepted; its outcome arrives later as events on a sink. */
export interface Telephony {
  placeCall(request: PlaceCallRequest): Promise<void>;
}

/** Receives events from an adapter. The consumer de-duplicates by eventId (delivery is at least once). */
export type TelephonyEventSink = (event: TelephonyEvent) => Promise<void>;

// ---------------------------------------------------------------------------------------------
// Validation of incoming provider events (POST /api/telephony/events, after the signature check).

export const MAX_UTTERANCES = 2000;
export const MAX_UTTERANCE_CHARS = 10_000;

/** ISO 8601 date-time with Z or an explicit offset; kept as the string that was sent. */
const dateTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset' });
const id = z.string().min(1).max(256);

const base = { eventId: id, callId: id, occurredAt: dateTime };

const callStarted = z.strictObject({ type: z.literal('call.started'), ...base });

const callEnded = z.strictObject({
  type: z.literal('call.ended'),
  ...base,
  result: z.enum(CALL_RESULTS),
  endReason: z.string().max(256),
  durationSeconds: z.int().min(0),
  language: z.string().max(64).nullable(),
  nextAttemptAt: dateTime.nullable(),
  transferred: z.boolean().optional(),
  testCall: z.boolean().optional(),
});

const utterance = z.strictObject({
  speaker: z.enum(['assistant', 'user']),
  content: z.string().max(MAX_UTTERANCE_CHARS),
  timestamp: dateTime,
});

const reportReady = z.strictObject({
  type: z.literal('report.ready'),
  ...base,
  utterances: z.array(utterance).max(MAX_UTTERANCES),
});

const callInbound = z.strictObject({
  type: z.literal('call.inbound'),
  ...base,
  from: z.string().min(1).max(64),
  to: z.string().min(1).max(64).nullable(),
});

export const TelephonyEventSchema = z.discriminatedUnion('type', [callStarted, callEnded, reportReady, callInbound]);

// Compile-time check that the schema and the hand-written union describe the same values.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<z.output<typeof TelephonyEventSchema>, TelephonyEvent> = true;
void schemaMatchesType;

export type ParseTelephonyEventResult =
  | { ok: true; event: TelephonyEvent }
  | { ok: false; issues: Array<{ path: string; message: string }> };

/** Validates an already JSON-parsed provider event; issues have dotted paths (e.g. `utterances.3.content`). */
export function parseTelephonyEvent(input: unknown): ParseTelephonyEventResult {
  const parsed = TelephonyEventSchema.safeParse(input);
  if (parsed.success) return { ok: true, event: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
  };
}

// ---------------------------------------------------------------------------------------------
// Result classification shared by adapters and consumers.

/**
 * Results where a person picked up and talked with the agent (the default board labels Booked,
 * Unqualified, Not interested and Answered, in status-labels.ts), plus human_busy and wrong_number,
 * where a person answered briefly. These calls have a transcript.
 */
export const CONVERSATION_RESULTS = [
  'converted',
  'disqualified',
  'wrong_language',
  'not_interested',
  'do_not_call',
  'answered',
  'contact_verified',
  'identified',
  'qualified',
  'callback_requested',
  'neutral_value_call',
  'human_busy',
  'wrong_number',
] as const satisfies readonly CallResult[];

const conversationSet: ReadonlySet<CallResult> = new Set(CONVERSATION_RESULTS);

export function isConversationResult(result: CallResult): boolean {
  return conversationSet.has(result);
}
