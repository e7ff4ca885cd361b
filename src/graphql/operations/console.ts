// The GraphQL operations the console (src/console/) runs in-process for a signed-in person:
// its own operations (which only the console's context may call) and, later, the Account's
// shared ones.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

const ConsoleKeyFields = graphql(`fragment ConsoleKeyFields on ApiKey {
  id name lastFour createdAt lastUsedAt revokedAt
}`);

export const ConsoleOperations = {
  settings: defineOperation(graphql(`query { accountSettings { id name region defaultLocation dedupFields } }`)),
  updateSettings: defineOperation(
    graphql(`mutation ($defaultLocation: String, $clearDefaultLocation: Boolean, $dedupFields: [String!]) {
      updateAccountSettings(defaultLocation: $defaultLocation, clearDefaultLocation: $clearDefaultLocation,
        dedupFields: $dedupFields) { id name region defaultLocation dedupFields }
    }`),
  ),
  apiKeys: defineOperation(graphql(`query { accountApiKeys { ...ConsoleKeyFields } }`, [ConsoleKeyFields])),
  createApiKey: defineOperation(
    graphql(`mutation ($name: String!) { createAccountApiKey(name: $name) { secret key { ...ConsoleKeyFields } } }`, [
      ConsoleKeyFields,
    ]),
  ),
  revokeApiKey: defineOperation(graphql(`mutation ($id: String!) { revokeAccountApiKey(id: $id) { id revokedAt } }`)),
};
