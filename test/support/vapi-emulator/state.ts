// The emulator's state and scripts: calls created, requests seen, injected failures.
import type { Vapi } from '@vapi-ai/server-sdk';

/** What a call to one number does when finishCall() ends it. */
export interface VapiCallScript {
  /** Vapi's ended reason (a Vapi.CallEndedReason value, or any string to test unknown ones). */
  endedReason: string;
  /** Whether the contact picked up (status in-progress, startedAt set). Default: by the reason (see connectedByDefault). */
  connected?: boolean;
  /** Seconds from pick-up to hang-up (connected calls); default 42. */
  durationSeconds?: number;
  /** Transcript lines, in order (connected calls). Default: a two-line exchange. */
  transcript?: Array<{ role: 'assistant' | 'user'; message: string }>;
  /** The role Vapi writes for the assistant's lines in artifact.messages; default 'bot'. */
  botRole?: 'bot' | 'assistant';
  /** Post-call analysis values (our structured output's result). */
  analysis?: { outcome?: string; callbackAt?: string; language?: string } & Record<string, unknown>;
  /** Where the analysis lands: a structured output (default) or the legacy analysis.structuredData. */
  analysisVia?: 'structured-output' | 'structured-data';
  /** The structured output's name; default 'contactline_call_outcome'. */
  analysisOutputName?: string;
  /** artifact.recordingUrl; default a URL for connected calls, null for others. */
  recordingUrl?: string | null;
  /** The call's type; default outboundPhoneCall. webCall makes it a test call. */
  callType?: Vapi.CallType;
  /** The forwarding destination, for assistant-forwarded-call. */
  destinationNumber?: string;
}

/** A failure injected into the next create(s). */
export interface CreateFailure {
  status: number;
  /** Default: the NestJS-style body Vapi answers with for that status. */
  body?: unknown;
  retryAfterSeconds?: number;
  retryAfterMs?: number;
}

export interface EmulatedCall {
  id: string;
  /** The create request body exactly as received (null for inbound calls). */
  request: Record<string, unknown> | null;
  /** The call as GET /call/{id} returns it. */
  call: Vapi.Call;
  /** Our Vapi number's E.164 (message.phoneNumber.number): the from-number, or the number called (inbound). */
  ourNumber: string;
  /** true once finishCall (or a concurrency block) ended it. */
  ended: boolean;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
}

export interface EmulatorState {
  now: () => Date;
  calls: EmulatedCall[];
  requests: RequestLogEntry[];
  scripts: Map<string, VapiCallScript>;
  createFailures: CreateFailure[];
  createStalls: number[];
  /** While set, every API request answers this HTTP status (an incident at Vapi). */
  outageStatus: number | null;
}

/** Reasons where nobody picked up; a script may still say otherwise with `connected`. */
export function connectedByDefault(endedReason: string): boolean {
  const notConnected =
    endedReason.startsWith('call.start.') ||
    endedReason.startsWith('assistant-request') ||
    endedReason.startsWith('call.ringing.') ||
    /outbound-sip-\d{3}|transport-never-connected|failed-to-connect|misdialed|did-not-answer|customer-busy|vonage-rejected|scheduled-call-deleted|assistant-not-|neither-assistant|bypass-enabled|microphone-permission/.test(
      endedReason,
    );
  return !notConnected;
}
