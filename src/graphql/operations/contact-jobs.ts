// The operations that read bulk imports and bulk-updates back (REST and the MCP tools run them).
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

const ImportJobFields = graphql(`fragment ImportJobFields on ImportJob {
  id status accepted created updated rejected { index reason } createdAt finishedAt
}`);

export const ContactJobOperations = {
  getImport: defineOperation(
    graphql(`query ($id: String!) { import(id: $id) { ...ImportJobFields } }`, [ImportJobFields]),
  ),
  listImports: defineOperation(
    graphql(
      `query ($limit: Int, $nextToken: String) {
    imports(limit: $limit, nextToken: $nextToken) { data { ...ImportJobFields } nextToken } }`,
      [ImportJobFields],
    ),
  ),
  getBulkUpdate: defineOperation(
    graphql(`query ($id: String!) {
    bulkUpdate(id: $id) {
      id status matched changed skipped { contactId reason conflictsWith } skippedCount createdAt finishedAt
    }
  }`),
  ),
};
