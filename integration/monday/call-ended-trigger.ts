// The board app's channel for the "when a call ends" trigger (src/jobs/trigger-delivery.ts does
// the rest): a delivery is POSTed to the subscription's webhookUrl, monday's, with
// `Authorization: Bearer <JWT { appId }>` signed with the Signing Secret. Without an app id
// there is nothing to sign with: deliveries wait until MONDAY_APP_ID is set.
import type { TriggerChannel } from '../../src/jobs/trigger-delivery.js';
import { boardLogger } from './board-logger.js';
import type { MondayConfig } from './config.js';
import { signTriggerAuthorization } from './monday-jwt.js';

/** How long monday may take to answer a delivery (the job's lease outlasts it). */
const HTTP_TIMEOUT_MS = 30_000;

export function callEndedTrigger(config: MondayConfig, fetchImpl: typeof fetch = fetch): TriggerChannel {
  return {
    get waitReason() {
      if (config.appId !== null) return null;
      return 'MONDAY_APP_ID is not set: call-ended triggers wait until it is (the trigger JWT carries the app id)';
    },
    async send(webhookUrl, body, now) {
      // The delivery job sends only while waitReason is null.
      if (config.appId === null) throw new Error('MONDAY_APP_ID is not set');
      const response = await fetchImpl(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: signTriggerAuthorization(config.appId, config.signingSecret, now),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      const text = await response.text().catch(() => '');
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text };
    },
    log: boardLogger(config),
  };
}
