// The workflow operations REST and the MCP tools run: the Account's workflows, a workflow's
// enrollments, enrolling contacts and stopping them, and its results.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const ResultFiguresFields = graphql(`fragment ResultFiguresFields on ResultFigures {
  enrolled attempted reached converted calls connected connectRate conversionRate
  durationMedianSeconds durationP90Seconds attemptsPerConversion results { result count }
}`);

export const EnrollmentJobFields = graphql(`fragment EnrollmentJobFields on EnrollmentJob {
  id workflowId status reEnroll enforceCallNow matched enrolled notEnrolledCount
  reasons { reason count } notEnrolled { contactId reason } createdAt startedAt finishedAt
}`);

export const WorkflowOperations = {
  enrollWorkflowContacts: defineOperation(
    graphql(
      `mutation ($workflowId: String!, $input: JSON!) {
    enrollWorkflowContacts(workflowId: $workflowId, input: $input) { ...EnrollmentJobFields } }`,
      [EnrollmentJobFields],
    ),
  ),
  getEnrollmentJob: defineOperation(
    graphql(`query ($id: String!) { enrollmentJob(id: $id) { ...EnrollmentJobFields } }`, [EnrollmentJobFields]),
  ),
  getWorkflowResults: defineOperation(
    graphql(
      `query ($id: String!, $from: String, $to: String, $groupBy: String, $timeZone: String) {
    workflowResults(id: $id, from: $from, to: $to, groupBy: $groupBy, timeZone: $timeZone) {
      workflowId from to timeZone groupBy
      totals { ...ResultFiguresFields }
      days { date calls results { result count } }
      agents { agentId figures { ...ResultFiguresFields } }
    }
  }`,
      [ResultFiguresFields],
    ),
  ),
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
