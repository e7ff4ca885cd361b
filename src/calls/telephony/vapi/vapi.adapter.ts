// The Vapi voice provider (https://vapi.ai) on its official SDK, @vapi-ai/server-sdk.
//
// placeCall  POST /call (client.calls.create) with the SDK's retries off: Vapi has no idempotency
//            key, so a retried create after a lost answer could dial the contact twice. The body
//            is ./create-call-request.ts; answers and failures are read by ./create-call-outcome.ts.
// findCall   Vapi lists calls without a metadata filter, so: GET /call for the from-number's
//            phoneNumberId, created in a window around placedAt, matched on our call id
//            (metadata, else name) here. A call Vapi ended unplaced for its concurrency limit
//            does not count: nobody was called, so placing ours again is its first call.
// fetchCallState GET /call/{id} (client.calls.get), for a call whose end-of-call-report never
//            came: ended → the events its messages would have carried (./server-messages.ts,
//            eventsOfEndedCall); any other status, or ended less than REPORT_GRACE_MS ago →
//            in_flight; 404, or ended unplaced for the concurrency limit → not_found. No SDK
//            retries and a short timeout: the dialer asks again on a later pass, and a hanging
//            provider must not hold its pass up.
// readWebhook authenticates (./webhook-auth.ts) over the raw bytes, then maps the message onto
//            port events (./server-messages.ts); a call refused for the concurrency limit
//            carries none and is named as not placed.
// A client is built per request from the Account's credentials (apiKey, baseUrl), from the SDK
// loaded at the first request (./vapi-sdk.ts).
import type { VapiClient } from '@vapi-ai/server-sdk';
import {
  REPORT_GRACE_MS,
  type ProviderCallState,
  type ProviderCredentials,
  type ProviderWebhookResult,
  type VoiceProviderAdapter,
} from '../voice-provider.port.js';
import { buildCreateCallRequest, ourCallIdOf } from './create-call-request.js';
import { outcomeOfCreateError, outcomeOfCreatedCall } from './create-call-outcome.js';
import { isNotPlacedReason } from './ended-reasons.js';
import { callIdOfMessage, eventsOfEndedCall, eventsOfServerMessage, notPlacedOfMessage } from './server-messages.js';
import { type VapiSdk, vapiSdk } from './vapi-sdk.js';
import { authenticateWebhook } from './webhook-auth.js';

/** Vapi's default of concurrent call slots per organization (docs.vapi.ai/calls/call-concurrency). */
export const VAPI_DEFAULT_MAX_CONCURRENT_CALLS = 10;

/** findCall looks for calls created from this long before placedAt (clock skew) … */
const FIND_WINDOW_BEFORE_MS = 2 * 60_000;
/** … to this long after it (a create that was slow to answer). */
const FIND_WINDOW_AFTER_MS = 15 * 60_000;
/** GET /call's largest page; the window holds far fewer calls of one number. */
const FIND_LIMIT = 1000;

/** fetchCallState's timeout when the adapter has none: one call's GET answers in well under a second. */
export const CALL_STATE_TIMEOUT_MS = 10_000;

export interface VapiAdapterOptions {
  /** Per-request timeout; default the SDK's (60 s). */
  timeoutMs?: number;
}

function clientFor(
  { VapiClient }: VapiSdk,
  credentials: ProviderCredentials,
  options: VapiAdapterOptions,
  maxRetries?: number,
): VapiClient {
  return new VapiClient({
    token: credentials.apiKey,
    ...(credentials.baseUrl ? { baseUrl: credentials.baseUrl } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutInSeconds: options.timeoutMs / 1000 } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  });
}

function parseJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function createVapiAdapter(options: VapiAdapterOptions = {}): VoiceProviderAdapter {
  return {
    provider: 'vapi',
    defaultMaxConcurrentCalls: VAPI_DEFAULT_MAX_CONCURRENT_CALLS,

    async placeCall(credentials, request) {
      const sdk = await vapiSdk();
      const client = clientFor(sdk, credentials, options, 0);
      try {
        const created = await client.calls.create(buildCreateCallRequest(request, credentials.webhookSecret), {
          maxRetries: 0,
        });
        return outcomeOfCreatedCall(created);
      } catch (error) {
        return outcomeOfCreateError(error, sdk);
      }
    },

    async findCall(credentials, { callId, placedAt, request }) {
      const client = clientFor(await vapiSdk(), credentials, options);
      const calls = await client.calls.list({
        phoneNumberId: request.fromNumber,
        createdAtGe: new Date(placedAt.getTime() - FIND_WINDOW_BEFORE_MS).toISOString(),
        createdAtLe: new Date(placedAt.getTime() + FIND_WINDOW_AFTER_MS).toISOString(),
        limit: FIND_LIMIT,
      });
      const found = calls.find((call) => ourCallIdOf(call) === callId && !isNotPlacedReason(call.endedReason));
      return found ? { providerCallId: found.id } : null;
    },

    async fetchCallState(credentials, { callId, providerCallId }, now): Promise<ProviderCallState> {
      const sdk = await vapiSdk();
      const client = clientFor(sdk, credentials, options, 0);
      let call: Awaited<ReturnType<VapiClient['calls']['get']>>;
      try {
        call = await client.calls.get(
          { id: providerCallId },
          { maxRetries: 0, timeoutInSeconds: (options.timeoutMs ?? CALL_STATE_TIMEOUT_MS) / 1000 },
        );
      } catch (error) {
        if (error instanceof sdk.VapiError && error.statusCode === 404) return { kind: 'not_found' };
        throw error;
      }
      if (call.status !== 'ended') return { kind: 'in_flight' };
      // Refused for the concurrency limit: never dialled, as if Vapi had no such call.
      if (isNotPlacedReason(call.endedReason)) return { kind: 'not_found' };
      const endedAt = Date.parse(call.endedAt ?? call.updatedAt);
      if (Number.isFinite(endedAt) && now.getTime() - endedAt < REPORT_GRACE_MS) return { kind: 'in_flight' };
      const events = eventsOfEndedCall(call, now);
      // The provider's call must be ours: a call.ended for our call id, else nothing is applied.
      if (!events.some((event) => event.type === 'call.ended' && event.callId === callId)) {
        throw new Error(`vapi call ${providerCallId} does not carry call id ${callId}`);
      }
      return { kind: 'ended', events };
    },

    async readWebhook(credentials, webhook, now): Promise<ProviderWebhookResult> {
      // Parsed before authentication only to name the call whose token may authenticate it.
      const body = parseJson(webhook.rawBody) as { message?: Record<string, unknown> } | undefined;
      const message = typeof body?.message === 'object' && body.message !== null ? body.message : null;
      const auth = authenticateWebhook({
        rawBody: webhook.rawBody,
        headers: webhook.headers,
        secret: credentials.webhookSecret,
        now,
        callId: message ? callIdOfMessage(message) : null,
      });
      if (!auth.ok) return { ok: false, reason: auth.reason };
      const notPlaced = message ? notPlacedOfMessage(message) : null;
      if (notPlaced) return { ok: true, events: [], notPlaced };
      return { ok: true, events: message ? eventsOfServerMessage(message, now) : [] };
    },
  };
}
