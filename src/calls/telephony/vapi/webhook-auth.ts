// Authentication of Vapi server messages (webhooks), over the raw body bytes.
//
// Vapi authenticates what it sends to a server URL with the credential on that server
// configuration (docs.vapi.ai/server-url/server-authentication), or with headers set on the
// server configuration itself (`server.headers`). We accept, with the Account's webhook secret:
//
//   HMAC credential  `x-signature: <hex HMAC-SHA256>` (an optional `sha256=` prefix is allowed)
//                    over `{timestamp}.{body}`, with the timestamp in `x-timestamp`: Vapi's
//                    defaults for an HMAC credential (HmacAuthenticationPlan: algorithm sha256,
//                    signatureHeader x-signature, timestampHeader x-timestamp, includeTimestamp
//                    true, payloadFormat "{timestamp}.{body}", signatureEncoding hex). Neither the
//                    types nor the docs give the timestamp's unit, so both Unix seconds and
//                    milliseconds are read (a value above 10^11 is milliseconds); the signed
//                    string uses the header's text as sent. Rejected when more than
//                    TIMESTAMP_TOLERANCE_SECONDS from `now`, either way.
//   Secret header    `X-Vapi-Secret: <token>` (Vapi's legacy inline `secret`, and a Bearer
//                    credential with that header name and no prefix) or `Authorization: Bearer
//                    <token>` (a Bearer credential's default). The token is the webhook secret
//                    itself (a credential set up in the dashboard, e.g. on the phone number for
//                    inbound calls), or the call's own token: the adapter puts
//                    `X-Vapi-Secret: callWebhookToken(secret, callId)` in each call's
//                    `server.headers`, so that the Account's secret never travels in call records
//                    or webhook bodies (Vapi echoes a call's overrides in every message).
//
// When a signature header is present, it alone decides: a failed HMAC is never rescued by a
// secret header. Comparisons are constant time (crypto.timingSafeEqual on equal-length digests).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const HMAC_SIGNATURE_HEADER = 'x-signature';
export const HMAC_TIMESTAMP_HEADER = 'x-timestamp';
export const SECRET_HEADER = 'x-vapi-secret';
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/** Above this a timestamp is Unix milliseconds (10^11 seconds is the year 5138). */
const MILLISECONDS_FROM = 1e11;
const DIGITS = /^\d{1,16}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;

export type WebhookAuthFailure = 'no secret configured' | 'missing' | 'malformed' | 'stale' | 'mismatch';
export type WebhookAuthResult =
  | { ok: true; scheme: 'hmac' | 'secret-header' }
  | { ok: false; reason: WebhookAuthFailure };

function hmacSha256(secret: string, ...parts: Array<string | Buffer>): Buffer {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** The X-Vapi-Secret value the adapter sets on one call's server (hex HMAC of the call id under the secret). */
export function callWebhookToken(secret: string, callId: string): string {
  return hmacSha256(secret, `contactline-vapi-call:${callId}`).toString('hex');
}

/** Vapi's HMAC credential signature for a body at a timestamp (the header text), hex. */
export function hmacSignature(secret: string, timestamp: string, rawBody: string | Buffer): string {
  return hmacSha256(secret, `${timestamp}.`, rawBody).toString('hex');
}

/** Constant-time equality of two strings of any length (compared as SHA-256 digests). */
function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHmac('sha256', 'compare').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function timestampSeconds(text: string): number | null {
  if (!DIGITS.test(text)) return null;
  const value = Number(text);
  return value >= MILLISECONDS_FROM ? value / 1000 : value;
}

function verifyHmac(
  secret: string,
  signatureHeader: string,
  timestampHeader: string | undefined,
  rawBody: Buffer,
  now: Date,
): WebhookAuthResult {
  const signature = signatureHeader.trim().replace(/^sha256=/i, '');
  const timestamp = timestampHeader?.trim();
  if (!timestamp) return { ok: false, reason: 'missing' };
  const seconds = timestampSeconds(timestamp);
  if (seconds === null || !HEX_SHA256.test(signature)) return { ok: false, reason: 'malformed' };
  if (Math.abs(now.getTime() / 1000 - seconds) > TIMESTAMP_TOLERANCE_SECONDS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(hmacSignature(secret, timestamp, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'))
    ? { ok: true, scheme: 'hmac' }
    : { ok: false, reason: 'mismatch' };
}

function secretHeaderToken(headers: Record<string, string | undefined>): string | undefined {
  const secretHeader = headers[SECRET_HEADER]?.trim();
  if (secretHeader) return secretHeader;
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization?.trim() ?? '');
  return bearer?.[1]?.trim();
}

export interface WebhookAuthInput {
  rawBody: Buffer;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  secret: string | null;
  now: Date;
  /** Our call id named by the (not yet authenticated) body, for the per-call token; null when none. */
  callId: string | null;
}

export function authenticateWebhook(input: WebhookAuthInput): WebhookAuthResult {
  const { headers, secret } = input;
  if (!secret) return { ok: false, reason: 'no secret configured' };
  const signature = headers[HMAC_SIGNATURE_HEADER];
  if (signature !== undefined)
    return verifyHmac(secret, signature, headers[HMAC_TIMESTAMP_HEADER], input.rawBody, input.now);

  const token = secretHeaderToken(headers);
  if (!token) return { ok: false, reason: 'missing' };
  // Both candidates are always compared, so the time taken does not tell which one matched.
  const matchesSecret = sameText(token, secret);
  const matchesCallToken = input.callId !== null && sameText(token, callWebhookToken(secret, input.callId));
  return matchesSecret || matchesCallToken ? { ok: true, scheme: 'secret-header' } : { ok: false, reason: 'mismatch' };
}
