// The workflow operations REST and the MCP tools run: the Account's workflows, a workflow's
// enrollments, and stopping them.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const WorkflowOperations = {
  listWorkflows: defineOperation(
    graphql(`query ($limit: Int, $nextToken: String) {
    workflows(limit: $limit, nextToken: $nextToken) { data { id name status } nextToken } }`),
  ),
  listWorkflowEnrollments: defineOperation(
    graphql(`query ($workflowId: String!, $state: String, $limit: Int, $nextToken: String) {
    workflowEnrollments(workflowId: $workflowId, state: $state, limit: $limit, nextToken: $nextToken) {
      data { id contactId workflowId state startedAt endedAt endReason finalResult attempts nextCallAt }
      nextToken
    }
  }`),
  ),
  stopWorkflowEnrollments: defineOperation(
    graphql(`mutation ($workflowId: String!, $input: JSON!) {
    stopWorkflowEnrollments(workflowId: $workflowId, input: $input) { stopped notActive } }`),
  ),
};
