// The OpenAPI description of /api/v1, built from the same zod schemas the routes parse with,
// so it cannot drift from the validation. Printed to schema/openapi.json (checked in; a test
// fails when stale) and served at GET /openapi.json.
import { z } from 'zod';
import {
  BulkImportBodySchema, BulkItemSchema, BulkUpdateBodySchema, CONTACT_STATUSES, ListQuerySchema, PatchBodySchema, SOURCE_KINDS, UpsertBodySchema,
} from '../domain/contacts/contacts.inputs.js';
import { PageQuerySchema } from '../domain/shared/cursor.js';

const json = (schema: z.ZodType) => {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

const nullable = (type: string, extra: object = {}) => ({ type: [type, 'null'], ...extra });
const timestamp = { type: 'string', format: 'date-time', description: 'UTC with milliseconds and Z' };

const Contact = {
  type: 'object',
  required: ['id', 'accountId', 'firstName', 'lastName', 'fullName', 'phone', 'location', 'locationDefaulted', 'timezone', 'timezoneInferred', 'language', 'status', 'sourceKind', 'externalId', 'customFields', 'priority', 'assignedWorkflowId', 'callCount', 'maxAttempts', 'lastCallAt', 'nextCallAt', 'createdAt', 'updatedAt'],
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
  required: ['id', 'contactId', 'workflowId', 'agentId', 'direction', 'status', 'result', 'endReason', 'startedAt', 'endedAt', 'durationSeconds', 'language', 'lastCall', 'transcriptAvailable'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    contactId: { type: 'string', format: 'uuid' },
    workflowId: nullable('string', { format: 'uuid' }),
    agentId: nullable('string', { format: 'uuid' }),
    direction: { enum: ['outbound', 'inbound'] },
    status: { type: 'string' },
    result: nullable('string', { description: 'Call result, e.g. converted, no_answer, voicemail' }),
    endReason: nullable('string'),
    startedAt: { ...timestamp, type: ['string', 'null'] },
    endedAt: { ...timestamp, type: ['string', 'null'] },
    durationSeconds: nullable('integer', { minimum: 0 }),
    language: nullable('string', { description: 'Locale the call ended in' }),
    lastCall: { type: 'boolean', description: 'True when no further attempt follows this call' },
    transcriptAvailable: { type: 'boolean', description: 'True when the report is ready and the call has at least one utterance (the transcript is then non-empty)' },
  },
};

const Transcript = {
  type: 'object',
  required: ['utterances'],
  properties: {
    utterances: {
      type: 'array',
      description: 'In conversation order; empty until the call\'s report is ready, and for a call without a transcript',
      items: {
        type: 'object',
        required: ['speaker', 'content', 'timestamp'],
        properties: {
          speaker: nullable('string', { description: '`assistant` for the voice agent, `user` for the contact' }),
          content: nullable('string', { description: 'What the speaker said' }),
          timestamp: { ...timestamp, type: ['string', 'null'], description: 'When it was spoken (UTC with milliseconds and Z)' },
        },
      },
    },
  },
};

const ErrorBody = {
  type: 'object',
  required: ['error', 'message', 'code', 'requestId'],
  properties: {
    error: { type: 'string', description: 'HTTP status text' },
    message: { type: 'string', description: 'Explanation; wording can change' },
    code: { type: 'string', description: 'bad_request, unauthenticated, not_found, conflict, invalid_phone, missing_dedup_field, dedup_key_too_long, internal' },
    requestId: { type: 'string' },
    issues: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
    contacts: { type: 'array', items: { $ref: '#/components/schemas/Contact' } },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: `Error ${s}`, content: { 'application/json': { schema: ref('ErrorBody') } } }]));
const ok = (description: string, schema: object, status = '200') => ({ [status]: { description, content: { 'application/json': { schema } } } });
const page = (item: string) => ({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref(item) }, nextToken: { type: 'string', description: 'Absent on the last page' } } });

function queryParameters(schema: z.ZodObject) {
  const described = json(schema) as { properties: Record<string, object> };
  return Object.entries(described.properties).map(([name, s]) => ({ name, in: 'query', required: false, schema: s }));
}

const externalIdPath = [
  { name: 'sourceKind', in: 'path', required: true, schema: { enum: [...SOURCE_KINDS] } },
  { name: 'externalId', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 256 } },
];

export function buildOpenApi(): Record<string, unknown> {
  const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema: json(schema) } } });
  return {
    openapi: '3.1.0',
    info: { title: 'Contactline API', version: '1.0.0-beta.1' },
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'svc_pk_… API key' } },
      schemas: { Contact, CallRecord, Transcript, ErrorBody, Workflow: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, status: { type: 'string' } } }, ContactWrite: json(BulkItemSchema) },
    },
    security: [{ apiKey: [] }],
    paths: {
      '/api/v1/workflows': { get: { operationId: 'listWorkflows', parameters: queryParameters(PageQuerySchema), responses: { ...ok('A page of workflows', page('Workflow')), ...errors(400, 401) } } },
      '/api/v1/contacts/upsert': { put: { operationId: 'upsertContact', requestBody: body(UpsertBodySchema), responses: { ...ok('Updated', ref('Contact')), ...ok('Created', ref('Contact'), '201'), ...errors(400, 401, 422) } } },
      '/api/v1/contacts/bulk': {
        post: {
          operationId: 'importContacts',
          requestBody: { required: true, content: { 'application/json': { schema: { ...json(BulkImportBodySchema), properties: { ...(json(BulkImportBodySchema) as { properties: object }).properties, contacts: { type: 'array', minItems: 1, maxItems: 1000, items: ref('ContactWrite') } } } } } },
          responses: { ...ok('Queued', { type: 'object', required: ['accepted', 'rejected'], properties: { accepted: { type: 'integer' }, rejected: { type: 'array', items: { type: 'object', properties: { reason: { enum: ['missing-dedup-field', 'dedup-key-too-long', 'invalid-phone'] }, index: { type: 'integer' } } } } } }, '202'), ...errors(400, 401) },
        },
      },
      '/api/v1/contacts': { get: { operationId: 'listContacts', parameters: queryParameters(ListQuerySchema), responses: { ...ok('A page of contacts, newest first', page('Contact')), ...errors(400, 401) } } },
      '/api/v1/contacts/csv': {
        get: {
          operationId: 'exportContactsCsv',
          parameters: queryParameters(ListQuerySchema),
          responses: { '200': { description: 'CSV page; x-next-token header carries the next page token', headers: { 'x-next-token': { schema: { type: 'string' } } }, content: { 'text/csv': { schema: { type: 'string' } } } }, ...errors(400, 401) },
        },
      },
      '/api/v1/contacts/bulk-update': { post: { operationId: 'bulkUpdateContacts', requestBody: body(BulkUpdateBodySchema), responses: { ...ok('Queued', { type: 'object' }, '202'), ...errors(400, 401) } } },
      '/api/v1/contacts/{id}': { get: { operationId: 'getContact', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }], responses: { ...ok('The contact', ref('Contact')), ...errors(400, 401, 404) } } },
      '/api/v1/contacts/source/{sourceKind}/external-id/{externalId}': {
        get: { operationId: 'getContactByExternalId', parameters: externalIdPath, responses: { ...ok('The contact', ref('Contact')), ...errors(400, 401, 404, 409) } },
        patch: { operationId: 'patchContactByExternalId', parameters: externalIdPath, requestBody: body(PatchBodySchema), responses: { ...ok('The changed contact', ref('Contact')), ...errors(400, 401, 404, 409, 422) } },
      },
      '/api/v1/contacts/source/{sourceKind}/external-id/{externalId}/calls': {
        get: {
          operationId: 'listContactCalls',
          parameters: [...externalIdPath, ...queryParameters(PageQuerySchema)],
          responses: { ...ok('A page of the contact\'s calls, oldest first', page('CallRecord')), ...errors(400, 401, 404, 409) },
        },
      },
      '/api/v1/calls/{id}/transcript': {
        get: {
          operationId: 'getCallTranscript',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { ...ok('The call\'s transcript', ref('Transcript')), ...errors(400, 401, 404) },
        },
      },
    },
  };
}
