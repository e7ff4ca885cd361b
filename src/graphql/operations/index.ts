// The GraphQL operations of the domain schema that the request surfaces share (REST, the MCP
// tools, the board app): each is parsed and validated when this module loads, so a broken
// document fails at start-up. One module per domain area; the CLI's operator operations are
// its own (src/cli/operations.ts).
import { CallOperations } from './calls.js';
import { CallingRuleOperations } from './calling-rules.js';
import { ContactOperations } from './contacts.js';
import { ContactJobOperations } from './contact-jobs.js';
import { WebhookOperations } from './webhooks.js';
import { WorkflowOperations } from './workflows.js';

export { restPage, type Page } from './page.js';

export const Operations = {
  ...ContactOperations,
  ...ContactJobOperations,
  ...CallOperations,
  ...WorkflowOperations,
  ...WebhookOperations,
  ...CallingRuleOperations,
};
