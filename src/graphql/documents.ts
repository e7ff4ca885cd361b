// GraphQL documents typed from the schema: `graphql(source, [fragments])` (gql.tada) parses a
// document and gives it the TypeScript types of its data and variables, inferred from its own
// text against the schema's introspection (src/generated/graphql-env.d.ts, produced from
// schema/schema.graphql by `npm run generate`). No result type is written by hand.
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from '../generated/graphql-env.js';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  // As an in-process execution returns them: DateTime serialized to its ISO text, JSON as is.
  scalars: { DateTime: string; JSON: unknown };
  // A fragment is a shared selection here, not a component's private data: its fields are the result's.
  disableMasking: true;
}>();

export type { ResultOf, VariablesOf } from 'gql.tada';
