// An authenticated Retell webhook as port events.
//
// Retell POSTs `{ "event": …, "call": <call object> }` ("Webhook overview"): `call_started` when
// a call connects (never for a call that did not), `call_ended` when it ends (every field but
// the analysis), `call_analyzed` when the post-call analysis is done (the full call, also for
// calls that never connected). Each is retried up to 3 times and may arrive out of order.
//
// Each webhook is mapped on its own, with event ids that depend only on the call, so any
// redelivery or overlap collapses at the consumer:
//   `${callId}:inbound`  every webhook of an inbound call (the first to arrive creates the call)
//   `${callId}:started`  every webhook of a connected call, at its start_timestamp
//   `${callId}:ended`    call_ended when the reason alone gives the result (busy, no answer…);
//                        call_analyzed always (the same event again, or the first one for a
//                        conversation, whose result needs the analysis)
//   `${callId}:report`   call_ended and call_analyzed (the transcript is on both)
// A call Retell refused for capacity yields no events: it was never dialled (see ended-reasons.ts).
// notPlacedOfPayload names it instead, so that the call is withdrawn at once (not an attempt) and
// its contact is due again shortly, rather than it staying queued until the sweep of unreported
// calls asks Retell about it.
import type { PhoneCallResponse } from 'retell-sdk/resources/call';
import { callIdForProviderCall, type NotPlacedCall, type ProviderEvent } from '../voice-provider.port.js';
import { isConversationResult } from '../telephony.port.js';
import { callbackTime, readAnalysis, type ContactlineAnalysis } from './analysis.js';
import { CONTACT_VARIABLES, WEBHOOK_EVENTS } from './create-call-request.js';
import { classifyEnded, isNotPlaced } from './ended-reasons.js';
import { connected, isoFromEpochMs, ourCallIdOf, type RetellCall } from './retell-call.js';
import { utterancesOf } from './transcript.js';

type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface RetellWebhookPayload {
  event: WebhookEvent;
  call: RetellCall;
}

/** The payload when it is one of the events we read, about a call; null otherwise. */
export function parsePayload(body: string): RetellWebhookPayload | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { event, call } = parsed as { event?: unknown; call?: unknown };
  if (typeof event !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(event)) return null;
  if (typeof call !== 'object' || call === null || typeof (call as { call_id?: unknown }).call_id !== 'string')
    return null;
  return { event: event as WebhookEvent, call: call as RetellCall };
}

function isInbound(call: RetellCall): call is PhoneCallResponse {
  return call.call_type === 'phone_call' && call.direction === 'inbound';
}

/** Our call id: the metadata's, else (inbound calls) one derived from Retell's call id. */
function callIdFor(call: RetellCall): string | null {
  return ourCallIdOf(call) ?? (isInbound(call) ? callIdForProviderCall('retell', call.call_id) : null);
}

function durationSeconds(call: RetellCall): number {
  if (typeof call.duration_ms === 'number' && Number.isFinite(call.duration_ms))
    return Math.max(0, Math.round(call.duration_ms / 1000));
  if (typeof call.start_timestamp === 'number' && typeof call.end_timestamp === 'number') {
    return Math.max(0, Math.round((call.end_timestamp - call.start_timestamp) / 1000));
  }
  return 0;
}

/** The language we asked the agent to start in (our `language` dynamic variable), if any. */
function requestedLanguage(call: RetellCall): string | null {
  const value = call.retell_llm_dynamic_variables?.[CONTACT_VARIABLES.language];
  return typeof value === 'string' && value !== '' ? value : null;
}

function endedEvent(
  call: RetellCall,
  callId: string,
  analysis: ContactlineAnalysis | 'pending',
  endedAt: string,
): ProviderEvent | null {
  const classified = classifyEnded({
    disconnectionReason: call.disconnection_reason,
    connected: connected(call),
    analysis,
  });
  if (classified.kind !== 'ended') return null;
  const { result } = classified;
  const known = analysis === 'pending' ? null : analysis;
  const nextAttempt =
    result === 'callback_requested' ? callbackTime(known?.callbackAt ?? null, new Date(endedAt)) : null;
  const event: ProviderEvent = {
    type: 'call.ended',
    eventId: `${callId}:ended`,
    callId,
    occurredAt: endedAt,
    result,
    endReason: (call.disconnection_reason ?? call.call_status ?? 'unknown').slice(0, 256),
    durationSeconds: durationSeconds(call),
    language: isConversationResult(result) ? (known?.language ?? requestedLanguage(call)) : null,
    nextAttemptAt: nextAttempt ? nextAttempt.toISOString() : null,
    providerCallId: call.call_id,
  };
  if (classified.transferred) event.transferred = true;
  if (call.call_type === 'web_call') event.testCall = true;
  return event;
}

function reportEvent(call: RetellCall, callId: string, endedAt: string): ProviderEvent | null {
  if (call.transcript_object === undefined && !call.recording_url) return null;
  const startMs = call.start_timestamp ?? new Date(endedAt).getTime();
  return {
    type: 'report.ready',
    eventId: `${callId}:report`,
    callId,
    occurredAt: endedAt,
    utterances: utterancesOf(call.transcript_object, startMs),
    providerCallId: call.call_id,
    recordingUrl: call.recording_url ?? null,
  };
}

/**
 * The call a webhook reports Retell refused for capacity before dialling it (call_ended and
 * call_analyzed of a call in status "error" for `concurrency_limit_reached`…), else null. Only
 * a call we placed (our id in its metadata): an inbound call refused for capacity was never ours.
 */
export function notPlacedOfPayload(payload: RetellWebhookPayload): NotPlacedCall | null {
  const { call } = payload;
  if (payload.event === 'call_started' || !isNotPlaced(call.disconnection_reason)) return null;
  const callId = ourCallIdOf(call);
  if (!callId) return null;
  return { callId, providerCallId: call.call_id, reason: String(call.disconnection_reason) };
}

/** The port events one authenticated webhook carries. */
export function eventsOfPayload(payload: RetellWebhookPayload, now: Date): ProviderEvent[] {
  const { event, call } = payload;
  if (isNotPlaced(call.disconnection_reason)) return [];
  const callId = callIdFor(call);
  if (!callId) return [];
  const nowIso = now.toISOString();
  const startedAt = isoFromEpochMs(call.start_timestamp);
  const events: ProviderEvent[] = [];

  if (isInbound(call)) {
    events.push({
      type: 'call.inbound',
      eventId: `${callId}:inbound`,
      callId,
      occurredAt: startedAt ?? nowIso,
      // A caller with a withheld number still makes a call the port can record.
      from: call.from_number || 'anonymous',
      to: call.to_number || null,
      providerCallId: call.call_id,
    });
  }
  if (event === 'call_started' || (startedAt !== null && connected(call))) {
    events.push({
      type: 'call.started',
      eventId: `${callId}:started`,
      callId,
      occurredAt: startedAt ?? nowIso,
      providerCallId: call.call_id,
    });
  }
  if (event === 'call_started') return events;

  const endedAt = isoFromEpochMs(call.end_timestamp) ?? startedAt ?? nowIso;
  // call_analyzed without an analysis object (analysis off or failed) still ends the call: fallbacks apply.
  const analysis = event === 'call_analyzed' ? readAnalysis(call.call_analysis) : 'pending';
  const ended = endedEvent(call, callId, analysis, endedAt);
  if (ended) events.push(ended);
  const report = reportEvent(call, callId, endedAt);
  if (report) events.push(report);
  return events;
}
