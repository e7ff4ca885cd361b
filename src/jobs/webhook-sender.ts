// Sends one webhook attempt: a POST of the stored body with the Standard Webhooks headers, 10
// seconds at most, no redirect followed (a 3xx is a failed attempt), and only to addresses the
// URL rules allow (src/domain/webhooks/webhook-url.rules.ts). The address check is made on the
// address the connection is actually opened to, after DNS, by request-filtering-agent's agents:
// a name that resolves to a private or link-local address is refused however it resolved when
// the endpoint was saved. Connections are kept alive between attempts to the same receiver.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { HostLookup, WebhookSettings } from '../domain/context.js';
import type { SignedHeaders } from '../domain/webhooks/webhook-signing.js';
import { LOOPBACK_RANGES, urlProblem } from '../domain/webhooks/webhook-url.rules.js';

/** How long an attempt may take, connection to last byte of the answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** The start of the answer's body kept in the delivery's last error. */
const ANSWER_KEPT = 200;

export interface WebhookAttempt {
  url: string;
  headers: SignedHeaders;
  body: string;
}

/** How the receiver answered (status null: it did not; `error` says why). */
export interface AttemptOutcome {
  status: number | null;
  retryAfter: string | null;
  error: string | null;
}

export interface WebhookSender {
  send(attempt: WebhookAttempt): Promise<AttemptOutcome>;
  close(): void;
}

export function webhookSender(settings: Pick<WebhookSettings, 'allowHttpLoopback' | 'lookup'>): WebhookSender {
  const filter = {
    allowIPAddressList: settings.allowHttpLoopback ? LOOPBACK_RANGES : [],
    keepAlive: true,
    maxSockets: 50,
  };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  const lookup = callbackLookup(settings.lookup);
  return {
    send(attempt) {
      // The setting may have been switched off since the endpoint was saved.
      const problem = urlProblem(attempt.url, settings);
      if (problem) return Promise.resolve({ status: null, retryAfter: null, error: `refused: url ${problem}` });
      return post(attempt, attempt.url.startsWith('https:') ? agents.https : agents.http, lookup);
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function post(attempt: WebhookAttempt, agent: http.Agent, lookup: LookupFunction): Promise<AttemptOutcome> {
  const transport = attempt.url.startsWith('https:') ? https : http;
  return new Promise((resolve) => {
    const request = transport.request(
      attempt.url,
      {
        method: 'POST',
        agent,
        lookup,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(attempt.body),
          'user-agent': 'Contactline-Webhooks/1',
          ...attempt.headers,
        },
      },
      (response) => {
        let kept = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (kept.length < ANSWER_KEPT) kept += chunk.slice(0, ANSWER_KEPT - kept.length);
        });
        response.on('error', (error) => resolve(noAnswer(error)));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const retryAfter = headerValue(response.headers['retry-after']);
          if (status >= 200 && status < 300) return resolve({ status, retryAfter, error: null });
          const where = headerValue(response.headers.location);
          const error =
            status >= 300 && status < 400
              ? `HTTP ${status}: redirects are not followed${where ? ` (to ${where.slice(0, 200)})` : ''}`
              : `HTTP ${status}${kept ? `: ${kept}` : ''}`;
          resolve({ status, retryAfter, error });
        });
      },
    );
    request.on('error', (error) => resolve(noAnswer(error)));
    request.end(attempt.body);
  });
}

function noAnswer(error: Error): AttemptOutcome {
  const reason =
    error.name === 'TimeoutError' || error.name === 'AbortError'
      ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
      : /is not allowed/.test(error.message)
        ? `refused: ${error.message}`
        : `no answer: ${(error as NodeJS.ErrnoException).code ?? error.message}`;
  return { status: null, retryAfter: null, error: reason };
}

function headerValue(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** The settings' promise lookup as the callback lookup net.connect takes (one address, or all). */
function callbackLookup(resolve: HostLookup): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          const error = Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
          return callback(error);
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error) => callback(error),
    );
  }) as unknown as LookupFunction;
}
