/** The Retell emulator's state: calls, scripted outcomes, injected failures, the request log. */
import type { CallCreatePhoneCallParams, PhoneCallResponse } from 'retell-sdk/resources/call';
import type { RetellDisconnectionReason } from '../../../src/calls/telephony/retell/retell-call.js';

export interface TranscriptLine {
  role: 'agent' | 'user' | 'transfer_target';
  content: string;
  /** Seconds from the call's start to the first word (default: 5 s per line). */
  atSeconds?: number;
}

/** What a call to a number does when it is finished (`script(toNumber, outcome)`). */
export interface RetellCallScript {
  /** Any string, so that retired or future reasons can be sent too. */
  disconnectionReason: RetellDisconnectionReason | (string & {});
  /** Whether the call connected (call_started sent, transcript kept). Default: the reason's call status is "ended". */
  connected?: boolean;
  /** Default 60 for a connected call, else 0. */
  durationSeconds?: number;
  /** Default: a two-line greeting for a connected call, else none. */
  transcript?: TranscriptLine[];
  /** The post-call analysis values (the agent's Contactline fields, see src/.../retell/analysis.ts). */
  analysis?: {
    outcome?: string;
    callbackAt?: string;
    language?: string;
    inVoicemail?: boolean;
    summary?: string;
    /** Other custom analysis fields. */
    custom?: Record<string, unknown>;
  };
  /** Default: a recording URL for a connected call; null for none. */
  recordingUrl?: string | null;
  transferDestination?: string;
}

/** A script with every default resolved. */
export interface CallOutcome {
  disconnectionReason: string;
  connected: boolean;
  durationSeconds: number;
  transcript: Array<Required<TranscriptLine>>;
  analysis: NonNullable<RetellCallScript['analysis']>;
  recordingUrl: string | null;
  transferDestination: string | null;
}

export interface EmulatedCall {
  providerCallId: string;
  direction: 'inbound' | 'outbound';
  /** The exact create-phone-call body received (null for inbound calls). */
  request: CallCreatePhoneCallParams | null;
  agentId: string;
  fromNumber: string;
  toNumber: string;
  metadata: unknown;
  dynamicVariables: Record<string, string> | undefined;
  /** Where its webhooks go: the per-call agent override's webhook_url, else the account's. */
  webhookUrl: string | null;
  /** Chosen when the call is created, so a later script() does not change it. */
  outcome: CallOutcome;
  createdAtMs: number;
  /** registered → ongoing → ended; or refused (concurrency). */
  state: 'in_progress' | 'finished';
  /** The call object get-call and list-calls return now. */
  object: PhoneCallResponse;
}

export interface CreateFailure {
  status: number;
  /** Default: the documented body for the status (`{ status: "error", message }`). */
  body?: unknown;
  retryAfterSeconds?: number;
  retryAfterMs?: number;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The status answered; null while the request is unanswered (a stalled create). */
  status: number | null;
}

/** The error bodies of Retell's API reference (`{ status: "error", message }`), by status. */
export const DOCUMENTED_ERROR_MESSAGES: Record<number, string> = {
  400: 'Invalid request format, please check API reference.',
  401: 'API key is missing or invalid.',
  402: 'Trial has ended, please add payment method.',
  422: 'Cannot find requested asset under given api key.',
  429: 'Account rate limited, please throttle your requests.',
  500: 'An unexpected server error occurred.',
};

export function errorBody(status: number, message?: string): { status: 'error'; message: string } {
  return { status: 'error', message: message ?? DOCUMENTED_ERROR_MESSAGES[status] ?? `Error ${status}` };
}

const PICK_UP_REASONS = new Set([
  'user_hangup',
  'agent_hangup',
  'call_transfer',
  'voicemail_reached',
  'ivr_reached',
  'inactivity',
  'max_duration_reached',
  'transfer_bridged',
  'transfer_cancelled',
  'call_take_over',
  'manual_stopped',
]);

const DEFAULT_TRANSCRIPT: TranscriptLine[] = [
  { role: 'agent', content: 'Hi, this is Alex calling from Contactline. Is now a good time?' },
  { role: 'user', content: 'Sure, go ahead.' },
];

export const DEFAULT_SCRIPT: RetellCallScript = {
  disconnectionReason: 'user_hangup',
  analysis: { outcome: 'answered', language: 'en-US' },
};

export function resolveScript(script: RetellCallScript, providerCallId: string): CallOutcome {
  const connected = script.connected ?? PICK_UP_REASONS.has(script.disconnectionReason);
  const lines = script.transcript ?? (connected ? DEFAULT_TRANSCRIPT : []);
  return {
    disconnectionReason: script.disconnectionReason,
    connected,
    durationSeconds: script.durationSeconds ?? (connected ? 60 : 0),
    transcript: lines.map((line, index) => ({
      role: line.role,
      content: line.content,
      atSeconds: line.atSeconds ?? index * 5,
    })),
    analysis: script.analysis ?? {},
    recordingUrl:
      script.recordingUrl === undefined
        ? connected
          ? `https://retell-emulator.invalid/${providerCallId}/recording.wav`
          : null
        : script.recordingUrl,
    transferDestination: script.transferDestination ?? null,
  };
}

/** Script keys compare as "+digits", so "+1 415-555-2671" and "+14155552671" are one number. */
export function numberKey(phone: string): string {
  return `+${phone.replace(/\D/g, '')}`;
}
