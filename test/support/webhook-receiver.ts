// A webhook receiver as an integrator would write one: a real HTTP server on 127.0.0.1 that
// verifies each delivery with the `standardwebhooks` package (the official library of the
// Standard Webhooks specification) against the secrets it is told, and records what came. Its
// answers can be scripted: fail the next N requests, redirect, or answer slowly.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { once } from 'node:events';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body: { type, timestamp, data }. */
  payload: { type: string; timestamp: string; data: any };
  webhookId: string;
  /** The secrets (of those the receiver was told) whose verification passed. */
  verifiedWith: string[];
  /** What the receiver answered. */
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Secrets to verify with (each delivery is tried against every one). */
  secrets: string[];
  /** Answer the next `count` requests with `status` (and then 204 again). */
  failNext(count: number, status?: number): void;
  /** Answer every request with this status (null: 204). */
  answerAlways(status: number | null, headers?: Record<string, string>): void;
  /** Wait this long before answering each request. */
  delayMs: number;
  /** Waits until `predicate` holds over what was received. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let failing = 0;
  let failStatus = 500;
  let always: { status: number | null; headers: Record<string, string> } = { status: null, headers: {} };
  const receiver: Partial<WebhookReceiver> & { received: ReceivedWebhook[]; secrets: string[]; delayMs: number } = {
    received: [],
    secrets: [],
    delayMs: 0,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = req.headers;
      const verifiedWith = receiver.secrets.filter((secret) => {
        try {
          new Webhook(secret).verify(body, headers as Record<string, string>);
          return true;
        } catch (error) {
          if (error instanceof WebhookVerificationError) return false;
          throw error;
        }
      });
      let status = always.status ?? 204;
      if (failing > 0) {
        failing--;
        status = failStatus;
      }
      let payload: ReceivedWebhook['payload'];
      try {
        payload = JSON.parse(body);
      } catch {
        payload = { type: '(not JSON)', timestamp: '', data: null };
      }
      receiver.received.push({
        headers,
        body,
        payload,
        webhookId: String(headers['webhook-id']),
        verifiedWith,
        answered: status,
      });
      if (receiver.delayMs > 0) await new Promise((r) => setTimeout(r, receiver.delayMs));
      res.writeHead(status, always.headers).end(status >= 400 ? 'receiver says no' : undefined);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    failNext(count: number, status = 500) {
      failing = count;
      failStatus = status;
    },
    answerAlways(status: number | null, headers: Record<string, string> = {}) {
      always = { status, headers };
    },
    async waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs = 20_000) {
      const started = performance.now();
      while (!predicate(receiver.received)) {
        if (performance.now() - started > timeoutMs)
          throw new Error(
            `webhook receiver: condition not met in ${timeoutMs} ms (${receiver.received.length} received)`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
      return receiver.received;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  }) as WebhookReceiver;
}
