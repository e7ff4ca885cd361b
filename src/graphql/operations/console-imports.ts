// The GraphQL operations of the console's Imports page (src/console/routes/imports.route.ts):
// a CSV upload of the signed-in person, its preview, and its import in steps of 1000 rows.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const ConsoleImportOperations = {
  createUpload: defineOperation(
    graphql(`mutation ($fileName: String!, $csv: String!) { createCsvUpload(fileName: $fileName, csv: $csv) { id } }`),
  ),
  upload: defineOperation(
    graphql(`query ($id: String!) {
      csvUpload(id: $id) {
        id fileName headers rowCount suggestedMapping mapping status rowsDone accepted rejectedCount createdAt expiresAt
        preview { row line cells }
        rejected { row line reason message }
      }
    }`),
  ),
  /** One step: the answer is the progress only (the page reads the rejections once, at the end). */
  importStep: defineOperation(
    graphql(`mutation ($id: String!, $mapping: [String!]!) {
      importCsvUpload(id: $id, mapping: $mapping) { id status rowsDone rowCount accepted rejectedCount }
    }`),
  ),
};
