/**
 * In-process emulator of Retell AI for tests: its HTTP API (./api.ts) and its webhooks
 * (./webhook-sender.ts), with Retell's documented shapes, auth, errors and signature scheme.
 *
 *   const retell = await startRetellEmulator({ apiKey: 'key_test', webhookSecret: 'key_webhook' });
 *   retell.script('+14155550100', { disconnectionReason: 'user_hangup', analysis: { outcome: 'converted' } });
 *   // the adapter under test: credentials { apiKey: 'key_test', webhookSecret: 'key_webhook', baseUrl: retell.baseUrl }
 *   clockMs = retell.timeline(providerCallId).reportAt.getTime();  // the call rings, talks, ends, is analysed
 *   const { statuses } = await retell.finishCall(providerCallId);   // call_started, call_ended, call_analyzed
 *   retell.failNextCreate({ status: 429, retryAfterSeconds: 30 });
 *   await retell.stop();
 *
 * Time: every call is dated on the emulator's clock (`now`, default the process clock), as a real
 * call's life runs: created (create-phone-call) → picked up 4 s later (start_timestamp,
 * call_started) → the transcript's words (timed from the pick-up) → ended after the scripted
 * durationSeconds (end_timestamp, duration_ms = end − pick-up, call_ended) → call_analyzed 3 s
 * later, after the post-call analysis. A dialled call nobody picked up ends 25 s after creation
 * (no start); a call in status "error" that never connected 0.5 s after it; a call refused at
 * create time (concurrency) at its creation. finishCall sends the webhooks at the emulator's
 * now(), which dates their signatures, so it refuses with an error naming how far to advance
 * the clock until now() has reached the call_analyzed time: no time a webhook carries is later
 * than the moment it is sent. Tests drive the clock: place the call, advance the clock to
 * `timeline(id).reportAt` (or later), then finishCall. An inbound call is reported whole when it
 * is over: its life ends (analysis included) at now().
 *
 * Concurrency: more than `concurrencyLimit` calls in progress (created, not yet finished) makes
 * the next create a refusal. Retell documents it as the disconnection reason
 * `concurrency_limit_reached` (call status "error": "add a retry with exponential backoff") and
 * not how or when the create answers, so the emulator does each: `concurrencyRefusal:
 * 'errored-call'` (default) answers 201 with the call already in status "error" for that reason;
 * 'registered-then-error' answers 201 with the call "registered", and the call errors for that
 * reason 0.5 s later, like any call that ends in status "error" before dialling; in both its
 * webhooks, call_ended and call_analyzed, follow on finishCall. 'status-429' answers 429 like a
 * rate limit.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createRetellApi, newCallId, type ApiContext } from './api.js';
import { analyzedCall, endedCall, finalStatusFor, startedCall } from './call-objects.js';
import {
  DEFAULT_SCRIPT,
  numberKey,
  resolveScript,
  type CreateFailure,
  type EmulatedCall,
  type RequestLogEntry,
  type RetellCallScript,
} from './state.js';
import {
  headersFor,
  sendWebhooks,
  signBody,
  type DeliveryOptions,
  type SenderConfig,
  type WebhookDelivery,
  type WebhookPayload,
} from './webhook-sender.js';

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
  /** When the call's life goes as scripted: created, picked up, ended, and reportAt, the earliest clock time finishCall accepts. */
  timeline(providerCallId: string): RetellCallTimeline;
  /** The call's webhooks as Retell would send them for its whole life, without sending them. */
  webhooksFor(providerCallId: string): WebhookPayload[];
  /**
   * Ends the call as scripted and sends its webhooks to its webhook URL (`order` may name a
   * subset: the others are lost on the way, and get-call still shows the call as Retell has it).
   * Throws, sending nothing, while the emulator's clock is before the call's reportAt.
   */
  finishCall(providerCallId: string, options?: FinishOptions): Promise<FinishResult>;
  /** Every API request answers `status` (e.g. 503: Retell is down) until called with null. */
  outage(status: number | null): void;
  /** An inbound call to one of our numbers, from start to analysis, over by now(). */
  inboundCall(
    input: { from: string; to: string; webhookUrl: string; outcome?: RetellCallScript } & DeliveryOptions,
  ): Promise<FinishResult>;
  /** The x-retell-signature value for a body, signed with the webhook secret now. */
  sign(body: string): Promise<string>;
  /** The headers of a signed webhook with this body. */
  headersFor(body: string): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** When a call's life happens (see the header). */
export interface RetellCallTimeline {
  createdAt: Date;
  /** The pick-up (start_timestamp); null for a call that never connected. */
  startedAt: Date | null;
  endedAt: Date;
  /** When call_analyzed is sent: the end plus the post-call analysis. */
  reportAt: Date;
}

export const PICK_UP_AFTER_MS = 4_000;
export const UNANSWERED_AFTER_MS = 25_000;
export const NOT_DIALLED_AFTER_MS = 500;
export const ANALYSIS_MS = 3_000;

/** A call's life as scripted, from its creation (see the header). */
function timelineOf(call: EmulatedCall): RetellCallTimeline {
  const { outcome, createdAtMs } = call;
  const startMs = outcome.connected ? createdAtMs + PICK_UP_AFTER_MS : null;
  // A call already over when it was created (refused for concurrency) keeps that end.
  const endMs =
    call.object?.end_timestamp ??
    (startMs !== null
      ? startMs + outcome.durationSeconds * 1000
      : createdAtMs +
        (finalStatusFor(outcome.disconnectionReason, false) === 'error' ? NOT_DIALLED_AFTER_MS : UNANSWERED_AFTER_MS));
  if (startMs !== null) {
    const talkMs = Math.max(
      0,
      ...outcome.transcript.map(
        (line) =>
          (line.atSeconds + (Math.max(1, line.content.split(/\s+/).filter(Boolean).length) - 1) * 0.3 + 0.25) * 1000,
      ),
    );
    if (startMs + talkMs > endMs) {
      throw new Error(
        `retell emulator: call ${call.providerCallId}'s transcript runs ${talkMs / 1000} s, longer than the call (durationSeconds ${outcome.durationSeconds}); script a longer call`,
      );
    }
  }
  return {
    createdAt: new Date(createdAtMs),
    startedAt: startMs === null ? null : new Date(startMs),
    endedAt: new Date(endMs),
    reportAt: new Date(endMs + ANALYSIS_MS),
  };
}

/** The webhooks of a call's life in Retell's order: call_started only if it connected. */
function lifeWebhooks(call: EmulatedCall): WebhookPayload[] {
  const timeline = timelineOf(call);
  const times = {
    startMs: timeline.startedAt?.getTime() ?? timeline.endedAt.getTime(),
    endMs: timeline.endedAt.getTime(),
  };
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

  /** Ends the call as scripted (later finishes re-send the same life) and returns its webhooks. */
  function end(call: EmulatedCall): WebhookPayload[] {
    // No webhook is sent before the moment it reports: the clock must have reached the analysis.
    const timeline = timelineOf(call);
    const at = now();
    if (at.getTime() < timeline.reportAt.getTime()) {
      const life = timeline.startedAt
        ? `picked up ${timeline.startedAt.toISOString()}, ends ${timeline.endedAt.toISOString()}`
        : `never picked up, ends ${timeline.endedAt.toISOString()}`;
      throw new Error(
        `retell emulator: call ${call.providerCallId} is not over yet (created ${timeline.createdAt.toISOString()}, ${life}, call_analyzed at ` +
          `${timeline.reportAt.toISOString()}) but the emulator's clock is at ${at.toISOString()}: advance it by ` +
          `${(timeline.reportAt.getTime() - at.getTime()) / 1000} s before finishCall`,
      );
    }
    const payloads = lifeWebhooks(call);
    call.state = 'finished';
    call.object = payloads[payloads.length - 1]!.call;
    return payloads;
  }

  async function deliver(
    call: EmulatedCall,
    payloads: WebhookPayload[],
    delivery: DeliveryOptions = {},
  ): Promise<FinishResult> {
    const url = delivery.url ?? call.webhookUrl;
    if (!url)
      throw new Error(`call ${call.providerCallId} has no webhook URL (no per-call webhook_url, no account webhook)`);
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
    timeline(providerCallId) {
      return timelineOf(callById(providerCallId));
    },
    webhooksFor(providerCallId) {
      return lifeWebhooks(callById(providerCallId));
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
      const reportedAtMs = now().getTime();
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
        createdAtMs: reportedAtMs,
        state: 'in_progress',
        object: undefined as unknown as EmulatedCall['object'],
      };
      // The call is over by now: it came in as long before now as its life (analysis included) lasts.
      call.createdAtMs = reportedAtMs - (timelineOf(call).reportAt.getTime() - reportedAtMs);
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
