// The one error type of the domain. Services throw it; each surface maps it once, through
// ERROR_CODES below (REST: status + error body; GraphQL: extensions.code; MCP: tool error).
import { GraphQLError } from 'graphql';

/**
 * Every stable error code, with its HTTP status. Codes are part of the public API:
 * clients branch on them, so a code is never renamed.
 */
export const ERROR_CODES = {
  /** Invalid request (bad body, bad query, malformed id); fix before resending. */
  bad_request: 400,
  /** API key missing, unknown or revoked; admin token missing or wrong. */
  unauthenticated: 401,
  /** A request the caller may not make (tool-server request carrying an Origin header). */
  forbidden: 403,
  /** Operation or resource does not exist (including another Account's resource). */
  not_found: 404,
  /**
   * More than one contact matched an external ID, a change collides with another contact's
   * dedup key, or an upsert kept losing to concurrent writes of its contact (retry it).
   */
  conflict: 409,
  /** The request body is over the endpoint's limit (the code is the status text, in snake case). */
  payload_too_large: 413,
  /** The request did not arrive in time (the HTTP server's request timeout). */
  request_timeout: 408,
  /** Over a rate limit (per API key or per client address); retry after the Retry-After header's seconds. */
  rate_limited: 429,
  /** The request's header section is over the HTTP server's limit. */
  request_header_fields_too_large: 431,
  /** Upsert: the phone cannot be read as a number. */
  invalid_phone: 422,
  /** Upsert: the contact has none of the Account's dedup fields. */
  missing_dedup_field: 422,
  /** Upsert: the dedup field values are too long. */
  dedup_key_too_long: 422,
  /** The service failed to handle the request. */
  internal: 500,
  /** A service the operation depends on (monday's API) did not answer or refused for now; retry later. */
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class DomainError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra body fields, e.g. `contacts` on a 409. */
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message, { extensions: { code, ...details } });
    this.name = 'DomainError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = details;
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new DomainError('bad_request', message, details);
export const notFound = (message = 'Resource does not exist') => new DomainError('not_found', message);

/** Finds the DomainError behind an error thrown anywhere (GraphQL wraps resolver errors). */
export function asDomainError(error: unknown): DomainError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof DomainError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}
