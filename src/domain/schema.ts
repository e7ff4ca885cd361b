// Builds the schema: imports every type file (each registers itself on the builder).
import { builder } from './builder.js';
import { guardArguments } from './shared/argument-guard.js';
import { guardScopes } from './api-keys/key-scopes.js';
import './shared/scalars.graphql.js';
// Before the contacts: their writes' consent reuses the ConsentInput declared here.
import './calling-rules/calling-rules.graphql.js';
import './calling-rules/dnc-registries.graphql.js';
import './contacts/contacts.graphql.js';
import './contacts/contact-jobs.graphql.js';
import './contacts/csv-import/csv-uploads.graphql.js';
import './workflows/workflows.graphql.js';
import './accounts/accounts.graphql.js';
import './agents/agents.graphql.js';
import './calls/calls.graphql.js';
import './boards/board-mapping.graphql.js';
import './monday/monday-link.graphql.js';
import './monday/board-app.graphql.js';
import './providers/providers.graphql.js';
import './users/users.graphql.js';
import './webhooks/webhooks.graphql.js';
import './enrollment/next-call.graphql.js';
import './enrollment/workflow-enrollments.graphql.js';
import './enrollment/enrollment-jobs.graphql.js';
import './oauth/oauth.graphql.js';

// Every operation's arguments are checked before its resolver runs (shared/argument-guard.ts),
// and before them, that an API key's scopes allow it (api-keys/key-scopes.ts).
export const schema = guardScopes(guardArguments(builder.toSchema({ sortSchema: true })));
