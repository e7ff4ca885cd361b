// The OpenAPI description of /api/v1, built from the same zod schemas the routes parse with,
// so it cannot drift from the validation. Printed to schema/openapi.json (checked in; a test
// fails when stale) and served at GET /openapi.json. Every status an operation can answer is
// listed with its exact body, and test/api/openapi-conformance.test.ts checks real answers
// of every operation against the printed file.
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import {
  BulkImportBodySchema,
  BulkItemSchema,
  BulkUpdateBodySchema,
  CONTACT_STATUSES,
  ListQuerySchema,
  PatchBodySchema,
  SOURCE_KINDS,
  UpsertBodySchema,
} from '../domain/contacts/contacts.inputs.js';
import { PageLimitSchema, PageQuerySchema } from '../domain/shared/cursor.js';
import { ERROR_CODES, type ErrorCode } from '../domain/errors.js';
import { ENROLLMENT_END_REASONS } from '../domain/enrollment/workflow-enrollments.service.js';
import {
  ContactSelectionSchema,
  ENROLLMENT_STATES,
  EnrollContactsSchema,
  EnrollmentPageQuerySchema,
} from '../domain/enrollment/workflow-enrollments.inputs.js';
import { NOT_ENROLLED_LISTED, NOT_ENROLLED_REASONS } from '../domain/enrollment/enrollment-jobs.rules.js';
import { WORKFLOW_STATUSES } from '../domain/workflows/workflows.service.js';
import {
  RESULT_NAMES,
  RESULTS_GROUPINGS,
  WorkflowResultsQuerySchema,
} from '../domain/workflows/workflow-results.service.js';
import { CONTACT_RESPONSE_FIELDS } from '../domain/contacts/contacts.rules.js';
import { allowHeader } from '../http/options.js';
import { HTTP_EDGE_DEFAULTS } from '../config/http-edge-env.js';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from '../http/idempotency.js';
import {
  ANSWER_EXAMPLES,
  curlSample,
  errorExample,
  PATH_EXAMPLES,
  REGISTRY_FILE_EXAMPLE,
  REQUEST_EXAMPLES,
  WEBHOOK_EXAMPLES,
} from './openapi-examples.js';
import {
  CreateWebhookEndpointSchema,
  DeliveryListSchema,
  UpdateWebhookEndpointSchema,
} from '../domain/webhooks/webhook-endpoints.inputs.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/webhook-events.rules.js';
import { CALL_PURPOSES, CONSENT_KINDS, DNC_REGISTRIES } from '../domain/calling-rules/calling-rule.types.js';
import {
  CallingPolicyBodySchema,
  CONSENT_METHODS,
  ConsentBodySchema,
  RevokeConsentsBodySchema,
} from '../domain/calling-rules/calling-rules.inputs.js';
import { DIALING_REASON_CODES } from '../domain/calling-rules/dialing-decision.rules.js';
import { CALL_AUDIT_COLUMNS, CallAuditQuerySchema } from '../domain/calling-rules/call-audit.service.js';

const json = (schema: z.ZodType) => {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

const nullable = (type: string, extra: object = {}) => ({ type: [type, 'null'], ...extra });
const timestamp = { type: 'string', format: 'date-time', description: 'UTC with milliseconds and Z' };

const Contact = {
  type: 'object',
  additionalProperties: false,
  required: [...CONTACT_RESPONSE_FIELDS],
  properties: {
    id: { type: 'string', format: 'uuid' },
    accountId: { type: 'string', format: 'uuid' },
    firstName: nullable('string'),
    lastName: nullable('string'),
    fullName: nullable('string'),
    phone: nullable('string', { description: 'E.164' }),
    location: nullable('string', { description: 'ISO 3166 code: country or country-region' }),
    locationDefaulted: { type: 'boolean' },
    timezone: nullable('string', { description: 'IANA time zone' }),
    timezoneInferred: { type: 'boolean' },
    language: nullable('string'),
    status: { enum: [...CONTACT_STATUSES, null] },
    sourceKind: { enum: [...SOURCE_KINDS] },
    externalId: nullable('string'),
    customFields: nullable('object'),
    priority: { type: 'integer', minimum: 0, maximum: 1000 },
    assignedWorkflowId: nullable('string', { format: 'uuid' }),
    callCount: { type: 'integer', minimum: 0 },
    maxAttempts: nullable('integer'),
    lastCallAt: { ...timestamp, type: ['string', 'null'] },
    nextCallAt: { ...timestamp, type: ['string', 'null'] },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
};

const CallRecord = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'contactId',
    'workflowId',
    'agentId',
    'direction',
    'status',
    'result',
    'endReason',
    'startedAt',
    'endedAt',
    'durationSeconds',
    'language',
    'lastCall',
    'transcriptAvailable',
    'recordingUrl',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    contactId: { type: 'string', format: 'uuid' },
    workflowId: nullable('string', { format: 'uuid' }),
    agentId: nullable('string', { format: 'uuid' }),
    direction: { enum: ['outbound', 'inbound'] },
    status: { type: 'string' },
    result: nullable('string', { description: 'Call result, e.g. converted, no_answer, voicemail' }),
    endReason: nullable('string'),
    startedAt: {
      ...timestamp,
      description: 'When the call was placed (outbound) or started (inbound); the list order',
    },
    endedAt: { ...timestamp, type: ['string', 'null'] },
    durationSeconds: nullable('integer', { minimum: 0 }),
    language: nullable('string', { description: 'Locale the call ended in' }),
    lastCall: { type: 'boolean', description: 'True when no further attempt follows this call' },
    transcriptAvailable: {
      type: 'boolean',
      description:
        'True when the report is ready and the call has at least one utterance (the transcript is then non-empty)',
    },
    recordingUrl: nullable('string', {
      description:
        'The recording of the call, as the voice provider reported it (its URL, which may expire); null when there is none',
    }),
  },
};

const Transcript = {
  type: 'object',
  additionalProperties: false,
  required: ['utterances'],
  properties: {
    utterances: {
      type: 'array',
      description: "In conversation order; empty until the call's report is ready, and for a call without a transcript",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['speaker', 'content', 'timestamp'],
        properties: {
          speaker: nullable('string', { description: '`assistant` for the voice agent, `user` for the contact' }),
          content: nullable('string', { description: 'What the speaker said' }),
          timestamp: {
            ...timestamp,
            type: ['string', 'null'],
            description: 'When it was spoken (UTC with milliseconds and Z)',
          },
        },
      },
    },
  },
};

const Workflow = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'status'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    status: { enum: [...WORKFLOW_STATUSES] },
  },
};

const dateTime = { type: 'string', format: 'date-time' };

const resultCounts = (description: string) => ({
  type: 'array',
  description,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['result', 'count'],
    properties: { result: { enum: [...RESULT_NAMES] }, count: { type: 'integer', minimum: 0 } },
  },
});
const nullableNumber = (description: string) => ({ type: ['number', 'null'], description });
const nullableCount = (description: string) => ({ type: ['integer', 'null'], minimum: 0, description });
const count = (description: string) => ({ type: 'integer', minimum: 0, description });

const ResultFigures = {
  type: 'object',
  additionalProperties: false,
  description: 'The figures of the window (docs/campaigns.md, "Workflow results", defines each)',
  required: [
    'enrolled',
    'attempted',
    'reached',
    'converted',
    'calls',
    'connected',
    'connectRate',
    'conversionRate',
    'durationMedianSeconds',
    'durationP90Seconds',
    'attemptsPerConversion',
    'results',
  ],
  properties: {
    enrolled: nullableCount('Enrollments of the workflow started in the window; null per agent'),
    attempted: count('Contacts whose first call of the workflow was placed in the window'),
    reached: count(
      'Contacts whose first call that reached them (answered … converted, do_not_call) was placed in the window',
    ),
    converted: count('Contacts whose first converted call was placed in the window'),
    calls: count('Ended calls placed in the window'),
    connected: count('Ended calls where a person talked with the agent'),
    connectRate: nullableNumber('connected / calls; null without calls'),
    conversionRate: nullableNumber('converted / attempted; null without attempted contacts'),
    durationMedianSeconds: nullableCount(
      "The connected calls' median duration, as the lower bound of its histogram bucket; null without connected calls",
    ),
    durationP90Seconds: nullableCount("The connected calls' 90th percentile duration; null without connected calls"),
    attemptsPerConversion: nullableNumber(
      'The calls up to and including each conversion counted in converted, on average; null without conversions',
    ),
    results: resultCounts('Each of the 21 call results, in a fixed order, with its count (zeros included)'),
  },
};

const WorkflowResults = {
  type: 'object',
  additionalProperties: false,
  required: ['workflowId', 'from', 'to', 'timeZone', 'groupBy', 'totals', 'days', 'agents'],
  properties: {
    workflowId: { type: 'string', format: 'uuid' },
    from: timestamp,
    to: timestamp,
    timeZone: { type: 'string', description: 'The canonical IANA name of the zone the days are counted in' },
    groupBy: { enum: [...RESULTS_GROUPINGS] },
    totals: { $ref: '#/components/schemas/ResultFigures' },
    days: {
      type: 'array',
      description: 'groupBy=day: each day (in timeZone) with calls, oldest first; empty for groupBy=agent',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['date', 'calls', 'results'],
        properties: {
          date: { type: 'string', format: 'date' },
          calls: count('Ended calls placed that day'),
          results: resultCounts('The results counted that day'),
        },
      },
    },
    agents: {
      type: 'array',
      description: 'groupBy=agent: the figures of each agent that placed calls in the window; empty for groupBy=day',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['agentId', 'figures'],
        properties: {
          agentId: { type: ['string', 'null'], format: 'uuid', description: 'null: calls without an agent' },
          figures: { $ref: '#/components/schemas/ResultFigures' },
        },
      },
    },
  },
};
const jobStatus = {
  enum: ['queued', 'running', 'done'],
  description: 'queued: stored, not started; running: being written; done: every item written or rejected',
};

const ImportJob = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'accepted', 'created', 'updated', 'rejected', 'createdAt', 'finishedAt'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: jobStatus,
    accepted: { type: 'integer', minimum: 0, description: 'Items that passed validation (as the 202 said)' },
    created: { type: 'integer', minimum: 0, description: 'Items that created a contact' },
    updated: {
      type: 'integer',
      minimum: 0,
      description: 'Items that updated a stored contact (or one an earlier item of the import created)',
    },
    rejected: {
      type: 'array',
      description:
        "Items not written: refused at validation (as in the 202), or skipped by the writer (`custom-fields-over-limit`: merged with the stored contact's, its customFields would pass the limits); index is the item's in the request",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'reason'],
        properties: {
          index: { type: 'integer', minimum: 0 },
          reason: { enum: ['missing-dedup-field', 'dedup-key-too-long', 'invalid-phone', 'custom-fields-over-limit'] },
        },
      },
    },
    createdAt: dateTime,
    finishedAt: { ...dateTime, type: ['string', 'null'], description: 'Null until done' },
  },
};

const BulkUpdateJob = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'matched', 'changed', 'skipped', 'skippedCount', 'createdAt', 'finishedAt'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: jobStatus,
    matched: { type: 'integer', minimum: 0, description: 'Contacts the filter matched so far' },
    changed: { type: 'integer', minimum: 0, description: 'Of those, the contacts changed' },
    skipped: {
      type: 'array',
      maxItems: 1000,
      description: 'Matched contacts left unchanged, with why: the first 1000 (skippedCount counts them all)',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['contactId', 'reason', 'conflictsWith'],
        properties: {
          contactId: { type: 'string', format: 'uuid' },
          reason: { enum: ['dedup-conflict', 'missing-dedup-field', 'dedup-key-too-long', 'custom-fields-over-limit'] },
          conflictsWith: {
            type: ['string', 'null'],
            format: 'uuid',
            description:
              'For a dedup-conflict: the contact that holds the dedup key the change would have given (null when it was taken during the write)',
          },
        },
      },
    },
    skippedCount: { type: 'integer', minimum: 0 },
    createdAt: dateTime,
    finishedAt: { ...dateTime, type: ['string', 'null'], description: 'Null until done' },
  },
};

const webhookEventType = { enum: [...WEBHOOK_EVENT_TYPES] };

const WebhookEndpoint = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'url',
    'description',
    'events',
    'disabled',
    'disabledReason',
    'failingSince',
    'previousSecretExpiresAt',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    url: { type: 'string', format: 'uri', description: 'https, to a public address' },
    description: { type: ['string', 'null'], maxLength: 500 },
    events: { type: 'array', minItems: 1, uniqueItems: true, items: webhookEventType },
    disabled: { type: 'boolean' },
    disabledReason: {
      type: ['string', 'null'],
      description: 'Why it is disabled: through the API, or its attempts failed for 5 days',
    },
    failingSince: {
      ...dateTime,
      type: ['string', 'null'],
      description: 'The first failed attempt since the last success; null while deliveries succeed',
    },
    previousSecretExpiresAt: {
      ...dateTime,
      type: ['string', 'null'],
      description: 'After a rotation: until when the previous secret signs too (24 hours)',
    },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
};

const WebhookEndpointWithSecret = {
  ...WebhookEndpoint,
  required: [...WebhookEndpoint.required, 'secret'],
  properties: {
    ...WebhookEndpoint.properties,
    secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
      description: 'The signing secret, shown this once: verify deliveries with it (Standard Webhooks)',
    },
  },
};

const WebhookEvent = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'timestamp', 'data'],
  description:
    'The body of every delivery (Standard Webhooks): the event type, when it happened, and its data (see the webhooks of this document)',
  properties: {
    type: { type: 'string' },
    timestamp: dateTime,
    data: { description: 'By type: a call, a contact, a deleted contact, an import or a bulk-update' },
  },
};

const WebhookDelivery = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'endpointId',
    'eventId',
    'webhookId',
    'eventType',
    'status',
    'attempts',
    'responseStatus',
    'lastError',
    'nextAttemptAt',
    'lastAttemptAt',
    'createdAt',
    'deliveredAt',
    'payload',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    endpointId: { type: 'string', format: 'uuid' },
    eventId: { type: 'string', format: 'uuid' },
    webhookId: {
      type: 'string',
      description: 'The webhook-id header: msg_ and the event id, the same on every attempt',
    },
    eventType: { type: 'string', description: 'An event type, or webhook_endpoint.disabled for the notice' },
    status: {
      enum: ['pending', 'delivered', 'failed', 'cancelled', 'notice'],
      description:
        'pending: to be sent (again); delivered: answered 2xx; failed: given up after 3 days of retries; notice: a line of the log, not sent (the endpoint was disabled)',
    },
    attempts: { type: 'integer', minimum: 0 },
    responseStatus: { type: ['integer', 'null'], description: "The last attempt's HTTP status; null: no answer" },
    lastError: {
      type: ['string', 'null'],
      description: "Why the last attempt failed (the answer's status and start, or no answer)",
    },
    nextAttemptAt: {
      ...dateTime,
      type: ['string', 'null'],
      description: 'When pending: the next attempt (null while an attempt is in flight)',
    },
    lastAttemptAt: { ...dateTime, type: ['string', 'null'] },
    createdAt: dateTime,
    deliveredAt: { ...dateTime, type: ['string', 'null'] },
    payload: { $ref: '#/components/schemas/WebhookEvent' },
  },
};

const ErrorBody = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'message', 'code', 'requestId'],
  properties: {
    error: { type: 'string', description: 'HTTP status text' },
    message: { type: 'string', description: 'Explanation; wording can change' },
    code: {
      type: 'string',
      description:
        'Stable machine-readable value (each response lists the codes it answers today); new codes can be added',
    },
    requestId: { type: 'string', description: 'Also in the x-request-id header' },
    issues: {
      type: 'array',
      description: 'On a 400: the bad fields',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    contacts: {
      type: 'array',
      description: 'On a 409: the contacts involved',
      items: { $ref: '#/components/schemas/Contact' },
    },
    scope: {
      type: ['string', 'null'],
      description: "On a 403: the API key scope the operation needs (null: none of a key's scopes allows it)",
    },
  },
};

const REQUEST_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const requestIdHeader = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
/** On every answer: the rate-limit policies that applied and what is left of them. */
const rateLimitHeaders = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};
const RATE_LIMIT_ITEM = '"(address|key)";';
const requestIdParameter = { $ref: '#/components/parameters/RequestId' };
const idempotencyKeyParameter = { $ref: '#/components/parameters/IdempotencyKey' };
/** Every write's parameters: the request id and the Idempotency-Key. */
const writeParameters = [requestIdParameter, idempotencyKeyParameter];
/** On a write's answer replayed for an Idempotency-Key (never on a first answer). */
const replayedHeader = { [REPLAYED_HEADER]: { $ref: '#/components/headers/IdempotentReplayed' } };

/**
 * A response: every one carries x-request-id and the rate-limit fields; Idempotent-Replayed
 * only where a write's answer is replayed for its Idempotency-Key.
 */
const answer = (
  description: string,
  content?: Record<string, { schema: object; example?: unknown }>,
  headers: object = {},
) => ({
  description,
  headers: { ...requestIdHeader, ...rateLimitHeaders, ...replayedHeader, ...headers },
  ...(content ? { content } : {}),
});
const jsonAnswer = (description: string, schema: object, example: unknown) =>
  answer(description, { 'application/json': { schema, example } });

/** The error body with this status's text and codes; `also` constrains it further (e.g. contacts required). */
function errorAnswer(description: string, codes: ErrorCode[], also: object = {}) {
  const status = ERROR_CODES[codes[0]];
  const error = STATUS_CODES[status] ?? String(status);
  const listsContacts = 'required' in also;
  return jsonAnswer(
    description,
    {
      allOf: [
        ref('ErrorBody'),
        { type: 'object', properties: { error: { const: error }, code: { enum: codes } }, ...also },
      ],
    },
    errorExample(error, codes[0], description, listsContacts),
  );
}

/** The errors every /api/v1 operation can answer, by status (see components.responses). */
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const standardErrors = {
  400: responseRef('BadRequest'),
  401: responseRef('Unauthenticated'),
  403: responseRef('Forbidden'),
  429: responseRef('RateLimited'),
  500: responseRef('Internal'),
} as const;
const notFound = { 404: responseRef('NotFound') };
const tooLarge = { 413: responseRef('PayloadTooLarge') };
const unprocessable = { 422: responseRef('UnprocessableContact') };
/** A write's answers to its Idempotency-Key: in use by a request still running, or used for another request. */
const IN_USE =
  'the Idempotency-Key is held by a request still running (`idempotency_key_in_use`): retry once it has answered';
const keyInUse = { 409: responseRef('IdempotencyKeyInUse') };
const keyReused = { 422: responseRef('IdempotencyKeyReused') };
/** A keyed write with a body: its key in use or reused, its body too large. */
const keyedWrite = { ...keyInUse, ...tooLarge, ...keyReused };

/** Several contacts have the external ID: the 409 lists them. */
const severalMatch = {
  409: errorAnswer('Several contacts have this external ID; `contacts` lists them (read one by its id)', ['conflict'], {
    required: ['contacts'],
    properties: { contacts: { type: 'array', minItems: 2 } },
  }),
};

/** An erasure's answer: no content, and never a replay (a DELETE takes no Idempotency-Key). */
const erased = {
  description:
    "Erased: the contact, its enrollments, its calls' transcripts and recordings' references are gone (its calls' results remain as anonymous counts); reads of it now answer 404",
  headers: { ...requestIdHeader, ...rateLimitHeaders },
};
const ERASURE_DESCRIPTION =
  "Removes the contact and its personal data in one transaction: the contact, its enrollments, its calls with their transcripts and recordings' references, its board item link, and the stored answers, events and reports that name it. Each call's result remains only as a count (GraphQL `Workflow.callResults`). A `contact.deleted` event naming only the contact's id and its `sourceKind` and `externalId` follows for the Account's receivers. The phone is put on the block list only with `block=true`. Answers 204, then 404 for that contact.";
const blockParameter = {
  name: 'block',
  in: 'query',
  required: false,
  description:
    "true: also put the contact's phone on the Account's block list (a later upsert of it is stored as `dnc`, and it is never called); any value other than true or false is a 400",
  schema: { type: 'boolean', default: false },
  example: false,
};

const page = (item: string) => ({
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: {
    data: { type: 'array', items: ref(item) },
    nextToken: { type: 'string', minLength: 1, description: 'Absent on the last page' },
  },
});

/** The workflows page always carries nextToken, null on the last page (docs/decisions/0021-rest-request-rules.md: Pages). */
const workflowPage = {
  type: 'object',
  additionalProperties: false,
  required: ['data', 'nextToken'],
  properties: {
    data: { type: 'array', items: ref('Workflow') },
    nextToken: { type: ['string', 'null'], minLength: 1, description: 'Null on the last page' },
  },
};

function queryParameters(schema: z.ZodObject) {
  const described = json(schema) as { properties: Record<string, object> };
  return Object.entries(described.properties).map(([name, s]) => ({ name, in: 'query', required: false, schema: s }));
}

const idPath = (description: string) => [
  {
    name: 'id',
    in: 'path',
    required: true,
    description,
    schema: { type: 'string', format: 'uuid' },
    example: PATH_EXAMPLES.id,
  },
];
const externalIdPath = [
  {
    name: 'sourceKind',
    in: 'path',
    required: true,
    schema: { enum: [...SOURCE_KINDS] },
    example: PATH_EXAMPLES.sourceKind,
  },
  {
    name: 'externalId',
    in: 'path',
    required: true,
    description: 'Percent-encoded; matching is case- and accent-sensitive and ignores trailing spaces',
    schema: { type: 'string', minLength: 1, maxLength: 256 },
    example: PATH_EXAMPLES.externalId,
  },
];

const BODY_NOTE =
  'Read as JSON whatever the Content-Type says, and only once the key is accepted (a request without a valid key is refused unread); 10 MB at most (413 above that)';
const body = (schema: object, example: unknown) => ({
  required: true,
  description: BODY_NOTE,
  content: { 'application/json': { schema, example } },
});

type Operation = {
  parameters?: Array<{ in?: string; $ref?: string }>;
  requestBody?: { content: Record<string, { example?: unknown }> };
} & Record<string, unknown>;

/** `/api/v1/contacts/{id}` → `optionsContactsId`: OPTIONS has no operationId of its own to keep. */
const optionsOperationId = (path: string) =>
  `options${path
    .replace(/^\/api\/v1\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('')}`;

/**
 * OPTIONS on each path: 204, Allow, no body, no key (src/http/options.ts answers it). It takes
 * the path's parameters, which every path template must declare for each of its operations.
 */
function withOptions(paths: Record<string, Record<string, Operation>>) {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const pathParameters = (Object.values(item)[0].parameters ?? []).filter((p) => p.in === 'path');
      return [
        path,
        {
          ...item,
          options: {
            operationId: optionsOperationId(path),
            tags: ['Methods'],
            // The path in the summary: the page lists every OPTIONS operation together.
            summary: `Methods of ${path.replace(/^\/api\/v1/, '')}`,
            security: [],
            parameters: [...pathParameters, requestIdParameter],
            responses: {
              204: answer('No content; Allow names the methods', undefined, {
                Allow: {
                  required: true,
                  schema: { const: allowHeader(Object.keys(item).map((m) => m.toUpperCase())) },
                },
              }),
              429: responseRef('RateLimited'),
            },
          },
        },
      ];
    }),
  );
}

/** Each operation gets a curl sample (x-codeSamples) sending its example body. */
function withRequestSamples(paths: Record<string, Record<string, Operation>>) {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [
          method,
          {
            ...operation,
            'x-codeSamples': curlSample(
              method,
              path,
              operation.requestBody?.content['application/json']?.example,
              operation.requestBody?.content['text/plain']
                ? { query: 'downloadedAt=2026-11-20&areaCodes=415,628', file: 'registry.txt' }
                : undefined,
            ),
          },
        ]),
      ),
    ]),
  );
}

/** What each event's data is (the OpenAPI `webhooks`: what a receiver gets). */
const WEBHOOK_DATA: Record<(typeof WEBHOOK_EVENT_TYPES)[number], { summary: string; data: object }> = {
  'call.ended': {
    summary: "A call ended: the board trigger's outputs and the call",
    data: {
      type: 'object',
      required: ['callResult', 'callId', 'contactId', 'call'],
      properties: {
        itemId: { type: ['integer', 'string', 'null'], description: 'The monday item the contact came from' },
        boardId: { type: ['integer', 'string', 'null'] },
        callResult: { type: 'string' },
        endReason: { type: 'string' },
        durationSeconds: { type: 'integer' },
        isLastCall: { type: 'boolean' },
        callId: { type: 'string', format: 'uuid' },
        contactId: { type: 'string', format: 'uuid' },
        agentId: { type: ['string', 'null'], format: 'uuid' },
        workflowId: { type: ['string', 'null'], format: 'uuid' },
        call: ref('CallRecord'),
      },
    },
  },
  'contact.created': {
    summary: 'A contact was created (the contact, as GET /contacts/{id} answers)',
    data: ref('Contact'),
  },
  'contact.updated': { summary: 'A contact was changed (the contact as it stands)', data: ref('Contact') },
  'contact.deleted': {
    summary: 'A contact was erased (its id and external ID only)',
    data: {
      type: 'object',
      required: ['id', 'sourceKind', 'externalId', 'blocked', 'deletedAt'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        sourceKind: { enum: [...SOURCE_KINDS] },
        externalId: { type: ['string', 'null'] },
        blocked: { type: 'boolean', description: 'The phone was added to the block list (?block=true)' },
        deletedAt: dateTime,
      },
    },
  },
  'enrollment.started': {
    summary:
      'A contact was enrolled in a workflow, or its ended enrollment restarted (the enrollment, as the list shows it)',
    data: ref('Enrollment'),
  },
  'enrollment.ended': {
    summary: 'An enrollment ended (the enrollment, as GET /workflows/{id}/enrollments shows it: endReason says why)',
    data: ref('Enrollment'),
  },
  'import.completed': {
    summary: 'A bulk import is done (the import, as GET /imports/{id} answers)',
    data: ref('ImportJob'),
  },
  'bulk_update.completed': {
    summary: 'A bulk-update is done (as GET /bulk-updates/{id} answers)',
    data: ref('BulkUpdateJob'),
  },
};

/** The Standard Webhooks headers of every delivery. */
const webhookHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'msg_ and the event id: the same on every attempt; drop a delivery whose id you have seen',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: "The attempt's time, in seconds since 1970: refuse one far from your clock",
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}"> with the secret (two during a rotation)',
    schema: { type: 'string' },
  },
];

function webhookEvents() {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          tags: ['Webhooks'],
          summary: WEBHOOK_DATA[type].summary,
          security: [],
          parameters: webhookHeaders,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['type', 'timestamp', 'data'],
                  properties: { type: { const: type }, timestamp: dateTime, data: WEBHOOK_DATA[type].data },
                },
                example: WEBHOOK_EXAMPLES[type],
              },
            },
          },
          responses: {
            '2XX': { description: 'Received: any 2xx ends the delivery' },
            default: {
              description:
                'Anything else (or no answer in 10 s, or a redirect) is retried: 5 s, then tripling, at most 12 h apart, for 3 days',
            },
          },
        },
      },
    ]),
  );
}

type PathItem = Record<string, { parameters?: Array<{ in?: string; name?: string }> }>;

/**
 * The query parameters of each operation of the document, by `GET /api/v1/contacts/{id}`
 * (its method in capitals and its path template): the REST routes take these and refuse any
 * other (src/rest/rest.route.ts), so a route cannot take a parameter the document does not
 * list, nor silently ignore one it does not know.
 */

// --- calling rules -----------------------------------------------------------------------------

const jurisdiction = { type: 'string', description: 'ISO 3166: a country (US) or a subdivision (US-FL)' };
const AttemptCap = {
  type: 'object',
  additionalProperties: false,
  required: ['max', 'periodHours'],
  properties: { max: { type: 'integer', minimum: 1 }, periodHours: { type: 'integer', minimum: 1 } },
};
const CallingPolicy = {
  type: 'object',
  additionalProperties: false,
  required: [
    'purpose',
    'requireWrittenConsent',
    'attemptCap',
    'disabledJurisdictions',
    'legalAttemptCaps',
    'jurisdictions',
    'ruleSetVersion',
    'updatedAt',
    'updatedBy',
  ],
  properties: {
    purpose: { enum: [...CALL_PURPOSES] },
    requireWrittenConsent: { type: 'boolean' },
    attemptCap: { anyOf: [AttemptCap, { type: 'null' }], description: "The Account's own cap; null: none" },
    disabledJurisdictions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['jurisdiction', 'disabledAt', 'disabledBy'],
        properties: {
          jurisdiction,
          disabledAt: timestamp,
          disabledBy: { type: 'string', description: 'user:<id>, key:<id> or operator' },
        },
      },
    },
    legalAttemptCaps: {
      type: 'array',
      description: "The law's caps on calls to one contact, for the policy's purpose",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['ruleId', 'jurisdiction', 'max', 'periodHours', 'source', 'disabled'],
        properties: {
          ruleId: { type: 'string' },
          jurisdiction,
          max: { type: 'integer' },
          periodHours: { type: 'integer' },
          source: { type: 'string' },
          disabled: { type: 'boolean' },
        },
      },
    },
    jurisdictions: { type: 'array', items: jurisdiction, description: 'Every jurisdiction the rule set has rules for' },
    ruleSetVersion: { type: 'string' },
    updatedAt: { ...timestamp, type: ['string', 'null'], description: 'null while the Account has the defaults' },
    updatedBy: nullable('string'),
  },
};
const CallingPolicyChange = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'actor', 'change'],
  properties: {
    at: timestamp,
    actor: { type: 'string', description: 'user:<id>, key:<id> or operator' },
    change: { type: 'object', description: '{ field: { from, to } } for each field changed' },
  },
};
const Consent = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'contactId',
    'kind',
    'workflowId',
    'method',
    'evidence',
    'obtainedAt',
    'createdAt',
    'revokedAt',
    'revokedBy',
    'active',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    contactId: { type: 'string', format: 'uuid' },
    kind: { enum: [...CONSENT_KINDS] },
    workflowId: nullable('string', { format: 'uuid', description: 'null: every call of the Account' }),
    method: { enum: [...CONSENT_METHODS] },
    evidence: nullable('string'),
    obtainedAt: timestamp,
    createdAt: timestamp,
    revokedAt: { ...timestamp, type: ['string', 'null'] },
    revokedBy: { enum: ['api', 'do_not_call_result', 'erasure', 'block_list', null] },
    active: { type: 'boolean' },
  },
};
const Enrollment = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'contactId',
    'workflowId',
    'state',
    'startedAt',
    'endedAt',
    'endReason',
    'finalResult',
    'attempts',
    'nextCallAt',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    contactId: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'null once the contact is erased: the enrollment stays, with no link to the person',
    },
    workflowId: { type: 'string', format: 'uuid' },
    state: { enum: [...ENROLLMENT_STATES] },
    startedAt: timestamp,
    endedAt: { ...timestamp, type: ['string', 'null'] },
    endReason: {
      enum: [...ENROLLMENT_END_REASONS, null],
      description:
        'null while active; final_result (a call ended it: finalResult), attempt_limit, stopped, re_enrolled (a later enrollment replaced it), contact_erased (the contact was erased while it was active)',
    },
    finalResult: nullable('string', { description: 'The call result that ended it, when endReason is final_result' }),
    attempts: { type: 'integer', minimum: 0 },
    nextCallAt: {
      ...timestamp,
      type: ['string', 'null'],
      description: 'When the dialer may next call; null once ended or while a call is in progress',
    },
  },
};
const enrollmentPage = {
  type: 'object',
  additionalProperties: false,
  required: ['data', 'nextToken'],
  properties: {
    data: { type: 'array', items: ref('Enrollment') },
    nextToken: { type: ['string', 'null'], minLength: 1, description: 'Null on the last page' },
  },
};
const EnrollmentStopResult = {
  type: 'object',
  additionalProperties: false,
  required: ['stopped', 'notActive'],
  properties: {
    stopped: { type: 'integer', minimum: 0, description: 'Contacts whose active enrollment in the workflow ended' },
    notActive: {
      type: 'array',
      items: { type: 'string', format: 'uuid' },
      description:
        'Of the contactIds sent, those with no active enrollment in the workflow (always empty for a filter)',
    },
  },
};
const EnrollmentJob = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'workflowId',
    'status',
    'reEnroll',
    'enforceCallNow',
    'matched',
    'enrolled',
    'notEnrolledCount',
    'reasons',
    'notEnrolled',
    'createdAt',
    'startedAt',
    'finishedAt',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    workflowId: { type: 'string', format: 'uuid' },
    status: { enum: ['queued', 'running', 'done'] },
    reEnroll: { type: 'boolean' },
    enforceCallNow: { type: 'boolean' },
    matched: {
      type: 'integer',
      minimum: 0,
      description: "Contacts selected so far: the distinct ids sent, or the filter's matches",
    },
    enrolled: { type: 'integer', minimum: 0, description: 'Of those, the contacts enrolled' },
    notEnrolledCount: { type: 'integer', minimum: 0, description: 'Of those, the contacts not enrolled' },
    reasons: {
      type: 'array',
      description: 'How many contacts were not enrolled for each reason: every reason, zeros included',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['reason', 'count'],
        properties: { reason: { enum: [...NOT_ENROLLED_REASONS] }, count: { type: 'integer', minimum: 0 } },
      },
    },
    notEnrolled: {
      type: 'array',
      description: `The contacts not enrolled, with why: the first ${NOT_ENROLLED_LISTED} (notEnrolledCount counts them all). not_found: no contact of the Account has the id; workflow_not_published: the workflow was paused, unpublished or deleted while the job ran; already_enrolled: enrolled in this workflow now; already_called: this workflow has called it (send reEnroll to enroll it again); blocked: its phone is on the block list or it is marked dnc; no_consent: the calling rules need a consent it has not given for this workflow`,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['contactId', 'reason'],
        properties: {
          contactId: { type: 'string', format: 'uuid' },
          reason: { enum: [...NOT_ENROLLED_REASONS] },
        },
      },
    },
    createdAt: timestamp,
    startedAt: { ...timestamp, type: ['string', 'null'] },
    finishedAt: { ...timestamp, type: ['string', 'null'] },
  },
};
const DncRegistryImportResult = {
  type: 'object',
  additionalProperties: false,
  required: ['registry', 'downloadedAt', 'lines', 'numbers', 'scopes', 'bytesStored', 'bytesPerNumber'],
  properties: {
    registry: { enum: Object.keys(DNC_REGISTRIES) },
    downloadedAt: { ...timestamp, description: 'The day the file was downloaded (a date is 00:00 UTC that day)' },
    lines: { type: 'integer', minimum: 0, description: 'Lines read, blank and comment lines included' },
    numbers: { type: 'integer', minimum: 0, description: 'Distinct numbers stored' },
    scopes: {
      type: 'array',
      items: { type: 'string' },
      description:
        'The copies it replaced: for us_national and ca_national the area codes of its numbers and those named in areaCodes; else ["*"], the whole registry',
    },
    bytesStored: {
      type: 'number',
      minimum: 0,
      description: "The stored blocks' rows (tuple, header and line pointer; not the primary key's index)",
    },
    bytesPerNumber: { type: ['number', 'null'], description: 'bytesStored ÷ numbers; null without numbers' },
  },
};
const DncRegistryCopy = {
  type: 'object',
  additionalProperties: false,
  required: ['registry', 'scope', 'downloadedAt', 'importedAt', 'numbers', 'maxCopyAgeDays', 'fresh', 'freshUntil'],
  properties: {
    registry: { enum: Object.keys(DNC_REGISTRIES) },
    scope: { type: 'string', description: 'A +1 area code (us_national, ca_national), else * (the whole registry)' },
    downloadedAt: timestamp,
    importedAt: timestamp,
    numbers: { type: 'integer', minimum: 0 },
    maxCopyAgeDays: nullable('integer', {
      description: "The rule's most days a copy may be old (31 for the US: 47 CFR 64.1200(c)(2)(i)(D))",
    }),
    fresh: {
      type: 'boolean',
      description: 'Not older than maxCopyAgeDays: while false, no call is placed to a number it covers',
    },
    freshUntil: { ...timestamp, type: ['string', 'null'] },
  },
};
const nullableTimestamp = (description?: string) => ({
  ...timestamp,
  type: ['string', 'null'],
  ...(description ? { description } : {}),
});
const ContactDialing = {
  type: 'object',
  additionalProperties: false,
  required: [
    'contactId',
    'callableNow',
    'nextCallableAt',
    'reasons',
    'timeZones',
    'jurisdictions',
    'ruleSetVersion',
    'purpose',
    'ruleIds',
    'attempts',
    'consentUsed',
    'enrollment',
  ],
  properties: {
    contactId: { type: 'string', format: 'uuid' },
    callableNow: { type: 'boolean' },
    nextCallableAt: nullableTimestamp('null: not within 45 days, or not until someone acts (a reason without `until`)'),
    reasons: {
      type: 'array',
      description: 'Every rule that blocks a call now',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'message', 'jurisdiction', 'source', 'ruleId', 'until'],
        properties: {
          code: { enum: [...DIALING_REASON_CODES] },
          message: { type: 'string' },
          jurisdiction: nullable('string'),
          source: nullable('string', { description: 'The statute or regulation; null when no law is the reason' }),
          ruleId: nullable('string'),
          until: nullableTimestamp('When it stops blocking by itself; null when someone must act'),
        },
      },
    },
    timeZones: { type: 'array', items: { type: 'string' }, description: 'Every zone the contact may be in' },
    jurisdictions: { type: 'array', items: jurisdiction },
    ruleSetVersion: { type: 'string' },
    purpose: { enum: [...CALL_PURPOSES] },
    ruleIds: { type: 'array', items: { type: 'string' }, description: 'The rules that bind a call to the contact' },
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['ruleId', 'jurisdiction', 'max', 'periodHours', 'counted', 'source'],
        properties: {
          ruleId: nullable('string', { description: "null: the Account's own cap" }),
          jurisdiction: nullable('string'),
          max: { type: 'integer' },
          periodHours: { type: 'integer' },
          counted: { type: 'integer' },
          source: nullable('string'),
        },
      },
    },
    consentUsed: {
      anyOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'kind'],
          properties: { id: { type: 'string', format: 'uuid' }, kind: { enum: [...CONSENT_KINDS] } },
        },
        { type: 'null' },
      ],
    },
    enrollment: {
      anyOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['workflowId', 'agentId', 'attempts', 'dueAt', 'immediate'],
          properties: {
            workflowId: { type: 'string', format: 'uuid' },
            agentId: nullable('string', { format: 'uuid' }),
            attempts: { type: 'integer' },
            dueAt: nullableTimestamp(),
            immediate: { type: 'boolean' },
          },
        },
        { type: 'null' },
      ],
      description: 'The active enrollment decided for; null: none, the law and consent alone were checked',
    },
  },
};
const dataOf = (item: string) => ({
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: { data: { type: 'array', items: ref(item) } },
});
const severalOrInUse = {
  409: errorAnswer(`Several contacts have this external ID. Or ${IN_USE}`, ['conflict', 'idempotency_key_in_use']),
};
const inUseOnly = {
  409: errorAnswer(`The Idempotency-Key is held by a request still running: ${IN_USE}`, ['idempotency_key_in_use']),
};

/** The calling rules' operations: the policy, and each contact's consents and dialing decision (by id and by external ID). */
function callingRulePaths(): Record<string, Record<string, Operation>> {
  const byContact: Array<[string, string, Array<object>, object, object]> = [
    ['/api/v1/contacts/{id}', '', idPath("The contact's id"), {}, inUseOnly],
    [
      '/api/v1/contacts/source/{sourceKind}/external-id/{externalId}',
      'ByExternalId',
      externalIdPath,
      severalMatch,
      severalOrInUse,
    ],
  ];
  const paths: Record<string, Record<string, Operation>> = {
    '/api/v1/calling-policy': {
      get: {
        operationId: 'getCallingPolicy',
        tags: ['Calling rules'],
        summary: "Read the Account's calling policy",
        parameters: [requestIdParameter],
        responses: {
          200: jsonAnswer('The policy', ref('CallingPolicy'), ANSWER_EXAMPLES.callingPolicy),
          ...standardErrors,
        },
      },
      put: {
        operationId: 'setCallingPolicy',
        tags: ['Calling rules'],
        summary: "Change the Account's calling policy",
        description:
          "The fields sent replace theirs; those left out keep their value. Each change is recorded with who made it and when (GET /api/v1/calling-policy/changes). Turning a jurisdiction's rules off is explicit: `disabledJurisdictions` lists them. The dialer decides again at once for every enrollment it had set aside.",
        parameters: writeParameters,
        requestBody: body(json(CallingPolicyBodySchema), REQUEST_EXAMPLES.setCallingPolicy),
        responses: {
          200: jsonAnswer('The policy', ref('CallingPolicy'), ANSWER_EXAMPLES.callingPolicy),
          ...standardErrors,
          ...keyedWrite,
        },
      },
    },
    '/api/v1/calls/audit.csv': {
      get: {
        operationId: 'exportCallAuditCsv',
        tags: ['Calling rules'],
        summary: 'Export a page of the call audit as CSV: each placed call and what allowed it',
        description:
          'Outbound calls oldest first (placedAt, then callId), in [from, to). Each row: the call, the rule set version, the purpose, the zones and jurisdictions the contact may be in, the rules that bound the call, the consent used, and each attempt cap as rule:counted/max@periodh (the count before the call). The rule columns are empty for calls placed before the calling rules.',
        parameters: [...queryParameters(CallAuditQuerySchema), requestIdParameter],
        responses: {
          200: answer(
            `One page as CSV: a header row (${CALL_AUDIT_COLUMNS.join(', ')}), then a row per call (space-separated lists; nulls empty)`,
            { 'text/csv': { schema: { type: 'string' }, example: ANSWER_EXAMPLES.callAuditCsv } },
            {
              'x-next-token': {
                description: "The next page's nextToken; absent on the last page",
                required: false,
                schema: { type: 'string', minLength: 1 },
              },
            },
          ),
          ...standardErrors,
        },
      },
    },
    '/api/v1/calling-policy/changes': {
      get: {
        operationId: 'listCallingPolicyChanges',
        tags: ['Calling rules'],
        summary: "The calling policy's changes, newest first",
        parameters: [...queryParameters(z.object({ limit: PageLimitSchema })), requestIdParameter],
        responses: {
          200: jsonAnswer('The changes', dataOf('CallingPolicyChange'), ANSWER_EXAMPLES.callingPolicyChanges),
          ...standardErrors,
        },
      },
    },
  };
  for (const [base, suffix, pathParameters, several, conflicts] of byContact) {
    const by = suffix ? ' (by external ID)' : '';
    paths[`${base}/consents`] = {
      get: {
        operationId: `listContactConsents${suffix}`,
        tags: ['Calling rules'],
        summary: `A contact's consents, newest first, revoked ones included${by}`,
        parameters: [...pathParameters, requestIdParameter],
        responses: {
          200: jsonAnswer('The consents', dataOf('Consent'), ANSWER_EXAMPLES.consents),
          ...standardErrors,
          ...notFound,
          ...several,
        },
      },
      post: {
        operationId: `addContactConsent${suffix}`,
        tags: ['Calling rules'],
        summary: `Record a contact's consent to be called${by}`,
        description:
          'For every call of the Account, or for one workflow (`workflowId`). A call that needs consent is placed only while a consent of the kind the law (or the policy) asks for is live. Enrollments set aside for want of consent are due again at once.',
        parameters: [...pathParameters, ...writeParameters],
        requestBody: body(json(ConsentBodySchema), REQUEST_EXAMPLES.addConsent),
        responses: {
          201: jsonAnswer('The consent', ref('Consent'), ANSWER_EXAMPLES.consent),
          ...standardErrors,
          ...notFound,
          ...conflicts,
          ...tooLarge,
          ...keyReused,
        },
      },
    };
    paths[`${base}/consents/revoke`] = {
      post: {
        operationId: `revokeContactConsents${suffix}`,
        tags: ['Calling rules'],
        summary: `Revoke a contact's consents: all, the Account-wide ones, or one workflow's${by}`,
        description:
          "Takes effect for the dialer's next claim. A `do_not_call` call result, an erasure with `block=true` and putting the phone on the block list revoke too.",
        parameters: [...pathParameters, ...writeParameters],
        requestBody: body(json(RevokeConsentsBodySchema), REQUEST_EXAMPLES.revokeConsents),
        responses: {
          200: jsonAnswer(
            'The consents revoked (none when none was live)',
            dataOf('Consent'),
            ANSWER_EXAMPLES.consentsRevoked,
          ),
          ...standardErrors,
          ...notFound,
          ...conflicts,
          ...tooLarge,
          ...keyReused,
        },
      },
    };
    paths[`${base}/dialing`] = {
      get: {
        operationId: `getContactDialing${suffix}`,
        tags: ['Calling rules'],
        summary: `Whether the dialer may call the contact now, when next, and every rule that blocks it${by}`,
        description:
          "The dialer's own decision: for the contact's active enrollment (the agent's working hours as well), or the law and consent alone when it has none.",
        parameters: [...pathParameters, requestIdParameter],
        responses: {
          200: jsonAnswer('The decision', ref('ContactDialing'), ANSWER_EXAMPLES.contactDialing),
          ...standardErrors,
          ...notFound,
          ...several,
        },
      },
    };
  }
  return paths;
}

/** Do-not-call registries: import a registry file (streamed), list the Account's copies. */
function dncRegistryPaths(): Record<string, Record<string, Operation>> {
  const registries = Object.keys(DNC_REGISTRIES);
  const importParameters = [
    {
      name: 'registry',
      in: 'path',
      required: true,
      schema: { enum: registries },
      example: PATH_EXAMPLES.registry,
    },
    {
      name: 'downloadedAt',
      in: 'query',
      required: true,
      description:
        'When the file was downloaded from the registry: a date (read as 00:00 UTC) or a date-time with its offset; not in the future. A copy is fresh for the rule’s days from it',
      schema: { type: 'string' },
      example: '2026-11-20',
    },
    {
      name: 'areaCodes',
      in: 'query',
      required: false,
      description:
        'us_national and ca_national only: comma-separated area codes whose copy the file replaces even if it lists no number of theirs (an area code with no listed number)',
      schema: { type: 'string', pattern: '^[0-9]{3}(,[0-9]{3})*$' },
      example: '415,628',
    },
    requestIdParameter,
  ];
  const registryFile = {
    required: true,
    description: 'The registry file, one number a line (UTF-8 or ASCII)',
    content: {
      'text/plain': { schema: { type: 'string' }, example: REGISTRY_FILE_EXAMPLE },
      'application/octet-stream': { schema: { type: 'string' }, example: REGISTRY_FILE_EXAMPLE },
    },
  };
  return {
    '/api/v1/dnc-registries/{registry}/imports': {
      post: {
        operationId: 'importDncRegistry',
        tags: ['Do-not-call registries'],
        summary: "Import a registry file: it replaces the Account's copies of the scopes it covers",
        description: [
          'The body is the registry file as text (`text/plain` or `application/octet-stream`), one number a line, read as it arrives (any size; 10 million numbers import in under a minute): us_national and ca_national, ten digits a line as the FTC and the CRTC distribute them (also `415,5550123`, `(415) 555-0123`, with or without a leading 1 or +1); the others, numbers of the registry’s country in national or international form. Blank lines and lines starting with # are skipped.',
          'A malformed line is a 400 whose `issues` name it (`line 12`), and nothing is stored: the import is staged and replaces the copies in one transaction at its end.',
          'It replaces the copy of every scope it covers: for us_national and ca_national the area codes of its numbers and those named in `areaCodes`; for the others the whole registry. The dialer then decides again for every enrollment it had set aside.',
          'The key is checked before the body is read. It takes no Idempotency-Key: sending the file again replaces the same copies again. The whole request must arrive within the server’s request timeout (5 minutes by default): send the US registry an area code file at a time, as the FTC distributes it.',
        ].join('\n\n'),
        parameters: importParameters,
        requestBody: registryFile,
        responses: {
          201: jsonAnswer(
            'Imported: the copies of its scopes were replaced',
            ref('DncRegistryImportResult'),
            ANSWER_EXAMPLES.dncRegistryImported,
          ),
          ...standardErrors,
        },
      },
    },
    '/api/v1/dnc-registries': {
      get: {
        operationId: 'listDncRegistryCopies',
        tags: ['Do-not-call registries'],
        summary: "The Account's registry copies, by registry and scope, and whether each is fresh",
        parameters: [requestIdParameter],
        responses: {
          200: jsonAnswer('The copies', dataOf('DncRegistryCopy'), ANSWER_EXAMPLES.dncRegistryCopies),
          ...standardErrors,
        },
      },
    },
  };
}

export function queryParametersByOperation(document: Record<string, unknown>): Map<string, readonly string[]> {
  const byOperation = new Map<string, readonly string[]>();
  for (const [path, item] of Object.entries(document.paths as Record<string, PathItem>))
    for (const [method, operation] of Object.entries(item)) {
      const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => String(p.name));
      byOperation.set(`${method.toUpperCase()} ${path}`, names);
    }
  return byOperation;
}

let built: Record<string, unknown> | undefined;

/** The document, built once per process: GET /openapi.json serves it and the REST routes read their parameters from it. */
export function openApiDocument(): Record<string, unknown> {
  built ??= buildOpenApi();
  return built;
}

export function buildOpenApi(): Record<string, unknown> {
  const bulkImport = json(BulkImportBodySchema) as { properties: object };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Contactline API',
      version: '1.0.0-beta.1',
      description: [
        'Every request carries `Authorization: Bearer svc_pk_…`; every response carries `x-request-id` (a well-formed incoming one is echoed).',
        'Errors have the body `{ error, message, code, requestId }` (ErrorBody). An unknown path or method is a 404 `not_found`.',
        'A query parameter the operation does not list is a 400 `bad_request` naming it in `issues`, as an unknown body field is (a misspelled filter never lists everything).',
        'OPTIONS on any path answers 204 with an `Allow` header and no body, without a key.',
        'CORS: no cross-origin access unless the operator lists the origin (CORS_ORIGINS); a listed origin gets Access-Control-Allow-Origin and answered preflights, never credentials.',
        `Rate limits: per API key and per client address (by default ${HTTP_EDGE_DEFAULTS.RATE_LIMIT_PER_KEY} and ${HTTP_EDGE_DEFAULTS.RATE_LIMIT_PER_ADDRESS} requests per ${HTTP_EDGE_DEFAULTS.RATE_LIMIT_WINDOW_SECONDS} s); every answer carries \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers); over a limit the answer is 429 \`rate_limited\` with \`Retry-After\`.`,
      ].join(' '),
    },
    // Relative: the document is served by the service it describes (GET /openapi.json), so the
    // paths resolve against whichever host serves it.
    servers: [{ url: '/', description: 'This service' }],
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_pk_…',
          description: 'An API key (`svc_pk_…`), shown once when created (`contactline keys create`, or the console)',
        },
      },
      schemas: {
        Contact,
        CallRecord,
        Transcript,
        ErrorBody,
        Workflow,
        ResultFigures,
        WorkflowResults,
        ContactWrite: json(BulkItemSchema),
        ImportJob,
        BulkUpdateJob,
        WebhookEndpoint,
        WebhookEndpointWithSecret,
        WebhookDelivery,
        WebhookEvent,
        CallingPolicy,
        CallingPolicyChange,
        Consent,
        ContactDialing,
        Enrollment,
        EnrollmentJob,
        EnrollmentStopResult,
        DncRegistryImportResult,
        DncRegistryCopy,
      },
      headers: {
        RequestId: {
          description:
            "The request's id: the incoming x-request-id when well-formed, else a new UUID; an error body's requestId is the same",
          required: true,
          schema: { type: 'string', pattern: REQUEST_ID_PATTERN },
        },
        RateLimitPolicy: {
          description:
            'The rate-limit policies applied to this request (structured field list): `address` per client address, `key` per API key once the key is accepted; q requests per w seconds',
          required: true,
          schema: {
            type: 'string',
            pattern: `^${RATE_LIMIT_ITEM}q=\\d+;w=\\d+(, ${RATE_LIMIT_ITEM}q=\\d+;w=\\d+)*$`,
            examples: ['"address";q=24000;w=60, "key";q=12000;w=60'],
          },
        },
        RateLimit: {
          description: 'Per policy, the requests left (r) and the seconds until its window reopens (t)',
          required: true,
          schema: {
            type: 'string',
            pattern: `^${RATE_LIMIT_ITEM}r=\\d+;t=\\d+(, ${RATE_LIMIT_ITEM}r=\\d+;t=\\d+)*$`,
            examples: ['"address";r=23990;t=41, "key";r=11990;t=41'],
          },
        },
        IdempotentReplayed: {
          description:
            "Present (`true`) when the answer is a replay of the first answer to this request's Idempotency-Key",
          required: false,
          schema: { const: 'true' },
        },
        RetryAfter: {
          description: "Seconds until the refusing policy's window reopens",
          required: true,
          schema: { type: 'string', pattern: '^\\d+$' },
        },
      },
      parameters: {
        RequestId: {
          name: 'x-request-id',
          in: 'header',
          required: false,
          description: 'Echoed when well-formed; otherwise the service picks one',
          schema: { type: 'string' },
        },
        IdempotencyKey: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description:
            "Runs the write once per key and Account: the first answer (status and body; 2xx and 4xx, not a 5xx, which frees the key) is kept 24 hours, and a retry with the same key, method, path and body bytes gets it again with `Idempotent-Replayed: true` (an error body's requestId is the retry's own). The key with another request is a 422 `idempotency_key_reused`; a retry while the first still runs is a 409 `idempotency_key_in_use`. 1–255 visible ASCII characters (else 400), e.g. a UUID",
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
        },
      },
      responses: {
        BadRequest: errorAnswer(
          'Invalid request (a query parameter the operation does not list; a bad query, path, body or JSON value), including any text value (body field, customFields key or value, query parameter, path segment) holding the NUL character (U+0000) or a lone UTF-16 surrogate, which cannot be stored; `issues` names the bad fields when it can. Nothing is stored',
          ['bad_request'],
        ),
        Unauthenticated: errorAnswer('API key missing, unknown, revoked or expired', ['unauthenticated']),
        Forbidden: jsonAnswer(
          "The API key's scopes do not allow this operation; `scope` names the one it needs; nothing was done",
          {
            allOf: [
              ref('ErrorBody'),
              {
                type: 'object',
                properties: { error: { const: 'Forbidden' }, code: { enum: ['forbidden'] } },
                required: ['scope'],
              },
            ],
          },
          {
            ...errorExample(
              'Forbidden',
              'forbidden',
              'This API key lacks the scope contacts:write, which upsertContact needs',
            ),
            scope: 'contacts:write',
          },
        ),
        NotFound: errorAnswer("No such resource in the key's Account (another Account's is indistinguishable)", [
          'not_found',
        ]),
        PayloadTooLarge: errorAnswer('The body is over 10 MB', ['payload_too_large']),
        RateLimited: answer(
          "Over the key's or the client address's rate limit; nothing was done; retry after Retry-After seconds",
          {
            'application/json': {
              schema: {
                allOf: [
                  ref('ErrorBody'),
                  {
                    type: 'object',
                    properties: { error: { const: STATUS_CODES[429] }, code: { enum: ['rate_limited'] } },
                  },
                ],
              },
              example: errorExample(STATUS_CODES[429] ?? '429', 'rate_limited', 'Too many requests; retry in 41 s'),
            },
          },
          { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
        ),
        UnprocessableContact: errorAnswer(
          'The contact cannot be keyed or its phone read; or the Idempotency-Key was used for another request (`idempotency_key_reused`)',
          ['invalid_phone', 'missing_dedup_field', 'dedup_key_too_long', 'idempotency_key_reused'],
        ),
        IdempotencyKeyInUse: errorAnswer(`Nothing was done: ${IN_USE}`, ['idempotency_key_in_use']),
        IdempotencyKeyReused: errorAnswer(
          'Nothing was done: the Idempotency-Key was used for another request (method, path or body) in the last 24 hours',
          ['idempotency_key_reused'],
        ),
        Internal: errorAnswer('The service failed to handle the request', ['internal']),
      },
    },
    security: [{ apiKey: [] }],
    // The groups of /docs, in this order.
    tags: [
      { name: 'Contacts', description: 'Write, import, read, list and export contacts' },
      { name: 'Calls', description: "A contact's calls and their transcripts" },
      { name: 'Workflows', description: 'The workflows a contact can be enrolled in' },
      {
        name: 'Webhooks',
        description:
          "Endpoints that receive the Account's events, signed by the Standard Webhooks specification, and their deliveries",
      },
      {
        name: 'Calling rules',
        description:
          "The Account's calling policy, each contact's consents, and why the dialer may or may not call a contact now",
      },
      {
        name: 'Do-not-call registries',
        description:
          "The Account's copies of the national do-not-call registries: a number on one is not called without prior express written consent, nor at all while the copy is older than the law allows",
      },
      { name: 'Methods', description: 'OPTIONS on each path: the methods it answers (no key needed)' },
    ],
    webhooks: webhookEvents(),
    paths: withRequestSamples(
      withOptions({
        '/api/v1/workflows': {
          get: {
            operationId: 'listWorkflows',
            tags: ['Workflows'],
            summary: "List the Account's workflows",
            parameters: [...queryParameters(PageQuerySchema), requestIdParameter],
            responses: {
              200: jsonAnswer('A page of workflows, newest first', workflowPage, ANSWER_EXAMPLES.workflowPage),
              ...standardErrors,
            },
          },
        },
        '/api/v1/workflows/{id}/enrollments': {
          get: {
            operationId: 'listWorkflowEnrollments',
            tags: ['Workflows'],
            summary: "List a workflow's enrollments, newest first",
            description: '`state=active` keeps the enrollments the dialer still calls, `state=ended` the others.',
            parameters: [
              ...idPath("The workflow's id"),
              ...queryParameters(EnrollmentPageQuerySchema),
              requestIdParameter,
            ],
            responses: {
              200: jsonAnswer('A page of enrollments, newest first', enrollmentPage, ANSWER_EXAMPLES.enrollmentPage),
              ...standardErrors,
              ...notFound,
            },
          },
          post: {
            operationId: 'enrollWorkflowContacts',
            tags: ['Workflows'],
            summary: 'Enroll existing contacts in a workflow: by id, or every contact a filter matches (a job)',
            description:
              "`contactIds` (1 to 1000) or `filter` (the list operation's filters: status, sourceKind, addedSince, addedBefore, assignedWorkflowId, searchTerm: every contact it matches when the request is made), not both; `reEnroll` and `enforceCallNow` as in import, sent together. The workflow must be published and not paused (else 400; nothing is written). Answered 202 with the job, which runs on: read it at the Location. Each contact is enrolled at most once per job, and a retry with the same Idempotency-Key answers the same job. A contact enrolled in this workflow now is never enrolled again (stop it first). Enrolling ends the contact's enrollment in another workflow, as an upsert's does.",
            parameters: [...idPath("The workflow's id"), ...writeParameters],
            requestBody: body(json(EnrollContactsSchema), REQUEST_EXAMPLES.enrollContacts),
            responses: {
              202: answer(
                'Accepted: the job as it stands',
                { 'application/json': { schema: ref('EnrollmentJob'), example: ANSWER_EXAMPLES.enrollmentJobQueued } },
                {
                  Location: {
                    required: true,
                    schema: { type: 'string' },
                    description: 'The job: /api/v1/enrollment-jobs/{id}',
                  },
                },
              ),
              ...standardErrors,
              ...notFound,
              ...keyedWrite,
            },
          },
        },
        '/api/v1/enrollment-jobs/{id}': {
          get: {
            operationId: 'getEnrollmentJob',
            tags: ['Workflows'],
            summary: 'Read one enrollment job: its status, counts, and why each contact not enrolled was not',
            parameters: [...idPath("The job's id (the 202's id)"), requestIdParameter],
            responses: {
              200: jsonAnswer('The job', ref('EnrollmentJob'), ANSWER_EXAMPLES.enrollmentJob),
              ...standardErrors,
              ...notFound,
            },
          },
        },
        '/api/v1/workflows/{id}/enrollments/stop': {
          post: {
            operationId: 'stopWorkflowEnrollments',
            tags: ['Workflows'],
            summary: "End a workflow's enrollments of some contacts: by id, or every contact a filter matches",
            description:
              "`contactIds` (1 to 1000) or `filter` (the list operation's filters: status, sourceKind, addedSince, addedBefore, assignedWorkflowId, searchTerm), not both. Allowed whatever the workflow's status. Once answered, no call is placed to those contacts for the workflow; a call already in progress finishes and is recorded. Each contact's nextCallAt becomes null.",
            parameters: [...idPath("The workflow's id"), ...writeParameters],
            requestBody: body(json(ContactSelectionSchema), REQUEST_EXAMPLES.stopEnrollments),
            responses: {
              200: jsonAnswer('What was stopped', ref('EnrollmentStopResult'), ANSWER_EXAMPLES.enrollmentsStopped),
              ...standardErrors,
              ...notFound,
              ...keyedWrite,
            },
          },
        },
        '/api/v1/workflows/{id}/results': {
          get: {
            operationId: 'getWorkflowResults',
            tags: ['Workflows'],
            summary: "A workflow's results over a window: contacts, call results, rates, durations",
            description:
              'Over [from, to) (default: the 30 days before now; at most 367 days): contacts enrolled, attempted, reached and converted; each of the 21 call results with its count; the connect and conversion rates; the median and p90 durations of connected calls; the attempts per converted contact. groupBy=day adds the calls per day by result, days counted in timeZone (an IANA zone, default UTC); groupBy=agent gives the same figures per agent. The window widens to whole UTC hours (the answer’s from and to say which): the figures are summed from hourly roll-ups. Erased contacts’ calls still count. Definitions: docs/campaigns.md, "Workflow results".',
            parameters: [...idPath('The workflow'), ...queryParameters(WorkflowResultsQuerySchema), requestIdParameter],
            responses: {
              200: jsonAnswer('The results', ref('WorkflowResults'), ANSWER_EXAMPLES.workflowResults),
              ...standardErrors,
              ...notFound,
            },
          },
        },
        '/api/v1/contacts/upsert': {
          put: {
            operationId: 'upsertContact',
            tags: ['Contacts'],
            summary: 'Create or update one contact by its dedup fields',
            parameters: writeParameters,
            requestBody: body(json(UpsertBodySchema), REQUEST_EXAMPLES.upsertContact),
            responses: {
              200: jsonAnswer(
                "Updated: the contact that matched the Account's dedup fields",
                ref('Contact'),
                ANSWER_EXAMPLES.contact,
              ),
              201: jsonAnswer('Created', ref('Contact'), ANSWER_EXAMPLES.contact),
              ...standardErrors,
              409: errorAnswer(
                `The contact could not be written while this upsert ran (something other than the service's writers changed or removed it each time; concurrent upserts of one contact take turns and all succeed); nothing was written by it; retry. Or ${IN_USE}`,
                ['conflict', 'idempotency_key_in_use'],
              ),
              ...tooLarge,
              ...unprocessable,
            },
          },
        },
        '/api/v1/contacts/bulk': {
          post: {
            operationId: 'importContacts',
            tags: ['Contacts'],
            summary: 'Import up to 1000 contacts (queued)',
            parameters: writeParameters,
            requestBody: body(
              {
                ...bulkImport,
                properties: {
                  ...bulkImport.properties,
                  contacts: { type: 'array', minItems: 1, maxItems: 1000, items: ref('ContactWrite') },
                },
              },
              REQUEST_EXAMPLES.importContacts,
            ),
            responses: {
              202: jsonAnswer(
                'Queued; written within seconds',
                {
                  type: 'object',
                  additionalProperties: false,
                  required: ['importId', 'accepted', 'rejected'],
                  properties: {
                    importId: { type: 'string', format: 'uuid', description: 'The import: GET /api/v1/imports/{id}' },
                    accepted: { type: 'integer', minimum: 0 },
                    rejected: {
                      type: 'array',
                      items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['reason', 'index'],
                        properties: {
                          reason: { enum: ['missing-dedup-field', 'dedup-key-too-long', 'invalid-phone'] },
                          index: { type: 'integer', minimum: 0 },
                        },
                      },
                    },
                  },
                },
                ANSWER_EXAMPLES.importAccepted,
              ),
              ...standardErrors,
              ...keyedWrite,
            },
          },
        },
        '/api/v1/contacts': {
          get: {
            operationId: 'listContacts',
            tags: ['Contacts'],
            summary: 'List contacts, newest first',
            parameters: [...queryParameters(ListQuerySchema), requestIdParameter],
            responses: {
              200: jsonAnswer('A page of contacts, newest first', page('Contact'), ANSWER_EXAMPLES.contactPage),
              ...standardErrors,
            },
          },
        },
        '/api/v1/contacts/csv': {
          get: {
            operationId: 'exportContactsCsv',
            tags: ['Contacts'],
            summary: 'Export a page of contacts as CSV',
            parameters: [...queryParameters(ListQuerySchema), requestIdParameter],
            responses: {
              200: answer(
                'One page as CSV: a header row, then a row per contact (the Contact fields in order; customFields as JSON, booleans true/false, nulls empty)',
                { 'text/csv': { schema: { type: 'string' }, example: ANSWER_EXAMPLES.contactsCsv } },
                {
                  'x-next-token': {
                    description: "The next page's nextToken; absent on the last page",
                    required: false,
                    schema: { type: 'string', minLength: 1 },
                  },
                },
              ),
              ...standardErrors,
            },
          },
        },
        '/api/v1/contacts/bulk-update': {
          post: {
            operationId: 'bulkUpdateContacts',
            tags: ['Contacts'],
            summary: 'Change every contact a filter selects (queued)',
            parameters: writeParameters,
            requestBody: body(json(BulkUpdateBodySchema), REQUEST_EXAMPLES.bulkUpdateContacts),
            responses: {
              202: jsonAnswer(
                'Queued',
                {
                  type: 'object',
                  additionalProperties: false,
                  required: ['updateId'],
                  properties: {
                    updateId: {
                      type: 'string',
                      format: 'uuid',
                      description: 'The bulk-update: GET /api/v1/bulk-updates/{id}',
                    },
                  },
                },
                ANSWER_EXAMPLES.bulkUpdateAccepted,
              ),
              ...standardErrors,
              ...keyedWrite,
            },
          },
        },
        '/api/v1/imports': {
          get: {
            operationId: 'listImports',
            tags: ['Contacts'],
            summary: "List the Account's imports, newest first",
            parameters: [...queryParameters(PageQuerySchema), requestIdParameter],
            responses: {
              200: jsonAnswer(
                "A page of the Account's imports, newest first",
                page('ImportJob'),
                ANSWER_EXAMPLES.importsPage,
              ),
              ...standardErrors,
            },
          },
        },
        '/api/v1/imports/{id}': {
          get: {
            operationId: 'getImport',
            tags: ['Contacts'],
            summary: 'Read one import: its status and exact counts',
            parameters: [...idPath("The import's id (the 202's importId)"), requestIdParameter],
            responses: {
              200: jsonAnswer('The import', ref('ImportJob'), ANSWER_EXAMPLES.importJob),
              ...standardErrors,
              ...notFound,
            },
          },
        },
        '/api/v1/bulk-updates/{id}': {
          get: {
            operationId: 'getBulkUpdate',
            tags: ['Contacts'],
            summary: 'Read one bulk-update: its status and counts',
            parameters: [...idPath("The bulk-update's id (the 202's updateId)"), requestIdParameter],
            responses: {
              200: jsonAnswer('The bulk-update', ref('BulkUpdateJob'), ANSWER_EXAMPLES.bulkUpdateJob),
              ...standardErrors,
              ...notFound,
            },
          },
        },
        '/api/v1/contacts/{id}': {
          get: {
            operationId: 'getContact',
            tags: ['Contacts'],
            summary: 'Read one contact by its id',
            parameters: [...idPath("The contact's id"), requestIdParameter],
            responses: {
              200: jsonAnswer('The contact', ref('Contact'), ANSWER_EXAMPLES.contact),
              ...standardErrors,
              ...notFound,
            },
          },
          delete: {
            operationId: 'deleteContact',
            tags: ['Contacts'],
            summary: 'Erase one contact by its id',
            description: ERASURE_DESCRIPTION,
            parameters: [...idPath("The contact's id"), blockParameter, requestIdParameter],
            responses: {
              204: erased,
              ...standardErrors,
              ...notFound,
            },
          },
        },
        '/api/v1/contacts/source/{sourceKind}/external-id/{externalId}': {
          get: {
            operationId: 'getContactByExternalId',
            tags: ['Contacts'],
            summary: 'Read one contact by its source and external ID',
            parameters: [...externalIdPath, requestIdParameter],
            responses: {
              200: jsonAnswer('The contact', ref('Contact'), ANSWER_EXAMPLES.contact),
              ...standardErrors,
              ...notFound,
              ...severalMatch,
            },
          },
          patch: {
            operationId: 'patchContactByExternalId',
            tags: ['Contacts'],
            summary: 'Change fields of one contact by its source and external ID',
            parameters: [...externalIdPath, ...writeParameters],
            requestBody: body(json(PatchBodySchema), REQUEST_EXAMPLES.patchContactByExternalId),
            responses: {
              200: jsonAnswer('The changed contact', ref('Contact'), ANSWER_EXAMPLES.contact),
              ...standardErrors,
              ...notFound,
              409: errorAnswer(
                `Several contacts have this external ID, or the change would give the contact another contact's dedup key; \`contacts\` lists them. Or ${IN_USE}`,
                ['conflict', 'idempotency_key_in_use'],
              ),
              ...tooLarge,
              ...unprocessable,
            },
          },
          delete: {
            operationId: 'deleteContactByExternalId',
            tags: ['Contacts'],
            summary: 'Erase one contact by its source and external ID',
            description: `${ERASURE_DESCRIPTION} When several contacts have the external ID, none is erased: 409 lists them (erase each by its id).`,
            parameters: [...externalIdPath, blockParameter, requestIdParameter],
            responses: {
              204: erased,
              ...standardErrors,
              ...notFound,
              ...severalMatch,
            },
          },
        },
        '/api/v1/contacts/source/{sourceKind}/external-id/{externalId}/calls': {
          get: {
            operationId: 'listContactCalls',
            tags: ['Calls'],
            summary: "List a contact's calls, oldest first",
            parameters: [...externalIdPath, ...queryParameters(PageQuerySchema), requestIdParameter],
            responses: {
              200: jsonAnswer(
                "A page of the contact's calls, oldest first by start (startedAt, then id)",
                page('CallRecord'),
                ANSWER_EXAMPLES.callPage,
              ),
              ...standardErrors,
              ...notFound,
              ...severalMatch,
            },
          },
        },
        '/api/v1/calls/{id}/transcript': {
          get: {
            operationId: 'getCallTranscript',
            tags: ['Calls'],
            summary: "Read a call's transcript",
            parameters: [...idPath("The call's id"), requestIdParameter],
            responses: {
              200: jsonAnswer("The call's transcript", ref('Transcript'), ANSWER_EXAMPLES.transcript),
              ...standardErrors,
              ...notFound,
            },
          },
        },
        '/api/v1/webhook-endpoints': {
          get: {
            operationId: 'listWebhookEndpoints',
            tags: ['Webhooks'],
            summary: "List the Account's webhook endpoints, newest first",
            parameters: [...queryParameters(PageQuerySchema), requestIdParameter],
            responses: {
              200: jsonAnswer('A page of endpoints', page('WebhookEndpoint'), ANSWER_EXAMPLES.webhookEndpointsPage),
              ...standardErrors,
            },
          },
          post: {
            operationId: 'createWebhookEndpoint',
            tags: ['Webhooks'],
            summary: 'Create a webhook endpoint; its signing secret is answered once',
            description:
              'The url must be https and lead to a public address (names are resolved now, and again at every connection); redirects are never followed. At most 20 endpoints per Account.',
            parameters: writeParameters,
            requestBody: body(json(CreateWebhookEndpointSchema), REQUEST_EXAMPLES.createWebhookEndpoint),
            responses: {
              201: answer(
                'The endpoint, with its secret',
                {
                  'application/json': {
                    schema: ref('WebhookEndpointWithSecret'),
                    example: ANSWER_EXAMPLES.webhookEndpointWithSecret,
                  },
                },
                {
                  Location: {
                    required: true,
                    schema: { type: 'string' },
                    description: 'The endpoint: /api/v1/webhook-endpoints/{id}',
                  },
                },
              ),
              ...standardErrors,
              409: errorAnswer(`The Account has 20 endpoints already. Or ${IN_USE}`, [
                'conflict',
                'idempotency_key_in_use',
              ]),
              ...tooLarge,
              ...keyReused,
              503: errorAnswer('The service has no WEBHOOK_SECRETS_KEY to keep secrets with', ['unavailable']),
            },
          },
        },
        '/api/v1/webhook-endpoints/{id}': {
          get: {
            operationId: 'getWebhookEndpoint',
            tags: ['Webhooks'],
            summary: 'Read one webhook endpoint (never its secret)',
            parameters: [...idPath("The endpoint's id"), requestIdParameter],
            responses: {
              200: jsonAnswer('The endpoint', ref('WebhookEndpoint'), ANSWER_EXAMPLES.webhookEndpoint),
              ...standardErrors,
              ...notFound,
            },
          },
          patch: {
            operationId: 'updateWebhookEndpoint',
            tags: ['Webhooks'],
            summary: 'Change an endpoint: url, events, description, or switch it off and on',
            description:
              '`disabled: true` stops deliveries (they wait); `disabled: false` starts them again and clears a disable for failing.',
            parameters: [...idPath("The endpoint's id"), ...writeParameters],
            requestBody: body(json(UpdateWebhookEndpointSchema), REQUEST_EXAMPLES.updateWebhookEndpoint),
            responses: {
              200: jsonAnswer('The changed endpoint', ref('WebhookEndpoint'), ANSWER_EXAMPLES.webhookEndpoint),
              ...standardErrors,
              ...notFound,
              ...keyedWrite,
            },
          },
          delete: {
            operationId: 'deleteWebhookEndpoint',
            tags: ['Webhooks'],
            summary: 'Delete an endpoint and its deliveries',
            parameters: [...idPath("The endpoint's id"), requestIdParameter],
            responses: {
              204: answer('Deleted; nothing more is sent to it'),
              ...standardErrors,
              ...notFound,
            },
          },
        },
        '/api/v1/webhook-endpoints/{id}/rotate-secret': {
          post: {
            operationId: 'rotateWebhookEndpointSecret',
            tags: ['Webhooks'],
            summary: 'A new signing secret, answered once; the old one signs too for 24 hours',
            parameters: [...idPath("The endpoint's id"), ...writeParameters],
            responses: {
              200: jsonAnswer(
                'The endpoint with its new secret',
                ref('WebhookEndpointWithSecret'),
                ANSWER_EXAMPLES.webhookEndpointRotated,
              ),
              ...standardErrors,
              ...notFound,
              ...keyInUse,
              ...keyReused,
            },
          },
        },
        '/api/v1/webhook-endpoints/{id}/deliveries': {
          get: {
            operationId: 'listWebhookDeliveries',
            tags: ['Webhooks'],
            summary: "List an endpoint's deliveries, newest first",
            parameters: [...idPath("The endpoint's id"), ...queryParameters(DeliveryListSchema), requestIdParameter],
            responses: {
              200: jsonAnswer('A page of deliveries', page('WebhookDelivery'), ANSWER_EXAMPLES.webhookDeliveriesPage),
              ...standardErrors,
              ...notFound,
            },
          },
        },
        '/api/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry': {
          post: {
            operationId: 'retryWebhookDelivery',
            tags: ['Webhooks'],
            summary: 'Send a delivery again now (same webhook-id), then retry it for 3 days',
            parameters: [
              ...idPath("The endpoint's id"),
              {
                name: 'deliveryId',
                in: 'path',
                required: true,
                description: "The delivery's id",
                schema: { type: 'string', format: 'uuid' },
                example: PATH_EXAMPLES.deliveryId,
              },
              ...writeParameters,
            ],
            responses: {
              202: jsonAnswer('The delivery, pending', ref('WebhookDelivery'), ANSWER_EXAMPLES.webhookDeliveryRetried),
              ...standardErrors,
              ...notFound,
              409: errorAnswer(`The endpoint is disabled, or the entry is a notice. Or ${IN_USE}`, [
                'conflict',
                'idempotency_key_in_use',
              ]),
              ...keyReused,
            },
          },
        },
        ...callingRulePaths(),
        ...dncRegistryPaths(),
      }),
    ),
  };
}
