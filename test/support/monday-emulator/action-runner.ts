/**
 * Runs one custom action against our app the way monday's automation engine does: the action
 * request body (ActionRequestBody), a freshly minted JWT per attempt, monday's reading of the
 * answer (severity codes), and retries of the very same request on 5xx or no answer.
 */
import { randomUUID } from 'node:crypto';
import { authorizationFor } from './app-jwt.js';
import { isPlainObject } from './app-http.js';
import type { AutomationContext } from './automation-context.js';
import {
  nextNumericId,
  type ActionAttempt,
  type ActionRequestBody,
  type ActionRun,
  type RetryPolicy,
} from './automation-state.js';

export interface RunActionInput {
  url: string;
  accountId: number;
  userId: number;
  inputFields: Record<string, unknown>;
  /** Default: a fresh UUID. Pass one to replay a run monday already made. */
  actionUuid?: string;
  triggerUuid?: string;
  /** Default 30440660 (the recipe definition in our app). */
  recipeId?: number;
  /** Default: a fresh id (one automation instance per direct run). */
  integrationId?: number;
  /** `Authorization: Bearer <jwt>` instead of the raw JWT. */
  bearer?: boolean;
  /** Send this token instead of a freshly minted one (forged/expired cases); null sends no header. */
  jwt?: string | null;
  /** Per-run override of the emulator's retry policy. */
  retry?: Partial<RetryPolicy>;
  /** Set by recipes. */
  recipe?: number;
}

export const DEFAULT_RECIPE_ID = 30440660;

/** monday's verdict on one answer. */
export type ActionVerdict =
  | { kind: 'success'; outputFields?: Record<string, unknown> }
  | {
      kind: 'failed';
      notification?: { title: string | undefined; description: string | undefined };
      runtimeError: string;
    }
  | {
      kind: 'disabled';
      notification: { title: string | undefined; description: string | undefined };
      runtimeError: string | undefined;
      disableError: string | undefined;
    }
  | { kind: 'retry'; reason: string };

/**
 * monday's reading of an answer: 200 succeeds; a severity body on a 4xx/5xx is final (6000
 * disables the automation); any other 4xx is final; 5xx, other statuses and no answer are
 * retried.
 */
export function classifyActionAnswer(attempt: ActionAttempt): ActionVerdict {
  const { status, body } = attempt;
  if (status === 200) {
    const outputFields = isPlainObject(body) && isPlainObject(body.outputFields) ? body.outputFields : undefined;
    return outputFields ? { kind: 'success', outputFields } : { kind: 'success' };
  }
  if (status === null) return { kind: 'retry', reason: attempt.error ?? 'no answer' };
  const isError = status >= 400 && status <= 599;
  const severity = isError && isPlainObject(body) && typeof body.severityCode === 'number' ? body : null;
  if (severity) {
    const notification = {
      title: stringOrUndefined(severity.notificationErrorTitle),
      description: stringOrUndefined(severity.notificationErrorDescription),
    };
    const runtimeError = stringOrUndefined(severity.runtimeErrorDescription);
    if (severity.severityCode === 6000) {
      return {
        kind: 'disabled',
        notification,
        runtimeError,
        disableError: stringOrUndefined(severity.disableErrorDescription),
      };
    }
    return { kind: 'failed', notification, runtimeError: runtimeError ?? `severity ${severity.severityCode}` };
  }
  // Without a severity body monday only logs a generic message for the status.
  if (status >= 400 && status <= 499) return { kind: 'failed', runtimeError: `HTTP ${status} (no severity body)` };
  return { kind: 'retry', reason: `HTTP ${status}` };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function buildActionBody(input: {
  inputFields: Record<string, unknown>;
  recipeId: number;
  integrationId: number;
  actionUuid: string;
  triggerUuid: string;
}): ActionRequestBody {
  return {
    payload: {
      blockKind: 'action',
      inboundFieldValues: structuredClone(input.inputFields),
      inputFields: structuredClone(input.inputFields),
      credentialsValues: {},
      recipeId: input.recipeId,
      integrationId: input.integrationId,
    },
    runtimeMetadata: { actionUuid: input.actionUuid, triggerUuid: input.triggerUuid },
  };
}

/** Why an automation will not run at all, or null. */
function refusalOf(context: AutomationContext, integrationId: number): string | null {
  const recipe = context.automation.recipes.get(integrationId);
  if (recipe?.disabled)
    return `automation ${integrationId} was disabled: ${recipe.disabled.description ?? 'severity 6000'}`;
  if (recipe && !recipe.active) return `automation ${integrationId} is turned off`;
  if (context.automation.disabledIntegrations.has(integrationId)) {
    return `automation ${integrationId} was disabled: ${context.automation.disabledIntegrations.get(integrationId) ?? 'severity 6000'}`;
  }
  return null;
}

function markDisabled(context: AutomationContext, integrationId: number, description: string | undefined): void {
  const recipe = context.automation.recipes.get(integrationId);
  if (recipe) {
    recipe.active = false;
    recipe.disabled = { description, at: context.state.now() };
  } else {
    context.automation.disabledIntegrations.set(integrationId, description);
  }
}

/** Runs the action to its end (success, final failure or giving up) and logs the run. */
export async function runAction(context: AutomationContext, input: RunActionInput): Promise<ActionRun> {
  const retry: RetryPolicy = { ...context.config.retry, ...input.retry };
  const recipeId = input.recipeId ?? DEFAULT_RECIPE_ID;
  const integrationId = input.integrationId ?? nextNumericId(context.automation);
  const actionUuid = input.actionUuid ?? randomUUID();
  const triggerUuid = input.triggerUuid ?? randomUUID();
  // Built once: monday's retry re-sends the same request, so our side can deduplicate on it.
  const requestBody = buildActionBody({
    inputFields: input.inputFields,
    recipeId,
    integrationId,
    actionUuid,
    triggerUuid,
  });
  const run: ActionRun = {
    actionUuid,
    triggerUuid,
    url: input.url,
    accountId: input.accountId,
    userId: input.userId,
    recipeId,
    integrationId,
    inputFields: input.inputFields,
    requestBody,
    outcome: 'gave_up',
    attempts: [],
    ...(input.recipe === undefined ? {} : { recipe: input.recipe }),
    startedAt: context.state.now(),
    finishedAt: 0,
  };

  const refusal = refusalOf(context, integrationId);
  if (refusal) {
    run.outcome = 'refused';
    run.refusedReason = refusal;
  } else {
    await attemptUntilFinal(context, input, run, retry);
  }
  run.finishedAt = context.state.now();
  context.recordRun(run);
  return run;
}

async function attemptUntilFinal(
  context: AutomationContext,
  input: RunActionInput,
  run: ActionRun,
  retry: RetryPolicy,
): Promise<void> {
  for (let attemptNumber = 0; ; attemptNumber++) {
    // A fresh JWT per attempt: retries span up to 30 minutes, longer than a token lives.
    const authorization =
      input.jwt === null
        ? null
        : authorizationFor(
            input.jwt ?? context.mintJwt({ accountId: input.accountId, userId: input.userId, aud: input.url }),
            input.bearer ?? false,
          );
    const attempt = await context.postToApp({
      kind: 'action',
      url: input.url,
      authorization,
      body: run.requestBody,
      timeoutMs: retry.timeoutMs,
    });
    run.attempts.push(attempt);
    const verdict = classifyActionAnswer(attempt);
    switch (verdict.kind) {
      case 'success':
        run.outcome = 'success';
        if (verdict.outputFields) run.outputFields = verdict.outputFields;
        return;
      case 'failed':
        run.outcome = 'failed';
        if (verdict.notification) run.notification = verdict.notification;
        run.runtimeError = verdict.runtimeError;
        return;
      case 'disabled':
        run.outcome = 'disabled';
        run.notification = verdict.notification;
        if (verdict.runtimeError !== undefined) run.runtimeError = verdict.runtimeError;
        if (verdict.disableError !== undefined) run.disableError = verdict.disableError;
        markDisabled(context, run.integrationId, verdict.disableError);
        return;
      case 'retry': {
        const delay = retry.delaysMs[attemptNumber];
        const windowEnds = run.startedAt + retry.windowMs;
        if (delay === undefined || context.state.now() + delay > windowEnds || context.signal.aborted) {
          run.outcome = 'gave_up';
          run.runtimeError = `gave up after ${run.attempts.length} attempts (last: ${verdict.reason})`;
          return;
        }
        if (!(await sleepUnlessClosed(delay, context.signal))) {
          run.outcome = 'gave_up';
          run.runtimeError = 'monday emulator closed while retrying';
          return;
        }
      }
    }
  }
}

/** false when the emulator closed during the wait. */
function sleepUnlessClosed(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
