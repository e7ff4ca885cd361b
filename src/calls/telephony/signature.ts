// HMAC-SHA256 signatures for telephony provider events (POST /api/telephony/events).
//
// Header: `x-contactline-signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`, where each v1 is
// the lowercase hex HMAC-SHA256, under one shared secret, of the bytes `<t>.<raw body>`. The raw
// body is the exact bytes received: verify before any JSON parsing, never over a re-serialization.
//
// Secret rotation: the receiver accepts any of several secrets (`secrets`), and a sender holding
// the old and the new secret may send one v1 per secret. A request is valid when any v1 matches
// any secret. Parts with other keys (v0, v2, ...) are ignored so that new schemes can be added.
//
// Replay protection has two layers:
//   1. The timestamp is signed, and verifySignature rejects it ('stale') when it is more than
//      `toleranceSeconds` (default 300) away from `now`, in the past or the future. A captured
//      request cannot be replayed after that window.
//   2. Inside the window, the caller de-duplicates by the event's `eventId` (part of the signed
//      body, so it cannot be changed without breaking the signature): it stores every processed
//      eventId (for at least the tolerance window; durably, e.g. a unique key) and acknowledges a
//      repeated one without processing it again. Providers retry deliveries, so duplicates are
//      expected and must be answered with success, not an error.
//
// Comparisons use crypto.timingSafeEqual on equal-length digests, against every (v1, secret) pair
// without stopping at the first match.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-contactline-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;
/** Bounds on what the parser accepts, so that a hostile header cannot cost much work. */
export const MAX_SIGNATURE_HEADER_LENGTH = 2048;
export const MAX_SIGNATURES = 8;

export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'mismatch';
export type VerifySignatureResult = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure };

const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;

function hmac(secret: string, timestamp: number, rawBody: string | Buffer): Buffer {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`, 'utf8');
  if (typeof rawBody === 'string') mac.update(rawBody, 'utf8');
  else mac.update(rawBody);
  return mac.digest();
}

function checkSecrets(secrets: readonly string[], where: string): void {
  if (secrets.length === 0 || secrets.some((secret) => typeof secret !== 'string' || secret.length === 0)) {
    throw new TypeError(`${where}: at least one secret is required, and secrets must be non-empty strings`);
  }
}

/**
 * The header value for a body: `t=<timestamp>,v1=<hex>`. Pass several secrets (during a rotation)
 * to get one v1 per secret, in the order given.
 */
export function signEvent(rawBody: string | Buffer, secret: string | readonly string[], timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError(`signEvent: timestamp must be whole unix seconds, got ${timestamp}`);
  }
  const secrets = typeof secret === 'string' ? [secret] : secret;
  checkSecrets(secrets, 'signEvent');
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${hmac(s, timestamp, rawBody).toString('hex')}`)].join(',');
}

export interface ParsedSignatureHeader {
  timestamp: number;
  signatures: Buffer[];
}

/** Parses the header; null when it is not exactly one t and 1 to MAX_SIGNATURES well-formed v1 values. */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return null;
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !UNIX_SECONDS.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) return null;
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other keys: other signature schemes, ignored.
  }
  if (timestamp === null || signatures.length === 0 || signatures.length > MAX_SIGNATURES) return null;
  return { timestamp, signatures };
}

/**
 * What can be checked before the body is read: `missing`, `malformed` and `stale` (see
 * verifySignature). A request failing here is refused without reading its body.
 */
export function checkSignatureHeader(
  header: string | undefined,
  now: Date,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): { ok: true; header: ParsedSignatureHeader } | { ok: false; reason: Exclude<SignatureFailure, 'mismatch'> } {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  const parsed = parseSignatureHeader(header);
  if (parsed === null) return { ok: false, reason: 'malformed' };
  const nowSeconds = now.getTime() / 1000;
  if (!Number.isFinite(nowSeconds)) throw new TypeError('verifySignature: now is an invalid Date');
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' };
  return { ok: true, header: parsed };
}

/**
 * Checks a provider request: `missing` (no or blank header), `malformed` (unparseable header),
 * `stale` (timestamp more than toleranceSeconds from now, either direction), `mismatch` (no v1
 * matches any secret). The timestamp is checked before computing any HMAC. On success returns the
 * signed timestamp; the caller must still de-duplicate by eventId (see the file header).
 * Throws TypeError when `secrets` is empty or holds an empty string (a configuration error).
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | undefined,
  secrets: readonly string[],
  now: Date,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): VerifySignatureResult {
  checkSecrets(secrets, 'verifySignature');
  if (!(Number.isFinite(toleranceSeconds) && toleranceSeconds >= 0)) {
    throw new TypeError(`verifySignature: toleranceSeconds must be >= 0, got ${toleranceSeconds}`);
  }
  const checked = checkSignatureHeader(header, now, toleranceSeconds);
  if (!checked.ok) return checked;
  const parsed = checked.header;

  let matched = false;
  for (const secret of secrets) {
    const expected = hmac(secret, parsed.timestamp, rawBody);
    for (const signature of parsed.signatures) {
      // Both are 32 bytes (the parser only accepts 64 hex digits), as timingSafeEqual requires.
      if (timingSafeEqual(expected, signature)) matched = true;
    }
  }
  return matched ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: 'mismatch' };
}
