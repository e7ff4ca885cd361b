// The GraphQL operations of the console's agent pages (src/console/routes/agents.route.ts): read
// one of the Account's voice agents, and create or change one in the signed-in person's Account
// (the console's own mutations: only its context may run them).
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

const ConsoleAgentFields = graphql(`fragment ConsoleAgentFields on Agent {
  id name status provider providerAgentId providerPhoneNumber phoneNumber timezone defaultLanguage
  attemptLimit retryDelayMinutes callNewContactsImmediately maxConcurrentCalls workingHours
}`);

export const ConsoleAgentOperations = {
  agent: defineOperation(
    graphql(`query ($id: String!) { accountAgent(id: $id) { ...ConsoleAgentFields } }`, [ConsoleAgentFields]),
  ),
  createAgent: defineOperation(
    graphql(
      `mutation ($input: CreateAccountAgentInput!) { createAccountAgent(input: $input) { ...ConsoleAgentFields } }`,
      [ConsoleAgentFields],
    ),
  ),
  updateAgent: defineOperation(
    graphql(
      `mutation ($id: String!, $input: UpdateAgentInput!) {
        updateAccountAgent(id: $id, input: $input) { ...ConsoleAgentFields }
      }`,
      [ConsoleAgentFields],
    ),
  ),
};
