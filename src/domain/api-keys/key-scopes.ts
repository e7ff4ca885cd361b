// What an API key may do. A key may carry scopes, one per kind of access; a key created without
// any has every scope (keys were unscoped before scopes existed, and the API's contract
// describes them so). The one table below names the scope of every operation a key can reach,
// and `guardScopes` applies it once to the built schema, so REST, the tool server and GraphQL
// all refuse alike: 403 `forbidden`, naming the scope the operation needs. The people signed in
// to the console, the board app and the operator act without a key: scopes do not bind them.
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { z } from 'zod';
import { DomainError } from '../errors.js';

export const KEY_SCOPES = [
  'contacts:read',
  'contacts:write',
  'calls:read',
  'workflows:read',
  'enrollments:write',
  'webhooks:manage',
  'calling-rules:read',
  'calling-rules:write',
  'boards:manage',
] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** What each scope allows, for the docs and the console's form. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<KeyScope, string>> = {
  'contacts:read': 'Read contacts, their consents and dialing decisions, imports and bulk updates',
  'contacts:write': 'Create, update, import and delete contacts; record and revoke consents',
  'calls:read': 'Read calls, their transcripts and the call audit',
  'workflows:read': 'Read workflows, their agents, results, enrollments and enrollment jobs',
  'enrollments:write': 'Enroll contacts in workflows and stop enrollments',
  'webhooks:manage': 'Read, create, change and delete webhook endpoints, and their deliveries',
  'calling-rules:read': 'Read the calling policy, its changes and the do-not-call registry copies',
  'calling-rules:write': 'Change the calling policy and import do-not-call registry copies',
  'boards:manage': "Read and change the monday link's boards and their mappings",
};

/** Every root field an API key can reach (`Query.x`, `Mutation.x`), and the scope it needs. */
export const FIELD_SCOPES: Readonly<Record<string, KeyScope>> = {
  'Query.contacts': 'contacts:read',
  'Query.contact': 'contacts:read',
  'Query.contactByExternalId': 'contacts:read',
  'Query.contactConsents': 'contacts:read',
  'Query.contactDialing': 'contacts:read',
  'Query.import': 'contacts:read',
  'Query.imports': 'contacts:read',
  'Query.bulkUpdate': 'contacts:read',
  'Mutation.upsertContact': 'contacts:write',
  'Mutation.upsertContactTyped': 'contacts:write',
  'Mutation.importContacts': 'contacts:write',
  'Mutation.importContactsTyped': 'contacts:write',
  'Mutation.startBulkUpdate': 'contacts:write',
  'Mutation.startBulkUpdateTyped': 'contacts:write',
  'Mutation.bulkUpdateContacts': 'contacts:write',
  'Mutation.bulkUpdateContactsTyped': 'contacts:write',
  'Mutation.patchContactByExternalId': 'contacts:write',
  'Mutation.patchContactByExternalIdTyped': 'contacts:write',
  'Mutation.deleteContact': 'contacts:write',
  'Mutation.deleteContactByExternalId': 'contacts:write',
  'Mutation.addContactConsent': 'contacts:write',
  'Mutation.addContactConsentTyped': 'contacts:write',
  'Mutation.revokeContactConsents': 'contacts:write',
  'Mutation.revokeContactConsentsTyped': 'contacts:write',
  'Query.contactCalls': 'calls:read',
  'Query.callTranscript': 'calls:read',
  'Query.callAudit': 'calls:read',
  'Query.workflows': 'workflows:read',
  'Query.workflowResults': 'workflows:read',
  'Query.workflowEnrollments': 'workflows:read',
  'Query.enrollmentJob': 'workflows:read',
  'Query.accountAgents': 'workflows:read',
  'Query.accountAgent': 'workflows:read',
  'Mutation.enrollWorkflowContacts': 'enrollments:write',
  'Mutation.enrollWorkflowContactsTyped': 'enrollments:write',
  'Mutation.stopWorkflowEnrollments': 'enrollments:write',
  'Mutation.stopWorkflowEnrollmentsTyped': 'enrollments:write',
  'Query.webhookEndpoints': 'webhooks:manage',
  'Query.webhookEndpoint': 'webhooks:manage',
  'Query.webhookDeliveries': 'webhooks:manage',
  'Mutation.createWebhookEndpoint': 'webhooks:manage',
  'Mutation.createWebhookEndpointTyped': 'webhooks:manage',
  'Mutation.updateWebhookEndpoint': 'webhooks:manage',
  'Mutation.updateWebhookEndpointTyped': 'webhooks:manage',
  'Mutation.deleteWebhookEndpoint': 'webhooks:manage',
  'Mutation.rotateWebhookEndpointSecret': 'webhooks:manage',
  'Mutation.retryWebhookDelivery': 'webhooks:manage',
  'Query.callingPolicy': 'calling-rules:read',
  'Query.callingPolicyChanges': 'calling-rules:read',
  'Query.dncRegistryCopies': 'calling-rules:read',
  'Mutation.setCallingPolicy': 'calling-rules:write',
  'Mutation.setCallingPolicyTyped': 'calling-rules:write',
  'Mutation.startDncRegistryImport': 'calling-rules:write',
  'Mutation.appendDncRegistryLines': 'calling-rules:write',
  'Mutation.finishDncRegistryImport': 'calling-rules:write',
  'Mutation.abandonDncRegistryImport': 'calling-rules:write',
  'Query.mondayLink': 'boards:manage',
  'Query.mondayBoards': 'boards:manage',
  'Query.mondayBoard': 'boards:manage',
  'Query.boardMapping': 'boards:manage',
  'Mutation.setBoardMapping': 'boards:manage',
  'Mutation.setBoardMappingTyped': 'boards:manage',
  'Mutation.removeBoardMapping': 'boards:manage',
  'Mutation.setStatusLabels': 'boards:manage',
  'Mutation.unlinkMonday': 'boards:manage',
};

/**
 * The root fields no API key runs: the operator's, the console's and the board app's (each
 * refuses a key itself, with 401). Listed so that a new field must be placed in one table or the
 * other (test/unit/key-scopes.test.ts); a field in neither is refused to a key with scopes.
 */
export const NOT_FOR_KEYS: ReadonlySet<string> = new Set([
  'Query.apiKeys',
  'Query.accountApiKeys',
  'Query.accountSettings',
  'Query.accountContactNextCall',
  'Query.boardAgentOptions',
  'Query.boardCallResultLabel',
  'Query.boardEnrollmentTarget',
  'Query.boardWorkflowOptions',
  'Query.csvUpload',
  'Query.mondayLinks',
  'Query.providerCredentials',
  'Mutation.blockPhone',
  'Mutation.unblockPhone',
  'Mutation.changeAccountWorkflow',
  'Mutation.claimBoardActionRun',
  'Mutation.finishBoardActionRun',
  'Mutation.releaseBoardActionRun',
  'Mutation.enrollBoardItem',
  'Mutation.subscribeToCallEnded',
  'Mutation.unsubscribeFromCallEnded',
  'Mutation.startMondayLink',
  'Mutation.completeMondayLink',
  'Mutation.createAccount',
  'Mutation.updateAccount',
  'Mutation.updateAccountSettings',
  'Mutation.createUser',
  'Mutation.removeUser',
  'Query.connectedApplications',
  'Mutation.revokeConnectedApplication',
  'Mutation.inviteUser',
  'Mutation.createApiKey',
  'Mutation.revokeApiKey',
  'Mutation.createAccountApiKey',
  'Mutation.revokeAccountApiKey',
  'Mutation.createAccountAgent',
  'Mutation.updateAccountAgent',
  'Mutation.createAccountWorkflow',
  'Mutation.createAgent',
  'Mutation.createAgentTyped',
  'Mutation.updateAgent',
  'Mutation.updateAgentTyped',
  'Mutation.createWorkflow',
  'Mutation.updateWorkflow',
  'Mutation.createCsvUpload',
  'Mutation.importCsvUpload',
  'Mutation.setProviderCredentials',
  'Mutation.setProviderCredentialsTyped',
  'Mutation.removeProviderCredentials',
]);

/** A key's scopes as given when it is created: at least one, each known, each once (sorted). */
export const ScopesSchema = z
  .array(z.enum(KEY_SCOPES, { error: `a scope is one of ${KEY_SCOPES.join(', ')}` }))
  .min(1, 'name at least one scope, or leave scopes out for a key with every scope')
  .transform((scopes) => KEY_SCOPES.filter((scope) => scopes.includes(scope)));

/** The 403 for an operation outside the key's scopes. */
function outsideScopes(field: string, needed: KeyScope | undefined): DomainError {
  if (!needed) return new DomainError('forbidden', `${field} is not open to API keys with scopes`, { scope: null });
  return new DomainError('forbidden', `This API key lacks the scope ${needed}, which ${field} needs`, {
    scope: needed,
  });
}

/** What the check reads of a request's context (src/domain/context.ts, which names KeyScope from here). */
interface ScopedCaller {
  actor: { scopes: readonly KeyScope[] | null } | null;
}

/** Refuses, with 403, a key whose scopes do not include the one `field` (`Query.x`) needs. */
export function requireFieldScope(ctx: ScopedCaller, field: string): void {
  const scopes = ctx.actor?.scopes;
  if (!scopes || NOT_FOR_KEYS.has(field)) return;
  const needed = FIELD_SCOPES[field];
  if (!needed || !scopes.includes(needed)) throw outsideScopes(field.slice(field.indexOf('.') + 1), needed);
}

/** Wraps the resolver of every Query and Mutation field with the scope check; returns the schema. */
export function guardScopes(schema: GraphQLSchema): GraphQLSchema {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) {
      const name = `${root.name}.${field.name}`;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context: ScopedCaller, info) => {
        requireFieldScope(context, name);
        return resolve(source, args, context, info);
      };
    }
  }
  return schema;
}
