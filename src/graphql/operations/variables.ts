// Request values as the domain operations take them, read by one set of rules for both the
// REST query string and the MCP tools' arguments, so that an operation sees the same variables
// and answers a bad value with the same 400: scalars as text (an array by its last item), lists
// from one value or an array, and a page limit that is an integer, or else -1 so that the
// operation's bound check names the bound. A null value counts as not sent. Only a value that
// is neither text nor a list of text (`?searchTerm[a]=1`, an object argument), and a required
// argument not sent, are refused here, as a 400 `bad_request` naming the argument.
import { badRequest, badRequestFor } from '../../domain/errors.js';
import { assertUuid } from '../../domain/shared/ids.js';

/** A parsed query string, or a tool call's arguments. */
export type RequestValues = Record<string, unknown>;

/** GraphQL's Int is 32-bit: a larger integer goes to the operation as the largest, so its bound check answers. */
const INT32_MAX = 2 ** 31 - 1;

function refuse(name: string, expected: string): never {
  throw badRequest(`${name}: must be ${expected}`, { issues: [{ path: name, message: `must be ${expected}` }] });
}

/** A text argument, or undefined when not sent. */
function text(args: RequestValues, name: string): string | undefined {
  let value = args[name];
  if (Array.isArray(value)) value = value[value.length - 1];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return refuse(name, 'a string');
}

/**
 * The 400 for required arguments not sent (absent or null), naming each: "callId: is required",
 * not what the operation would say of a value it never got ("must be a UUID").
 */
function requireSent(args: RequestValues, names: readonly string[]): void {
  const missing = names.filter((name) => args[name] === undefined || args[name] === null);
  if (missing.length === 0) return;
  throw badRequestFor(missing.map((path) => ({ path, message: 'is required' })));
}

/** A required text argument; not sent is a 400 naming it. */
export function requiredText(args: RequestValues, name: string): string {
  requireSent(args, [name]);
  return text(args, name) ?? '';
}

/** A required id argument: not sent, or not a UUID, is a 400 naming it. */
export function requiredUuid(args: RequestValues, name: string): string {
  return assertUuid(requiredText(args, name), name);
}

/** A list argument (one value or an array of them), or undefined when not sent. */
function textList(args: RequestValues, name: string): string[] | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    return refuse(name, 'a string or an array of strings');
  });
}

/** The page size: an integer (or its text), else -1 so the operation's check names the bound. */
function pageLimit(args: RequestValues, name = 'limit'): number | undefined {
  let value = args[name];
  if (Array.isArray(value)) value = value[value.length - 1];
  if (value === undefined || value === null) return undefined;
  const limit = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(limit)) return -1;
  return Math.max(-INT32_MAX, Math.min(INT32_MAX, limit));
}

/** Drops the arguments that were not sent, so the operation applies its defaults. */
function sent<T extends Record<string, unknown>>(variables: T): Partial<T> {
  return Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** limit and nextToken of a paged list. */
export function pageVariables(values: RequestValues): { limit?: number; nextToken?: string } {
  return sent({ limit: pageLimit(values), nextToken: text(values, 'nextToken') });
}

/** A webhook endpoint's deliveries: the status kept, and the page (GET …/deliveries, webhook_deliveries_list). */
export function deliveryListVariables(values: RequestValues): { status?: string; limit?: number; nextToken?: string } {
  return { ...sent({ status: text(values, 'status') }), ...pageVariables(values) };
}

/** A workflow's enrollments: the state kept, and the page (GET /workflows/{id}/enrollments). */
export function enrollmentPageVariables(values: RequestValues): { state?: string; limit?: number; nextToken?: string } {
  return { ...sent({ state: text(values, 'state') }), ...pageVariables(values) };
}

/** The contact list's filters and page (GET /contacts, its CSV export, contacts_search). */
export function contactListVariables(values: RequestValues): Record<string, unknown> {
  return {
    ...sent({
      status: textList(values, 'status'),
      sourceKind: textList(values, 'sourceKind'),
      addedSince: text(values, 'addedSince'),
      addedBefore: text(values, 'addedBefore'),
      assignedWorkflowId: text(values, 'assignedWorkflowId'),
      searchTerm: text(values, 'searchTerm'),
    }),
    ...pageVariables(values),
  };
}

/** The contact a by-external-ID read names (a REST path's params, or a tool's arguments). */
export function externalIdPath(values: RequestValues): { sourceKind: string; externalId: string } {
  requireSent(values, ['sourceKind', 'externalId']);
  return { sourceKind: requiredText(values, 'sourceKind'), externalId: requiredText(values, 'externalId') };
}

/** An erasure's `block` (`?block=true`): true or false as text; absent is false; anything else a 400 naming it. */
export function blockVariable(values: RequestValues): { block: boolean } {
  const value = text(values, 'block');
  if (value === undefined || value === 'false') return { block: false };
  if (value === 'true') return { block: true };
  return refuse('block', 'true or false');
}

/** The calling policy's changes: how many, newest first (GET /calling-policy/changes). */
export function changesVariables(values: RequestValues): { limit?: number } {
  return sent({ limit: pageLimit(values) });
}

/**
 * The contact a calling-rules tool names: by its id (`contactId`), or by its source kind and
 * external ID, as the REST paths /contacts/{id}/… and /contacts/source/{sourceKind}/external-id/{externalId}/…
 * do. Neither, or both, is a 400 naming the arguments.
 */
export function contactRefVariables(
  values: RequestValues,
): { contactId: string } | { sourceKind: string; externalId: string } {
  const contactId = text(values, 'contactId');
  const byExternalId = ['sourceKind', 'externalId'].filter(
    (name) => values[name] !== undefined && values[name] !== null,
  );
  if (contactId !== undefined && byExternalId.length > 0)
    throw badRequestFor(
      byExternalId.map((path) => ({ path, message: 'give contactId, or sourceKind and externalId, not both' })),
    );
  if (contactId !== undefined) return { contactId };
  if (byExternalId.length === 0)
    throw badRequestFor([{ path: 'contactId', message: 'is required (or sourceKind and externalId)' }]);
  return externalIdPath(values);
}

/** The call audit's window and page (GET /calls/audit.csv). */
export function callAuditVariables(values: RequestValues): {
  from?: string;
  to?: string;
  limit?: number;
  nextToken?: string;
} {
  return sent({
    from: text(values, 'from'),
    to: text(values, 'to'),
    limit: pageLimit(values),
    nextToken: text(values, 'nextToken'),
  });
}

/** A workflow's results: its id, the window, the grouping and the days' zone (GET /workflows/{id}/results, workflow_results_get). */
export function workflowResultsVariables(
  id: string,
  values: RequestValues,
): { id: string; from?: string; to?: string; groupBy?: string; timeZone?: string } {
  return {
    id,
    ...sent({
      from: text(values, 'from'),
      to: text(values, 'to'),
      groupBy: text(values, 'groupBy'),
      timeZone: text(values, 'timeZone'),
    }),
  };
}
