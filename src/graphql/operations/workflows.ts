// The workflow operations REST and the MCP tools run.
import { defineOperation } from '../execute.js';

export const WorkflowOperations = {
  listWorkflows: defineOperation(`query ($limit: Int, $nextToken: String) {
    workflows(limit: $limit, nextToken: $nextToken) { data { id name status } nextToken } }`),
};
