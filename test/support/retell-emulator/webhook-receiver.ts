/**
 * A stand-in for the webhook route in tests that need no database: it reads the raw body, hands
 * it to the adapter's readWebhook with the given clock, answers 401 on `ok: false`, 204
 * otherwise, and keeps what it received and the events it got.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderCredentials, ProviderEvent, ProviderWebhookResult, VoiceProviderAdapter } from '../../../src/calls/telephony/voice-provider.port.js';

export interface ReceivedWebhook {
  rawBody: Buffer;
  headers: Record<string, string | undefined>;
  result: ProviderWebhookResult;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  readonly received: ReceivedWebhook[];
  /** Every event of every accepted webhook, in arrival order (duplicates kept). */
  readonly events: ProviderEvent[];
  /** Answer the next `count` webhooks with this status without reading them (redelivery tests). */
  failNext(status: number, count?: number): void;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(input: { adapter: VoiceProviderAdapter; credentials: ProviderCredentials; now: () => Date }): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const events: ProviderEvent[] = [];
  const failures: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const forced = failures.shift();
        if (forced !== undefined) {
          res.writeHead(forced).end();
          return;
        }
        const rawBody = Buffer.concat(chunks);
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        const result = await input.adapter.readWebhook(input.credentials, { rawBody, headers }, input.now());
        const status = result.ok ? 204 : 401;
        received.push({ rawBody, headers, result, status });
        if (result.ok) events.push(...result.events);
        res.writeHead(status).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/telephony/retell/acc-1`,
    received,
    events,
    failNext(status, count = 1) {
      for (let i = 0; i < count; i += 1) failures.push(status);
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
