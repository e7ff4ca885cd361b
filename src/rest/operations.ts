// The GraphQL operations behind the REST routes. Each REST response field maps 1:1 to a
// GraphQL field, so a REST body is the operation's data with its wrapper removed.
import { defineOperation } from '../graphql/execute.js';

/** A list operation's page. */
export interface Page<T = unknown> {
  data: T[];
  nextToken: string | null;
}

/** A contacts or calls page as REST sends it (and the MCP tools return it): no nextToken on the last page. */
export const restPage = <T>(page: Page<T>): { data: T[]; nextToken?: string } => (page.nextToken ? { data: page.data, nextToken: page.nextToken } : { data: page.data });

export const CONTACT_FIELDS = `fragment ContactFields on Contact {
  id accountId firstName lastName fullName phone location locationDefaulted timezone timezoneInferred
  language status sourceKind externalId customFields priority assignedWorkflowId callCount maxAttempts
  lastCallAt nextCallAt createdAt updatedAt
}`;

const CALL_FIELDS = `fragment CallFields on Call {
  id contactId workflowId agentId direction status result endReason startedAt endedAt durationSeconds language lastCall
  transcriptAvailable recordingUrl
}`;

const contactListArgs = `$status: [String!], $sourceKind: [String!], $addedSince: String, $addedBefore: String,
  $assignedWorkflowId: String, $searchTerm: String, $limit: Int, $nextToken: String`;
const contactListPass = `status: $status, sourceKind: $sourceKind, addedSince: $addedSince, addedBefore: $addedBefore,
  assignedWorkflowId: $assignedWorkflowId, searchTerm: $searchTerm, limit: $limit, nextToken: $nextToken`;

export const Operations = {
  listWorkflows: defineOperation(`query ($limit: Int, $nextToken: String) {
    workflows(limit: $limit, nextToken: $nextToken) { data { id name status } nextToken } }`),
  upsertContact: defineOperation(`mutation ($input: JSON!) {
    upsertContact(input: $input) { created contact { ...ContactFields } } } ${CONTACT_FIELDS}`),
  importContacts: defineOperation(`mutation ($input: JSON!) {
    importContacts(input: $input) { accepted rejected { reason index } } }`),
  bulkUpdateContacts: defineOperation(`mutation ($input: JSON!) { bulkUpdateContacts(input: $input) }`),
  listContacts: defineOperation(`query (${contactListArgs}) {
    contacts(${contactListPass}) { data { ...ContactFields } nextToken } } ${CONTACT_FIELDS}`),
  getContact: defineOperation(`query ($id: String!) { contact(id: $id) { ...ContactFields } } ${CONTACT_FIELDS}`),
  getContactByExternalId: defineOperation(`query ($sourceKind: String!, $externalId: String!) {
    contactByExternalId(sourceKind: $sourceKind, externalId: $externalId) { ...ContactFields } } ${CONTACT_FIELDS}`),
  patchContactByExternalId: defineOperation(`mutation ($sourceKind: String!, $externalId: String!, $input: JSON!) {
    patchContactByExternalId(sourceKind: $sourceKind, externalId: $externalId, input: $input) { ...ContactFields } } ${CONTACT_FIELDS}`),
  listContactCalls: defineOperation(`query ($sourceKind: String!, $externalId: String!, $limit: Int, $nextToken: String) {
    contactCalls(sourceKind: $sourceKind, externalId: $externalId, limit: $limit, nextToken: $nextToken) { data { ...CallFields } nextToken } } ${CALL_FIELDS}`),
  getCallTranscript: defineOperation(`query ($id: String!) { callTranscript(id: $id) { utterances { speaker content timestamp } } }`),
};
