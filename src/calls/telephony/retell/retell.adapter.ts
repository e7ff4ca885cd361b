// The Retell AI voice provider, on the official SDK (retell-sdk).
//
// placeCall   POST /v2/create-phone-call (client.call.createPhoneCall) with the SDK's retries
//             off: Retell takes no idempotency key, so a retried create could dial twice.
//             Request body: ./create-call-request.ts; answers and errors: ./create-call-outcome.ts.
// findCall    POST /v3/list-calls (client.call.list) filtered on our call id in the metadata.
// fetchCallState GET /v2/get-call/{call_id} (client.call.retrieve), for a call whose final
//             webhook never came. registered / ongoing → in_flight; over (ended, not_connected,
//             error) → the events of the call_analyzed webhook it would have sent
//             (./webhook-events.ts): the analysis when Retell has it, else, once REPORT_GRACE_MS
//             have passed since the end, without it (the fallbacks apply: answered…); before
//             then → in_flight. Not found (404, or the 422 "Cannot find requested asset" Retell's
//             reference gives), or refused for capacity (never dialled) → not_found.
// readWebhook x-retell-signature checked with the SDK's verifier (./webhook-signature.ts), then
//             the payload mapped onto port events (./webhook-events.ts); a call refused for
//             capacity (concurrency_limit_reached…) carries none and is named as not placed.
// A client is built per request from the Account's credentials; nothing is shared between Accounts.
import Retell, { NotFoundError, UnprocessableEntityError } from 'retell-sdk';
import {
  REPORT_GRACE_MS,
  type ProviderCallState,
  type ProviderCredentials,
  type VoiceProviderAdapter,
} from '../voice-provider.port.js';
import { createCallRequest } from './create-call-request.js';
import { outcomeOfCreateError, outcomeOfCreatedCall } from './create-call-outcome.js';
import { isNotPlaced } from './ended-reasons.js';
import { CALL_ID_METADATA_KEY, ourCallIdOf } from './retell-call.js';
import { eventsOfPayload, notPlacedOfPayload, parsePayload } from './webhook-events.js';
import { checkSignature } from './webhook-signature.js';

export interface RetellAdapterOptions {
  /**
   * Request timeout in ms for every Retell request. Default: the SDK's own (120 s for
   * create-phone-call, 300 s for list-calls).
   */
  timeoutMs?: number;
}

/** Retell's default concurrency for a pay-as-you-go workspace ("Concurrency" docs page). */
export const RETELL_DEFAULT_MAX_CONCURRENT_CALLS = 20;

/** fetchCallState's timeout when the adapter has none: one call's GET answers in well under a second. */
export const CALL_STATE_TIMEOUT_MS = 10_000;

/** How many of the newest calls carrying our id findCall reads (one is expected). */
const FIND_CALL_PAGE_SIZE = 10;

function clientFor(credentials: ProviderCredentials): Retell {
  // baseURL undefined: the SDK's default host (or RETELL_BASE_URL).
  return new Retell({ apiKey: credentials.apiKey, baseURL: credentials.baseUrl });
}

export function createRetellAdapter(options: RetellAdapterOptions = {}): VoiceProviderAdapter {
  const timeout = options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs };

  return {
    provider: 'retell',
    defaultMaxConcurrentCalls: RETELL_DEFAULT_MAX_CONCURRENT_CALLS,

    async placeCall(credentials, request) {
      try {
        const call = await clientFor(credentials).call.createPhoneCall(createCallRequest(request), {
          maxRetries: 0,
          ...timeout,
        });
        return outcomeOfCreatedCall(call);
      } catch (error) {
        return outcomeOfCreateError(error);
      }
    },

    async findCall(credentials, { callId }) {
      // A read: the SDK's own retries are safe here. Errors propagate (the dialer asks again).
      const page = await clientFor(credentials).call.list(
        {
          filter_criteria: { metadata: [{ key: CALL_ID_METADATA_KEY, type: 'string', op: 'eq', value: callId }] },
          sort_order: 'descending',
          limit: FIND_CALL_PAGE_SIZE,
        },
        timeout,
      );
      // Checked again here: the filter is Retell's, the rule is ours. A call refused for
      // capacity was never dialled, so it does not count as placed.
      const placed = page.items.find((call) => ourCallIdOf(call) === callId && !isNotPlaced(call.disconnection_reason));
      return placed ? { providerCallId: placed.call_id } : null;
    },

    async fetchCallState(credentials, { callId, providerCallId }, now): Promise<ProviderCallState> {
      let call: Awaited<ReturnType<Retell['call']['retrieve']>>;
      try {
        // No SDK retries: the dialer asks again on a later pass; a retry now only holds it up.
        call = await clientFor(credentials).call.retrieve(providerCallId, {
          maxRetries: 0,
          timeout: options.timeoutMs ?? CALL_STATE_TIMEOUT_MS,
        });
      } catch (error) {
        if (error instanceof NotFoundError || error instanceof UnprocessableEntityError) return { kind: 'not_found' };
        throw error;
      }
      if (call.call_status === 'registered' || call.call_status === 'ongoing') return { kind: 'in_flight' };
      if (isNotPlaced(call.disconnection_reason)) return { kind: 'not_found' };
      const endedAt = call.end_timestamp ?? call.start_timestamp;
      if (call.call_analysis === undefined && endedAt !== undefined && now.getTime() - endedAt < REPORT_GRACE_MS)
        return { kind: 'in_flight' };
      const events = eventsOfPayload({ event: 'call_analyzed', call }, now);
      // The provider's call must be ours: a call.ended for our call id, else nothing is applied.
      if (!events.some((event) => event.type === 'call.ended' && event.callId === callId)) {
        throw new Error(`retell call ${providerCallId} does not carry call id ${callId}`);
      }
      return { kind: 'ended', events };
    },

    async readWebhook(credentials, webhook, now) {
      const signature = await checkSignature(credentials, webhook, now);
      if (!signature.ok) return signature;
      const payload = parsePayload(webhook.rawBody.toString('utf8'));
      const notPlaced = payload ? notPlacedOfPayload(payload) : null;
      if (notPlaced) return { ok: true, events: [], notPlaced };
      return { ok: true, events: payload ? eventsOfPayload(payload, now) : [] };
    },
  };
}
