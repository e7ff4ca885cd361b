// The call operations REST and the MCP tools run.
import { defineOperation } from '../execute.js';

const CALL_FIELDS = `fragment CallFields on Call {
  id contactId workflowId agentId direction status result endReason startedAt endedAt durationSeconds language lastCall
  transcriptAvailable recordingUrl
}`;

export const CallOperations = {
  listContactCalls: defineOperation(`query ($sourceKind: String!, $externalId: String!, $limit: Int, $nextToken: String) {
    contactCalls(sourceKind: $sourceKind, externalId: $externalId, limit: $limit, nextToken: $nextToken) { data { ...CallFields } nextToken } } ${CALL_FIELDS}`),
  getCallTranscript: defineOperation(`query ($id: String!) { callTranscript(id: $id) { utterances { speaker content timestamp } } }`),
};
