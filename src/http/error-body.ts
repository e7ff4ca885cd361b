// The contract's error body, built once from a DomainError (Errors section of the spec).
import { STATUS_CODES } from 'node:http';
import type { DomainError } from '../domain/errors.js';

export function errorBody(error: DomainError, requestId: string): Record<string, unknown> {
  return {
    ...error.details,
    error: STATUS_CODES[error.status] ?? 'Error',
    message: error.message,
    code: error.code,
    requestId,
  };
}
