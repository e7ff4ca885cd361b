/**
 * Retell's webhook delivery, as documented ("Webhook overview", "Secure the webhook"):
 * a JSON POST of `{ event, call }` with `x-retell-signature: v=<ms>,d=<hex>` signed by the SDK's
 * own signer (HMAC-SHA256 of body + timestamp with the webhook key); no 2xx within 10 s is
 * retried, up to 3 times; webhooks go in order, one at a time, a failed one not blocking the next.
 * Test knobs change the signature (another key, an old timestamp, no header) or the body after
 * signing, re-send duplicates, or reorder the sequence.
 */
import { symmetric } from 'retell-sdk/lib/webhook_auth';
import type { PhoneCallResponse } from 'retell-sdk/resources/call';

export type WebhookEventName = 'call_started' | 'call_ended' | 'call_analyzed';

export interface WebhookPayload {
  event: WebhookEventName;
  call: PhoneCallResponse;
}

export interface DeliveryOptions {
  /** Send each webhook this many more times after it was delivered (default 0). */
  duplicates?: number;
  /** 'documented' (default), 'reversed', or an explicit order or subset of the call's events. */
  order?: 'documented' | 'reversed' | WebhookEventName[];
  /** Sign with this key instead of the webhook secret. */
  secret?: string;
  /** Sign with a timestamp this many ms before now (over 5 minutes: stale). */
  signatureAgeMs?: number;
  /** Change the body after it was signed. */
  tamper?: (body: string) => string;
  /** Send no x-retell-signature header. */
  omitSignature?: boolean;
  /** Send to this URL instead of the call's webhook URL. */
  url?: string;
}

export interface DeliveryAttempt {
  /** The HTTP status our server answered; null for a timeout or a connection error. */
  status: number | null;
  error?: string;
}

export interface WebhookDelivery {
  event: WebhookEventName;
  url: string;
  /** The body exactly as sent (after any tamper) and the headers of the last attempt. */
  body: string;
  headers: Record<string, string>;
  attempts: DeliveryAttempt[];
  /** The last attempt's status. */
  status: number | null;
}

export interface SenderConfig {
  webhookSecret: string;
  now: () => Date;
  /** Per-attempt timeout (Retell: 10 s, the agent's webhook_timeout_ms). */
  timeoutMs: number;
  /** Retries after a failed attempt (Retell: 3). */
  retries: number;
  /** Pause before a retry (Retell documents none; default 0 keeps tests fast). */
  retryDelayMs: number;
  /** Aborted when the emulator stops, so that no request outlives it. */
  signal: AbortSignal;
}

/** The x-retell-signature header value for a body, signed now (or `ageMs` earlier). */
export async function signBody(
  config: Pick<SenderConfig, 'webhookSecret' | 'now'>,
  body: string,
  options: { secret?: string; ageMs?: number } = {},
): Promise<string> {
  return symmetric.sign(body, options.secret ?? config.webhookSecret, config.now().getTime() - (options.ageMs ?? 0));
}

export async function headersFor(
  config: Pick<SenderConfig, 'webhookSecret' | 'now'>,
  body: string,
  options: { secret?: string; ageMs?: number } = {},
): Promise<Record<string, string>> {
  return { 'content-type': 'application/json', 'x-retell-signature': await signBody(config, body, options) };
}

function ordered(payloads: WebhookPayload[], order: DeliveryOptions['order']): WebhookPayload[] {
  if (order === undefined || order === 'documented') return payloads;
  if (order === 'reversed') return [...payloads].reverse();
  return order.map((name) => {
    const payload = payloads.find((p) => p.event === name);
    if (!payload) throw new Error(`this call sends no ${name} webhook`);
    return payload;
  });
}

async function attempt(
  config: SenderConfig,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<DeliveryAttempt> {
  const timeout = AbortSignal.timeout(config.timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.any([timeout, config.signal]),
    });
    await response.arrayBuffer();
    return { status: response.status };
  } catch (error) {
    return {
      status: null,
      error: timeout.aborted ? 'timeout' : error instanceof Error ? error.message : String(error),
    };
  }
}

/** Delivers one webhook with Retell's redelivery: re-signed at each attempt. */
async function deliver(
  config: SenderConfig,
  url: string,
  payload: WebhookPayload,
  options: DeliveryOptions,
): Promise<WebhookDelivery> {
  const signedBody = JSON.stringify(payload);
  const delivery: WebhookDelivery = {
    event: payload.event,
    url,
    body: signedBody,
    headers: {},
    attempts: [],
    status: null,
  };
  for (let i = 0; i <= config.retries; i += 1) {
    if (i > 0 && config.retryDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.retryDelayMs));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!options.omitSignature)
      headers['x-retell-signature'] = await signBody(config, signedBody, {
        secret: options.secret,
        ageMs: options.signatureAgeMs,
      });
    const body = options.tamper ? options.tamper(signedBody) : signedBody;
    const result = await attempt(config, url, body, headers);
    delivery.body = body;
    delivery.headers = headers;
    delivery.attempts.push(result);
    delivery.status = result.status;
    if (result.status !== null && result.status >= 200 && result.status < 300) break;
    if (config.signal.aborted) break;
  }
  return delivery;
}

/** Sends a call's webhooks in order (and duplicates after each), one at a time. */
export async function sendWebhooks(
  config: SenderConfig,
  url: string,
  payloads: WebhookPayload[],
  options: DeliveryOptions = {},
): Promise<WebhookDelivery[]> {
  const deliveries: WebhookDelivery[] = [];
  for (const payload of ordered(payloads, options.order)) {
    for (let copy = 0; copy <= (options.duplicates ?? 0); copy += 1)
      deliveries.push(await deliver(config, url, payload, options));
  }
  return deliveries;
}
