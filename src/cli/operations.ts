// The operator GraphQL operations the CLI runs in-process (validated against the schema when
// this module loads; it is imported only by the commands that need it). Their data and
// variables are typed from the schema (src/graphql/documents.ts); the commands print the
// fragments' types below.
import { defineOperation } from '../graphql/execute.js';
import { graphql, type ResultOf } from '../graphql/documents.js';
import { CallingPolicyFields } from '../graphql/operations/calling-rules.js';

const AccountFields = graphql(`fragment AccountFields on Account {
  id name region defaultLocation dedupFields createdAt
}`);
const KeyFields = graphql(`fragment KeyFields on ApiKey {
  id accountId userId name lastFour createdAt lastUsedAt revokedAt scopes expiresAt
}`);
const WorkflowFields = graphql(`fragment WorkflowFields on Workflow {
  id accountId agentId name status paused createdAt
}`);
const MondayLinkFields = graphql(`fragment MondayLinkFields on MondayLink {
  accountId mondayAccountId mondayUserId userId createdAt updatedAt
}`);
const AgentFields = graphql(`fragment AgentFields on Agent {
  id accountId name status timezone defaultLanguage attemptLimit workingHours retryDelayMinutes
  callNewContactsImmediately provider providerAgentId providerPhoneNumber maxConcurrentCalls createdAt
}`);
const ProviderCredentialFields = graphql(`fragment ProviderCredentialFields on ProviderCredential {
  accountId provider apiKeyLastFour webhookSecretSet maxConcurrentCalls createdAt updatedAt
}`);

export type AccountResult = ResultOf<typeof AccountFields>;
export type KeyResult = ResultOf<typeof KeyFields>;
export type WorkflowResult = ResultOf<typeof WorkflowFields>;
export type MondayLinkResult = ResultOf<typeof MondayLinkFields>;
export type AgentResult = ResultOf<typeof AgentFields>;
export type ProviderCredentialResult = ResultOf<typeof ProviderCredentialFields>;
export type CallingPolicyResult = ResultOf<typeof CallingPolicyFields>;

export const CliOperations = {
  createAccount: defineOperation(
    graphql(
      `mutation ($name: String!, $region: String, $defaultLocation: String) {
    createAccount(name: $name, region: $region, defaultLocation: $defaultLocation) { ...AccountFields }
  }`,
      [AccountFields],
    ),
  ),
  updateAccount: defineOperation(
    graphql(
      `mutation ($id: String!, $defaultLocation: String,
    $clearDefaultLocation: Boolean, $dedupFields: [String!]) {
    updateAccount(id: $id, defaultLocation: $defaultLocation, clearDefaultLocation: $clearDefaultLocation,
      dedupFields: $dedupFields) { ...AccountFields }
  }`,
      [AccountFields],
    ),
  ),
  createUser: defineOperation(
    graphql(`mutation ($accountId: String!, $email: String!, $name: String) {
    createUser(accountId: $accountId, email: $email, name: $name) { id accountId email name }
  }`),
  ),
  removeUser: defineOperation(
    graphql(`mutation ($id: String!) { removeUser(id: $id) { id accountId email removedAt } }`),
  ),
  inviteUser: defineOperation(
    graphql(`mutation ($accountId: String!, $email: String!, $name: String) {
    inviteUser(accountId: $accountId, email: $email, name: $name) { path expiresAt user { id accountId email name } }
  }`),
  ),
  createApiKey: defineOperation(
    graphql(
      `mutation ($userId: String!, $name: String!, $scopes: [String!], $expiresAt: String) {
    createApiKey(userId: $userId, name: $name, scopes: $scopes, expiresAt: $expiresAt) { secret key { ...KeyFields } }
  }`,
      [KeyFields],
    ),
  ),
  listApiKeys: defineOperation(
    graphql(
      `query ($accountId: String!) {
    apiKeys(accountId: $accountId) { ...KeyFields }
  }`,
      [KeyFields],
    ),
  ),
  revokeApiKey: defineOperation(
    graphql(
      `mutation ($id: String!) {
    revokeApiKey(id: $id) { ...KeyFields }
  }`,
      [KeyFields],
    ),
  ),
  createWorkflow: defineOperation(
    graphql(
      `mutation ($accountId: String!, $name: String!, $status: WorkflowStatus,
    $agentId: String) {
    createWorkflow(accountId: $accountId, name: $name, status: $status, agentId: $agentId) { ...WorkflowFields }
  }`,
      [WorkflowFields],
    ),
  ),
  createAgent: defineOperation(
    graphql(
      `mutation ($input: JSON!) {
    createAgent(input: $input) { ...AgentFields }
  }`,
      [AgentFields],
    ),
  ),
  updateAgent: defineOperation(
    graphql(
      `mutation ($id: String!, $input: JSON!) {
    updateAgent(id: $id, input: $input) { ...AgentFields }
  }`,
      [AgentFields],
    ),
  ),
  updateWorkflow: defineOperation(
    graphql(
      `mutation ($id: String!, $status: WorkflowStatus, $paused: Boolean) {
    updateWorkflow(id: $id, status: $status, paused: $paused) { ...WorkflowFields }
  }`,
      [WorkflowFields],
    ),
  ),
  blockPhone: defineOperation(
    graphql(`mutation ($accountId: String!, $phone: String!, $reason: String) {
    blockPhone(accountId: $accountId, phone: $phone, reason: $reason) { phone accountId reason }
  }`),
  ),
  setProviderCredentials: defineOperation(
    graphql(
      `mutation ($input: JSON!) {
    setProviderCredentials(input: $input) { ...ProviderCredentialFields }
  }`,
      [ProviderCredentialFields],
    ),
  ),
  providerCredentials: defineOperation(
    graphql(
      `query ($accountId: String!) {
    providerCredentials(accountId: $accountId) { ...ProviderCredentialFields }
  }`,
      [ProviderCredentialFields],
    ),
  ),
  removeProviderCredentials: defineOperation(
    graphql(`mutation ($accountId: String!, $provider: String!) {
    removeProviderCredentials(accountId: $accountId, provider: $provider)
  }`),
  ),
  mondayLink: defineOperation(
    graphql(
      `query ($accountId: String!) {
    mondayLink(accountId: $accountId) { ...MondayLinkFields }
  }`,
      [MondayLinkFields],
    ),
  ),
  unlinkMonday: defineOperation(
    graphql(
      `mutation ($accountId: String!) {
    unlinkMonday(accountId: $accountId) { accountId subscriptionsRemoved removedLink { ...MondayLinkFields } }
  }`,
      [MondayLinkFields],
    ),
  ),
  callingPolicy: defineOperation(
    graphql(
      `query ($accountId: String!, $limit: Int) {
    callingPolicy(accountId: $accountId) { ...CallingPolicyFields }
    callingPolicyChanges(accountId: $accountId, limit: $limit) { at actor change }
  }`,
      [CallingPolicyFields],
    ),
  ),
  setCallingPolicy: defineOperation(
    graphql(
      `mutation ($accountId: String!, $input: JSON!) {
    setCallingPolicy(accountId: $accountId, input: $input) { ...CallingPolicyFields }
  }`,
      [CallingPolicyFields],
    ),
  ),
};
