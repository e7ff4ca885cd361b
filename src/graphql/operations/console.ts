// The GraphQL operations the console (src/console/) runs in-process for a signed-in person:
// its own operations (which only the console's context may call) and, later, the Account's
// shared ones.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

const ConsoleKeyFields = graphql(`fragment ConsoleKeyFields on ApiKey {
  id name lastFour createdAt lastUsedAt revokedAt scopes expiresAt
}`);

export const ConsoleOperations = {
  agentsAndWorkflows: defineOperation(
    graphql(`query {
      accountAgents { id name status provider timezone attemptLimit retryDelayMinutes workingHours }
      workflows(limit: 100) { data { id name status paused agentId createdAt } nextToken }
    }`),
  ),
  workflowSummaries: defineOperation(
    graphql(`query ($limit: Int, $nextToken: String) {
      workflows(limit: $limit, nextToken: $nextToken) { data { id name status paused agentId } nextToken }
    }`),
  ),
  agentOfWorkflow: defineOperation(
    graphql(`query ($id: String!) { accountAgent(id: $id) { id name timezone status } }`),
  ),
  createWorkflow: defineOperation(
    graphql(
      `mutation ($name: String!, $agentId: String) { createAccountWorkflow(name: $name, agentId: $agentId) { id } }`,
    ),
  ),
  changeWorkflow: defineOperation(
    graphql(`mutation ($id: String!, $status: WorkflowStatus, $paused: Boolean, $agentId: String) {
      changeAccountWorkflow(id: $id, status: $status, paused: $paused, agentId: $agentId) { id status paused agentId }
    }`),
  ),
  contactNextCall: defineOperation(
    graphql(`query ($contactId: String!) {
      accountContactNextCall(contactId: $contactId) {
        workflowId agentId agentName dueAt plannedAt timeZone timeZoneOf immediate heldBy
      }
    }`),
  ),
  settings: defineOperation(graphql(`query { accountSettings { id name region defaultLocation dedupFields } }`)),
  updateSettings: defineOperation(
    graphql(`mutation ($defaultLocation: String, $clearDefaultLocation: Boolean, $dedupFields: [String!]) {
      updateAccountSettings(defaultLocation: $defaultLocation, clearDefaultLocation: $clearDefaultLocation,
        dedupFields: $dedupFields) { id name region defaultLocation dedupFields }
    }`),
  ),
  apiKeys: defineOperation(graphql(`query { accountApiKeys { ...ConsoleKeyFields } }`, [ConsoleKeyFields])),
  createApiKey: defineOperation(
    graphql(
      `mutation ($name: String!, $scopes: [String!], $expiresAt: String) {
        createAccountApiKey(name: $name, scopes: $scopes, expiresAt: $expiresAt) { secret key { ...ConsoleKeyFields } }
      }`,
      [ConsoleKeyFields],
    ),
  ),
  connectedApplications: defineOperation(
    graphql(`query { connectedApplications { id clientId clientName userEmail scopes createdAt lastUsedAt } }`),
  ),
  revokeConnectedApplication: defineOperation(
    graphql(`mutation ($id: String!) { revokeConnectedApplication(id: $id) }`),
  ),
  revokeApiKey: defineOperation(graphql(`mutation ($id: String!) { revokeAccountApiKey(id: $id) { id revokedAt } }`)),
};
