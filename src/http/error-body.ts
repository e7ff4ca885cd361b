// The API's error body, built once from a DomainError: `{ error, message, code, requestId }`, where
// `error` is the HTTP status text, plus the error's details (`issues` on a 400, `contacts` on a 409).
// The codes and their statuses: FAILURES in src/domain/errors.ts; docs/decisions/0003-one-error-table.md.
// Every surface answers with this body where it answers with HTTP: REST, the edge's refusals,
// the tool server's refusals and tool errors, and the board app's answers without severity.
import { STATUS_CODES } from 'node:http';
import { asDomainError, DomainError } from '../domain/errors.js';

export type LogError = (error: unknown, requestId: string) => void;

export function errorBody(error: DomainError, requestId: string): Record<string, unknown> {
  return {
    ...error.details,
    error: STATUS_CODES[error.status] ?? 'Error',
    message: error.message,
    code: error.code,
    requestId,
  };
}

/**
 * A failure as an API error: a DomainError as it is (`known`, by default the error
 * itself when it is one), anything else `internal`, whose cause is logged with the request id
 * (the client sees only the error body).
 */
export function failureOf(
  error: unknown,
  requestId: string,
  logError: LogError | undefined,
  known = asDomainError(error),
): DomainError {
  const mapped = known ?? new DomainError('internal', 'The service failed to handle the request');
  if (mapped.code === 'internal') logError?.((mapped as { cause?: unknown }).cause ?? error, requestId);
  return mapped;
}
