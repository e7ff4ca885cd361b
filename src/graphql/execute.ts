// Runs a GraphQL operation in-process against the domain schema: how every surface (REST,
// MCP, board app, the CLI's operator commands) reaches the domain. Documents are parsed and
// validated once; their data and variables are typed from the schema (./documents.ts).
//
// Each document is compiled once, on its first run, into a function that executes it
// (graphql-jit): graphql-js's interpreter walks the document and the schema again for every
// field of every row, which cost a list of 100 contacts more than its database work. Same
// schema, same resolvers, same errors; GraphQL over HTTP (/graphql) stays on graphql-js.
import { parse, print, validate, type DocumentNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { TadaDocumentNode } from 'gql.tada';
import { schema } from '../domain/schema.js';
import type { RequestContext } from '../domain/context.js';
import { asDomainError, DomainError } from '../domain/errors.js';

export interface Operation<Result = unknown, Variables = Record<string, unknown>> {
  document: DocumentNode;
  source: string;
  /** Types only (never set): the operation's data and variables, as inferred from its document. */
  readonly types?: { result: Result; variables: Variables };
}

/**
 * Validates a typed document against the schema at module load: a broken document fails at
 * start-up, not per request. It is parsed again by graphql-js, so that execution sees
 * graphql-js's own AST (with locations for its error messages).
 */
export function defineOperation<Result, Variables>(
  typed: TadaDocumentNode<Result, Variables>,
): Operation<Result, Variables> {
  const source = print(typed as unknown as DocumentNode);
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(`Invalid operation:\n${source}\n${errors.map((e) => e.message).join('\n')}`);
  return { document, source };
}

/** The data an operation answers. */
export type OperationResult<O> = O extends Operation<infer Result, infer _Variables> ? Result : never;
/** The variables an operation takes. */
export type OperationVariables<O> = O extends Operation<infer _Result, infer Variables> ? Variables : never;

/** The variables argument: optional when the operation requires none. */
export type VariablesArgument<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

const compiled = new WeakMap<DocumentNode, CompiledQuery>();

/** The executable form of a validated document, compiled on its first run. */
function compiledOf(document: DocumentNode): CompiledQuery {
  let query = compiled.get(document);
  if (!query) {
    const result = compileQuery(schema, document);
    if (!isCompiledQuery(result))
      throw new Error(`cannot compile an operation: ${result.errors?.map((e) => e.message).join('; ')}`);
    query = result;
    compiled.set(document, query);
  }
  return query;
}

/** Executes and returns `data`, or throws the DomainError behind the first error (else `internal`). */
export async function runOperation<Result, Variables>(
  ctx: RequestContext,
  operation: Operation<Result, Variables>,
  ...[variables]: VariablesArgument<NoInfer<Variables>>
): Promise<Result> {
  const variableValues = (variables ?? {}) as Record<string, unknown>;
  const result = await compiledOf(operation.document).query(undefined, ctx, variableValues);
  if (result.errors?.length) {
    const domain = asDomainError(result.errors[0]);
    if (domain) throw domain;
    const error = new DomainError('internal', 'The service failed to handle the request');
    (error as { cause?: unknown }).cause = result.errors[0].originalError ?? result.errors[0];
    throw error;
  }
  return result.data as Result;
}
