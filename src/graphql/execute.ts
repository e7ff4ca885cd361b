// Runs a GraphQL operation in-process against the domain schema: how every surface (REST,
// MCP, board app) reaches the domain. Documents are parsed and validated once.
import { execute, parse, validate, type DocumentNode } from 'graphql';
import { schema } from '../domain/schema.js';
import type { RequestContext } from '../domain/context.js';
import { asDomainError, DomainError } from '../domain/errors.js';

export interface Operation {
  document: DocumentNode;
  source: string;
}

/** Parses and validates an operation at module load: a broken document fails at start-up, not per request. */
export function defineOperation(source: string): Operation {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(`Invalid operation:\n${source}\n${errors.map((e) => e.message).join('\n')}`);
  return { document, source };
}

/** Executes and returns `data`, or throws the DomainError behind the first error (else `internal`). */
export async function runOperation<T = Record<string, unknown>>(ctx: RequestContext, operation: Operation, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await execute({ schema, document: operation.document, contextValue: ctx, variableValues: variables });
  if (result.errors?.length) {
    const domain = asDomainError(result.errors[0]);
    if (domain) throw domain;
    const error = new DomainError('internal', 'The service failed to handle the request');
    (error as { cause?: unknown }).cause = result.errors[0].originalError ?? result.errors[0];
    throw error;
  }
  return result.data as T;
}
