// The server messages Vapi sends during a call's life, built with the SDK's own types so that
// the compiler checks their shapes (docs.vapi.ai/server-url/events; SDK types ServerMessage*).
//
// An outbound call that was dialled sends, in this order:
//   status-update ringing → status-update in-progress (when picked up) → status-update ended
//   (with endedReason) → end-of-call-report (after the post-call analysis).
// A call refused before dialling (call.start.*) sends only status-update ended and the report.
// Each message carries the call object as GET /call/{id} would return it at that moment.
import type { Vapi } from '@vapi-ai/server-sdk';
import { connectedByDefault, type VapiCallScript } from './state.js';

export const DEFAULT_SCRIPT: VapiCallScript = { endedReason: 'customer-ended-call' };
export const DEFAULT_ANALYSIS_OUTPUT_NAME = 'contactline_call_outcome';
const DEFAULT_TRANSCRIPT: VapiCallScript['transcript'] = [
  { role: 'assistant', message: 'Hi, this is Ava calling from Contactline. Do you have a minute?' },
  { role: 'user', message: 'Sure, go ahead.' },
];

/** Vapi's default serverMessages (CreateAssistantDTO), used when the call sets none. */
export const DEFAULT_SERVER_MESSAGES = [
  'conversation-update',
  'end-of-call-report',
  'function-call',
  'hang',
  'speech-update',
  'status-update',
  'tool-calls',
  'transfer-destination-request',
  'handoff-destination-request',
  'user-interrupted',
  'assistant.started',
];

/**
 * How a call's life is timed, from its creation (POST /call) on the emulator's clock: it rings
 * 1 s later, is picked up 4 s after creation (startedAt), talks for the scripted duration and
 * ends (endedAt); a dialled call nobody picked up ends 25 s after creation; a call refused
 * before dialling (call.start.*) 0.5 s after it, or at its creation when it was already ended
 * then (the concurrency block). The end-of-call-report follows the end after the post-call
 * analysis (ANALYSIS_MS): finishCall sends the call's messages only once the clock has reached it.
 */
export const RINGING_AFTER_MS = 1_000;
export const PICK_UP_AFTER_MS = 4_000;
export const UNANSWERED_AFTER_MS = 25_000;
export const NOT_DIALLED_AFTER_MS = 500;
export const ANALYSIS_MS = 3_000;
export const DEFAULT_DURATION_SECONDS = 42;
/** Transcript lines: the first 1 s after pick-up, one every 4 s, each 3 s long. */
const FIRST_LINE_S = 1;
const LINE_EVERY_S = 4;
const LINE_MS = 3_000;

export interface CallTimeline {
  createdAt: Date;
  ringingAt: Date;
  startedAt: Date | null;
  endedAt: Date;
  /** When the end-of-call-report is sent: the end plus the post-call analysis. */
  reportAt: Date;
  dialled: boolean;
  connected: boolean;
}

export function timelineFor(call: Vapi.Call, script: VapiCallScript): CallTimeline {
  const createdAt = new Date(call.createdAt);
  const created = createdAt.getTime();
  const dialled = !script.endedReason.startsWith('call.start.');
  const connected = dialled && (script.connected ?? connectedByDefault(script.endedReason));
  const ringingAt = new Date(created + RINGING_AFTER_MS);
  const startedAt = connected ? new Date(created + PICK_UP_AFTER_MS) : null;
  const durationSeconds = script.durationSeconds ?? DEFAULT_DURATION_SECONDS;
  // A call that ended when it was created (blocked at the concurrency limit) keeps that end.
  const endedAt = call.endedAt
    ? new Date(call.endedAt)
    : startedAt
      ? new Date(startedAt.getTime() + durationSeconds * 1000)
      : new Date(created + (dialled ? UNANSWERED_AFTER_MS : NOT_DIALLED_AFTER_MS));
  if (startedAt) {
    const lines = (script.transcript ?? DEFAULT_TRANSCRIPT ?? []).length;
    const talkMs = lines === 0 ? 0 : (FIRST_LINE_S + (lines - 1) * LINE_EVERY_S) * 1000 + LINE_MS;
    if (startedAt.getTime() + talkMs > endedAt.getTime()) {
      throw new Error(
        `vapi emulator: ${lines} transcript lines take ${talkMs / 1000} s, longer than the call (durationSeconds ${durationSeconds}); script a longer call`,
      );
    }
  }
  return {
    createdAt,
    ringingAt,
    startedAt,
    endedAt,
    reportAt: new Date(endedAt.getTime() + ANALYSIS_MS),
    dialled,
    connected,
  };
}

function artifactMessages(script: VapiCallScript, timeline: CallTimeline): Vapi.ArtifactMessagesItem[] {
  if (!timeline.startedAt) return [];
  const start = timeline.startedAt.getTime();
  const lines = script.transcript ?? DEFAULT_TRANSCRIPT ?? [];
  const system: Vapi.SystemMessage = {
    role: 'system',
    message: 'You are Ava, calling {{firstName}} for Contactline.',
    time: start,
    secondsFromStart: 0,
  };
  return [
    system,
    ...lines.map((line, index): Vapi.UserMessage | Vapi.BotMessage => {
      const secondsFromStart = FIRST_LINE_S + index * LINE_EVERY_S;
      const time = start + secondsFromStart * 1000;
      return {
        role: line.role === 'user' ? 'user' : (script.botRole ?? 'bot'),
        message: line.message,
        time,
        endTime: time + LINE_MS,
        secondsFromStart,
        duration: LINE_MS,
      };
    }),
  ];
}

function flatTranscript(script: VapiCallScript, connected: boolean): string {
  if (!connected) return '';
  return (script.transcript ?? DEFAULT_TRANSCRIPT ?? [])
    .map((l) => `${l.role === 'user' ? 'User' : 'AI'}: ${l.message}`)
    .join('\n');
}

export function artifactFor(call: Vapi.Call, script: VapiCallScript, timeline: CallTimeline): Vapi.Artifact {
  const recordingUrl =
    script.recordingUrl !== undefined
      ? script.recordingUrl
      : timeline.connected
        ? `https://storage.vapi.ai/${call.id}-mono.wav`
        : null;
  const artifact: Vapi.Artifact = {
    messages: artifactMessages(script, timeline),
    transcript: flatTranscript(script, timeline.connected),
  };
  if (recordingUrl) {
    artifact.recordingUrl = recordingUrl;
    artifact.stereoRecordingUrl = recordingUrl.replace('-mono', '-stereo');
    artifact.recording = { mono: { combinedUrl: recordingUrl }, stereoUrl: artifact.stereoRecordingUrl };
  }
  if (script.analysis && (script.analysisVia ?? 'structured-output') === 'structured-output') {
    artifact.structuredOutputs = {
      '5f0e2a8c-1b7d-4c39-9a51-3e8f6d2b7c10': {
        name: script.analysisOutputName ?? DEFAULT_ANALYSIS_OUTPUT_NAME,
        result: script.analysis,
      },
    };
  }
  return artifact;
}

export function analysisFor(script: VapiCallScript, timeline: CallTimeline): Vapi.Analysis {
  return {
    summary: timeline.connected ? 'The assistant introduced itself and the customer replied.' : '',
    ...(script.analysis && script.analysisVia === 'structured-data' ? { structuredData: script.analysis } : {}),
  };
}

/** What most messages carry besides their own fields: the call, the customer and our number. */
function common(call: Vapi.Call, ourNumber: string) {
  return {
    call,
    customer: call.customer,
    phoneNumber: {
      provider: 'twilio' as const,
      number: ourNumber,
      twilioAccountSid: 'AC00000000000000000000000000000000',
    },
  };
}

export function statusUpdate(
  call: Vapi.Call,
  status: Vapi.ServerMessageStatusUpdateStatus,
  ourNumber: string,
  at: Date,
  endedReason?: string,
): Vapi.ServerMessage {
  const message: Vapi.ServerMessageStatusUpdate = {
    type: 'status-update',
    status,
    timestamp: at.getTime(),
    ...common(call, ourNumber),
    ...(endedReason ? { endedReason: endedReason as Vapi.ServerMessageStatusUpdateEndedReason } : {}),
  };
  return { message };
}

export function endOfCallReport(call: Vapi.Call, ourNumber: string, at: Date): Vapi.ServerMessage {
  const message: Vapi.ServerMessageEndOfCallReport = {
    type: 'end-of-call-report',
    endedReason: call.endedReason as Vapi.ServerMessageEndOfCallReportEndedReason,
    timestamp: at.getTime(),
    cost: 0.12,
    artifact: call.artifact ?? {},
    analysis: call.analysis ?? {},
    ...(call.startedAt ? { startedAt: call.startedAt } : {}),
    ...(call.endedAt ? { endedAt: call.endedAt } : {}),
    ...(call.destination ? { destination: call.destination as Vapi.ServerMessageEndOfCallReportDestination } : {}),
    ...common(call, ourNumber),
  };
  return { message };
}

export function assistantRequest(call: Vapi.Call, ourNumber: string, at: Date): Vapi.ServerMessage {
  const message: Vapi.ServerMessageAssistantRequest = {
    type: 'assistant-request',
    timestamp: at.getTime(),
    ...common(call, ourNumber),
  };
  return { message };
}

export function conversationUpdate(call: Vapi.Call, ourNumber: string, at: Date): Vapi.ServerMessage {
  const message: Vapi.ServerMessageConversationUpdate = {
    type: 'conversation-update',
    timestamp: at.getTime(),
    messages: [],
    messagesOpenAIFormatted: [],
    ...common(call, ourNumber),
  };
  return { message };
}
