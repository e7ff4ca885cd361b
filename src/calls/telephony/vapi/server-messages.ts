// Vapi server messages (`{ "message": { "type": …, "call": {…}, … } }`, docs.vapi.ai/server-url/events)
// onto the port's events. Event ids are deterministic (`${callId}:started|ended|report|inbound`),
// so a redelivered or repeated message collapses into a duplicate at the consumer.
//
//   status-update in-progress   → call.started (occurredAt: call.startedAt, else the message time)
//   end-of-call-report          → call.ended, then report.ready (transcript, recording URL)
//   any message of an inbound call (call.type inboundPhoneCall), and assistant-request
//                               → call.inbound first (same id every time), with our call id
//                                 derived from Vapi's (callIdForProviderCall)
//   anything else               → no events
// status-update `ended` is not used: it comes before the end-of-call-report, which carries the
// analysis; emitting call.ended from it would make the analysed one a duplicate.
// A call of ours Vapi refused for capacity before dialling it (ended reason
// call.start.error-subscription-concurrency-limit-reached, the not_placed rule of
// ./ended-reasons.ts) has no events: notPlacedOfMessage names it instead, from its status-update
// `ended` or its end-of-call-report (either may be the one that arrives), so that it is withdrawn
// without counting an attempt.
//
// A call read back with GET /call/{id} (its final report never came) is mapped by the same rules:
// eventsOfEndedCall builds the two messages that call would have sent (status-update in-progress
// when it connected, and the end-of-call-report, whose endedReason, startedAt, endedAt, artifact
// and analysis "can also be found at call.<field> on GET /call/:id", as the SDK's types say) and
// maps them with eventsOfServerMessage, so the events and their ids are those of the webhooks.
import type { Vapi } from '@vapi-ai/server-sdk';
import { isConversationResult, MAX_UTTERANCE_CHARS, MAX_UTTERANCES, type Utterance } from '../telephony.port.js';
import { callIdForProviderCall, type NotPlacedCall, type ProviderEvent } from '../voice-provider.port.js';
import { readCallAnalysis } from './analysis.js';
import { resultForEndedCall } from './call-result.js';
import { ourCallIdOf } from './create-call-request.js';
import { isNotPlacedReason, isTransferredReason } from './ended-reasons.js';

/** What the messages we read have in common (the SDK types each message separately). */
type AnyServerMessage = {
  type?: string;
  call?: Vapi.Call;
  customer?: Vapi.CreateCustomerDto;
  phoneNumber?: unknown;
  timestamp?: number;
  /** On status-update `ended` and the end-of-call-report. */
  endedReason?: string;
};

const TEST_CALL_TYPES: ReadonlySet<string> = new Set(['webCall', 'vapi.websocketCall']);

/** Our call id for the message's call: ours from the metadata, else one derived from Vapi's id; null without a call. */
export function callIdOfMessage(message: AnyServerMessage): string | null {
  const call = message.call;
  if (!call?.id) return null;
  return ourCallIdOf(call) ?? (call.type === 'inboundPhoneCall' ? callIdForProviderCall('vapi', call.id) : null);
}

function isoOrNull(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const time = new Date(value).getTime();
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** The message's own time (epoch milliseconds), else the time it was received. */
function messageTime(message: AnyServerMessage, now: Date): string {
  return isoOrNull(message.timestamp) ?? now.toISOString();
}

/** A phone number object's E.164 `number` (Vapi types each number provider separately; some have none). */
function numberOf(phoneNumber: unknown): string | null {
  const number = (phoneNumber as { number?: unknown } | null | undefined)?.number;
  return typeof number === 'string' && number.length > 0 ? number : null;
}

function inboundEvent(message: AnyServerMessage, call: Vapi.Call, callId: string, now: Date): ProviderEvent {
  const from = call.customer?.number ?? message.customer?.number ?? call.customer?.sipUri ?? 'unknown';
  const to = numberOf(message.phoneNumber) ?? numberOf(call.phoneNumber);
  return {
    type: 'call.inbound',
    eventId: `${callId}:inbound`,
    callId,
    occurredAt: isoOrNull(call.createdAt) ?? messageTime(message, now),
    from,
    to,
    providerCallId: call.id,
  };
}

/** Transcript lines of the assistant and the contact (Vapi's role is `bot` or `assistant`, and `user`). */
export function utterancesOf(
  messages: readonly Vapi.ArtifactMessagesItem[] | undefined,
  startedAt: string | null,
): Utterance[] {
  const utterances: Utterance[] = [];
  for (const item of messages ?? []) {
    const line = item as { role?: string; message?: unknown; time?: unknown; secondsFromStart?: unknown };
    const speaker =
      line.role === 'user' ? 'user' : line.role === 'bot' || line.role === 'assistant' ? 'assistant' : null;
    if (!speaker || typeof line.message !== 'string') continue;
    utterances.push({
      speaker,
      content: line.message.slice(0, MAX_UTTERANCE_CHARS),
      timestamp: lineTime(line, startedAt),
    });
    if (utterances.length === MAX_UTTERANCES) break;
  }
  return utterances;
}

/** A line's `time` is epoch milliseconds; small values (seen in examples) are read as seconds from the start. */
function lineTime(line: { time?: unknown; secondsFromStart?: unknown }, startedAt: string | null): string {
  if (typeof line.time === 'number' && line.time > 1e11) return new Date(line.time).toISOString();
  const seconds =
    typeof line.secondsFromStart === 'number' ? line.secondsFromStart : typeof line.time === 'number' ? line.time : 0;
  const start = startedAt ? new Date(startedAt).getTime() : 0;
  return new Date(start + Math.round(seconds * 1000)).toISOString();
}

function durationSeconds(startedAt: string | null, endedAt: string | null): number {
  if (!startedAt || !endedAt) return 0;
  return Math.max(0, Math.round((new Date(endedAt).getTime() - new Date(startedAt).getTime()) / 1000));
}

function stringVariable(call: Vapi.Call | undefined, name: string): string | null {
  const value = call?.assistantOverrides?.variableValues?.[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : null;
}

function endOfCallEvents(report: Vapi.ServerMessageEndOfCallReport, callId: string, now: Date): ProviderEvent[] {
  const call = report.call;
  const startedAt = isoOrNull(report.startedAt ?? call?.startedAt);
  const endedAt = isoOrNull(report.endedAt ?? call?.endedAt) ?? messageTime(report, now);
  const endedReason = String(report.endedReason ?? call?.endedReason ?? 'unknown');
  const utterances = utterancesOf(report.artifact?.messages ?? call?.artifact?.messages, startedAt);
  const analysis = readCallAnalysis(report);
  const outcome = resultForEndedCall({
    endedReason,
    started: startedAt !== null,
    contactSpoke: utterances.some((u) => u.speaker === 'user'),
    analysis,
    endedAt: new Date(endedAt),
  });
  // Refused for capacity before it was put through: a call of ours is named by
  // notPlacedOfMessage instead (the adapter maps no events for it); an inbound caller who could
  // not get through still made a call to record, in which nobody talked (`new`).
  const result = outcome.kind === 'ended' ? outcome.result : 'new';
  const nextAttemptAt = outcome.kind === 'ended' ? outcome.nextAttemptAt : null;
  const providerCallId = call?.id;
  return [
    {
      type: 'call.ended',
      eventId: `${callId}:ended`,
      callId,
      occurredAt: endedAt,
      result,
      endReason: endedReason.slice(0, 256),
      durationSeconds: durationSeconds(startedAt, endedAt),
      // The analysed language, else the language the call started in (our variable) when the contact talked.
      language: analysis.language ?? (isConversationResult(result) ? stringVariable(call, 'language') : null),
      nextAttemptAt,
      ...(isTransferredReason(endedReason) ? { transferred: true } : {}),
      ...(call?.type && TEST_CALL_TYPES.has(call.type) ? { testCall: true } : {}),
      providerCallId,
    },
    {
      type: 'report.ready',
      eventId: `${callId}:report`,
      callId,
      occurredAt: endedAt,
      utterances,
      recordingUrl: report.artifact?.recordingUrl ?? report.artifact?.recording?.mono?.combinedUrl ?? null,
      providerCallId,
    },
  ];
}

/**
 * The call a message reports Vapi refused for capacity before dialling it (status-update
 * `ended` or end-of-call-report with the not_placed ended reason), else null. Only a call we
 * placed (our id in its metadata).
 */
export function notPlacedOfMessage(message: AnyServerMessage): NotPlacedCall | null {
  const ends =
    message.type === 'end-of-call-report' ||
    (message.type === 'status-update' && (message as Vapi.ServerMessageStatusUpdate).status === 'ended');
  const call = message.call;
  const reason = message.endedReason ?? call?.endedReason;
  if (!ends || !call?.id || !isNotPlacedReason(reason)) return null;
  const callId = ourCallIdOf(call);
  return callId ? { callId, providerCallId: call.id, reason: String(reason) } : null;
}

/** The port events one authenticated server message carries (possibly none). */
export function eventsOfServerMessage(message: AnyServerMessage, now: Date): ProviderEvent[] {
  const callId = callIdOfMessage(message);
  if (!callId || !message.call) return [];
  const events: ProviderEvent[] = [];
  if (message.call.type === 'inboundPhoneCall' || message.type === 'assistant-request')
    events.push(inboundEvent(message, message.call, callId, now));

  if (message.type === 'status-update' && (message as Vapi.ServerMessageStatusUpdate).status === 'in-progress') {
    events.push({
      type: 'call.started',
      eventId: `${callId}:started`,
      callId,
      occurredAt: isoOrNull(message.call.startedAt) ?? messageTime(message, now),
      providerCallId: message.call.id,
    });
  }
  if (message.type === 'end-of-call-report')
    events.push(...endOfCallEvents(message as Vapi.ServerMessageEndOfCallReport, callId, now));
  return events;
}

/**
 * The events of an ended call read with GET /call/{id}, as its messages would have carried them:
 * status-update in-progress (when it connected), then the end-of-call-report, built from the call.
 */
export function eventsOfEndedCall(call: Vapi.Call, now: Date): ProviderEvent[] {
  const messages: AnyServerMessage[] = [];
  if (call.startedAt) {
    const inProgress: Vapi.ServerMessageStatusUpdate = {
      type: 'status-update',
      status: 'in-progress',
      call,
      timestamp: Date.parse(call.startedAt),
    };
    messages.push(inProgress);
  }
  const report: Vapi.ServerMessageEndOfCallReport = {
    type: 'end-of-call-report',
    call,
    endedReason: call.endedReason as Vapi.ServerMessageEndOfCallReportEndedReason,
    artifact: call.artifact ?? {},
    analysis: call.analysis ?? {},
    ...(call.startedAt ? { startedAt: call.startedAt } : {}),
    ...(call.endedAt ? { endedAt: call.endedAt } : {}),
    ...(call.destination ? { destination: call.destination as Vapi.ServerMessageEndOfCallReportDestination } : {}),
  };
  messages.push(report);
  // An inbound call's call.inbound comes with each message, under one id: keep the first.
  const events = messages.flatMap((message) => eventsOfServerMessage(message, now));
  return events.filter((event, index) => events.findIndex((e) => e.eventId === event.eventId) === index);
}
