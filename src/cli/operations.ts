// The operator GraphQL operations the CLI runs in-process (validated against the schema when
// this module loads; it is imported only by the commands that need it).
import { defineOperation } from '../graphql/execute.js';

const ACCOUNT = 'id name region defaultLocation dedupFields createdAt';
const KEY = 'id accountId userId name lastFour createdAt lastUsedAt revokedAt';
const WORKFLOW = 'id accountId agentId name status paused createdAt';
const MONDAY_LINK = 'accountId mondayAccountId mondayUserId userId createdAt updatedAt';
const AGENT = 'id accountId name status timezone defaultLanguage attemptLimit workingHours retryDelayMinutes callNewContactsImmediately provider providerAgentId providerPhoneNumber maxConcurrentCalls createdAt';
const PROVIDER_CREDENTIAL = 'accountId provider apiKeyLastFour webhookSecretSet maxConcurrentCalls createdAt updatedAt';

export interface AccountResult { id: string; name: string; region: string; defaultLocation: string | null; dedupFields: string[]; createdAt: string }
export interface UserResult { id: string; accountId: string; email: string; name: string | null }
export interface KeyResult { id: string; accountId: string; userId: string; name: string; lastFour: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null }
export interface WorkflowResult { id: string; accountId: string; agentId: string | null; name: string; status: string; paused: boolean; createdAt: string }
export interface AgentResult {
  id: string; accountId: string; name: string; status: string; timezone: string; defaultLanguage: string; attemptLimit: number; workingHours: unknown;
  retryDelayMinutes: number; callNewContactsImmediately: boolean; provider: string; providerAgentId: string | null; providerPhoneNumber: string | null;
  maxConcurrentCalls: number | null; createdAt: string;
}
export interface ProviderCredentialResult { accountId: string; provider: string; apiKeyLastFour: string; webhookSecretSet: boolean; maxConcurrentCalls: number | null; createdAt: string; updatedAt: string }
export interface BlockedPhoneResult { phone: string; accountId: string; reason: string | null }

export const CliOperations = {
  createAccount: defineOperation(`mutation ($name: String!, $region: String, $defaultLocation: String) {
    createAccount(name: $name, region: $region, defaultLocation: $defaultLocation) { ${ACCOUNT} } }`),
  updateAccount: defineOperation(`mutation ($id: String!, $defaultLocation: String, $clearDefaultLocation: Boolean, $dedupFields: [String!]) {
    updateAccount(id: $id, defaultLocation: $defaultLocation, clearDefaultLocation: $clearDefaultLocation, dedupFields: $dedupFields) { ${ACCOUNT} } }`),
  createUser: defineOperation(`mutation ($accountId: String!, $email: String!, $name: String) {
    createUser(accountId: $accountId, email: $email, name: $name) { id accountId email name } }`),
  createApiKey: defineOperation(`mutation ($userId: String!, $name: String!) {
    createApiKey(userId: $userId, name: $name) { secret key { ${KEY} } } }`),
  listApiKeys: defineOperation(`query ($accountId: String!) { apiKeys(accountId: $accountId) { ${KEY} } }`),
  revokeApiKey: defineOperation(`mutation ($id: String!) { revokeApiKey(id: $id) { ${KEY} } }`),
  createWorkflow: defineOperation(`mutation ($accountId: String!, $name: String!, $status: WorkflowStatus, $agentId: String) {
    createWorkflow(accountId: $accountId, name: $name, status: $status, agentId: $agentId) { ${WORKFLOW} } }`),
  createAgent: defineOperation(`mutation ($input: JSON!) { createAgent(input: $input) { ${AGENT} } }`),
  updateAgent: defineOperation(`mutation ($id: String!, $input: JSON!) { updateAgent(id: $id, input: $input) { ${AGENT} } }`),
  updateWorkflow: defineOperation(`mutation ($id: String!, $status: WorkflowStatus, $paused: Boolean) {
    updateWorkflow(id: $id, status: $status, paused: $paused) { ${WORKFLOW} } }`),
  blockPhone: defineOperation(`mutation ($accountId: String!, $phone: String!, $reason: String) {
    blockPhone(accountId: $accountId, phone: $phone, reason: $reason) { phone accountId reason } }`),
  setProviderCredentials: defineOperation(`mutation ($input: JSON!) { setProviderCredentials(input: $input) { ${PROVIDER_CREDENTIAL} } }`),
  providerCredentials: defineOperation(`query ($accountId: String!) { providerCredentials(accountId: $accountId) { ${PROVIDER_CREDENTIAL} } }`),
  removeProviderCredentials: defineOperation(`mutation ($accountId: String!, $provider: String!) { removeProviderCredentials(accountId: $accountId, provider: $provider) }`),
  mondayLink: defineOperation(`query ($accountId: String!) { mondayLink(accountId: $accountId) { ${MONDAY_LINK} } }`),
  unlinkMonday: defineOperation(`mutation ($accountId: String!) {
    unlinkMonday(accountId: $accountId) { accountId subscriptionsRemoved removedLink { ${MONDAY_LINK} } } }`),
};
