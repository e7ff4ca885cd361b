// A voice-AI provider (Vapi, Retell AI) behind the dialer. Each provider is one adapter under
// ./<provider>/, built on the provider's official SDK: it places one call, finds a call by our
// call id after an answer that never came, asks for a call's state when its final webhook never
// came (the same events that webhook would have carried), and turns the provider's own
// authenticated webhooks into the Telephony port's events. The dialer, the credentials and the routes are the
// provider-independent side (src/jobs/dialer.ts, src/http/provider-webhooks.route.ts).
import { v5 as uuidV5 } from 'uuid';
import type { CallResult, TelephonyEvent } from './telephony.port.js';

export const VOICE_PROVIDERS = ['simulator', 'vapi', 'retell'] as const;
export type VoiceProvider = (typeof VOICE_PROVIDERS)[number];
/** The providers that place real calls (the simulator needs no account or credentials). */
export type RemoteVoiceProvider = Exclude<VoiceProvider, 'simulator'>;

/** An Account's credentials for one provider, decrypted only for the request at hand. */
export interface ProviderCredentials {
  /** The provider's private API key (Bearer). */
  apiKey: string;
  /**
   * What authenticates the provider's webhooks. Vapi: the secret of the server URL's HMAC
   * credential. Retell: the API key that carries the webhook badge (null: the API key itself).
   */
  webhookSecret: string | null;
  /** The provider API's base URL (the emulator in tests); undefined: the SDK's default. */
  baseUrl?: string;
}

/** One outbound call, as the dialer asks a provider to place it. */
export interface ProviderCallRequest {
  /** Our call id (a UUID): the provider's call metadata carries it back in every webhook. */
  callId: string;
  /** The contact's phone, E.164. */
  toNumber: string;
  /** Vapi assistant id, or Retell agent id. */
  assistantId: string;
  /** Vapi phone number id, or Retell from-number (E.164). */
  fromNumber: string;
  /** Where the provider sends this call's webhooks (the Account's provider webhook URL). */
  webhookUrl: string;
  /** Per-call variables for the agent's prompt (Vapi variableValues, Retell dynamic variables). */
  variables: {
    firstName: string | null;
    lastName: string | null;
    fullName: string | null;
    /** The locale the call starts in (the contact's, else the agent's default). */
    language: string;
    /** The IANA zone the contact is in (the contact's, else the agent's). */
    timezone: string;
    customFields: Record<string, unknown>;
  };
}

/** What placing a call came to. */
export type PlaceCallOutcome =
  /** The provider accepted the call; its events follow on the webhook. */
  | { kind: 'accepted'; providerCallId: string }
  /** The provider will never place this call (invalid number, no credit, unknown assistant…): it ends with this result. */
  | { kind: 'refused'; result: CallResult; endReason: string }
  /** A rate limit or concurrency refusal: try again later; not an attempt. */
  | { kind: 'retry_later'; reason: string; retryAfterMs: number | null }
  /**
   * No answer we can trust (timeout, 5xx, connection lost), or an answer that leaves open whether
   * the call will be dialled (a Vapi call blocked by the concurrency limit): the call may exist;
   * look it up before placing again. `providerCallId`: the provider's id when its answer named
   * the call, recorded with the call.
   */
  | { kind: 'unknown'; reason: string; providerCallId?: string };

/** A provider's webhook, exactly as received. */
export interface ProviderWebhook {
  /** The body's bytes: signatures are computed over them, never over re-serialized JSON. */
  rawBody: Buffer;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
}

/** The port's events, plus what only a provider reports about a call. */
export type ProviderEvent = TelephonyEvent & {
  /** The provider's own id of the call. */
  providerCallId?: string;
  /** The recording's URL, on report.ready, when the provider gives one. */
  recordingUrl?: string | null;
};

/**
 * An ended call's final report (and the post-call analysis in it) may still be on its way this
 * long after the call ended: fetchCallState answers `in_flight` meanwhile, so that the webhook,
 * with the analysis, is what applies. Past it, the call is read as the provider has it now.
 */
export const REPORT_GRACE_MS = 10 * 60_000;

/** What the provider says about one call it accepted (fetchCallState). */
export type ProviderCallState =
  /** Over: the events its final webhook would have carried (call.started when it connected, call.ended, report.ready). */
  | { kind: 'ended'; events: ProviderEvent[] }
  /** Still queued, ringing or in progress, or ended less than REPORT_GRACE_MS ago without its report yet. */
  | { kind: 'in_flight' }
  /** The provider has no such call (404), or never dialled it: nobody was called. */
  | { kind: 'not_found' };

/**
 * A call the provider had accepted (or answered with its id), then refused before dialling it
 * because the account's concurrency limit was reached (Vapi's
 * `call.start.error-subscription-concurrency-limit-reached`, Retell's `concurrency_limit_reached`).
 * Nobody was called: it is not an attempt, and the contact is due again shortly.
 */
export interface NotPlacedCall {
  /** Our call id (from the call's metadata). */
  callId: string;
  /** The provider's id of the refused call: only the call recorded with that id is withdrawn. */
  providerCallId: string;
  /** The provider's reason, kept as the call's end reason. */
  reason: string;
}

export type ProviderWebhookResult =
  /** Authentication failed (missing, wrong secret, stale timestamp, body changed): a 401, nothing applied. */
  | { ok: false; reason: string }
  /**
   * Authenticated: the port events this message carries (none for messages we do not use), or,
   * for a call the provider refused for capacity, none and `notPlaced`.
   */
  | { ok: true; events: ProviderEvent[]; notPlaced?: NotPlacedCall };

export interface VoiceProviderAdapter {
  readonly provider: RemoteVoiceProvider;
  /** The provider's documented default number of concurrent calls per account (key). */
  readonly defaultMaxConcurrentCalls: number;
  /** Places one call through the provider's SDK, without the SDK's own retries (a retry could dial twice). */
  placeCall(credentials: ProviderCredentials, request: ProviderCallRequest): Promise<PlaceCallOutcome>;
  /**
   * The provider's call placed for our call id, or null when the provider has none (a call it
   * refused for capacity before dialling is none). Used after an `unknown` outcome, so that a
   * call is placed once and never lost. Throws when the provider cannot be asked now (the dialer
   * asks again later).
   */
  findCall(
    credentials: ProviderCredentials,
    lookup: { callId: string; placedAt: Date; request: ProviderCallRequest },
  ): Promise<{ providerCallId: string } | null>;
  /**
   * The provider's state of a call it accepted (by its id for the call), for a call whose final
   * webhook never came: the events are mapped by the same code as the webhooks', with the same
   * event ids, so a webhook that comes after all is a duplicate. `now` judges REPORT_GRACE_MS.
   * Throws when the provider cannot be asked now (no answer, 5xx, 401…): the dialer asks again later.
   */
  fetchCallState(
    credentials: ProviderCredentials,
    call: { callId: string; providerCallId: string },
    now: Date,
  ): Promise<ProviderCallState>;
  /** Authenticates a webhook exactly as the provider documents it, then maps it onto port events. */
  readWebhook(credentials: ProviderCredentials, webhook: ProviderWebhook, now: Date): Promise<ProviderWebhookResult>;
}

/** The namespace of call ids derived from provider call ids (a fixed, random UUID). */
const PROVIDER_CALL_NAMESPACE = 'a8b9f0c2-3d4e-4f5a-9b6c-7d8e9f0a1b2c';

/**
 * Our call id for a provider call that carries none (an inbound call): a name-based UUID (v5)
 * of the provider and its call id, so every event of that call maps to the same call.
 */
export function callIdForProviderCall(provider: RemoteVoiceProvider, providerCallId: string): string {
  return uuidV5(`${provider}:${providerCallId}`, PROVIDER_CALL_NAMESPACE);
}
