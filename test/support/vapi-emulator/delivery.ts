// How Vapi delivers a server message: a JSON POST to the server URL, authenticated by the server
// configuration's credential and carrying the server configuration's own `headers` verbatim
// (docs.vapi.ai/server-url/server-authentication; SDK type Server). A non-2xx answer or a
// failed request is retried only when the server has a `backoffPlan` (default: none), up to
// `maxRetries`, `baseDelaySeconds` apart (fixed) or doubling (exponential), except for statuses
// in `excludedStatusCodes`.
import { createHmac } from 'node:crypto';

/**
 * The credential on the server configuration. hmac: Vapi's HmacAuthenticationPlan defaults
 * (sha256, hex, x-signature / x-timestamp, payload `{timestamp}.{body}`); bearer: a Bearer Token
 * credential (Authorization: Bearer <secret>); x-vapi-secret: a Bearer Token credential with
 * header X-Vapi-Secret and no prefix (the legacy inline secret); none: no credential.
 */
export type VapiWebhookCredential = 'hmac' | 'bearer' | 'x-vapi-secret' | 'none';

export interface BackoffPlan {
  type: 'fixed' | 'exponential';
  maxRetries: number;
  baseDelaySeconds: number;
  excludedStatusCodes?: number[];
}

export interface SigningOptions {
  /** Sign (or authenticate) with this secret instead of the emulator's webhookSecret. */
  secret?: string;
  /** Move the signed timestamp this many seconds into the past. */
  staleSeconds?: number;
  /** The HMAC timestamp's unit; default milliseconds (the docs do not say; the adapter reads both). */
  timestampUnit?: 'seconds' | 'milliseconds';
}

export interface DeliveryOptions extends SigningOptions {
  /** Change the body after it was signed (a tampered request). */
  tamper?: (body: string) => string;
  /** Send no credential and none of the server's headers. */
  omitAuth?: boolean;
}

export interface Delivery {
  /** The message type (status-update, end-of-call-report, …). */
  type: string;
  /** status-update's status, when it is one. */
  status?: string;
  /** The HTTP status of every attempt (0: no answer), in order. */
  attempts: number[];
  /** The last attempt's HTTP status. */
  httpStatus: number;
  body: string;
}

export interface Deliverer {
  credential: VapiWebhookCredential;
  webhookSecret: string;
  now: () => Date;
  /** Multiplies backoff delays (1 = real seconds; tests use a small value). */
  backoffTimeScale: number;
}

export function hmacHeaders(body: string, deliverer: Deliverer, options: SigningOptions = {}): Record<string, string> {
  const secret = options.secret ?? deliverer.webhookSecret;
  const at = deliverer.now().getTime() - (options.staleSeconds ?? 0) * 1000;
  const timestamp = String(options.timestampUnit === 'seconds' ? Math.floor(at / 1000) : at);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'x-signature': signature, 'x-timestamp': timestamp };
}

/** The credential's headers for a body. */
export function credentialHeaders(
  body: string,
  deliverer: Deliverer,
  options: SigningOptions = {},
): Record<string, string> {
  const secret = options.secret ?? deliverer.webhookSecret;
  switch (deliverer.credential) {
    case 'hmac':
      return hmacHeaders(body, deliverer, options);
    case 'bearer':
      return { authorization: `Bearer ${secret}` };
    case 'x-vapi-secret':
      return { 'x-vapi-secret': secret };
    case 'none':
      return {};
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutSeconds: number,
): Promise<number> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers,
      signal: AbortSignal.timeout(timeoutSeconds * 1000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

export interface ServerConfig {
  url: string;
  headers?: Record<string, string>;
  timeoutSeconds?: number;
  backoffPlan?: BackoffPlan;
}

/** Sends one message as Vapi would, with retries per the server's backoffPlan. */
export async function deliver(
  deliverer: Deliverer,
  server: ServerConfig,
  payload: unknown,
  options: DeliveryOptions = {},
): Promise<Delivery> {
  const message = (payload as { message: { type: string; status?: string } }).message;
  const attempts: number[] = [];
  const plan = server.backoffPlan;
  let body = JSON.stringify(payload);
  for (let attempt = 0; ; attempt++) {
    // Each attempt is signed afresh, at its own time.
    body = JSON.stringify(payload);
    const headers: Record<string, string> = options.omitAuth
      ? {}
      : { ...(server.headers ?? {}), ...credentialHeaders(body, deliverer, options) };
    if (options.tamper) body = options.tamper(body);
    const status = await post(
      server.url,
      body,
      { 'content-type': 'application/json', ...headers },
      server.timeoutSeconds ?? 20,
    );
    attempts.push(status);
    const succeeded = status >= 200 && status < 300;
    const retryable =
      !succeeded &&
      plan !== undefined &&
      attempt < plan.maxRetries &&
      !(plan.excludedStatusCodes ?? []).includes(status);
    if (!retryable) break;
    const delaySeconds = plan.type === 'exponential' ? plan.baseDelaySeconds * 2 ** attempt : plan.baseDelaySeconds;
    await sleep(delaySeconds * 1000 * deliverer.backoffTimeScale);
  }
  return {
    type: message.type,
    ...(message.status ? { status: message.status } : {}),
    attempts,
    httpStatus: attempts[attempts.length - 1],
    body,
  };
}
