// The tool server's schemas. Inputs reuse the bounds of the domain's input schemas (the single
// source of every limit) and add what an assistant needs to act: formats, enum values, what an
// empty result means. Outputs describe the REST response bodies, which are the tools' results.
import { z } from 'zod';
import { NOT_ENROLLED_REASONS } from '../domain/enrollment/enrollment-jobs.rules.js';
import { ENROLLMENT_STATES } from '../domain/enrollment/workflow-enrollments.inputs.js';
import { ENROLLMENT_END_REASONS } from '../domain/enrollment/workflow-enrollments.service.js';
import { CALL_PURPOSES, CONSENT_KINDS } from '../domain/calling-rules/calling-rule.types.js';
import { CONSENT_METHODS } from '../domain/calling-rules/calling-rules.inputs.js';
import { DeliveryStatusSchema } from '../domain/webhooks/webhook-endpoints.inputs.js';
import {
  CONTACT_STATUSES,
  ExternalIdPathSchema,
  ListQuerySchema,
  SOURCE_KINDS,
} from '../domain/contacts/contacts.inputs.js';
import { PageQuerySchema } from '../domain/shared/cursor.js';
import { UUID_PATTERN } from '../domain/shared/ids.js';
import { RESULTS_GROUPINGS, WorkflowResultsQuerySchema } from '../domain/workflows/workflow-results.service.js';

// ---------------------------------------------------------------------------------------------
// Input pieces

const uuid = (what: string) =>
  z.string().regex(UUID_PATTERN).describe(`${what} (a UUID, e.g. 6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f)`);

const pageLimit = (schema: z.ZodType) =>
  schema.describe(
    'Page size: an integer from 1 to 100; 50 when omitted. Ask for fewer when you only need a few results.',
  );

const nextToken = (schema: z.ZodType, tool: string) =>
  schema.describe(
    `Omit for the first page. To get the next page, pass the nextToken returned by the previous ${tool} call with the same other arguments; it is opaque, do not build or change it.`,
  );

const sourceKind = z
  .enum(SOURCE_KINDS)
  .describe(
    'The system the contact came from: hubspot, salesforce, monday (CRM or board sources), api (this API), csv (a CSV import), manual (entered in the app), oneai (created from an inbound call).',
  );

const externalId = ExternalIdPathSchema.shape.externalId.out.describe(
  "The contact's ID in its source system (1 to 256 characters; case- and accent-sensitive, trailing spaces ignored). Not the contact's own id: for that use contact_get.",
);

export const ContactsSearchInput = z.object({
  searchTerm: ListQuerySchema.shape.searchTerm.describe(
    'Words to search for (1 to 100 characters). Each word must match the start of the first or last name, case-insensitively; a word of digits matches digits anywhere in the phone number (e.g. "ada love", "2671"). Only the first ten words count. It does not match external IDs (use contact_get_by_external_id). Omit to list every contact.',
  ),
  status: z
    .array(z.enum(CONTACT_STATUSES))
    .min(1)
    .optional()
    .describe(
      'Only contacts in one of these statuses. The service sets, in order of progress: not_assigned, assigned, not_answered, not_reached, reached, disqualified, qualified, converted, dnc (do not call); the other values are legacy.',
    ),
  sourceKind: z.array(z.enum(SOURCE_KINDS)).min(1).optional().describe('Only contacts from one of these sources.'),
  assignedWorkflowId: ListQuerySchema.shape.assignedWorkflowId.describe(
    'Only contacts last enrolled in this workflow (a UUID from workflows_list), including enrollments that have ended.',
  ),
  addedSince: ListQuerySchema.shape.addedSince.describe(
    'Only contacts created at or after this time: ISO 8601 date-time with Z or an offset, e.g. 2026-03-01T00:00:00Z.',
  ),
  addedBefore: ListQuerySchema.shape.addedBefore.describe(
    'Only contacts created before this time: ISO 8601 date-time with Z or an offset, e.g. 2026-04-01T00:00:00+02:00.',
  ),
  limit: pageLimit(ListQuerySchema.shape.limit),
  nextToken: nextToken(ListQuerySchema.shape.nextToken, 'contacts_search'),
});

export const ContactGetInput = z.object({ id: uuid("The contact's id, as returned in the id field of a contact") });

export const ExternalIdInput = z.object({ sourceKind, externalId });

export const ContactCallsListInput = z.object({
  sourceKind,
  externalId,
  limit: pageLimit(PageQuerySchema.shape.limit),
  nextToken: nextToken(PageQuerySchema.shape.nextToken, 'contact_calls_list'),
});

export const CallTranscriptGetInput = z.object({
  callId: uuid("The call's id, as returned in the id field of a call by contact_calls_list"),
});

export const WorkflowsListInput = z.object({
  limit: pageLimit(PageQuerySchema.shape.limit),
  nextToken: nextToken(PageQuerySchema.shape.nextToken, 'workflows_list'),
});

export const WorkflowEnrollmentsListInput = z.object({
  workflowId: uuid("The workflow's id, from workflows_list"),
  state: z
    .enum(ENROLLMENT_STATES)
    .optional()
    .describe('active: the enrollments the dialer still calls; ended: the others; omitted: both'),
  limit: pageLimit(PageQuerySchema.shape.limit),
  nextToken: nextToken(PageQuerySchema.shape.nextToken, 'workflow_enrollments_list'),
});

export const WorkflowResultsGetInput = z.object({
  workflowId: uuid("The workflow's id, as returned by workflows_list"),
  from: WorkflowResultsQuerySchema.shape.from.describe(
    'Count calls placed (and enrollments started) at or after this time: ISO 8601 with Z or an offset, e.g. 2026-11-01T00:00:00-05:00. Default: 30 days before to.',
  ),
  to: WorkflowResultsQuerySchema.shape.to.describe(
    'Count what happened before this time (ISO 8601 with Z or an offset). Default: now. The window is at most 367 days.',
  ),
  groupBy: z
    .enum(RESULTS_GROUPINGS)
    .optional()
    .describe(
      'day (default): also the calls per day by result (days); agent: the same figures for each agent (agents).',
    ),
  timeZone: z
    .string()
    .max(64)
    .optional()
    .describe('The IANA time zone the days are counted in, e.g. America/Chicago. Default UTC.'),
});

export const ImportGetInput = z.object({
  importId: uuid("The import's id: the importId of POST /api/v1/contacts/bulk, or an id from imports_list"),
});

export const EnrollmentJobGetInput = z.object({
  jobId: uuid("The enrollment job's id: the id answered by POST /api/v1/workflows/{id}/enrollments"),
});

export const ImportsListInput = z.object({
  limit: pageLimit(PageQuerySchema.shape.limit),
  nextToken: nextToken(PageQuerySchema.shape.nextToken, 'imports_list'),
});

export const WebhookEndpointsListInput = z.object({
  limit: pageLimit(PageQuerySchema.shape.limit),
  nextToken: nextToken(PageQuerySchema.shape.nextToken, 'webhook_endpoints_list'),
});

export const WebhookDeliveriesListInput = z.object({
  endpointId: uuid("The endpoint's id, from webhook_endpoints_list"),
  status: DeliveryStatusSchema.optional().describe(
    'Only deliveries in this status: pending (to be sent again), delivered, failed (given up), cancelled, notice (the endpoint was disabled)',
  ),
  limit: pageLimit(PageQuerySchema.shape.limit),
  nextToken: nextToken(PageQuerySchema.shape.nextToken, 'webhook_deliveries_list'),
});

/** A contact named by its id, or by its source kind and external ID (the calling-rules tools). */
export const ContactRefInput = z.object({
  contactId: uuid(
    "The contact's id, as returned in the id field of a contact. Give it, or sourceKind and externalId",
  ).optional(),
  sourceKind: sourceKind
    .optional()
    .describe(
      'With externalId, instead of contactId: the system the contact came from (hubspot, salesforce, monday, api, csv, manual, oneai).',
    ),
  externalId: externalId
    .optional()
    .describe(
      "With sourceKind, instead of contactId: the contact's ID in its source system (1 to 256 characters, case-sensitive).",
    ),
});

export const BulkUpdateGetInput = z.object({
  updateId: uuid("The bulk-update's id: the updateId of POST /api/v1/contacts/bulk-update"),
});

// ---------------------------------------------------------------------------------------------
// Outputs: the REST response bodies

const timestamp = (meaning: string) => z.string().describe(`${meaning}: UTC timestamp with milliseconds and Z`);

export const ContactOutput = z
  .object({
    id: z.string().describe("The contact's id (UUID)"),
    accountId: z.string().describe('The owning Account (UUID)'),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    fullName: z.string().nullable(),
    phone: z.string().nullable().describe('E.164'),
    location: z.string().nullable().describe('ISO 3166 code: a country, or country-region'),
    locationDefaulted: z
      .boolean()
      .describe("True when location is the Account's default rather than given for the contact"),
    timezone: z.string().nullable().describe("IANA time zone; null: calls use the voice agent's"),
    timezoneInferred: z.boolean(),
    language: z.string().nullable().describe('Locale the contact speaks, e.g. en-US'),
    status: z.enum(CONTACT_STATUSES).nullable().describe('Engagement status'),
    sourceKind: z.enum(SOURCE_KINDS),
    externalId: z.string().nullable().describe('ID in its source system'),
    customFields: z.record(z.string(), z.unknown()).nullable().describe('Account-defined values keyed by field key'),
    priority: z.number().int().describe('Dial order of queued calls, 0 to 1000; higher is called first'),
    assignedWorkflowId: z.string().nullable().describe('Workflow the contact was last enrolled in'),
    callCount: z.number().int().describe('Call outcomes recorded since the contact was last enrolled'),
    maxAttempts: z.number().int().nullable(),
    lastCallAt: timestamp('Start of the latest call').nullable(),
    nextCallAt: timestamp('Next attempt time reported for the latest call').nullable(),
    createdAt: timestamp('When the contact was added'),
    updatedAt: timestamp('When the contact was last changed'),
  })
  .describe('A contact, exactly as GET /api/v1/contacts/{id} returns it');

export const ContactPageOutput = z.object({
  data: z.array(ContactOutput).describe('Newest first; empty when no contact matches'),
  nextToken: z.string().optional().describe('Present when another page exists; absent on the last page'),
});

const CallOutput = z.object({
  id: z.string().describe("The call's id (UUID): pass it to call_transcript_get"),
  contactId: z.string(),
  workflowId: z.string().nullable(),
  agentId: z.string().nullable(),
  direction: z.enum(['outbound', 'inbound']),
  status: z.string().describe('placing (with the voice provider), queued, ringing, in_progress, ended or failed'),
  result: z
    .string()
    .nullable()
    .describe(
      'How the call went, e.g. converted, qualified, not_interested, no_answer, voicemail, busy; null until it ended',
    ),
  endReason: z.string().nullable(),
  startedAt: timestamp('When the call was placed (outbound) or started (inbound); the list order'),
  endedAt: timestamp('When the call ended').nullable(),
  durationSeconds: z.number().int().nullable(),
  language: z.string().nullable().describe('Language the call ended in'),
  lastCall: z.boolean().describe('True when no further attempt follows this call'),
  transcriptAvailable: z
    .boolean()
    .describe('True when call_transcript_get returns a non-empty transcript for this call'),
  recordingUrl: z
    .string()
    .nullable()
    .describe(
      'The recording of the call, as the voice provider reported it (its URL, which may expire); null when there is none',
    ),
});

export const CallPageOutput = z.object({
  data: z.array(CallOutput).describe('Oldest first; empty when the contact has no calls'),
  nextToken: z.string().optional().describe('Present when another page exists; absent on the last page'),
});

export const TranscriptOutput = z.object({
  utterances: z
    .array(
      z.object({
        speaker: z.string().nullable().describe('assistant for the voice agent, user for the contact'),
        content: z.string().nullable().describe('What the speaker said'),
        timestamp: timestamp('When it was spoken').nullable(),
      }),
    )
    .describe("In conversation order; empty until the call's report is ready, and for a call without a transcript"),
});

export const EnrollmentPageOutput = z.object({
  data: z
    .array(
      z.object({
        id: z.string().describe("The enrollment's id (UUID)"),
        contactId: z.string().nullable().describe('The contact (contact_get); null once the contact is erased'),
        workflowId: z.string(),
        state: z.enum(ENROLLMENT_STATES),
        startedAt: timestamp('When the contact was enrolled'),
        endedAt: timestamp('When it ended').nullable(),
        endReason: z
          .enum(ENROLLMENT_END_REASONS)
          .nullable()
          .describe(
            'Why it ended: a final call result (finalResult), attempts used up, stopped, replaced by a later enrollment, or the contact erased',
          ),
        finalResult: z.string().nullable().describe('The call result that ended it, when endReason is final_result'),
        attempts: z.number().int().describe('Calls made'),
        nextCallAt: timestamp(
          'When the dialer may next call; null once ended or while a call is in progress',
        ).nullable(),
      }),
    )
    .describe('Newest first; empty when the workflow has none (in that state)'),
  nextToken: z.string().nullable().describe('Null on the last page'),
});

const resultCounts = z
  .array(z.object({ result: z.string().describe('One of the 21 call results'), count: z.number().int() }))
  .describe('Calls by result');

const ResultFiguresOutput = z.object({
  enrolled: z.number().int().nullable().describe('Enrollments started in the window; null per agent'),
  attempted: z.number().int().describe('Contacts whose first call of the workflow was placed in the window'),
  reached: z.number().int().describe('Contacts whose first call that reached them was placed in the window'),
  converted: z.number().int().describe('Contacts whose first converted call was placed in the window'),
  calls: z.number().int().describe('Ended calls placed in the window'),
  connected: z.number().int().describe('Ended calls where a person talked with the agent'),
  connectRate: z.number().nullable().describe('connected / calls (0 to 1); null without calls'),
  conversionRate: z.number().nullable().describe('converted / attempted (0 to 1); null without attempted contacts'),
  durationMedianSeconds: z.number().int().nullable().describe("The connected calls' median duration"),
  durationP90Seconds: z.number().int().nullable().describe("The connected calls' 90th percentile duration"),
  attemptsPerConversion: z.number().nullable().describe('The calls up to and including each conversion, on average'),
  results: resultCounts.describe('All 21 results, zeros included'),
});

export const WorkflowResultsOutput = z.object({
  workflowId: z.string(),
  from: timestamp('Start of the window'),
  to: timestamp('End of the window (excluded)'),
  timeZone: z.string().describe('The zone the days are counted in'),
  groupBy: z.string(),
  totals: ResultFiguresOutput,
  days: z
    .array(
      z.object({ date: z.string().describe('YYYY-MM-DD in timeZone'), calls: z.number().int(), results: resultCounts }),
    )
    .describe('groupBy day: each day with calls, oldest first; empty for groupBy agent'),
  agents: z
    .array(z.object({ agentId: z.string().nullable(), figures: ResultFiguresOutput }))
    .describe('groupBy agent: the figures of each agent; empty for groupBy day'),
});

export const WorkflowPageOutput = z.object({
  data: z
    .array(
      z.object({
        id: z.string().describe("The workflow's id (UUID): use it as assignedWorkflowId in contacts_search"),
        name: z.string(),
        status: z.string().describe('published, draft or archived'),
      }),
    )
    .describe('Newest first; empty when the Account has no workflows'),
  nextToken: z.string().nullable().describe('Null on the last page'),
});

const jobStatus = z
  .enum(['queued', 'running', 'done'])
  .describe('queued: not started; running: being written; done: every item written or rejected');

export const EnrollmentJobOutput = z
  .object({
    id: z.string().describe("The job's id (UUID)"),
    workflowId: z.string(),
    status: jobStatus,
    reEnroll: z.boolean(),
    enforceCallNow: z.boolean(),
    matched: z.number().int().describe("Contacts selected so far: the distinct ids sent, or the filter's matches"),
    enrolled: z.number().int().describe('Of those, the contacts enrolled'),
    notEnrolledCount: z.number().int().describe('Of those, the contacts not enrolled'),
    reasons: z
      .array(z.object({ reason: z.enum(NOT_ENROLLED_REASONS), count: z.number().int() }))
      .describe('How many contacts were not enrolled for each reason, zeros included'),
    notEnrolled: z
      .array(z.object({ contactId: z.string(), reason: z.enum(NOT_ENROLLED_REASONS) }))
      .describe('The first 1000 contacts not enrolled, with why'),
    createdAt: timestamp('When the job was accepted'),
    startedAt: timestamp('When its first chunk was applied').nullable(),
    finishedAt: timestamp('When every contact was enrolled or counted out').nullable(),
  })
  .describe('An enrollment job, exactly as GET /api/v1/enrollment-jobs/{id} returns it');

export const ImportOutput = z
  .object({
    id: z.string().describe("The import's id (UUID)"),
    status: jobStatus,
    accepted: z.number().int().describe('Items that passed validation'),
    created: z.number().int().describe('Items that created a contact'),
    updated: z.number().int().describe('Items that updated a stored contact'),
    rejected: z
      .array(z.object({ index: z.number().int().describe("The item's index in the request"), reason: z.string() }))
      .describe('Items not written: invalid-phone, missing-dedup-field, dedup-key-too-long, custom-fields-over-limit'),
    createdAt: timestamp('When the import was accepted'),
    finishedAt: timestamp('When every item was written or rejected').nullable(),
  })
  .describe('A bulk import, exactly as GET /api/v1/imports/{id} returns it');

export const ImportPageOutput = z.object({
  data: z.array(ImportOutput).describe('Newest first; empty when the Account has no imports'),
  nextToken: z.string().optional().describe('Present when another page exists; absent on the last page'),
});

export const BulkUpdateOutput = z
  .object({
    id: z.string().describe("The bulk-update's id (UUID)"),
    status: jobStatus,
    matched: z.number().int().describe('Contacts the filter matched so far'),
    changed: z.number().int().describe('Of those, the contacts changed'),
    skipped: z
      .array(
        z.object({
          contactId: z.string().describe('A contact left unchanged (read it with contact_get)'),
          reason: z
            .string()
            .describe('dedup-conflict, missing-dedup-field, dedup-key-too-long, custom-fields-over-limit'),
          conflictsWith: z.string().nullable().describe('For dedup-conflict: the contact holding that dedup key'),
        }),
      )
      .describe('The first 1000 matched contacts left unchanged'),
    skippedCount: z.number().int().describe('Every matched contact left unchanged'),
    createdAt: timestamp('When the bulk-update was accepted'),
    finishedAt: timestamp('When every matched contact was handled').nullable(),
  })
  .describe('A bulk-update, exactly as GET /api/v1/bulk-updates/{id} returns it');

export const WebhookEndpointPageOutput = z.object({
  data: z
    .array(
      z.object({
        id: z.string().describe("The endpoint's id (UUID): use it in webhook_deliveries_list"),
        url: z.string(),
        description: z.string().nullable(),
        events: z.array(z.string()).describe('The events it receives'),
        disabled: z.boolean(),
        disabledReason: z.string().nullable().describe('Why: through the API, or its attempts failed for 5 days'),
        failingSince: timestamp('The first failed attempt since the last success').nullable(),
        previousSecretExpiresAt: timestamp('After a rotation: until when the old secret signs too').nullable(),
        createdAt: timestamp('When it was created'),
        updatedAt: timestamp('When it last changed'),
      }),
    )
    .describe('Newest first; never a secret'),
  nextToken: z.string().optional().describe('Present when another page exists; absent on the last page'),
});

export const WebhookDeliveryPageOutput = z.object({
  data: z
    .array(
      z.object({
        id: z.string(),
        endpointId: z.string(),
        eventId: z.string(),
        webhookId: z.string().describe('The webhook-id header: the same on every attempt'),
        eventType: z.string(),
        status: z.string().describe('pending, delivered, failed, cancelled or notice'),
        attempts: z.number().int(),
        responseStatus: z.number().int().nullable().describe("The last attempt's HTTP status; null: no answer"),
        lastError: z.string().nullable(),
        nextAttemptAt: timestamp('When pending: the next attempt').nullable(),
        lastAttemptAt: timestamp('The last attempt').nullable(),
        createdAt: timestamp('When the event was fanned out to the endpoint'),
        deliveredAt: timestamp('When the receiver answered 2xx').nullable(),
        payload: z.unknown().describe('The body sent: { type, timestamp, data }'),
      }),
    )
    .describe('Newest first'),
  nextToken: z.string().optional().describe('Present when another page exists; absent on the last page'),
});

const jurisdiction = z
  .string()
  .describe('ISO 3166 code: a country (US) or a state or province (US-FL); the rule set lists them');

export const DialingOutput = z
  .object({
    contactId: z.string().describe("The contact's id (UUID)"),
    callableNow: z.boolean().describe('True when the dialer may call the contact now (reasons is then empty)'),
    nextCallableAt: timestamp('The first time no rule blocks the call')
      .nullable()
      .describe('null: not within 45 days, or not until someone acts on a reason whose until is null'),
    reasons: z
      .array(
        z.object({
          code: z
            .string()
            .describe(
              'e.g. outside_legal_hours, public_holiday, attempt_cap_reached, consent_required, registry_listed, registry_copy_missing, registry_copy_stale, no_time_zone, phone_blocked, contact_dnc, outside_working_hours, not_due, workflow_paused',
            ),
          message: z.string().describe('The reason in words'),
          jurisdiction: jurisdiction
            .nullable()
            .describe("The law's jurisdiction; null: the Account, the contact or its enrollment"),
          source: z.string().nullable().describe('The statute or regulation; null when no law is the reason'),
          ruleId: z
            .string()
            .nullable()
            .describe("The rule set's rule (e.g. us-fl-hours); null when no law is the reason"),
          until: timestamp('When it stops blocking by itself').nullable().describe('null: until someone acts'),
        }),
      )
      .describe('Every rule that blocks a call now; empty when callableNow'),
    timeZones: z.array(z.string()).describe("The IANA zones the contact's local time was checked in"),
    jurisdictions: z.array(jurisdiction).describe("The jurisdictions of the contact's place whose rules were applied"),
    ruleSetVersion: z.string().describe('The rule set the decision used'),
    purpose: z.enum(CALL_PURPOSES).describe("The purpose of the Account's calls (its calling policy)"),
    ruleIds: z.array(z.string()).describe('The rules that bound the decision'),
    attempts: z
      .array(
        z.object({
          ruleId: z.string().nullable().describe("The law's cap; null: the Account's own"),
          jurisdiction: jurisdiction.nullable(),
          max: z.number().int(),
          periodHours: z.number().int(),
          counted: z.number().int().describe('Calls to the contact in the last periodHours'),
          source: z.string().nullable(),
        }),
      )
      .describe('The calls counted against each cap that binds the contact'),
    consentUsed: z
      .object({ id: z.string(), kind: z.enum(CONSENT_KINDS) })
      .nullable()
      .describe('The live consent the decision relied on; null: none'),
    enrollment: z
      .object({
        workflowId: z.string(),
        agentId: z.string().nullable(),
        attempts: z.number().int().describe('Calls made in this enrollment'),
        dueAt: timestamp('When the next attempt is due').nullable().describe('null while a call is in progress'),
        immediate: z
          .boolean()
          .describe("A first call placed at once: outside the agent's working hours, never outside the law"),
      })
      .nullable()
      .describe(
        'The active enrollment the decision is for; null: none, the law, policy and consent alone were checked',
      ),
  })
  .describe('The dialing decision, exactly as GET /api/v1/contacts/{id}/dialing returns it');

export const ConsentPageOutput = z.object({
  data: z
    .array(
      z.object({
        id: z.string().describe("The consent's id (UUID)"),
        contactId: z.string(),
        kind: z.enum(CONSENT_KINDS).describe('express_written: a signed agreement, e-signature included'),
        workflowId: z.string().nullable().describe('The one workflow it covers; null: every call of the Account'),
        method: z.enum(CONSENT_METHODS).describe('How it was obtained'),
        evidence: z.string().nullable().describe('What proves it'),
        obtainedAt: timestamp('When the contact gave it'),
        createdAt: timestamp('When it was recorded'),
        revokedAt: timestamp('When it was revoked').nullable(),
        revokedBy: z
          .string()
          .nullable()
          .describe('api, do_not_call_result (the contact asked on a call), erasure or block_list'),
        active: z.boolean().describe('True until revoked'),
      }),
    )
    .describe('Newest first, revoked ones included; empty when none was recorded'),
});
