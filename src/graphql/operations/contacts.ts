// The contact operations REST, the MCP tools and the board app run. Each REST response field
// maps 1:1 to a GraphQL field, so a REST body is the operation's data with its wrapper removed.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const ContactFields = graphql(`fragment ContactFields on Contact {
  id accountId firstName lastName fullName phone location locationDefaulted timezone timezoneInferred
  language status sourceKind externalId customFields priority assignedWorkflowId callCount maxAttempts
  lastCallAt nextCallAt createdAt updatedAt
}`);

export const ContactOperations = {
  upsertContact: defineOperation(
    graphql(
      `mutation ($input: JSON!) {
    upsertContact(input: $input) { created contact { ...ContactFields } }
  }`,
      [ContactFields],
    ),
  ),
  importContacts: defineOperation(
    graphql(`mutation ($input: JSON!) {
    importContacts(input: $input) { importId accepted rejected { reason index } }
  }`),
  ),
  bulkUpdateContacts: defineOperation(
    graphql(`mutation ($input: JSON!) { startBulkUpdate(input: $input) { updateId } }`),
  ),
  listContacts: defineOperation(
    graphql(
      `query ($status: [String!], $sourceKind: [String!], $addedSince: String,
    $addedBefore: String, $assignedWorkflowId: String, $searchTerm: String, $limit: Int, $nextToken: String) {
    contacts(status: $status, sourceKind: $sourceKind, addedSince: $addedSince, addedBefore: $addedBefore,
      assignedWorkflowId: $assignedWorkflowId, searchTerm: $searchTerm, limit: $limit, nextToken: $nextToken) {
      data { ...ContactFields } nextToken
    }
  }`,
      [ContactFields],
    ),
  ),
  getContact: defineOperation(
    graphql(
      `query ($id: String!) {
    contact(id: $id) { ...ContactFields }
  }`,
      [ContactFields],
    ),
  ),
  getContactByExternalId: defineOperation(
    graphql(
      `query ($sourceKind: String!, $externalId: String!) {
    contactByExternalId(sourceKind: $sourceKind, externalId: $externalId) { ...ContactFields }
  }`,
      [ContactFields],
    ),
  ),
  patchContactByExternalId: defineOperation(
    graphql(
      `mutation ($sourceKind: String!, $externalId: String!,
    $input: JSON!) {
    patchContactByExternalId(sourceKind: $sourceKind, externalId: $externalId, input: $input) { ...ContactFields }
  }`,
      [ContactFields],
    ),
  ),
  deleteContact: defineOperation(
    graphql(`mutation ($id: String!, $block: Boolean) {
    deleteContact(id: $id, block: $block) { deleted id blocked }
  }`),
  ),
  deleteContactByExternalId: defineOperation(
    graphql(`mutation ($sourceKind: String!, $externalId: String!, $block: Boolean) {
    deleteContactByExternalId(sourceKind: $sourceKind, externalId: $externalId, block: $block) { deleted id blocked }
  }`),
  ),
};
