// The one error type of the domain, and the one table of how every surface shows each of its
// codes. Services throw DomainError; each surface maps it once, reading FAILURES below: REST
// (status + error body, src/http/error-body.ts), GraphQL (extensions.code), the tool server
// (a tool error result, or the HTTP / JSON-RPC answer of a refusal before any tool runs) and
// the board app's action runs (monday's severity 4000 or 6000, or a retry). docs/decisions/0003-one-error-table.md
// prints this table.
import { GraphQLError } from 'graphql';

/**
 * How the tool server (src/mcp/) shows a failure:
 * - `tool_error`: a tool result with `isError: true` whose text is the error body;
 * - `http`: refused by the endpoint before any message is read: the code's status and the error body;
 * - `json_rpc`: a JSON-RPC error (code -32000, the SDK transport's) in an answer with the code's status.
 */
export type McpForm = 'tool_error' | 'http' | 'json_rpc';

/** The JSON-RPC error code of a `json_rpc` failure: the SDK transport's server error. */
export const MCP_SERVER_ERROR = -32000;

/**
 * How a board-app action run (integration/monday/) answers a failure, in monday's terms:
 * - `run_failed`: HTTP 400, severity 4000: this run failed, the automation stays on;
 * - `automation_off`: HTTP 400, severity 6000: the configuration can never succeed, monday turns
 *   the automation off;
 * - `retry`: the code's 5xx and the error body, no severity: monday retries the run;
 * - `refused`: the code's status and the error body, no severity: monday logs it and does not retry.
 */
export type BoardForm = 'run_failed' | 'automation_off' | 'retry' | 'refused';

export interface FailureForms {
  /** The HTTP status: REST's, and every surface's answer to a refusal before it runs. */
  status: number;
  /** `extensions.code` of the GraphQL error. */
  graphql: string;
  mcp: McpForm;
  board: BoardForm;
}

/**
 * Every stable error code and how each surface shows it. Codes are part of the public API:
 * clients branch on them, so a code is never renamed.
 */
export const FAILURES = {
  /** Invalid request (bad body, bad query, malformed id); fix before resending. */
  bad_request: { status: 400, graphql: 'bad_request', mcp: 'tool_error', board: 'run_failed' },
  /** API key missing, unknown or revoked; admin token missing or wrong; monday's token does not verify. */
  unauthenticated: { status: 401, graphql: 'unauthenticated', mcp: 'http', board: 'refused' },
  /** A request the caller may not make (tool-server request carrying an Origin header; a monday account not linked). */
  forbidden: { status: 403, graphql: 'forbidden', mcp: 'http', board: 'refused' },
  /** Operation or resource does not exist (including another Account's resource). */
  not_found: { status: 404, graphql: 'not_found', mcp: 'tool_error', board: 'run_failed' },
  /**
   * More than one contact matched an external ID, a change collides with another contact's
   * dedup key, or an upsert kept losing to concurrent writes of its contact (retry it).
   */
  conflict: { status: 409, graphql: 'conflict', mcp: 'tool_error', board: 'run_failed' },
  /** A REST write's Idempotency-Key is held by a request of the Account still running; retry once it has answered. */
  idempotency_key_in_use: { status: 409, graphql: 'idempotency_key_in_use', mcp: 'tool_error', board: 'refused' },
  /** A REST write's Idempotency-Key was used for another request (method, path or body) in the last 24 hours. */
  idempotency_key_reused: { status: 422, graphql: 'idempotency_key_reused', mcp: 'tool_error', board: 'refused' },
  /** The request body is over the endpoint's limit (the code is the status text, in snake case). */
  payload_too_large: { status: 413, graphql: 'payload_too_large', mcp: 'json_rpc', board: 'refused' },
  /** The request did not arrive in time (the HTTP server's request timeout). */
  request_timeout: { status: 408, graphql: 'request_timeout', mcp: 'http', board: 'refused' },
  /** Over a rate limit (per API key or per client address); retry after the Retry-After header's seconds. */
  rate_limited: { status: 429, graphql: 'rate_limited', mcp: 'http', board: 'refused' },
  /** The request's header section is over the HTTP server's limit. */
  request_header_fields_too_large: {
    status: 431,
    graphql: 'request_header_fields_too_large',
    mcp: 'http',
    board: 'refused',
  },
  /** Upsert: the phone cannot be read as a number. */
  invalid_phone: { status: 422, graphql: 'invalid_phone', mcp: 'tool_error', board: 'run_failed' },
  /** Upsert: the contact has none of the Account's dedup fields. */
  missing_dedup_field: { status: 422, graphql: 'missing_dedup_field', mcp: 'tool_error', board: 'run_failed' },
  /** Upsert: the dedup field values are too long. */
  dedup_key_too_long: { status: 422, graphql: 'dedup_key_too_long', mcp: 'tool_error', board: 'run_failed' },
  /** The service failed to handle the request. */
  internal: { status: 500, graphql: 'internal', mcp: 'tool_error', board: 'retry' },
  /** A service the operation depends on (monday's API) did not answer or refused for now; retry later. */
  unavailable: { status: 503, graphql: 'unavailable', mcp: 'tool_error', board: 'retry' },
} as const satisfies Record<string, FailureForms>;

export type ErrorCode = keyof typeof FAILURES;

/** Every code with its HTTP status (FAILURES' status column). */
export const ERROR_CODES = Object.fromEntries(
  Object.entries(FAILURES).map(([code, forms]) => [code, forms.status]),
) as { readonly [C in ErrorCode]: (typeof FAILURES)[C]['status'] };

/**
 * Why a code was raised, where a surface must tell the cases apart: the board app answers a
 * paused workflow "this run failed" (resume it and run again) but an archived one "turn the
 * automation off" (it can never succeed). Each reason belongs to one code, and may refine that
 * code's board form. A reason is not part of the error body.
 */
export const FAILURE_REASONS = {
  /** Enrollment: the workflow is not the Account's (or does not exist). */
  workflow_not_found: { code: 'bad_request', board: 'automation_off' },
  /** Enrollment: the workflow is a draft. */
  workflow_draft: { code: 'bad_request', board: 'automation_off' },
  /** Enrollment: the workflow is archived. */
  workflow_archived: { code: 'bad_request', board: 'automation_off' },
  /** Enrollment: the workflow is paused (resuming it makes the same request succeed). */
  workflow_paused: { code: 'bad_request', board: 'run_failed' },
  /** Board app: the Account maps no board. */
  board_not_mapped: { code: 'not_found', board: 'automation_off' },
  /** Board app: the item (or the run) is on another board than the mapped one. */
  item_on_other_board: { code: 'bad_request', board: 'automation_off' },
  /** Board app: a mapped column is gone from the board or changed type. */
  mapping_out_of_date: { code: 'bad_request', board: 'automation_off' },
  /** Board app: the item has no phone number. */
  phone_missing: { code: 'bad_request', board: 'run_failed' },
  /** Board app: the item's phone is not a valid number with its country code. */
  phone_invalid: { code: 'invalid_phone', board: 'run_failed' },
  /** Board app: the item's contact has no finished call yet. */
  no_call_result: { code: 'not_found', board: 'run_failed' },
  /** Board app: the call result sent is not one of Contactline's. */
  unknown_call_result: { code: 'bad_request', board: 'run_failed' },
} as const satisfies Record<string, { code: ErrorCode; board: BoardForm }>;

export type FailureReason = keyof typeof FAILURE_REASONS;

export class DomainError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra body fields, e.g. `contacts` on a 409. */
  readonly details: Record<string, unknown>;
  /** Why, where a surface must tell cases of one code apart (FAILURE_REASONS); never in a body. */
  readonly reason: FailureReason | undefined;
  /** What the reason is about, by the name a person knows it (a workflow's name); never in a body. */
  readonly subject: string | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options: { reason?: FailureReason; subject?: string } = {},
  ) {
    super(message, { extensions: { code: FAILURES[code].graphql, ...details } });
    this.name = 'DomainError';
    this.code = code;
    this.status = FAILURES[code].status;
    this.details = details;
    this.reason = options.reason;
    this.subject = options.subject;
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new DomainError('bad_request', message, details);
/** A 400 naming each bad field: the message lists "path: message" of every issue, and `issues` carries them. */
export const badRequestFor = (issues: Array<{ path: string; message: string }>) =>
  badRequest(issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; '), {
    issues,
  });
export const notFound = (message = 'Resource does not exist') => new DomainError('not_found', message);

/**
 * The error of a reason, with the reason's code; `subject` names what it is about for a
 * surface's own words; `details` are the body's (`issues` of a 400).
 */
export const failureFor = (
  reason: FailureReason,
  message: string,
  subject?: string,
  details: Record<string, unknown> = {},
) => new DomainError(FAILURE_REASONS[reason].code, message, details, { reason, subject });

/** How a board-app action run answers this error: its reason's form, else its code's. */
export function boardFormOf(error: DomainError): BoardForm {
  return error.reason ? FAILURE_REASONS[error.reason].board : FAILURES[error.code].board;
}

/** Finds the DomainError behind an error thrown anywhere (GraphQL wraps resolver errors). */
export function asDomainError(error: unknown): DomainError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof DomainError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}
