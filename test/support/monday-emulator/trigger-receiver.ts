/**
 * monday's side of our custom trigger: the `webhookUrl` our app POSTs to when a call ends. It
 * checks our Authorization, records every delivery attempt, and on success runs the recipe's
 * action with the delivered output fields.
 *
 * Answers: injected fault → 500/429 (with Retry-After); bad or missing Authorization → 401;
 * unknown or deleted subscription → 404 (real behaviour undocumented); body not
 * `{ trigger: { outputFields: {...} } }` or not matching the declared outputs → 400; else 200.
 */
import express, { type Request, type Response, type Router } from 'express';
import { checkTriggerAuthorization } from './app-jwt.js';
import { isPlainObject } from './app-http.js';
import type { AutomationContext } from './automation-context.js';
import type { DeliveryOutcome, Recipe, TriggerDelivery, TriggerOutputType } from './automation-state.js';
import { fireRecipe } from './recipes.js';

export const TRIGGER_RECEIVER_PATH = '/automations/apps-events/:subscriptionId';

/** Answers the next `count` deliveries with `status` (429 adds `Retry-After`), before any check. */
export function failTriggerDeliveries(
  context: AutomationContext,
  count: number,
  status = 500,
  options: { retryAfterSeconds?: number } = {},
): void {
  context.automation.triggerFaults.push({ remaining: count, status, retryAfterSeconds: options.retryAfterSeconds });
}

function takeFault(context: AutomationContext) {
  const fault = context.automation.triggerFaults.find((f) => f.remaining > 0);
  if (!fault) return null;
  fault.remaining -= 1;
  context.automation.triggerFaults = context.automation.triggerFaults.filter((f) => f.remaining > 0);
  return fault;
}

function parseBody(raw: unknown): { body: unknown; outputFields: Record<string, unknown> | null } {
  let body: unknown = raw;
  if (typeof raw === 'string') {
    try {
      body = raw === '' ? null : JSON.parse(raw);
    } catch {
      return { body: raw, outputFields: null };
    }
  }
  const trigger = isPlainObject(body) ? body.trigger : undefined;
  const outputFields = isPlainObject(trigger) && isPlainObject(trigger.outputFields) ? trigger.outputFields : null;
  return { body, outputFields };
}

function typeMatches(value: unknown, type: TriggerOutputType): boolean {
  if (value === null) return true;
  if (type === 'date') return typeof value === 'string' && !Number.isNaN(Date.parse(value));
  return typeof value === type;
}

/** Differences from the trigger block's declared outputs, or null when none are declared or all match. */
function outputProblem(recipe: Recipe, outputFields: Record<string, unknown>): string | null {
  const declared = recipe.trigger.kind === 'app' ? recipe.trigger.outputFields : undefined;
  if (!declared) return null;
  const problems = Object.entries(declared)
    .filter(([key, type]) => !(key in outputFields) || !typeMatches(outputFields[key], type))
    .map(([key, type]) => (key in outputFields ? `${key} is not a ${type}` : `${key} is missing`));
  return problems.length ? problems.join('; ') : null;
}

export function createTriggerReceiver(context: AutomationContext): Router {
  const router = express.Router();
  // Read as text so a malformed body is still recorded and answered 400 by us, not by Express.
  router.post(
    TRIGGER_RECEIVER_PATH,
    express.text({ type: () => true, limit: '1mb' }),
    (req: Request, res: Response) => {
      const subscriptionId = String(req.params.subscriptionId);
      const authorization = req.get('authorization') ?? null;
      const { body, outputFields } = parseBody(req.body);
      const answer = (status: number, outcome: DeliveryOutcome, payload: Record<string, unknown>, problem?: string) => {
        const delivery: TriggerDelivery = {
          subscriptionId,
          outputFields,
          status,
          outcome,
          authorization,
          body,
          at: context.state.now(),
        };
        if (problem) delivery.problem = problem;
        context.automation.triggerDeliveries.push(delivery);
        res.status(status).json(payload);
      };

      const fault = takeFault(context);
      if (fault) {
        if (fault.status === 429) res.setHeader('Retry-After', String(fault.retryAfterSeconds ?? 1));
        answer(fault.status, 'fault_injected', {
          error: fault.status === 429 ? 'Too many requests' : 'Internal server error',
        });
        return;
      }
      const authFailure = checkTriggerAuthorization(authorization ?? undefined, {
        signingSecret: context.config.signingSecret,
        appId: context.config.appId,
        acceptRawSecret: context.config.acceptRawSecret,
        nowMs: context.state.now,
      });
      if (authFailure) {
        answer(401, authFailure, { error: 'Unauthorized' });
        return;
      }
      const recipeId = context.automation.subscriptions.get(subscriptionId);
      const recipe = recipeId === undefined ? undefined : context.automation.recipes.get(recipeId);
      if (!recipe) {
        answer(404, 'unknown_subscription', { error: 'Subscription not found' });
        return;
      }
      if (!outputFields) {
        answer(
          400,
          'bad_body',
          { error: 'Expected { trigger: { outputFields: {...} } }' },
          'body is not { trigger: { outputFields } }',
        );
        return;
      }
      const problem = outputProblem(recipe, outputFields);
      if (problem) {
        answer(400, 'bad_body', { error: `Output fields do not match the trigger block: ${problem}` }, problem);
        return;
      }
      // A turned-off automation keeps its subscription and silently ignores what fires.
      if (!recipe.active) {
        answer(200, 'ignored_recipe_off', {});
        return;
      }
      answer(200, 'accepted', {});
      void context.track(fireRecipe(context, recipe, outputFields));
    },
  );
  return router;
}
