// A stand-in for Contactline's webhook route (POST /api/telephony/{provider}/{accountId}) in
// adapter tests that need no database: reads the raw body, calls the adapter's readWebhook with
// the Account's credentials and the test's clock, answers 401 on `ok: false` and 200 otherwise
// (as the route does), and keeps what it received and the events.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ProviderCredentials,
  ProviderEvent,
  ProviderWebhookResult,
  VoiceProviderAdapter,
} from '../../src/calls/telephony/voice-provider.port.js';

export interface ReceivedWebhook {
  headers: Record<string, string | undefined>;
  rawBody: Buffer;
  result: ProviderWebhookResult;
  status: number;
}

export interface WebhookReceiver {
  /** The webhook URL to hand to the adapter (request.webhookUrl). */
  url: string;
  /** Events of every accepted webhook, in arrival order (duplicates included). */
  readonly events: ProviderEvent[];
  readonly received: ReceivedWebhook[];
  /** Answer the next `count` webhooks with this status before reading them (a server restart). */
  failNext(status: number, count?: number): void;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(input: {
  adapter: VoiceProviderAdapter;
  credentials: ProviderCredentials;
  now: () => Date;
  accountId?: string;
}): Promise<WebhookReceiver> {
  const events: ProviderEvent[] = [];
  const received: ReceivedWebhook[] = [];
  const failures: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const failure = failures.shift();
        if (failure !== undefined) {
          res.writeHead(failure).end();
          return;
        }
        const rawBody = Buffer.concat(chunks);
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(req.headers))
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
        const result = await input.adapter.readWebhook(input.credentials, { rawBody, headers }, input.now());
        const status = result.ok ? 200 : 401;
        if (result.ok) events.push(...result.events);
        received.push({ headers, rawBody, result, status });
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify(result.ok ? { received: result.events.length } : { error: 'unauthorized' }));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/telephony/${input.adapter.provider}/${input.accountId ?? 'acct-1'}`,
    events,
    received,
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
