// The GraphQL operations the board app (integration/monday/) runs in-process, each for one step
// of a request monday sent: its own operations (src/domain/monday/board-app.graphql.ts, which
// only its context may call) and the Account's board mapping.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export interface BoardItemFields {
  columnIds: string[];
  itemName: boolean;
}

export interface BoardEnrollment {
  contactId: string;
  workflowId: string;
  created: boolean;
}

export type BoardRunClaim =
  | { kind: 'claimed' | 'busy'; status: null; response: null }
  | { kind: 'replay'; status: number; response: unknown };

export interface BoardOptionsPage<T> {
  data: T[];
  nextToken: string | null;
}

export const BoardOperations = {
  enrollmentTarget: defineOperation(
    graphql(`query ($workflowId: String!, $boardId: String) {
    boardEnrollmentTarget(workflowId: $workflowId, boardId: $boardId) { columnIds itemName } }`),
  ),
  enrollItem: defineOperation(
    graphql(`mutation ($input: JSON!) {
    enrollBoardItem(input: $input) { contactId workflowId created } }`),
  ),
  callResultLabel: defineOperation(
    graphql(`query ($item: String!, $callResult: String) {
    boardCallResultLabel(item: $item, callResult: $callResult) { callResult label } }`),
  ),
  timezoneColumns: defineOperation(graphql(`query { boardMapping { phoneColumnId timezoneColumnId } }`)),
  workflowOptions: defineOperation(
    graphql(`query ($nextToken: String) {
    boardWorkflowOptions(nextToken: $nextToken) { data { id name } nextToken } }`),
  ),
  agentOptions: defineOperation(
    graphql(`query ($nextToken: String) {
    boardAgentOptions(nextToken: $nextToken) { data { id name status } nextToken } }`),
  ),
  claimRun: defineOperation(
    graphql(`mutation ($actionUuid: String!, $kind: String!) {
    claimBoardActionRun(actionUuid: $actionUuid, kind: $kind) { kind status response } }`),
  ),
  finishRun: defineOperation(
    graphql(`mutation ($actionUuid: String!, $status: Int!, $response: JSON!) {
    finishBoardActionRun(actionUuid: $actionUuid, status: $status, response: $response) }`),
  ),
  releaseRun: defineOperation(
    graphql(`mutation ($actionUuid: String!) { releaseBoardActionRun(actionUuid: $actionUuid) }`),
  ),
  subscribe: defineOperation(graphql(`mutation ($input: JSON!) { subscribeToCallEnded(input: $input) }`)),
  unsubscribe: defineOperation(
    graphql(`mutation ($subscription: String) {
    unsubscribeFromCallEnded(subscription: $subscription) }`),
  ),
};
