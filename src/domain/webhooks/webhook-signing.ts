// Standard Webhooks signing (https://www.standardwebhooks.com), with the `standardwebhooks`
// package: an endpoint's secret is `whsec_` and 32 random bytes in base64; each attempt is signed
// over `${webhook-id}.${webhook-timestamp}.${body}` with HMAC-SHA256. During a rotation the old
// secret signs too, so the webhook-signature header carries two space-separated `v1,` signatures
// and a receiver verifying with either secret accepts it.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt, signed with every secret given (the current one first). */
export function signedHeaders(messageId: string, sentAt: Date, body: string, secrets: string[]): SignedHeaders {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, sentAt, body)).join(' '),
  };
}
