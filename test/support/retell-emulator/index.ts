/**
 * In-process emulator of Retell AI for tests: its HTTP API (./api.ts) and its webhooks
 * (./webhook-sender.ts), with Retell's documented shapes, auth, errors and signature scheme.
 *
 *   const retell = await startRetellEmulator({ apiKey: 'key_test', webhookSecret: 'key_webhook' });
 *   retell.script('+14155550100', { disconnectionReason: 'user_hangup', analysis: { outcome: 'converted' } });
 *   // the adapter under test: credentials { apiKey: 'key_test', webhookSecret: 'key_webhook', baseUrl: retell.baseUrl }
 *   const { statuses } = await retell.finishCall(providerCallId);   // call_started, call_ended, call_analyzed
 *   retell.failNextCreate({ status: 429, retryAfterSeconds: 30 });
 *   await retell.stop();
 *
 * Concurrency: more than `concurrencyLimit` calls in progress (created, not yet finished) makes
 * the next create a refusal. Retell documents it as the disconnection reason
 * `concurrency_limit_reached` (call status "error") and not how the create answers, so the
 * emulator does either: `concurrencyRefusal: 'errored-call'` (default) answers 201 with the call
 * already in status "error" for that reason (its webhooks, call_ended and call_analyzed, follow on
 * finishCall); 'status-429' answers 429 like a rate limit.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createRetellApi, newCallId, type ApiContext } from './api.js';
import { analyzedCall, endedCall, startedCall } from './call-objects.js';
import { DEFAULT_SCRIPT, numberKey, resolveScript, type CreateFailure, type EmulatedCall, type RequestLogEntry, type RetellCallScript } from './state.js';
import { headersFor, sendWebhooks, signBody, type DeliveryOptions, type SenderConfig, type WebhookDelivery, type WebhookPayload } from './webhook-sender.js';

export * from './state.js';
export type { DeliveryOptions, WebhookDelivery, WebhookEventName, WebhookPayload } from './webhook-sender.js';
export { finalStatusFor } from './call-objects.js';

export interface StartRetellEmulatorOptions {
  apiKey: string;
  /** The key webhooks are signed with (the dashboard's webhook-badged API key). */
  webhookSecret: string;
  /** Calls in progress at once before a create is refused (Retell's pay-as-you-go default: 20). */
  concurrencyLimit?: number;
  concurrencyRefusal?: ApiContext['concurrencyRefusal'];
  /** Default: the process clock. Stamps calls and webhook signatures. */
  now?: () => Date;
  /** The account's agent ids and from-numbers; a create naming another answers 422. Default: any. */
  agentIds?: string[];
  phoneNumbers?: string[];
  /** The account-level webhook URL, for calls created without a per-call webhook_url. */
  accountWebhookUrl?: string;
  /** Webhook delivery: per-attempt timeout (default 10 000 ms), retries (3), pause before a retry (0 ms). */
  webhookTimeoutMs?: number;
  webhookRetries?: number;
  webhookRetryDelayMs?: number;
}

export interface FinishOptions extends DeliveryOptions {
  /**
   * Retell has not analysed the call (not yet, or never: analysis off or failed): no
   * call_analyzed is sent, and get-call shows the call as call_ended carried it.
   */
  analysisPending?: boolean;
}

export interface FinishResult {
  providerCallId: string;
  /** Each webhook sent (duplicates included), in sending order, with all its attempts. */
  deliveries: WebhookDelivery[];
  /** The last status our server answered for each delivery (null: timeout or no connection). */
  statuses: Array<number | null>;
}

export interface RetellEmulator {
  /** e.g. http://127.0.0.1:54321 — the SDK's baseURL. */
  baseUrl: string;
  /** Every call, outbound (with the exact create body) and inbound, in creation order. */
  readonly calls: readonly EmulatedCall[];
  /** Every API request: method, path, body, headers, the status answered. */
  readonly requests: readonly RequestLogEntry[];
  /** What later calls to this number do when finished (null: back to the default). */
  script(toNumber: string, outcome: RetellCallScript | null): void;
  /** The next create (one per call) answers this failure instead. */
  failNextCreate(failure: CreateFailure): void;
  /** The next create makes the call but answers only after `ms` (so the client times out). */
  stallNextCreate(ms: number): void;
  /** The call's webhooks as Retell would send them for its whole life, without sending them. */
  webhooksFor(providerCallId: string): WebhookPayload[];
  /**
   * Ends the call as scripted and sends its webhooks to its webhook URL (`order` may name a
   * subset: the others are lost on the way, and get-call still shows the call as Retell has it).
   */
  finishCall(providerCallId: string, options?: FinishOptions): Promise<FinishResult>;
  /** Every API request answers `status` (e.g. 503: Retell is down) until called with null. */
  outage(status: number | null): void;
  /** An inbound call to one of our numbers, from start to analysis. */
  inboundCall(input: { from: string; to: string; webhookUrl: string; outcome?: RetellCallScript } & DeliveryOptions): Promise<FinishResult>;
  /** The x-retell-signature value for a body, signed with the webhook secret now. */
  sign(body: string): Promise<string>;
  /** The headers of a signed webhook with this body. */
  headersFor(body: string): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** A call's start and end times: it ends now, having lasted its scripted duration. */
function timesOf(call: EmulatedCall, endMs: number): { startMs: number; endMs: number } {
  return { startMs: endMs - call.outcome.durationSeconds * 1000, endMs };
}

/** The webhooks of a call's life in Retell's order: call_started only if it connected. */
function lifeWebhooks(call: EmulatedCall, endMs: number): WebhookPayload[] {
  const times = timesOf(call, endMs);
  const payloads: WebhookPayload[] = [];
  if (call.outcome.connected) payloads.push({ event: 'call_started', call: startedCall(call, times.startMs) });
  payloads.push({ event: 'call_ended', call: endedCall(call, times) });
  payloads.push({ event: 'call_analyzed', call: analyzedCall(call, times) });
  return payloads;
}

export async function startRetellEmulator(options: StartRetellEmulatorOptions): Promise<RetellEmulator> {
  const now = options.now ?? (() => new Date());
  const stopping = new AbortController();
  const ctx: ApiContext = {
    apiKey: options.apiKey,
    concurrencyLimit: options.concurrencyLimit ?? 20,
    concurrencyRefusal: options.concurrencyRefusal ?? 'errored-call',
    agentIds: options.agentIds,
    phoneNumbers: options.phoneNumbers,
    accountWebhookUrl: options.accountWebhookUrl ?? null,
    now,
    calls: [],
    requests: [],
    scripts: new Map(),
    failures: [],
    stalls: [],
    timers: new Set(),
    outageStatus: null,
  };
  const sender: SenderConfig = {
    webhookSecret: options.webhookSecret,
    now,
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    retries: options.webhookRetries ?? 3,
    retryDelayMs: options.webhookRetryDelayMs ?? 0,
    signal: stopping.signal,
  };

  const app = express();
  app.disable('x-powered-by');
  app.use(createRetellApi(ctx));
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;

  function callById(providerCallId: string): EmulatedCall {
    const call = ctx.calls.find((c) => c.providerCallId === providerCallId);
    if (!call) throw new Error(`no Retell call ${providerCallId}`);
    return call;
  }

  /** Ends the call now (once: later finishes re-send the same life) and returns its webhooks. */
  function end(call: EmulatedCall): WebhookPayload[] {
    const endMs = call.state === 'finished' && call.object.end_timestamp !== undefined ? call.object.end_timestamp : now().getTime();
    const payloads = lifeWebhooks(call, endMs);
    call.state = 'finished';
    call.object = payloads[payloads.length - 1]!.call;
    return payloads;
  }

  async function deliver(call: EmulatedCall, payloads: WebhookPayload[], delivery: DeliveryOptions = {}): Promise<FinishResult> {
    const url = delivery.url ?? call.webhookUrl;
    if (!url) throw new Error(`call ${call.providerCallId} has no webhook URL (no per-call webhook_url, no account webhook)`);
    const deliveries = await sendWebhooks(sender, url, payloads, delivery);
    return { providerCallId: call.providerCallId, deliveries, statuses: deliveries.map((d) => d.status) };
  }

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get calls() {
      return ctx.calls;
    },
    get requests() {
      return ctx.requests;
    },
    script(toNumber, outcome) {
      if (outcome === null) ctx.scripts.delete(numberKey(toNumber));
      else ctx.scripts.set(numberKey(toNumber), { ...outcome });
    },
    failNextCreate(failure) {
      ctx.failures.push({ ...failure });
    },
    stallNextCreate(ms) {
      ctx.stalls.push(ms);
    },
    webhooksFor(providerCallId) {
      const call = callById(providerCallId);
      return lifeWebhooks(call, call.object.end_timestamp ?? now().getTime());
    },
    async finishCall(providerCallId, { analysisPending, ...delivery } = {}) {
      const call = callById(providerCallId);
      const payloads = end(call);
      if (!analysisPending) return deliver(call, payloads, delivery);
      const unanalysed = payloads.filter((p) => p.event !== 'call_analyzed');
      call.object = unanalysed[unanalysed.length - 1]!.call;
      return deliver(call, unanalysed, delivery);
    },
    outage(status) {
      ctx.outageStatus = status;
    },
    async inboundCall({ from, to, webhookUrl, outcome, ...delivery }) {
      const providerCallId = newCallId();
      const call: EmulatedCall = {
        providerCallId,
        direction: 'inbound',
        request: null,
        agentId: 'agent_inbound',
        fromNumber: from,
        toNumber: to,
        metadata: undefined,
        dynamicVariables: undefined,
        webhookUrl,
        outcome: resolveScript(outcome ?? DEFAULT_SCRIPT, providerCallId),
        createdAtMs: now().getTime(),
        state: 'in_progress',
        object: undefined as unknown as EmulatedCall['object'],
      };
      ctx.calls.push(call);
      return deliver(call, end(call), delivery);
    },
    sign(body) {
      return signBody(sender, body);
    },
    headersFor(body) {
      return headersFor(sender, body);
    },
    async stop() {
      stopping.abort();
      for (const timer of ctx.timers) clearTimeout(timer);
      ctx.timers.clear();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      });
    },
  };
}
