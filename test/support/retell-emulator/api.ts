/**
 * The part of Retell's HTTP API the adapter uses, with Retell's documented auth and errors:
 *   POST /v2/create-phone-call   201 call ("registered"); 400 bad body or a non-string dynamic
 *                                variable; 422 unknown agent or from-number (when the emulator
 *                                was told the account's agents/numbers); injected failures;
 *                                the concurrency refusal over `concurrencyLimit` calls in progress
 *   GET  /v2/get-call/{id}       200 call; 422 unknown call
 *   DELETE /v2/delete-call/{id}  204, the call is gone; 422 unknown call
 *   POST /v3/list-calls          200 { items, has_more, pagination_key? }; filters on metadata,
 *                                to_number, from_number, call_status (newest first by default)
 *   GET  /get-concurrency        200 { current_concurrency, concurrency_limit, … }
 * Every request needs `Authorization: Bearer <api key>`, else 401; errors are `{ status: "error", message }`.
 * While `outageStatus` is set, every request answers it (an incident at Retell).
 */
import { randomBytes } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import type { CallCreatePhoneCallParams, CallListParams, PhoneCallResponse } from 'retell-sdk/resources/call';
import { refusedCall, registeredCall } from './call-objects.js';
import {
  DEFAULT_SCRIPT,
  errorBody,
  numberKey,
  resolveScript,
  type CreateFailure,
  type EmulatedCall,
  type RequestLogEntry,
  type RetellCallScript,
} from './state.js';

export interface ApiContext {
  apiKey: string;
  concurrencyLimit: number;
  /** How Retell's concurrency refusal is emulated (see index.ts). */
  concurrencyRefusal: 'errored-call' | 'registered-then-error' | 'status-429';
  /** The account's agent ids and numbers; undefined: any is accepted. */
  agentIds?: readonly string[];
  phoneNumbers?: readonly string[];
  /** The account-level webhook URL (used when a call has no per-call override). */
  accountWebhookUrl: string | null;
  now: () => Date;
  calls: EmulatedCall[];
  requests: RequestLogEntry[];
  scripts: Map<string, RetellCallScript>;
  failures: CreateFailure[];
  stalls: number[];
  timers: Set<NodeJS.Timeout>;
  /** While set, every API request answers this HTTP status. */
  outageStatus: number | null;
}

export function newCallId(): string {
  return randomBytes(16).toString('hex');
}

function inProgress(ctx: ApiContext): number {
  return ctx.calls.filter((call) => call.state === 'in_progress').length;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function send(res: Response, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  (res.locals.logEntry as RequestLogEntry).status = status;
  res.status(status).set(headers);
  if (body === undefined) res.end();
  else res.json(body);
}

function createPhoneCall(ctx: ApiContext, req: Request, res: Response): void {
  const failure = ctx.failures.shift();
  if (failure) {
    const headers: Record<string, string> = {};
    if (failure.retryAfterSeconds !== undefined) headers['retry-after'] = String(failure.retryAfterSeconds);
    if (failure.retryAfterMs !== undefined) headers['retry-after-ms'] = String(failure.retryAfterMs);
    send(res, failure.status, failure.body ?? errorBody(failure.status), headers);
    return;
  }
  const body: unknown = req.body;
  if (!isPlainObject(body) || typeof body.from_number !== 'string' || typeof body.to_number !== 'string') {
    send(res, 400, errorBody(400));
    return;
  }
  const params = body as unknown as CallCreatePhoneCallParams;
  const variables = params.retell_llm_dynamic_variables;
  if (
    variables !== undefined &&
    (!isPlainObject(variables) || Object.values(variables).some((v) => typeof v !== 'string'))
  ) {
    send(res, 400, errorBody(400, 'retell_llm_dynamic_variables values must be strings.'));
    return;
  }
  const agentId = params.override_agent_id ?? 'agent_bound_to_number';
  if (
    (ctx.agentIds && !ctx.agentIds.includes(agentId)) ||
    (ctx.phoneNumbers && !ctx.phoneNumbers.includes(params.from_number))
  ) {
    send(res, 422, errorBody(422));
    return;
  }
  const overLimit = inProgress(ctx) >= ctx.concurrencyLimit;
  if (overLimit && ctx.concurrencyRefusal === 'status-429') {
    send(res, 429, errorBody(429, 'Concurrency limit reached, please try again later.'));
    return;
  }

  const providerCallId = newCallId();
  const call: EmulatedCall = {
    providerCallId,
    direction: 'outbound',
    request: structuredClone(params),
    agentId,
    fromNumber: params.from_number,
    toNumber: params.to_number,
    metadata: params.metadata,
    dynamicVariables: variables,
    webhookUrl: params.agent_override?.agent?.webhook_url ?? ctx.accountWebhookUrl,
    outcome: resolveScript(
      overLimit
        ? { disconnectionReason: 'concurrency_limit_reached', connected: false }
        : (ctx.scripts.get(numberKey(params.to_number)) ?? DEFAULT_SCRIPT),
      providerCallId,
    ),
    createdAtMs: ctx.now().getTime(),
    // A refused call takes no slot, whenever the refusal shows.
    state: overLimit ? 'finished' : 'in_progress',
    object: undefined as unknown as PhoneCallResponse,
  };
  // 'registered-then-error': answered "registered"; the refusal shows on the call's end
  // (finishCall), as for any scripted reason.
  call.object =
    overLimit && ctx.concurrencyRefusal === 'errored-call'
      ? refusedCall(call, 'concurrency_limit_reached', call.createdAtMs)
      : registeredCall(call);
  ctx.calls.push(call);

  const stall = ctx.stalls.shift();
  if (stall === undefined) {
    send(res, 201, call.object);
    return;
  }
  // The call exists; only the answer is late (the client may have given up by then).
  const timer = setTimeout(() => {
    ctx.timers.delete(timer);
    if (!res.writableEnded && !res.destroyed) send(res, 201, call.object);
  }, stall);
  ctx.timers.add(timer);
}

function metadataMatches(
  metadata: unknown,
  filter: { key?: string; op: string; value: unknown; type: string },
): boolean {
  if (!filter.key || !isPlainObject(metadata)) return false;
  const actual = metadata[filter.key];
  if (filter.type !== 'string' || typeof actual !== 'string' || typeof filter.value !== 'string')
    return actual === filter.value;
  const value = filter.value;
  switch (filter.op) {
    case 'eq':
      return actual === value;
    case 'ne':
      return actual !== value;
    case 'sw':
      return actual.startsWith(value);
    case 'ew':
      return actual.endsWith(value);
    case 'co':
      return actual.includes(value);
    default:
      return false;
  }
}

function listCalls(ctx: ApiContext, req: Request, res: Response): void {
  const params: CallListParams = isPlainObject(req.body) ? (req.body as CallListParams) : {};
  const criteria = params.filter_criteria ?? {};
  let items = ctx.calls.filter((call) => {
    const object = call.object;
    if (
      criteria.metadata &&
      !criteria.metadata.every((f) =>
        metadataMatches(object.metadata, f as { key?: string; op: string; value: unknown; type: string }),
      )
    )
      return false;
    if (criteria.to_number && object.to_number !== criteria.to_number.value) return false;
    if (criteria.from_number && object.from_number !== criteria.from_number.value) return false;
    if (criteria.call_status && !criteria.call_status.value.includes(object.call_status as 'ended')) return false;
    return true;
  });
  // Sorted by start_timestamp (creation time here), descending by default.
  items = [...items].sort((a, b) =>
    params.sort_order === 'ascending' ? a.createdAtMs - b.createdAtMs : b.createdAtMs - a.createdAtMs,
  );
  const limit = Math.max(1, Math.min(params.limit ?? 50, 1000));
  const skip = Math.max(0, Number(params.pagination_key ?? params.skip ?? 0) || 0);
  const page = items.slice(skip, skip + limit);
  const hasMore = skip + limit < items.length;
  send(res, 200, {
    items: page.map((call) => call.object),
    has_more: hasMore,
    ...(hasMore ? { pagination_key: String(skip + limit) } : {}),
    ...(params.include_total ? { total: items.length } : {}),
  });
}

export function createRetellApi(ctx: ApiContext): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: '5mb' }));
  // Logged on arrival, so that a request still unanswered (a stalled create) is listed too.
  router.use((req, res, next) => {
    const entry: RequestLogEntry = {
      method: req.method,
      path: req.path,
      body: req.body,
      headers: { ...req.headers },
      status: null,
    };
    ctx.requests.push(entry);
    res.locals.logEntry = entry;
    next();
  });
  router.use((_req, res, next) => {
    if (ctx.outageStatus !== null) return send(res, ctx.outageStatus, errorBody(ctx.outageStatus));
    next();
  });
  router.use((req, res, next) => {
    if (req.headers.authorization !== `Bearer ${ctx.apiKey}`) {
      send(res, 401, errorBody(401));
      return;
    }
    next();
  });
  router.post('/v2/create-phone-call', (req, res) => createPhoneCall(ctx, req, res));
  router.get('/v2/get-call/:callId', (req, res) => {
    const call = ctx.calls.find((c) => c.providerCallId === req.params.callId);
    if (call) send(res, 200, call.object);
    else send(res, 422, errorBody(422));
  });
  router.delete('/v2/delete-call/:callId', (req, res) => {
    const index = ctx.calls.findIndex((c) => c.providerCallId === req.params.callId);
    if (index < 0) return send(res, 422, errorBody(422));
    ctx.calls.splice(index, 1);
    send(res, 204);
  });
  router.post('/v3/list-calls', (req, res) => listCalls(ctx, req, res));
  router.get('/get-concurrency', (_req, res) => {
    send(res, 200, {
      current_concurrency: inProgress(ctx),
      concurrency_limit: ctx.concurrencyLimit,
      base_concurrency: ctx.concurrencyLimit,
      purchased_concurrency: 0,
      concurrency_burst_enabled: false,
      concurrency_burst_limit: ctx.concurrencyLimit,
      reserved_inbound_concurrency: 0,
    });
  });
  router.use((_req, res) => send(res, 404, errorBody(404, 'Not found.')));
  return router;
}
