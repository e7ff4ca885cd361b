import { RESULT_NAMES } from '../domain/workflows/workflow-results.service.js';
// Example requests and answers for the OpenAPI document (src/rest/openapi.ts): what /docs shows
// beside each operation. They are made-up values of the documented shapes; `npm run
// lint:openapi` checks every example against its schema (no-invalid-media-type-examples and
// no-invalid-parameter-examples), so they cannot drift from the document.
import { callAuditToCsv, contactsToCsv } from '../graphql/operations/csv.js';

const CONTACT_ID = '0b5c3e0e-6f1d-4a57-9a8e-2f4f3f1b7c21';
const ACCOUNT_ID = '6a1f0c55-2d0e-4b7a-8c1e-5d9b3e7a4f10';
const WORKFLOW_ID = '3e8d2b91-7c4a-4f6e-b2d1-9a0c5e4f8b37';
const CALL_ID = 'c41e7a2d-5b9f-4e08-a3c6-1d2e7f9b0a54';
const IMPORT_ID = '8d3f1a64-0c2b-4e7d-9f5a-6b1c2d3e4f50';
const UPDATE_ID = '2a7c9e1b-4d6f-4803-b5a2-7e9f0c1d2b34';
export const EXAMPLE_REQUEST_ID = '5f0e9d3c-8b7a-4c6d-9e2f-1a0b3c4d5e6f';
const ENDPOINT_ID = '7b2e4c6a-9d1f-4a3b-8e5c-2f4a6b8d0c13';
const DELIVERY_ID = 'e5a7c9b1-3d5f-4b7a-9c1e-3a5b7d9f1e24';
const EVENT_ID = '4c6e8a0b-2d4f-4e6a-8b0c-4e6a8c0e2a35';
const AGENT_ID = '1f3b5d7e-9a2c-4e6b-8d0f-5a7c9e1b3d46';

export const EXAMPLE_CONTACT = {
  id: CONTACT_ID,
  accountId: ACCOUNT_ID,
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullName: 'Ada Lovelace',
  phone: '+442071838750',
  location: 'GB',
  locationDefaulted: false,
  timezone: 'Europe/London',
  timezoneInferred: true,
  language: 'en-GB',
  status: null,
  sourceKind: 'hubspot',
  externalId: 'hs-1001',
  customFields: { plan: 'pro' },
  priority: 0,
  assignedWorkflowId: null,
  callCount: 0,
  maxAttempts: null,
  lastCallAt: null,
  nextCallAt: null,
  createdAt: '2026-03-02T09:15:00.000Z',
  updatedAt: '2026-03-02T09:15:00.000Z',
};

/** A second contact with the same external ID, for the 409 that lists several. */
const OTHER_CONTACT = {
  ...EXAMPLE_CONTACT,
  id: '9d4c2a7e-1b3f-4e5d-8a6c-0f2e4d6b8a13',
  firstName: 'Augusta',
  fullName: 'Augusta Lovelace',
  phone: '+442071838751',
};

export const EXAMPLE_CONTACT_WRITE = {
  sourceKind: 'hubspot',
  externalId: 'hs-1001',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+44 20 7183 8750',
  location: 'GB',
  customFields: { plan: 'pro' },
};

const CONSENT_ID = '9c1e3a5b-7d9f-4b1c-8e3a-5c7e9a1b3d57';
const KEY_ID = '2d4f6a8c-0e2a-4c6e-9a0c-2e4a6c8e0a68';

const EXAMPLE_CONSENT_BODY = {
  kind: 'express_written',
  method: 'web_form',
  evidence: 'Signed up at example.com/offers, checkbox "Call me about offers", IP 203.0.113.7',
  obtainedAt: '2026-02-27T16:20:00.000Z',
};

const EXAMPLE_CONSENT = {
  id: CONSENT_ID,
  contactId: CONTACT_ID,
  workflowId: null,
  ...EXAMPLE_CONSENT_BODY,
  createdAt: '2026-03-01T09:00:00.000Z',
  revokedAt: null,
  revokedBy: null,
  active: true,
};

const EXAMPLE_CALLING_POLICY = {
  purpose: 'telemarketing',
  requireWrittenConsent: true,
  attemptCap: { max: 2, periodHours: 24 },
  disabledJurisdictions: [],
  legalAttemptCaps: [
    {
      ruleId: 'us-fl-cap',
      jurisdiction: 'US-FL',
      max: 3,
      periodHours: 24,
      source: 'Fla. Stat. § 501.616(6)(b)',
      disabled: false,
    },
  ],
  jurisdictions: ['CA', 'DE', 'ES', 'FR', 'GB', 'IL', 'MX', 'US', 'US-FL'],
  ruleSetVersion: '2026-11-29.1',
  updatedAt: '2026-03-01T09:00:00.000Z',
  updatedBy: `key:${KEY_ID}`,
};

const EXAMPLE_DIALING = {
  contactId: CONTACT_ID,
  callableNow: false,
  nextCallableAt: '2026-03-03T09:00:00.000Z',
  reasons: [
    {
      code: 'outside_working_hours',
      message: "Outside the agent's working hours (Europe/London)",
      jurisdiction: null,
      source: null,
      ruleId: null,
      until: '2026-03-03T09:00:00.000Z',
    },
  ],
  timeZones: ['Europe/London'],
  jurisdictions: ['GB'],
  ruleSetVersion: '2026-11-29.1',
  purpose: 'telemarketing',
  ruleIds: ['gb-automated-consent', 'gb-tps'],
  attempts: [],
  consentUsed: { id: CONSENT_ID, kind: 'express_written' },
  enrollment: {
    workflowId: WORKFLOW_ID,
    agentId: AGENT_ID,
    attempts: 1,
    dueAt: '2026-03-02T19:30:00.000Z',
    immediate: false,
  },
};

export const REQUEST_EXAMPLES = {
  stopEnrollments: { filter: { status: ['not_answered'], sourceKind: ['crm'] } },
  enrollContacts: {
    filter: { status: ['new'], addedSince: '2026-03-01T00:00:00Z' },
    reEnroll: false,
    enforceCallNow: false,
  },
  setCallingPolicy: { purpose: 'telemarketing', requireWrittenConsent: true, attemptCap: { max: 2, periodHours: 24 } },
  addConsent: EXAMPLE_CONSENT_BODY,
  revokeConsents: {},
  upsertContact: EXAMPLE_CONTACT_WRITE,
  importContacts: {
    contacts: [
      EXAMPLE_CONTACT_WRITE,
      { sourceKind: 'hubspot', externalId: 'hs-1002', fullName: 'Charles Babbage', phone: '+442071838752' },
    ],
  },
  patchContactByExternalId: { status: 'dont_call', priority: 10 },
  bulkUpdateContacts: { filter: { sourceKind: 'hubspot', externalId: 'hs-1001' }, data: { priority: 10 } },
  createWebhookEndpoint: {
    url: 'https://crm.example.com/hooks/contactline',
    events: ['call.ended', 'contact.deleted'],
    description: 'CRM sync',
  },
  updateWebhookEndpoint: { events: ['call.ended', 'contact.updated', 'contact.deleted'] },
} as const;

const IMPORT_JOB = {
  id: IMPORT_ID,
  status: 'done',
  accepted: 1,
  created: 1,
  updated: 0,
  rejected: [{ index: 1, reason: 'invalid-phone' }],
  createdAt: '2026-03-01T10:00:00.000Z',
  finishedAt: '2026-03-01T10:00:01.200Z',
};

const WEBHOOK_ENDPOINT = {
  id: ENDPOINT_ID,
  url: 'https://crm.example.com/hooks/contactline',
  description: 'CRM sync',
  events: ['call.ended', 'contact.deleted'],
  disabled: false,
  disabledReason: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
};

const CALL_RECORD = {
  id: CALL_ID,
  contactId: CONTACT_ID,
  workflowId: WORKFLOW_ID,
  agentId: AGENT_ID,
  direction: 'outbound',
  status: 'ended',
  result: 'converted',
  endReason: 'customer-ended-call',
  startedAt: '2026-03-03T10:00:00.000Z',
  endedAt: '2026-03-03T10:02:30.000Z',
  durationSeconds: 150,
  language: 'en-GB',
  lastCall: true,
  transcriptAvailable: true,
  recordingUrl: null,
};

/** An enrollment, as GET /workflows/{id}/enrollments shows it (and the enrollment events carry it). */
const ENROLLMENT = {
  id: '7d4f0a9e-52c1-4b8e-9b1e-3f2c8a6d5e41',
  contactId: '3f1e2d4c-5b6a-4789-8a7b-6c5d4e3f2a1b',
  workflowId: '9b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
  state: 'ended',
  startedAt: '2026-03-02T15:00:00.000Z',
  endedAt: '2026-03-03T16:05:00.000Z',
  endReason: 'final_result',
  finalResult: 'converted',
  attempts: 2,
  nextCallAt: null,
};

/** The body of each webhook event, as a receiver gets it. */
export const WEBHOOK_EXAMPLES = {
  'call.ended': {
    type: 'call.ended',
    timestamp: '2026-03-03T10:02:30.000Z',
    data: {
      itemId: null,
      boardId: null,
      callResult: 'converted',
      endReason: 'customer-ended-call',
      durationSeconds: 150,
      isLastCall: true,
      callId: CALL_ID,
      contactId: CONTACT_ID,
      agentId: AGENT_ID,
      workflowId: WORKFLOW_ID,
      call: CALL_RECORD,
    },
  },
  'contact.created': { type: 'contact.created', timestamp: '2026-03-02T09:15:00.000Z', data: EXAMPLE_CONTACT },
  'contact.updated': { type: 'contact.updated', timestamp: '2026-03-02T09:15:00.000Z', data: EXAMPLE_CONTACT },
  'contact.deleted': {
    type: 'contact.deleted',
    timestamp: '2026-03-04T08:00:00.000Z',
    data: {
      id: CONTACT_ID,
      sourceKind: 'hubspot',
      externalId: 'hs-1001',
      blocked: false,
      deletedAt: '2026-03-04T08:00:00.000Z',
    },
  },
  'enrollment.started': {
    type: 'enrollment.started',
    timestamp: '2026-03-02T15:00:00.000Z',
    data: {
      ...ENROLLMENT,
      state: 'active',
      endedAt: null,
      endReason: null,
      finalResult: null,
      attempts: 0,
      nextCallAt: '2026-03-02T15:00:00.000Z',
    },
  },
  'enrollment.ended': { type: 'enrollment.ended', timestamp: '2026-03-03T16:05:00.000Z', data: ENROLLMENT },
  'import.completed': { type: 'import.completed', timestamp: '2026-03-01T10:00:01.200Z', data: IMPORT_JOB },
  'bulk_update.completed': {
    type: 'bulk_update.completed',
    timestamp: '2026-03-01T10:00:02.000Z',
    data: {
      id: UPDATE_ID,
      status: 'done',
      matched: 1,
      changed: 1,
      skipped: [],
      skippedCount: 0,
      createdAt: '2026-03-01T10:00:00.000Z',
      finishedAt: '2026-03-01T10:00:02.000Z',
    },
  },
} as const;

const WEBHOOK_DELIVERY = {
  id: DELIVERY_ID,
  endpointId: ENDPOINT_ID,
  eventId: EVENT_ID,
  webhookId: `msg_${EVENT_ID}`,
  eventType: 'call.ended',
  status: 'delivered',
  attempts: 2,
  responseStatus: 204,
  lastError: null,
  nextAttemptAt: null,
  lastAttemptAt: '2026-03-03T10:02:36.000Z',
  createdAt: '2026-03-03T10:02:31.000Z',
  deliveredAt: '2026-03-03T10:02:36.000Z',
  payload: WEBHOOK_EXAMPLES['call.ended'],
};

const EXAMPLE_ENROLLMENT_JOB = {
  id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  workflowId: '9b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
  status: 'done',
  reEnroll: false,
  enforceCallNow: false,
  matched: 1189,
  enrolled: 1187,
  notEnrolledCount: 2,
  reasons: [
    { reason: 'not_found', count: 0 },
    { reason: 'workflow_not_published', count: 0 },
    { reason: 'already_enrolled', count: 1 },
    { reason: 'already_called', count: 0 },
    { reason: 'blocked', count: 0 },
    { reason: 'no_consent', count: 1 },
  ],
  notEnrolled: [
    { contactId: '3f1e2d4c-5b6a-4789-8a7b-6c5d4e3f2a1b', reason: 'already_enrolled' },
    { contactId: '0c9b8a7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d', reason: 'no_consent' },
  ],
  createdAt: '2026-03-02T15:00:00.000Z',
  startedAt: '2026-03-02T15:00:00.050Z',
  finishedAt: '2026-03-02T15:00:01.200Z',
};

export const ANSWER_EXAMPLES = {
  enrollmentPage: {
    data: [ENROLLMENT],
    nextToken: null,
  },
  enrollmentsStopped: { stopped: 42, notActive: [] },
  enrollmentJobQueued: {
    ...EXAMPLE_ENROLLMENT_JOB,
    status: 'queued',
    matched: 0,
    enrolled: 0,
    notEnrolledCount: 0,
    reasons: EXAMPLE_ENROLLMENT_JOB.reasons.map((r) => ({ ...r, count: 0 })),
    notEnrolled: [],
    startedAt: null,
    finishedAt: null,
  },
  enrollmentJob: EXAMPLE_ENROLLMENT_JOB,
  callingPolicy: EXAMPLE_CALLING_POLICY,
  callingPolicyChanges: {
    data: [
      {
        at: '2026-03-01T09:00:00.000Z',
        actor: `key:${KEY_ID}`,
        change: {
          requireWrittenConsent: { from: false, to: true },
          attemptCap: { from: null, to: { max: 2, periodHours: 24 } },
        },
      },
    ],
  },
  consent: EXAMPLE_CONSENT,
  consents: { data: [EXAMPLE_CONSENT] },
  consentsRevoked: {
    data: [{ ...EXAMPLE_CONSENT, revokedAt: '2026-03-05T12:00:00.000Z', revokedBy: 'api', active: false }],
  },
  contactDialing: EXAMPLE_DIALING,
  callAuditCsv: callAuditToCsv([
    {
      callId: CALL_ID,
      contactId: CONTACT_ID,
      workflowId: WORKFLOW_ID,
      agentId: AGENT_ID,
      provider: 'vapi',
      placedAt: '2026-03-03T15:00:00.000Z',
      status: 'ended',
      result: 'converted',
      ruleSetVersion: '2026-11-29.1',
      purpose: 'telemarketing',
      timeZones: 'America/New_York',
      jurisdictions: 'US US-FL',
      ruleIds: 'us-hours us-consent-telemarketing us-dnc us-fl-hours us-fl-cap us-fl-consent',
      consentId: CONSENT_ID,
      consentKind: 'express_written',
      attemptCounts: 'us-fl-cap:1/3@24h',
    },
  ]),
  contact: EXAMPLE_CONTACT,
  workflowResults: {
    workflowId: WORKFLOW_ID,
    from: '2026-11-01T06:00:00.000Z',
    to: '2026-11-03T06:00:00.000Z',
    timeZone: 'America/Chicago',
    groupBy: 'day',
    totals: {
      enrolled: 3,
      attempted: 3,
      reached: 2,
      converted: 1,
      calls: 4,
      connected: 2,
      connectRate: 0.5,
      conversionRate: 1 / 3,
      durationMedianSeconds: 90,
      durationP90Seconds: 180,
      attemptsPerConversion: 2,
      results: RESULT_NAMES.map((result) => ({
        result,
        count: ({ converted: 1, not_interested: 1, no_answer: 2 } as Record<string, number>)[result] ?? 0,
      })),
    },
    days: [
      {
        date: '2026-11-01',
        calls: 3,
        results: [
          { result: 'not_interested', count: 1 },
          { result: 'no_answer', count: 2 },
        ],
      },
      { date: '2026-11-02', calls: 1, results: [{ result: 'converted', count: 1 }] },
    ],
    agents: [],
  },
  workflowPage: {
    data: [{ id: WORKFLOW_ID, name: 'Renewal reminders', status: 'published' }],
    nextToken: null,
  },
  contactPage: { data: [EXAMPLE_CONTACT], nextToken: 'eyJjIjoiMjAyNi0wMy0wMlQwOToxNTowMC4wMDBaIn0' },
  // The service's own renderer, so the example is exactly what the export sends.
  contactsCsv: contactsToCsv([EXAMPLE_CONTACT]),
  importAccepted: { importId: IMPORT_ID, accepted: 1, rejected: [{ reason: 'invalid-phone', index: 1 }] },
  bulkUpdateAccepted: { updateId: UPDATE_ID },
  importJob: IMPORT_JOB,
  importsPage: { data: [IMPORT_JOB] },
  bulkUpdateJob: {
    id: UPDATE_ID,
    status: 'done',
    matched: 2,
    changed: 1,
    skipped: [
      { contactId: CONTACT_ID, reason: 'dedup-conflict', conflictsWith: '9e4b2c7a-1f3d-4a6b-8c5e-0d2f4a6b8c1e' },
    ],
    skippedCount: 1,
    createdAt: '2026-03-01T10:00:00.000Z',
    finishedAt: '2026-03-01T10:00:02.000Z',
  },
  callPage: { data: [CALL_RECORD] },
  transcript: {
    utterances: [
      {
        speaker: 'assistant',
        content: 'Hello Ada, this is about your renewal.',
        timestamp: '2026-03-03T10:00:02.000Z',
      },
      { speaker: 'user', content: 'Yes, go ahead.', timestamp: '2026-03-03T10:00:05.000Z' },
    ],
  },
  webhookEndpoint: WEBHOOK_ENDPOINT,
  webhookEndpointWithSecret: { ...WEBHOOK_ENDPOINT, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0Fa6fG5yDpQ=' },
  webhookEndpointRotated: {
    ...WEBHOOK_ENDPOINT,
    previousSecretExpiresAt: '2026-03-05T09:00:00.000Z',
    updatedAt: '2026-03-04T09:00:00.000Z',
    secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD6sRhTS6UO0w=',
  },
  webhookEndpointsPage: { data: [WEBHOOK_ENDPOINT] },
  webhookDelivery: WEBHOOK_DELIVERY,
  webhookDeliveryRetried: {
    ...WEBHOOK_DELIVERY,
    status: 'pending',
    nextAttemptAt: '2026-03-04T10:00:00.000Z',
  },
  webhookDeliveriesPage: { data: [WEBHOOK_DELIVERY] },
  dncRegistryImported: {
    registry: 'us_national',
    downloadedAt: '2026-11-20T00:00:00.000Z',
    lines: 1184213,
    numbers: 1184210,
    scopes: ['415', '628'],
    bytesStored: 1605870,
    bytesPerNumber: 1.36,
  },
  dncRegistryCopies: {
    data: [
      {
        registry: 'us_national',
        scope: '415',
        downloadedAt: '2026-11-20T00:00:00.000Z',
        importedAt: '2026-11-20T14:02:11.000Z',
        numbers: 1003144,
        maxCopyAgeDays: 31,
        fresh: true,
        freshUntil: '2026-12-21T00:00:00.000Z',
      },
      {
        registry: 'us_national',
        scope: '628',
        downloadedAt: '2026-11-20T00:00:00.000Z',
        importedAt: '2026-11-20T14:02:11.000Z',
        numbers: 181066,
        maxCopyAgeDays: 31,
        fresh: true,
        freshUntil: '2026-12-21T00:00:00.000Z',
      },
    ],
  },
} as const;

/** The registry file sent in the curl sample of POST /dnc-registries/{registry}/imports. */
export const REGISTRY_FILE_EXAMPLE = '4155550123\n4155550187\n6285550100\n';

/** An error body as the service sends it; a 409 listing contacts gets two of them. */
export function errorExample(error: string, code: string, message: string, withContacts = false) {
  return {
    error,
    message,
    code,
    requestId: EXAMPLE_REQUEST_ID,
    ...(code === 'bad_request' ? { issues: [{ path: 'phone', message: 'must be digits …' }] } : {}),
    ...(withContacts ? { contacts: [EXAMPLE_CONTACT, OTHER_CONTACT] } : {}),
  };
}

/** Example values of the path parameters, for the parameters and the curl samples. */
export const PATH_EXAMPLES: Record<string, string> = {
  id: CONTACT_ID,
  endpointId: ENDPOINT_ID,
  deliveryId: DELIVERY_ID,
  sourceKind: 'hubspot',
  externalId: 'hs-1001',
  registry: 'us_national',
};

/**
 * A curl command for the operation (Redoc's "Request samples" panel; x-codeSamples): the
 * example path parameters filled in and the example body sent.
 */
export function curlSample(
  method: string,
  template: string,
  body?: unknown,
  textFile?: { query: string; file: string },
) {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(PATH_EXAMPLES[name] ?? name));
  const lines = [`curl -X ${method.toUpperCase()} "$CONTACTLINE_URL${path}${textFile ? `?${textFile.query}` : ''}"`];
  if (method !== 'options') lines.push('  -H "Authorization: Bearer $CONTACTLINE_API_KEY"');
  if (body !== undefined) {
    lines.push('  -H "Content-Type: application/json"', `  -d '${JSON.stringify(body)}'`);
  }
  if (textFile) lines.push('  -H "Content-Type: text/plain"', `  -T ${textFile.file}`);
  return [{ lang: 'Shell', label: 'curl', source: lines.join(' \\\n') }];
}
