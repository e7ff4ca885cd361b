/**
 * In-process emulator of Vapi (https://vapi.ai) for tests: its calls API (./api.ts) and the
 * server messages it sends during a call's life (./messages.ts), delivered and authenticated as
 * Vapi does (./delivery.ts).
 *
 *   const vapi = await startVapiEmulator({ apiKey: KEY, webhookSecret: SECRET });
 *   const credentials = { apiKey: KEY, webhookSecret: SECRET, baseUrl: vapi.baseUrl };
 *   vapi.script('+14155552671', { endedReason: 'customer-ended-call', analysis: { outcome: 'converted' } });
 *   const placed = await adapter.placeCall(credentials, request);       // POST /call
 *   clock = vapi.timeline(placed.providerCallId).reportAt;              // the call rings, talks, ends
 *   const { deliveries } = await vapi.finishCall(placed.providerCallId); // webhooks to the call's server URL
 *   ...
 *   await vapi.stop();
 *
 * Time: every call is dated on the emulator's clock (`now`, default the system clock), as a real
 * call's life runs: created (POST /call) → ringing 1 s later → picked up 4 s after creation
 * (startedAt) → the transcript's lines → ended after the scripted durationSeconds (endedAt) →
 * the end-of-call-report 3 s later, after the post-call analysis (timelineFor in ./messages.ts
 * has the rule, also for calls nobody picked up and calls never dialled). finishCall sends a
 * call's messages at the emulator's now(), which dates their signatures, so it refuses with an
 * error naming how far to advance the clock until now() has reached the report's time: no time
 * a message carries is later than the moment it is sent. Tests drive the clock: place the call,
 * advance the clock to `timeline(id).reportAt` (or later), then finishCall. An inbound call is
 * reported whole when it is over: its life ends (report included) at now().
 *
 * Webhook authentication: every message carries the call's `server.headers` (what the adapter
 * put there) plus the headers of the emulated server credential (`credential`, default an HMAC
 * credential with `webhookSecret`), as a credential on the org / assistant server would add.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { Vapi } from '@vapi-ai/server-sdk';
import { createVapiApi, ORG_ID } from './api.js';
import {
  credentialHeaders,
  deliver,
  hmacHeaders,
  type BackoffPlan,
  type Deliverer,
  type Delivery,
  type DeliveryOptions,
  type ServerConfig,
  type SigningOptions,
  type VapiWebhookCredential,
} from './delivery.js';
import {
  analysisFor,
  artifactFor,
  assistantRequest,
  conversationUpdate,
  DEFAULT_SCRIPT,
  DEFAULT_SERVER_MESSAGES,
  endOfCallReport,
  statusUpdate,
  timelineFor,
  type CallTimeline,
} from './messages.js';
import type { CreateFailure, EmulatedCall, EmulatorState, RequestLogEntry, VapiCallScript } from './state.js';

export type { BackoffPlan, Delivery, DeliveryOptions, SigningOptions, VapiWebhookCredential } from './delivery.js';
export type { CreateFailure, EmulatedCall, RequestLogEntry, VapiCallScript } from './state.js';
export { connectedByDefault } from './state.js';
export { DEFAULT_ANALYSIS_OUTPUT_NAME } from './messages.js';
export type { CallTimeline } from './messages.js';

export interface StartVapiEmulatorOptions {
  apiKey: string;
  webhookSecret: string;
  /** Calls in progress at once before creates are refused; default 10 (Vapi's default). */
  concurrencyLimit?: number;
  /**
   * How the concurrency refusal shows (./api.ts): a 201 with concurrencyBlocked whose call never
   * starts (default), a 201 with concurrencyBlocked whose call waits queued and is dialled
   * ('queued-call'), or a 400.
   */
  concurrencyRefusal?: 'blocked-call' | 'queued-call' | 'bad-request';
  /** Clock for call times and signatures; default the system clock. */
  now?: () => Date;
  /** The server credential that authenticates every message (default 'hmac'). */
  credential?: VapiWebhookCredential;
  /** Server URL for calls that set none (the org's server URL). */
  serverUrl?: string;
  /** backoffPlan for calls whose server sets none (Vapi's default: none, no retries). */
  backoffPlan?: BackoffPlan;
  /** Multiplies backoff delays; default 1 (seconds are seconds). */
  backoffTimeScale?: number;
  /** Known assistant ids / phone number ids (→ E.164); when given, unknown ids are refused. */
  assistantIds?: string[];
  phoneNumbers?: Record<string, string>;
}

export interface FinishCallOptions extends DeliveryOptions {
  /** Send every message this many extra times (redeliveries). */
  duplicates?: number;
  /** Send the messages in reverse order. */
  reversed?: boolean;
  /** Override the script of the call's number. */
  script?: VapiCallScript;
  /**
   * Message types lost on the way (never delivered, e.g. ['end-of-call-report']): the call still
   * ends, and GET /call/{id} shows what the lost messages carried.
   */
  lose?: string[];
}

export interface FinishedCall {
  call: Vapi.Call;
  deliveries: Delivery[];
  /** The HTTP status our server answered to each delivery (last attempt), in order. */
  statuses: number[];
}

export interface VapiEmulator {
  /** Pass as the SDK's baseUrl (ProviderCredentials.baseUrl). */
  baseUrl: string;
  /** Calls created (outbound, with the create body exactly as received) and inbound. */
  readonly calls: readonly EmulatedCall[];
  /** Every API request: method, path, query, body, status. */
  readonly requests: readonly RequestLogEntry[];
  /** What calls to this number do when finished. */
  script(toNumber: string, outcome: VapiCallScript): void;
  /** The next create answers this failure (queued: call once per create to fail). */
  failNextCreate(failure: CreateFailure): void;
  /** The next create creates the call but answers only after `ms`. */
  stallNextCreate(ms: number): void;
  /**
   * When the call's life goes as scripted (or as `script` says): created, ringing, picked up,
   * ended, and reportAt, the earliest clock time finishCall accepts.
   */
  timeline(providerCallId: string, script?: VapiCallScript): CallTimeline;
  /** Delivers, late, the messages finishCall lost (`lose`), as they were when the call ended. */
  deliverLost(providerCallId: string, options?: DeliveryOptions): Promise<FinishedCall>;
  /** Every API request answers `status` (e.g. 503: Vapi is down) until called with null. */
  outage(status: number | null): void;
  /**
   * Ends the call as scripted and sends its webhooks; resolves with what our server answered.
   * Throws, sending nothing, while the emulator's clock is before the call's reportAt.
   */
  finishCall(providerCallId: string, options?: FinishCallOptions): Promise<FinishedCall>;
  /** An inbound call to one of our numbers, over by now(): its webhooks, sent to `webhookUrl`. */
  inboundCall(
    input: {
      from: string;
      to: string;
      webhookUrl: string;
      script?: VapiCallScript;
      assistantRequest?: boolean;
    } & DeliveryOptions,
  ): Promise<FinishedCall>;
  /** The HMAC signature (hex) Vapi's HMAC credential sends for a body now. */
  sign(body: string, options?: SigningOptions): { signature: string; timestamp: string };
  /** The credential's headers for a body (lower-case names). */
  headersFor(body: string, options?: SigningOptions): Record<string, string>;
  stop(): Promise<void>;
}

export async function startVapiEmulator(options: StartVapiEmulatorOptions): Promise<VapiEmulator> {
  const now = options.now ?? (() => new Date());
  const state: EmulatorState = {
    now,
    calls: [],
    requests: [],
    scripts: new Map(),
    createFailures: [],
    createStalls: [],
    outageStatus: null,
  };
  const concurrencyLimit = options.concurrencyLimit ?? 10;
  const deliverer: Deliverer = {
    credential: options.credential ?? 'hmac',
    webhookSecret: options.webhookSecret,
    now,
    backoffTimeScale: options.backoffTimeScale ?? 1,
  };

  const app = express();
  app.disable('x-powered-by');
  app.use(
    createVapiApi(state, {
      apiKey: options.apiKey,
      concurrencyLimit,
      concurrencyRefusal: options.concurrencyRefusal ?? 'blocked-call',
      assistantIds: options.assistantIds,
      phoneNumbers: options.phoneNumbers,
    }),
  );
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;

  const serverOf = (call: Vapi.Call, fallbackUrl?: string): ServerConfig => {
    const configured = call.assistantOverrides?.server as (ServerConfig & { url?: string }) | undefined;
    const url = configured?.url ?? fallbackUrl ?? options.serverUrl;
    if (!url) throw new Error(`vapi emulator: call ${call.id} has no server URL`);
    return {
      url,
      headers: configured?.headers as Record<string, string> | undefined,
      timeoutSeconds: configured?.timeoutSeconds,
      backoffPlan: (configured?.backoffPlan as BackoffPlan | undefined) ?? options.backoffPlan,
    };
  };

  /** Ends the call object as scripted; returns the messages of its life, in order. */
  const endCall = (emulated: EmulatedCall, script: VapiCallScript): unknown[] => {
    const call = emulated.call;
    const timeline = timelineFor(call, script);
    assertOver(call, timeline);
    const allowed = new Set<string>(call.assistantOverrides?.serverMessages ?? DEFAULT_SERVER_MESSAGES);
    const messages: Array<[string, unknown]> = [];
    if (timeline.dialled)
      messages.push([
        'status-update',
        statusUpdate(
          { ...call, status: 'ringing', updatedAt: timeline.ringingAt.toISOString() },
          'ringing',
          emulated.ourNumber,
          timeline.ringingAt,
        ),
      ]);
    if (timeline.startedAt) {
      const started = {
        ...call,
        status: 'in-progress' as const,
        startedAt: timeline.startedAt.toISOString(),
        updatedAt: timeline.startedAt.toISOString(),
      };
      messages.push(['status-update', statusUpdate(started, 'in-progress', emulated.ourNumber, timeline.startedAt)]);
      messages.push(['conversation-update', conversationUpdate(started, emulated.ourNumber, timeline.startedAt)]);
    }
    Object.assign(call, {
      type: script.callType ?? call.type,
      status: 'ended',
      endedReason: script.endedReason,
      updatedAt: timeline.endedAt.toISOString(),
      endedAt: timeline.endedAt.toISOString(),
      ...(timeline.startedAt ? { startedAt: timeline.startedAt.toISOString() } : {}),
      ...(script.destinationNumber ? { destination: { type: 'number', number: script.destinationNumber } } : {}),
    });
    messages.push([
      'status-update',
      statusUpdate({ ...call }, 'ended', emulated.ourNumber, timeline.endedAt, script.endedReason),
    ]);
    call.artifact = artifactFor(call, script, timeline);
    call.analysis = analysisFor(script, timeline);
    // Post-call analysis takes a few seconds; the report waits for it.
    messages.push([
      'end-of-call-report',
      endOfCallReport({ ...call }, emulated.ourNumber, new Date(timeline.endedAt.getTime() + 3_000)),
    ]);
    emulated.ended = true;
    return messages.filter(([type]) => allowed.has(type)).map(([, message]) => message);
  };

  /** No message is sent before the moment it reports: the clock must have reached the report. */
  const assertOver = (call: Vapi.Call, timeline: CallTimeline): void => {
    const at = now();
    if (at.getTime() >= timeline.reportAt.getTime()) return;
    const life = timeline.startedAt
      ? `picked up ${timeline.startedAt.toISOString()}, ends ${timeline.endedAt.toISOString()}`
      : `never picked up, ends ${timeline.endedAt.toISOString()}`;
    throw new Error(
      `vapi emulator: call ${call.id} is not over yet (created ${timeline.createdAt.toISOString()}, ${life}, end-of-call-report at ` +
        `${timeline.reportAt.toISOString()}) but the emulator's clock is at ${at.toISOString()}: advance it by ` +
        `${(timeline.reportAt.getTime() - at.getTime()) / 1000} s before finishCall`,
    );
  };

  /** Messages lost on the way (finishCall's `lose`), per call, for deliverLost. */
  const lostMessages = new Map<string, unknown[]>();
  const send = async (
    server: ServerConfig,
    messages: unknown[],
    finishOptions: FinishCallOptions,
    callId?: string,
  ): Promise<Delivery[]> => {
    const isLost = (message: unknown) =>
      (finishOptions.lose ?? []).includes((message as { message: { type: string } }).message.type);
    if (callId && messages.some(isLost))
      lostMessages.set(callId, [...(lostMessages.get(callId) ?? []), ...messages.filter(isLost)]);
    const delivered = messages.filter((message) => !isLost(message));
    const ordered = finishOptions.reversed ? [...delivered].reverse() : delivered;
    const deliveries: Delivery[] = [];
    for (const message of ordered) {
      for (let copy = 0; copy <= (finishOptions.duplicates ?? 0); copy++)
        deliveries.push(await deliver(deliverer, server, message, finishOptions));
    }
    return deliveries;
  };

  const scriptFor = (call: Vapi.Call, override?: VapiCallScript) =>
    override ?? state.scripts.get(call.customer?.number ?? '') ?? DEFAULT_SCRIPT;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get calls() {
      return state.calls;
    },
    get requests() {
      return state.requests;
    },
    script(toNumber, outcome) {
      state.scripts.set(toNumber, outcome);
    },
    failNextCreate(failure) {
      state.createFailures.push(failure);
    },
    stallNextCreate(ms) {
      state.createStalls.push(ms);
    },
    timeline(providerCallId, override) {
      const emulated = state.calls.find((c) => c.id === providerCallId);
      if (!emulated) throw new Error(`vapi emulator: no call ${providerCallId}`);
      const blocked = emulated.call.endedReason === 'call.start.error-subscription-concurrency-limit-reached';
      return timelineFor(
        emulated.call,
        blocked ? { endedReason: emulated.call.endedReason! } : scriptFor(emulated.call, override),
      );
    },
    outage(status) {
      state.outageStatus = status;
    },
    async finishCall(providerCallId, finishOptions = {}) {
      const emulated = state.calls.find((c) => c.id === providerCallId);
      if (!emulated) throw new Error(`vapi emulator: no call ${providerCallId}`);
      if (emulated.ended && emulated.call.endedReason === 'call.start.error-subscription-concurrency-limit-reached') {
        // A blocked call never started: only its end is reported.
        const messages = endCall(emulated, { endedReason: 'call.start.error-subscription-concurrency-limit-reached' });
        const deliveries = await send(serverOf(emulated.call), messages, finishOptions);
        return { call: emulated.call, deliveries, statuses: deliveries.map((d) => d.httpStatus) };
      }
      if (emulated.ended) throw new Error(`vapi emulator: call ${providerCallId} already ended`);
      const messages = endCall(emulated, scriptFor(emulated.call, finishOptions.script));
      const deliveries = await send(serverOf(emulated.call), messages, finishOptions, providerCallId);
      return { call: emulated.call, deliveries, statuses: deliveries.map((d) => d.httpStatus) };
    },
    async deliverLost(providerCallId, deliveryOptions = {}) {
      const emulated = state.calls.find((c) => c.id === providerCallId);
      if (!emulated) throw new Error(`vapi emulator: no call ${providerCallId}`);
      const messages = lostMessages.get(providerCallId) ?? [];
      lostMessages.delete(providerCallId);
      const deliveries = await send(serverOf(emulated.call), messages, deliveryOptions);
      return { call: emulated.call, deliveries, statuses: deliveries.map((d) => d.httpStatus) };
    },
    async inboundCall(input) {
      // The call is over by now: it came in as long before now as its life (report included) lasts.
      const script = input.script ?? DEFAULT_SCRIPT;
      const reportedAt = now();
      const lifeMs =
        timelineFor({ createdAt: reportedAt.toISOString() } as Vapi.Call, script).reportAt.getTime() -
        reportedAt.getTime();
      const at = new Date(reportedAt.getTime() - lifeMs).toISOString();
      const id = randomUUID();
      const call: Vapi.Call = {
        id,
        orgId: ORG_ID,
        createdAt: at,
        updatedAt: at,
        type: 'inboundPhoneCall',
        status: 'ringing',
        phoneCallProvider: 'twilio',
        phoneCallTransport: 'pstn',
        phoneCallProviderId: `CA${id.replace(/-/g, '')}`,
        phoneNumberId: randomUUID(),
        customer: { number: input.from },
      };
      const emulated: EmulatedCall = { id, request: null, call, ourNumber: input.to, ended: false };
      state.calls.push(emulated);
      const first = input.assistantRequest ? [assistantRequest({ ...call }, emulated.ourNumber, new Date(at))] : [];
      const messages = [...first, ...endCall(emulated, script)];
      const deliveries = await send(serverOf(call, input.webhookUrl), messages, input);
      return { call, deliveries, statuses: deliveries.map((d) => d.httpStatus) };
    },
    sign(body, signingOptions) {
      const headers = hmacHeaders(body, deliverer, signingOptions);
      return { signature: headers['x-signature'], timestamp: headers['x-timestamp'] };
    },
    headersFor(body, signingOptions) {
      return credentialHeaders(body, deliverer, signingOptions);
    },
    stop() {
      return new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      });
    },
  };
}
