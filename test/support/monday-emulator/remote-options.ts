/**
 * Remote options of a custom List field, as monday loads them while a user configures a recipe
 * (one page at a time): POST with `pageRequestData: {}`, then whatever our app returned
 * as `nextPageRequestData`, until the last page. Any non-200 is "Could not load fields".
 */
import { isPlainObject } from './app-http.js';
import type { AutomationContext } from './automation-context.js';
import { DEFAULT_RECIPE_ID } from './action-runner.js';

export interface FetchOptionsInput {
  url: string;
  accountId: number;
  userId: number;
  boardId?: string | number;
  /** Values of the fields this field depends on; monday sends null when none. */
  dependencyData?: Record<string, unknown> | null;
  recipeId?: number;
  integrationId?: number;
  bearer?: boolean;
  /** Guard against a `nextPageRequestData` that never ends (default 100 pages). */
  maxPages?: number;
}

export interface RemoteOption {
  title: string;
  value: unknown;
  [key: string]: unknown;
}

export interface RemoteOptionsResult {
  options: RemoteOption[];
  /** The `pageRequestData` sent with each request, in order. */
  pageRequests: unknown[];
}

/** What the user sees when a remote-options request fails. */
export class CouldNotLoadFieldsError extends Error {
  constructor(
    readonly status: number | null,
    readonly detail: string,
  ) {
    super(`Could not load fields (${detail})`);
    this.name = 'CouldNotLoadFieldsError';
  }
}

interface OptionsPage {
  options: RemoteOption[];
  next: unknown;
}

function readPage(body: unknown): OptionsPage | null {
  if (Array.isArray(body)) return body.every(isOption) ? { options: body, next: null } : null;
  if (!isPlainObject(body) || !Array.isArray(body.options) || !body.options.every(isOption)) return null;
  const next = body.isLastPage === true ? null : (body.nextPageRequestData ?? null);
  return { options: body.options, next };
}

function isOption(value: unknown): value is RemoteOption {
  return isPlainObject(value) && typeof value.title === 'string' && value.value !== undefined;
}

export async function fetchRemoteOptions(
  context: AutomationContext,
  input: FetchOptionsInput,
): Promise<RemoteOptionsResult> {
  const integrationId = input.integrationId ?? 398885964;
  const result: RemoteOptionsResult = { options: [], pageRequests: [] };
  let pageRequestData: unknown = {};
  for (let page = 0; page < (input.maxPages ?? 100); page++) {
    const body = {
      payload: {
        ...(input.boardId === undefined ? {} : { boardId: Number(input.boardId) }),
        automationId: integrationId,
        recipeId: input.recipeId ?? DEFAULT_RECIPE_ID,
        integrationId,
        dependencyData: input.dependencyData ?? null,
        pageRequestData,
      },
    };
    result.pageRequests.push(pageRequestData);
    const attempt = await context.postSignedToApp({
      kind: 'options',
      url: input.url,
      accountId: input.accountId,
      userId: input.userId,
      bearer: input.bearer,
      body,
    });
    if (attempt.status !== 200)
      throw new CouldNotLoadFieldsError(
        attempt.status,
        attempt.status === null ? String(attempt.error) : `HTTP ${attempt.status}`,
      );
    const parsed = readPage(attempt.body);
    if (!parsed) throw new CouldNotLoadFieldsError(200, 'the answer is neither an option list nor a paginated object');
    result.options.push(...parsed.options);
    if (parsed.next === null) return result;
    pageRequestData = parsed.next;
  }
  throw new CouldNotLoadFieldsError(200, `still not on the last page after ${input.maxPages ?? 100} pages`);
}
