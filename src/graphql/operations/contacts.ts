// The contact operations REST, the MCP tools and the board app run. Each REST response field
// maps 1:1 to a GraphQL field, so a REST body is the operation's data with its wrapper removed.
import { defineOperation } from '../execute.js';

export const CONTACT_FIELDS = `fragment ContactFields on Contact {
  id accountId firstName lastName fullName phone location locationDefaulted timezone timezoneInferred
  language status sourceKind externalId customFields priority assignedWorkflowId callCount maxAttempts
  lastCallAt nextCallAt createdAt updatedAt
}`;

const contactListArgs = `$status: [String!], $sourceKind: [String!], $addedSince: String, $addedBefore: String,
  $assignedWorkflowId: String, $searchTerm: String, $limit: Int, $nextToken: String`;
const contactListPass = `status: $status, sourceKind: $sourceKind, addedSince: $addedSince, addedBefore: $addedBefore,
  assignedWorkflowId: $assignedWorkflowId, searchTerm: $searchTerm, limit: $limit, nextToken: $nextToken`;

export const ContactOperations = {
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
};
