// Vapi's REST API for calls: POST /call, GET /call, GET /call/{id}, DELETE /call/{id} (OpenAPI
// CallController_*). A deleted call is gone: GET /call/{id} answers 404 for it.
//
// Auth: `Authorization: Bearer <private key>`, else 401. Errors use NestJS's body shape,
// { message, error, statusCode } (Vapi's API is NestJS; the 400 shape is seen in public issues).
// The exact wording of Vapi's messages is not documented; the ones here follow class-validator's
// phrasing and what integrators have reported (e.g. the E.164 hint).
// Concurrency (docs.vapi.ai/calls/call-concurrency): past `concurrencyLimit` calls in progress, a
// create answers 201 with `subscriptionLimits.concurrencyBlocked: true`. What becomes of that call
// the docs have said both ways: the current page says blocked calls "do not connect" (the call
// ends as call.start.error-subscription-concurrency-limit-reached: `concurrencyRefusal:
// 'blocked-call'`, the default), an earlier one that they "wait until a slot becomes free", and
// the billing page that they "queue or be rejected" (`'queued-call'`: the call stays queued and
// is dialled as scripted; the wait for a slot is not timed, its life runs from its creation as
// any call's). `'bad-request'` answers a 400 instead, the other signal integrators have to expect.
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { Vapi } from '@vapi-ai/server-sdk';
import type { CreateFailure, EmulatedCall, EmulatorState } from './state.js';

export interface ApiOptions {
  apiKey: string;
  concurrencyLimit: number;
  concurrencyRefusal: 'blocked-call' | 'queued-call' | 'bad-request';
  /** Known assistant ids; when given, others are refused with a 400. */
  assistantIds?: string[];
  /** Known phone number ids → their E.164 number; when given, others are refused with a 400. */
  phoneNumbers?: Record<string, string>;
}

export const ORG_ID = '7c0e6a1e-1f0b-4a8e-9a57-0d6c5b1f2e3a';
const E164 = /^\+[1-9]\d{1,14}$/;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function errorBody(status: number, message?: string | string[]): Record<string, unknown> {
  const error = STATUS_TEXT[status] ?? 'Error';
  return { message: message ?? error, error, statusCode: status };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function validationErrors(body: Record<string, unknown>, options: ApiOptions): string[] {
  const errors: string[] = [];
  const customer = (body.customer ?? {}) as Record<string, unknown>;
  const hasAssistant = ['assistantId', 'assistant', 'squadId', 'squad', 'workflowId', 'workflow'].some(
    (k) => body[k] !== undefined,
  );
  if (!hasAssistant)
    errors.push(
      "Couldn't Get Assistant. Need Either `assistant`, `assistantId`, `squad`, `squadId`, `workflow`, or `workflowId`.",
    );
  else if (
    options.assistantIds &&
    typeof body.assistantId === 'string' &&
    !options.assistantIds.includes(body.assistantId)
  ) {
    errors.push("Couldn't Get Assistant. `assistantId` Does Not Exist.");
  }
  if (body.phoneNumberId === undefined && body.phoneNumber === undefined)
    errors.push("Couldn't Get Phone Number. Need Either `phoneNumberId` Or `phoneNumber`.");
  else if (
    options.phoneNumbers &&
    typeof body.phoneNumberId === 'string' &&
    !(body.phoneNumberId in options.phoneNumbers)
  ) {
    errors.push("Couldn't Get Phone Number. `phoneNumberId` Does Not Exist.");
  }
  if (typeof customer.number !== 'string') errors.push('customer.number must be a string');
  else if (customer.numberE164CheckEnabled !== false && !E164.test(customer.number)) {
    errors.push(
      'customer.number must be a valid phone number in the E.164 format. Hot tip, you may be missing the country code (Eg. US: +1).',
    );
  }
  if (typeof body.name === 'string' && body.name.length > 40)
    errors.push('name must be shorter than or equal to 40 characters');
  return errors;
}

function sendFailure(res: express.Response, failure: CreateFailure): void {
  if (failure.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(failure.retryAfterSeconds));
  if (failure.retryAfterMs !== undefined) res.setHeader('retry-after-ms', String(failure.retryAfterMs));
  res.status(failure.status).json(failure.body ?? errorBody(failure.status));
}

function newCall(state: EmulatorState, body: Record<string, unknown>): Vapi.Call {
  const at = state.now().toISOString();
  const id = randomUUID();
  const phoneNumberId = body.phoneNumberId as string;
  return {
    id,
    orgId: ORG_ID,
    createdAt: at,
    updatedAt: at,
    type: 'outboundPhoneCall',
    status: 'queued',
    phoneCallProvider: 'twilio',
    phoneCallTransport: 'pstn',
    phoneCallProviderId: `CA${id.replace(/-/g, '')}`,
    monitor: {
      listenUrl: `wss://phone-call-websocket.aws-us-west-2-backend-production1.vapi.ai/${id}/listen`,
      controlUrl: `https://phone-call-websocket.aws-us-west-2-backend-production1.vapi.ai/${id}/control`,
    },
    ...(body.assistantId ? { assistantId: body.assistantId as string } : {}),
    ...(body.assistantOverrides ? { assistantOverrides: body.assistantOverrides as Vapi.AssistantOverrides } : {}),
    phoneNumberId,
    customer: body.customer as Vapi.CreateCustomerDto,
    ...(typeof body.name === 'string' ? { name: body.name } : {}),
  };
}

function inWindow(call: Vapi.Call, query: Record<string, string>): boolean {
  const checks: Array<[string, 'createdAt' | 'updatedAt', (a: number, b: number) => boolean]> = [
    ['createdAtGt', 'createdAt', (a, b) => a > b],
    ['createdAtGe', 'createdAt', (a, b) => a >= b],
    ['createdAtLt', 'createdAt', (a, b) => a < b],
    ['createdAtLe', 'createdAt', (a, b) => a <= b],
    ['updatedAtGt', 'updatedAt', (a, b) => a > b],
    ['updatedAtGe', 'updatedAt', (a, b) => a >= b],
    ['updatedAtLt', 'updatedAt', (a, b) => a < b],
    ['updatedAtLe', 'updatedAt', (a, b) => a <= b],
  ];
  return checks.every(
    ([param, field, compare]) =>
      query[param] === undefined || compare(Date.parse(call[field]), Date.parse(query[param])),
  );
}

export function createVapiApi(state: EmulatorState, options: ApiOptions): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));

  // Request log: every API request, with the status it got.
  router.use((req, res, next) => {
    const entry = {
      method: req.method,
      path: req.path,
      query: { ...(req.query as Record<string, string>) },
      body: req.body,
      status: 0,
    };
    state.requests.push(entry);
    res.on('finish', () => (entry.status = res.statusCode));
    next();
  });

  // An incident at Vapi: every request answers the outage's status (NestJS's error body).
  router.use((_req, res, next) => {
    if (state.outageStatus !== null) return void res.status(state.outageStatus).json(errorBody(state.outageStatus));
    next();
  });

  router.use((req, res, next) => {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (match?.[1] !== options.apiKey) {
      res
        .status(401)
        .json(
          errorBody(
            401,
            'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
          ),
        );
      return;
    }
    next();
  });

  router.post('/call', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const failure = state.createFailures.shift();
    if (failure) return sendFailure(res, failure);
    const errors = validationErrors(body, options);
    if (errors.length > 0) return void res.status(400).json(errorBody(400, errors));

    const inProgress = state.calls.filter((c) => !c.ended && c.call.type === 'outboundPhoneCall').length;
    const blocked = inProgress >= options.concurrencyLimit;
    if (blocked && options.concurrencyRefusal === 'bad-request') {
      return void res
        .status(400)
        .json(
          errorBody(
            400,
            `Concurrency limit reached (${options.concurrencyLimit}). Wait for an active call to end or raise your reserved concurrency.`,
          ),
        );
    }
    const call = newCall(state, body);
    const ourNumber = options.phoneNumbers?.[call.phoneNumberId ?? ''] ?? '+15550000000';
    const emulated: EmulatedCall = { id: call.id, request: body, call, ourNumber, ended: false };
    if (blocked && options.concurrencyRefusal === 'blocked-call') {
      Object.assign(call, {
        status: 'ended',
        endedReason: 'call.start.error-subscription-concurrency-limit-reached',
        endedAt: call.createdAt,
      });
      emulated.ended = true;
    }
    state.calls.push(emulated);
    const stall = state.createStalls.shift();
    if (stall !== undefined) await sleep(stall);
    const subscriptionLimits: Vapi.SubscriptionLimits = {
      concurrencyBlocked: blocked,
      concurrencyLimit: options.concurrencyLimit,
      remainingConcurrentCalls: Math.max(0, options.concurrencyLimit - inProgress - (blocked ? 0 : 1)),
    };
    if (!res.destroyed) res.status(201).json({ ...call, subscriptionLimits });
  });

  router.get('/call', (req, res) => {
    const query = req.query as Record<string, string>;
    const limit = Math.min(Number(query.limit ?? 100), 1000);
    const calls = state.calls
      .map((c) => c.call)
      .filter(
        (call) =>
          (query.id === undefined || call.id === query.id) &&
          (query.assistantId === undefined || call.assistantId === query.assistantId) &&
          (query.phoneNumberId === undefined || call.phoneNumberId === query.phoneNumberId) &&
          inWindow(call, query),
      )
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
      .slice(0, limit);
    res.json(calls);
  });

  router.get('/call/:id', (req, res) => {
    const found = state.calls.find((c) => c.id === req.params.id);
    if (!found) return void res.status(404).json(errorBody(404, 'Call not found'));
    res.json(found.call);
  });

  router.delete('/call/:id', (req, res) => {
    const index = state.calls.findIndex((c) => c.id === req.params.id);
    if (index < 0) return void res.status(404).json(errorBody(404, 'Call not found'));
    const [deleted] = state.calls.splice(index, 1);
    res.json(deleted.call);
  });

  router.use((_req, res) => void res.status(404).json(errorBody(404, 'Cannot find route')));
  return router;
}
