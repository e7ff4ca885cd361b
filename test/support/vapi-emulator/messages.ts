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
  'conversation-update', 'end-of-call-report', 'function-call', 'hang', 'speech-update', 'status-update', 'tool-calls',
  'transfer-destination-request', 'handoff-destination-request', 'user-interrupted', 'assistant.started',
];

export interface CallTimeline {
  createdAt: Date;
  ringingAt: Date;
  startedAt: Date | null;
  endedAt: Date;
  dialled: boolean;
  connected: boolean;
}

export function timelineFor(call: Vapi.Call, script: VapiCallScript): CallTimeline {
  const createdAt = new Date(call.createdAt);
  const dialled = !script.endedReason.startsWith('call.start.');
  const connected = dialled && (script.connected ?? connectedByDefault(script.endedReason));
  const ringingAt = new Date(createdAt.getTime() + 1_000);
  const startedAt = connected ? new Date(createdAt.getTime() + 4_000) : null;
  const endedAt = startedAt
    ? new Date(startedAt.getTime() + (script.durationSeconds ?? 42) * 1000)
    : new Date(createdAt.getTime() + (dialled ? 25_000 : 500));
  return { createdAt, ringingAt, startedAt, endedAt, dialled, connected };
}

function artifactMessages(script: VapiCallScript, timeline: CallTimeline): Vapi.ArtifactMessagesItem[] {
  if (!timeline.startedAt) return [];
  const start = timeline.startedAt.getTime();
  const lines = script.transcript ?? DEFAULT_TRANSCRIPT ?? [];
  const system: Vapi.SystemMessage = { role: 'system', message: 'You are Ava, calling {{firstName}} for Contactline.', time: start, secondsFromStart: 0 };
  return [
    system,
    ...lines.map((line, index): Vapi.UserMessage | Vapi.BotMessage => {
      const secondsFromStart = 1 + index * 4;
      const time = start + secondsFromStart * 1000;
      return {
        role: line.role === 'user' ? 'user' : (script.botRole ?? 'bot'),
        message: line.message,
        time,
        endTime: time + 3000,
        secondsFromStart,
        duration: 3000,
      };
    }),
  ];
}

function flatTranscript(script: VapiCallScript, connected: boolean): string {
  if (!connected) return '';
  return (script.transcript ?? DEFAULT_TRANSCRIPT ?? []).map((l) => `${l.role === 'user' ? 'User' : 'AI'}: ${l.message}`).join('\n');
}

export function artifactFor(call: Vapi.Call, script: VapiCallScript, timeline: CallTimeline): Vapi.Artifact {
  const recordingUrl = script.recordingUrl !== undefined ? script.recordingUrl : timeline.connected ? `https://storage.vapi.ai/${call.id}-mono.wav` : null;
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
      '5f0e2a8c-1b7d-4c39-9a51-3e8f6d2b7c10': { name: script.analysisOutputName ?? DEFAULT_ANALYSIS_OUTPUT_NAME, result: script.analysis },
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
    phoneNumber: { provider: 'twilio' as const, number: ourNumber, twilioAccountSid: 'AC00000000000000000000000000000000' },
  };
}

export function statusUpdate(call: Vapi.Call, status: Vapi.ServerMessageStatusUpdateStatus, ourNumber: string, at: Date, endedReason?: string): Vapi.ServerMessage {
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
  const message: Vapi.ServerMessageAssistantRequest = { type: 'assistant-request', timestamp: at.getTime(), ...common(call, ourNumber) };
  return { message };
}

export function conversationUpdate(call: Vapi.Call, ourNumber: string, at: Date): Vapi.ServerMessage {
  const message: Vapi.ServerMessageConversationUpdate = { type: 'conversation-update', timestamp: at.getTime(), messages: [], messagesOpenAIFormatted: [], ...common(call, ourNumber) };
  return { message };
}
