// The read-only tools. Each runs the very GraphQL operation its REST route runs (the same bounds,
// validation, scoping and errors) and returns the REST response body.
import type { z } from 'zod';
import type { RequestContext } from '../domain/context.js';
import { assertUuid } from '../domain/shared/ids.js';
import { runOperation } from '../graphql/execute.js';
import { Operations, restPage } from '../graphql/operations/index.js';
import {
  contactListVariables,
  contactRefVariables,
  deliveryListVariables,
  enrollmentPageVariables,
  externalIdPath,
  pageVariables,
  requiredText,
  requiredUuid,
  workflowResultsVariables,
  type RequestValues,
} from '../graphql/operations/variables.js';
import {
  BulkUpdateGetInput,
  BulkUpdateOutput,
  CallPageOutput,
  CallTranscriptGetInput,
  ConsentPageOutput,
  ContactCallsListInput,
  ContactGetInput,
  ContactOutput,
  ContactPageOutput,
  ContactRefInput,
  ContactsSearchInput,
  DialingOutput,
  EnrollmentPageOutput,
  ExternalIdInput,
  EnrollmentJobGetInput,
  EnrollmentJobOutput,
  ImportGetInput,
  ImportOutput,
  ImportPageOutput,
  ImportsListInput,
  TranscriptOutput,
  WebhookDeliveriesListInput,
  WebhookDeliveryPageOutput,
  WebhookEndpointPageOutput,
  WebhookEndpointsListInput,
  WorkflowEnrollmentsListInput,
  WorkflowPageOutput,
  WorkflowResultsGetInput,
  WorkflowResultsOutput,
  WorkflowsListInput,
} from './tool-schemas.js';

type Body = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** Advertised to the client; the operation itself validates what is sent. */
  input: z.ZodObject;
  /** The REST response body's shape: the tool's structured result. */
  output: z.ZodObject;
  /** Runs the operation as the key's user; resolves to the REST response body, or throws its DomainError. */
  run(ctx: RequestContext, args: RequestValues): Promise<Body>;
}

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'contacts_search',
    title: 'Search contacts',
    description:
      "Search or list the Account's contacts, newest first. Returns one page: { data: [contact...], nextToken? }. " +
      'data is empty when no contact matches; nextToken is present only when more contacts match (call again with it). ' +
      "To see a contact's calls, pass its sourceKind and externalId to contact_calls_list.",
    input: ContactsSearchInput,
    output: ContactPageOutput,
    async run(ctx, args) {
      const variables = contactListVariables(args);
      const { contacts } = await runOperation(ctx, Operations.listContacts, variables);
      return restPage(contacts);
    },
  },
  {
    name: 'contact_get',
    title: 'Get a contact',
    description:
      'Read one contact of the Account by its id. Fails with code not_found when the Account has no contact with that id.',
    input: ContactGetInput,
    output: ContactOutput,
    async run(ctx, args) {
      const { contact } = await runOperation(ctx, Operations.getContact, { id: requiredText(args, 'id') });
      return contact;
    },
  },
  {
    name: 'contact_get_by_external_id',
    title: 'Get a contact by external ID',
    description:
      'Read one contact by its ID in its source system (sourceKind and externalId). Fails with code not_found when none matches, ' +
      'and with code conflict when several contacts share that external ID: the error then lists them in contacts; read one with contact_get.',
    input: ExternalIdInput,
    output: ContactOutput,
    async run(ctx, args) {
      const { contactByExternalId } = await runOperation(ctx, Operations.getContactByExternalId, externalIdPath(args));
      return contactByExternalId;
    },
  },
  {
    name: 'contact_calls_list',
    title: "List a contact's calls",
    description:
      'List the calls of the contact with this sourceKind and externalId, oldest first by when each call started. Returns one page: { data: [call...], nextToken? }; ' +
      "data is empty when the contact has no calls. A call's transcriptAvailable says whether call_transcript_get has its transcript. " +
      'Fails like contact_get_by_external_id (not_found, conflict).',
    input: ContactCallsListInput,
    output: CallPageOutput,
    async run(ctx, args) {
      const { contactCalls } = await runOperation(ctx, Operations.listContactCalls, {
        ...externalIdPath(args),
        ...pageVariables(args),
      });
      return restPage(contactCalls);
    },
  },
  {
    name: 'contact_dialing_get',
    title: 'Get whether and when a contact will be called',
    description:
      'Whether the dialer may call one contact now, when next, and every rule that blocks it: the dialer’s own decision, as GET /api/v1/contacts/{id}/dialing. ' +
      'Name the contact by contactId, or by sourceKind and externalId. Returns { contactId, callableNow, nextCallableAt, reasons: [{ code, message, jurisdiction, source, ruleId, until }], ' +
      'timeZones, jurisdictions, purpose, ruleSetVersion, ruleIds, attempts: [{ ruleId, jurisdiction, max, periodHours, counted, source }], consentUsed, enrollment }. ' +
      'A reason whose until is null lasts until someone acts (consent_required: the contact’s consent must be recorded; see contact_consents_list). ' +
      'Fails with code not_found when the Account has no such contact, and conflict when several contacts share the external ID.',
    input: ContactRefInput,
    output: DialingOutput,
    async run(ctx, args) {
      const contact = contactRefVariables(args);
      // Checked here first so that the error names this tool's argument.
      if ('contactId' in contact) assertUuid(contact.contactId, 'contactId');
      const { contactDialing } = await runOperation(ctx, Operations.getContactDialing, contact);
      return contactDialing;
    },
  },
  {
    name: 'contact_consents_list',
    title: "List a contact's consents",
    description:
      'List the consents to be called that one contact gave, newest first, revoked ones included, as GET /api/v1/contacts/{id}/consents: ' +
      '{ data: [{ id, contactId, kind (express or express_written), workflowId (null: every call of the Account), method, evidence, obtainedAt, createdAt, revokedAt, revokedBy, active }] }. ' +
      'data is empty when none was recorded. Name the contact by contactId, or by sourceKind and externalId. Fails like contact_dialing_get (not_found, conflict).',
    input: ContactRefInput,
    output: ConsentPageOutput,
    async run(ctx, args) {
      const contact = contactRefVariables(args);
      if ('contactId' in contact) assertUuid(contact.contactId, 'contactId');
      const { contactConsents } = await runOperation(ctx, Operations.listContactConsents, contact);
      return { data: contactConsents };
    },
  },
  {
    name: 'call_transcript_get',
    title: 'Get a call transcript',
    description:
      'Read the transcript of one call: { utterances: [{ speaker, content, timestamp }] } in conversation order (speaker assistant is the voice agent, user the contact). ' +
      "utterances is empty until the call's report is ready, and for a call without a transcript. Fails with code not_found for an unknown call.",
    input: CallTranscriptGetInput,
    output: TranscriptOutput,
    async run(ctx, args) {
      // The operation checks its `id` too; checked here first so that the error names this tool's argument.
      const id = requiredUuid(args, 'callId');
      const { callTranscript } = await runOperation(ctx, Operations.getCallTranscript, { id });
      return callTranscript;
    },
  },
  {
    name: 'workflows_list',
    title: 'List workflows',
    description:
      "List the Account's workflows (id, name, status), newest first. Returns one page: { data: [workflow...], nextToken }; nextToken is null on the last page. " +
      "A workflow's id filters contacts_search by assignedWorkflowId.",
    input: WorkflowsListInput,
    output: WorkflowPageOutput,
    async run(ctx, args) {
      const { workflows } = await runOperation(ctx, Operations.listWorkflows, pageVariables(args));
      return { data: workflows.data, nextToken: workflows.nextToken };
    },
  },
  {
    name: 'workflow_enrollments_list',
    title: "List a workflow's enrollments",
    description:
      "List one workflow's enrollments, newest first, as GET /api/v1/workflows/{id}/enrollments: { data: [{ id, contactId (null once the contact is erased), workflowId, state (active or ended), startedAt, endedAt, endReason (final_result, attempt_limit, stopped, re_enrolled, contact_erased), finalResult, attempts, nextCallAt }], nextToken }. " +
      "state keeps the active or the ended ones; nextToken is null on the last page. Fails with code not_found for an unknown workflow or another Account's.",
    input: WorkflowEnrollmentsListInput,
    output: EnrollmentPageOutput,
    async run(ctx, args) {
      const workflowId = requiredUuid(args, 'workflowId');
      const { workflowEnrollments } = await runOperation(ctx, Operations.listWorkflowEnrollments, {
        workflowId,
        ...enrollmentPageVariables(args),
      });
      return { data: workflowEnrollments.data, nextToken: workflowEnrollments.nextToken };
    },
  },
  {
    name: 'workflow_results_get',
    title: "Get a workflow's results",
    description:
      "A workflow's results over a window, as GET /api/v1/workflows/{id}/results: { totals: { enrolled, attempted, reached, converted, calls, connected, connectRate, conversionRate, " +
      'durationMedianSeconds, durationP90Seconds, attemptsPerConversion, results: [{ result, count }] }, days (groupBy day: calls per day by result, in timeZone), ' +
      "agents (groupBy agent: the same figures per agent) }; erased contacts' calls still count. The window widens to whole UTC hours. Rates are 0 to 1, null when nothing was counted. " +
      'Fails with code not_found for an unknown workflow, bad_request for from not before to, a window over 367 days, an unknown groupBy or time zone.',
    input: WorkflowResultsGetInput,
    output: WorkflowResultsOutput,
    async run(ctx, args) {
      const id = requiredUuid(args, 'workflowId');
      const { workflowResults } = await runOperation(
        ctx,
        Operations.getWorkflowResults,
        workflowResultsVariables(id, args),
      );
      return workflowResults;
    },
  },
  {
    name: 'enrollment_job_get',
    title: 'Get an enrollment job',
    description:
      "Read what enrolling a workflow's existing contacts did, as GET /api/v1/enrollment-jobs/{id}: { id, workflowId, status (queued, running, done), reEnroll, enforceCallNow, " +
      'matched, enrolled, notEnrolledCount, reasons: [{ reason, count }], notEnrolled: [{ contactId, reason }] (the first 1000), createdAt, startedAt, finishedAt }. ' +
      "Reasons: not_found, workflow_not_published, already_enrolled, already_called, blocked, no_consent. Fails with code not_found for an unknown job or another Account's.",
    input: EnrollmentJobGetInput,
    output: EnrollmentJobOutput,
    async run(ctx, args) {
      const id = requiredUuid(args, 'jobId');
      const { enrollmentJob } = await runOperation(ctx, Operations.getEnrollmentJob, { id });
      return enrollmentJob;
    },
  },
  {
    name: 'import_get',
    title: 'Get a bulk import',
    description:
      'Read what one bulk import did: { id, status (queued, running, done), accepted, created, updated, rejected: [{ index, reason }], createdAt, finishedAt }. ' +
      "index is the item's place in the import's request. Fails with code not_found for an unknown import.",
    input: ImportGetInput,
    output: ImportOutput,
    async run(ctx, args) {
      // Checked here first so that the error names this tool's argument.
      const id = requiredUuid(args, 'importId');
      const data = await runOperation(ctx, Operations.getImport, { id });
      return data.import;
    },
  },
  {
    name: 'imports_list',
    title: 'List bulk imports',
    description:
      "List the Account's bulk imports, newest first, each as import_get returns it. Returns one page: { data: [import...], nextToken? }; " +
      'nextToken is present only when more imports exist.',
    input: ImportsListInput,
    output: ImportPageOutput,
    async run(ctx, args) {
      const { imports } = await runOperation(ctx, Operations.listImports, pageVariables(args));
      return restPage(imports);
    },
  },
  {
    name: 'bulk_update_get',
    title: 'Get a bulk-update',
    description:
      'Read what one bulk-update did: { id, status (queued, running, done), matched, changed, skipped: [{ contactId, reason, conflictsWith }], skippedCount, createdAt, finishedAt }. ' +
      'skipped lists the first 1000 matched contacts left unchanged (e.g. dedup-conflict: conflictsWith holds the dedup key). Fails with code not_found for an unknown bulk-update.',
    input: BulkUpdateGetInput,
    output: BulkUpdateOutput,
    async run(ctx, args) {
      const id = requiredUuid(args, 'updateId');
      const { bulkUpdate } = await runOperation(ctx, Operations.getBulkUpdate, { id });
      return bulkUpdate;
    },
  },
  {
    name: 'webhook_endpoints_list',
    title: 'List webhook endpoints',
    description:
      "List the Account's outgoing webhook endpoints, newest first: { data: [{ id, url, description, events, disabled, disabledReason, failingSince, previousSecretExpiresAt, createdAt, updatedAt }], nextToken? }. " +
      'failingSince set means its deliveries are failing (see webhook_deliveries_list); secrets are never shown.',
    input: WebhookEndpointsListInput,
    output: WebhookEndpointPageOutput,
    async run(ctx, args) {
      const { webhookEndpoints } = await runOperation(ctx, Operations.listWebhookEndpoints, pageVariables(args));
      return restPage(webhookEndpoints);
    },
  },
  {
    name: 'webhook_deliveries_list',
    title: "List a webhook endpoint's deliveries",
    description:
      "List one endpoint's deliveries, newest first, optionally only one status: each with its event type, status, attempts, the last answer's HTTP status and error, the next attempt and the body sent. " +
      'Use it to tell why an integration missed an event. Fails with code not_found for an unknown endpoint.',
    input: WebhookDeliveriesListInput,
    output: WebhookDeliveryPageOutput,
    async run(ctx, args) {
      const endpointId = requiredUuid(args, 'endpointId');
      const { webhookDeliveries } = await runOperation(ctx, Operations.listWebhookDeliveries, {
        endpointId,
        ...deliveryListVariables(args),
      });
      return restPage(webhookDeliveries);
    },
  },
];
