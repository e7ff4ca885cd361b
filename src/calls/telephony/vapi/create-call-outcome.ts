// What a `POST /call` answer (or its absence) means for the dialer.
//
// Vapi documents only two error answers for POST /call: 400 "Client/policy failure (limits,
// validation, missing resources)" and 500 "System failure" (OpenAPI CallController_create). The
// 400 body is NestJS's: { message: string | string[], error: "Bad Request", statusCode: 400 }.
// So a 400 is read by what its message names:
//   - the contact's number (customer.number, E.164)          → refused, invalid_number
//   - concurrency / a daily or rate limit                      → retry_later
//   - credits, wallet, subscription, payment                  → refused, new (an account problem)
//   - anything else (assistant, phone number, validation)     → refused, new (a configuration problem)
// Other statuses: 401/403 (key), 402 (payment), 404 and other 4xx → refused `new`; 408 and 5xx →
// unknown (the call may exist); 429 → retry_later with Retry-After / retry-after-ms.
// A 201 whose `subscriptionLimits.concurrencyBlocked` is true ("True if this call was blocked by
// the Call Concurrency limit", SDK) is not a refusal we can act on: Vapi's call-concurrency page
// has said both that such calls "wait until a slot becomes free" and that they "do not connect",
// and its billing page that they "queue or be rejected". Withdrawing ours and placing it again
// could call the contact twice, so it is `unknown` with the blocked call's id: the dialer keeps
// the call and looks it up later, as after a timeout (a queued call is that call; one Vapi ended
// as call.start.error-subscription-concurrency-limit-reached was never placed: its report
// withdraws ours, not an attempt, else the lookup places it again). Timeouts and connection
// errors → unknown.
import type { VapiError } from '@vapi-ai/server-sdk';
import type { PlaceCallOutcome } from '../voice-provider.port.js';
import type { VapiSdk } from './vapi-sdk.js';

/** The port's endReason limit. */
const MAX_END_REASON = 256;

function truncate(text: string): string {
  return text.length <= MAX_END_REASON ? text : `${text.slice(0, MAX_END_REASON - 1)}…`;
}

/** The text of a NestJS-style error body (message string or list), else the body as JSON. */
export function errorBodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && body !== null) {
    const message = (body as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    if (Array.isArray(message)) return message.map(String).join('; ');
    return JSON.stringify(body);
  }
  return body === undefined ? '' : String(body);
}

function header(error: VapiError, name: string): string | null {
  return error.rawResponse?.headers?.get(name) ?? null;
}

/**
 * Retry-After (seconds, or an HTTP date measured against the answer's own Date header, since
 * the adapter has no clock) or retry-after-ms, in milliseconds; null when absent or unreadable.
 */
export function retryAfterMs(error: VapiError): number | null {
  const milliseconds = header(error, 'retry-after-ms');
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Math.ceil(Number(milliseconds));
  const retryAfter = header(error, 'retry-after')?.trim();
  if (!retryAfter) return null;
  if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const at = new Date(retryAfter).getTime();
  const answeredAt = new Date(header(error, 'date') ?? '').getTime();
  return Number.isFinite(at) && Number.isFinite(answeredAt) ? Math.max(0, at - answeredAt) : null;
}

const CONTACT_NUMBER = /customer\.number|customer number|e\.?164/i;
const CAPACITY = /concurren|daily limit|daily-limit|rate limit|too many/i;
const ACCOUNT = /credit|wallet|subscription|payment|billing|frozen|balance/i;

function refusedBadRequest(status: number, text: string): PlaceCallOutcome {
  const reason = `vapi ${status}: ${text}`;
  if (CAPACITY.test(text)) return { kind: 'retry_later', reason: truncate(reason), retryAfterMs: null };
  if (CONTACT_NUMBER.test(text))
    return { kind: 'refused', result: 'invalid_number', endReason: truncate(`invalid number: ${reason}`) };
  if (ACCOUNT.test(text)) return { kind: 'refused', result: 'new', endReason: truncate(`account: ${reason}`) };
  return { kind: 'refused', result: 'new', endReason: truncate(`configuration: ${reason}`) };
}

function outcomeOfStatus(error: VapiError, status: number): PlaceCallOutcome {
  const text = errorBodyText(error.body);
  const reason = `vapi ${status}: ${text}`;
  if (status === 429)
    return { kind: 'retry_later', reason: truncate(`rate limited: ${reason}`), retryAfterMs: retryAfterMs(error) };
  if (status === 408 || status >= 500) return { kind: 'unknown', reason: truncate(reason) };
  if (status === 400 || status === 422) return refusedBadRequest(status, text);
  if (status === 401 || status === 403)
    return { kind: 'refused', result: 'new', endReason: truncate(`API key refused: ${reason}`) };
  if (status === 402) return { kind: 'refused', result: 'new', endReason: truncate(`payment required: ${reason}`) };
  if (status === 404)
    return { kind: 'refused', result: 'new', endReason: truncate(`assistant or phone number not found: ${reason}`) };
  return { kind: 'refused', result: 'new', endReason: truncate(`refused: ${reason}`) };
}

/**
 * The outcome of a create that threw (an SDK error, a timeout, or anything else). `sdk` holds the
 * SDK's error classes (./vapi-sdk.ts: the SDK is loaded on first use).
 */
export function outcomeOfCreateError(
  error: unknown,
  { VapiError, VapiTimeoutError }: Pick<VapiSdk, 'VapiError' | 'VapiTimeoutError'>,
): PlaceCallOutcome {
  if (error instanceof VapiTimeoutError) return { kind: 'unknown', reason: truncate(`timeout: ${error.message}`) };
  // SDK 2.0.1 aborts a timed-out request with the reason "timeout" (a string), and Node's fetch
  // rejects with that string rather than an AbortError, so the SDK throws a plain VapiError
  // whose cause is "timeout" instead of a VapiTimeoutError.
  if (error instanceof VapiError && error.cause === 'timeout')
    return { kind: 'unknown', reason: 'timeout: no answer from Vapi in time' };
  if (error instanceof VapiError && typeof error.statusCode === 'number')
    return outcomeOfStatus(error, error.statusCode);
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'unknown', reason: truncate(`no answer from Vapi: ${message}`) };
}

/**
 * The outcome of a 201: accepted, unless Vapi says the call was blocked by the concurrency limit
 * (then unknown, with the blocked call's id: see the header).
 */
export function outcomeOfCreatedCall(created: unknown): PlaceCallOutcome {
  const call = (created ?? {}) as {
    id?: unknown;
    subscriptionLimits?: { concurrencyBlocked?: unknown; concurrencyLimit?: unknown };
  };
  const id = typeof call.id === 'string' && call.id !== '' ? call.id : null;
  if (call.subscriptionLimits?.concurrencyBlocked === true) {
    const limit =
      typeof call.subscriptionLimits.concurrencyLimit === 'number'
        ? ` (limit ${call.subscriptionLimits.concurrencyLimit})`
        : '';
    return {
      kind: 'unknown',
      reason: `vapi concurrency limit reached${limit}: the call is blocked, and may or may not be dialled later`,
      ...(id ? { providerCallId: id } : {}),
    };
  }
  if (!id) return { kind: 'unknown', reason: 'vapi answered 201 without a call id' };
  return { kind: 'accepted', providerCallId: id };
}
