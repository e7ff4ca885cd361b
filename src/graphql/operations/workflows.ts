// The workflow operations REST and the MCP tools run.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const WorkflowOperations = {
  listWorkflows: defineOperation(
    graphql(`query ($limit: Int, $nextToken: String) {
    workflows(limit: $limit, nextToken: $nextToken) { data { id name status } nextToken } }`),
  ),
};
