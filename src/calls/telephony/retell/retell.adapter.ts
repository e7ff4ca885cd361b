// The Retell AI voice provider, on the official SDK (retell-sdk).
//
// placeCall   POST /v2/create-phone-call (client.call.createPhoneCall) with the SDK's retries
//             off: Retell takes no idempotency key, so a retried create could dial twice.
//             Request body: ./create-call-request.ts; answers and errors: ./create-call-outcome.ts.
// findCall    POST /v3/list-calls (client.call.list) filtered on our call id in the metadata.
// readWebhook x-retell-signature checked with the SDK's verifier (./webhook-signature.ts), then
//             the payload mapped onto port events (./webhook-events.ts).
// A client is built per request from the Account's credentials; nothing is shared between Accounts.
import Retell from 'retell-sdk';
import type { ProviderCredentials, VoiceProviderAdapter } from '../voice-provider.port.js';
import { createCallRequest } from './create-call-request.js';
import { outcomeOfCreateError, outcomeOfCreatedCall } from './create-call-outcome.js';
import { isNotPlaced } from './ended-reasons.js';
import { CALL_ID_METADATA_KEY, ourCallIdOf } from './retell-call.js';
import { eventsOfPayload, parsePayload } from './webhook-events.js';
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
        const call = await clientFor(credentials).call.createPhoneCall(createCallRequest(request), { maxRetries: 0, ...timeout });
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

    async readWebhook(credentials, webhook, now) {
      const signature = await checkSignature(credentials, webhook, now);
      if (!signature.ok) return signature;
      const payload = parsePayload(webhook.rawBody.toString('utf8'));
      return { ok: true, events: payload ? eventsOfPayload(payload, now) : [] };
    },
  };
}
