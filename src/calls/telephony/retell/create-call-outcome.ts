// What Retell's answer to create-phone-call means for the dialer.
//
// Retell's API reference gives every error body as `{ "status": "error", "message": "…" }`
// and lists, for create-phone-call: 400 (bad request), 401 (API key missing or invalid),
// 402 ("Trial has ended, please add payment method."), 422 ("Cannot find requested asset
// under given api key.": an unknown agent or from-number), 429 ("Account rate limited, please
// throttle your requests."), 500. The SDK turns them into APIError subclasses with `status`,
// `error` (the parsed body) and `headers`; timeouts and lost connections into
// APIConnectionTimeoutError / APIConnectionError.
//
//   2xx, call in status "error" for capacity  → retry_later (Retell refused it before dialling)
//   2xx otherwise                             → accepted
//   429 (rate limit or concurrency)           → retry_later, after retry-after-ms / retry-after
//   400/422 naming the number to call         → refused invalid_number
//   401, 402, 403, 404, other 400/422, 4xx    → refused new (account or configuration problem)
//   408, 409, 5xx, timeout, connection lost   → unknown: the call may exist (findCall)
import { APIConnectionError, APIError } from 'retell-sdk';
import type { PlaceCallOutcome } from '../voice-provider.port.js';
import { isNotPlaced } from './ended-reasons.js';
import type { RetellCall } from './retell-call.js';

/** The accepted call, or retry_later when Retell answered with a call it refused for capacity. */
export function outcomeOfCreatedCall(
  call: Pick<RetellCall, 'call_id' | 'call_status' | 'disconnection_reason'>,
): PlaceCallOutcome {
  if (call.call_status === 'error' && isNotPlaced(call.disconnection_reason)) {
    return { kind: 'retry_later', reason: `retell refused the call: ${call.disconnection_reason}`, retryAfterMs: null };
  }
  return { kind: 'accepted', providerCallId: call.call_id };
}

/** The message of Retell's error body (`{ status: "error", message }`), else the SDK's message. */
function messageOf(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message !== '') return body.message;
  return error.message;
}

/** A 400/422 message that blames the number to call rather than our configuration. */
const INVALID_NUMBER_MESSAGE =
  /to_number|e\.?164|invalid (?:phone|destination|number)|not a valid (?:phone )?number|phone number is invalid/i;

/** Retry-After as Retell's SDK reads it: `retry-after-ms`, else `retry-after` in seconds. */
export function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const seconds = Number.parseFloat(headers?.get('retry-after') ?? '');
  // An HTTP-date Retry-After needs a clock to read; the dialer's own delay applies then.
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  return null;
}

/** The outcome of a create that threw. */
export function outcomeOfCreateError(error: unknown): PlaceCallOutcome {
  // APIConnectionTimeoutError extends APIConnectionError: both leave the call's existence unknown.
  if (error instanceof APIConnectionError) return { kind: 'unknown', reason: `retell: ${error.message}` };
  if (!(error instanceof APIError) || error.status === undefined) {
    return { kind: 'unknown', reason: `retell: ${error instanceof Error ? error.message : String(error)}` };
  }
  const status = error.status;
  const message = messageOf(error);
  const endReason = `retell_${status}: ${message}`.slice(0, 256);
  if (status === 429) return { kind: 'retry_later', reason: endReason, retryAfterMs: retryAfterMs(error.headers) };
  if (status === 408 || status === 409 || status >= 500) return { kind: 'unknown', reason: endReason };
  if ((status === 400 || status === 422) && INVALID_NUMBER_MESSAGE.test(message)) {
    return { kind: 'refused', result: 'invalid_number', endReason };
  }
  return { kind: 'refused', result: 'new', endReason };
}
