// Retell's webhook authentication ("Secure the webhook"): the header
// `x-retell-signature: v=<epoch ms>,d=<hex>` where d = HMAC-SHA256(key, raw body + v), the key
// being the API key that carries the "webhook" badge in the dashboard.
//
// Checked with the SDK's own verifier (retell-sdk/lib/webhook_auth `symmetric.verify`, which
// `Retell.verify` calls with its defaults), over the exact bytes received, with the window and
// the reference time passed in: the `now` the caller gives, never the process clock. It is
// async (Web Crypto): an unawaited result would be a truthy Promise and accept anything.
import { symmetric } from 'retell-sdk/lib/webhook_auth';
import type { ProviderCredentials, ProviderWebhook } from '../voice-provider.port.js';

export const SIGNATURE_HEADER = 'x-retell-signature';

/** How far a signature's timestamp may be from `now` (Retell's documented 5 minutes). */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** The key Retell signs with: the webhook key, else the API key itself. */
export function webhookKey(credentials: ProviderCredentials): string {
  return credentials.webhookSecret ?? credentials.apiKey;
}

/** The timestamp a signature claims, for the failure's reason only (the SDK does the check). */
function claimedTimestamp(signature: string): number | null {
  const match = /^v=(\d+),/.exec(signature);
  return match ? Number(match[1]) : null;
}

export async function checkSignature(
  credentials: ProviderCredentials,
  webhook: ProviderWebhook,
  now: Date,
): Promise<SignatureCheck> {
  const signature = webhook.headers[SIGNATURE_HEADER];
  if (!signature) return { ok: false, reason: `missing ${SIGNATURE_HEADER} header` };
  const body = webhook.rawBody.toString('utf8');
  const verified = await symmetric.verify(body, webhookKey(credentials), signature, {
    timestamp: now.getTime(),
    timeout: SIGNATURE_WINDOW_MS,
  });
  if (verified) return { ok: true };
  const claimed = claimedTimestamp(signature);
  if (claimed === null) return { ok: false, reason: `malformed ${SIGNATURE_HEADER} header` };
  if (Math.abs(now.getTime() - claimed) > SIGNATURE_WINDOW_MS)
    return { ok: false, reason: 'signature timestamp outside the 5-minute window' };
  return { ok: false, reason: 'signature does not match the body and key' };
}
