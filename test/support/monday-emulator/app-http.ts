/**
 * The engine's one way of calling our app: a JSON POST with monday's Authorization header,
 * bounded by a timeout, logged in `appCalls` whatever happens.
 */
import type { ActionAttempt, AppCall, AppCallKind } from './automation-state.js';

export interface PostToAppInput {
  kind: AppCallKind;
  url: string;
  /** null: send no Authorization header (negative tests). */
  authorization: string | null;
  body: unknown;
  timeoutMs: number;
  /** Aborted when the emulator closes, so no request outlives it. */
  signal: AbortSignal;
}

export interface PostToAppDeps {
  nowMs: () => number;
  log: AppCall[];
}

export async function postToApp(deps: PostToAppDeps, input: PostToAppInput): Promise<ActionAttempt> {
  const at = deps.nowMs();
  const started = performance.now();
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'monday-emulator' };
  if (input.authorization !== null) headers.authorization = input.authorization;
  let attempt: ActionAttempt;
  try {
    const response = await fetch(input.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(input.body),
      signal: AbortSignal.any([timeout, input.signal]),
    });
    const text = await response.text();
    attempt = { status: response.status, body: parseJsonOrText(text), ms: performance.now() - started, at };
  } catch (error) {
    const error_: ActionAttempt['error'] = timeout.aborted ? 'timeout' : `network: ${describe(error)}`;
    attempt = { status: null, body: null, ms: performance.now() - started, at, error: error_ };
  }
  deps.log.push({
    kind: input.kind,
    url: input.url,
    authorization: input.authorization,
    body: input.body,
    status: attempt.status,
    responseBody: attempt.body,
    ...(attempt.error ? { error: attempt.error } : {}),
    ms: attempt.ms,
    at,
  });
  return attempt;
}

function parseJsonOrText(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
