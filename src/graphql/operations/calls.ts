// The call operations REST and the MCP tools run.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const CallFields = graphql(`fragment CallFields on Call {
  id contactId workflowId agentId direction status result endReason startedAt endedAt durationSeconds language
  lastCall transcriptAvailable recordingUrl
}`);

export const CallOperations = {
  listContactCalls: defineOperation(
    graphql(
      `query ($sourceKind: String!, $externalId: String!, $limit: Int,
    $nextToken: String) {
    contactCalls(sourceKind: $sourceKind, externalId: $externalId, limit: $limit, nextToken: $nextToken) {
      data { ...CallFields } nextToken
    }
  }`,
      [CallFields],
    ),
  ),
  getCallTranscript: defineOperation(
    graphql(`query ($id: String!) {
    callTranscript(id: $id) { utterances { speaker content timestamp } }
  }`),
  ),
};
