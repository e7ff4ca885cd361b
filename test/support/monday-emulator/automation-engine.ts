/**
 * monday's automation side of the emulator, as one object the emulator spreads into its
 * public API: the engine that calls our app (action runs, trigger subscribe/unsubscribe, remote
 * options) and the receiver our app fires triggers at.
 */
import type { Router } from 'express';
import type { MintJwtInput } from './app-jwt.js';
import { runAction, type RunActionInput } from './action-runner.js';
import { createAutomationContext, type AutomationConfig } from './automation-context.js';
import type { ActionAttempt, ActionRun, AppCall, Recipe, TriggerDelivery } from './automation-state.js';
import {
  createRecipe,
  deleteRecipe,
  triggerRecipe,
  turnOffRecipe,
  turnOnRecipe,
  type CreateRecipeInput,
} from './recipes.js';
import { fetchRemoteOptions, type FetchOptionsInput, type RemoteOptionsResult } from './remote-options.js';
import { changeStatus, listenForStatusChanges } from './status-change-trigger.js';
import { createTriggerReceiver, failTriggerDeliveries } from './trigger-receiver.js';
import type { EmulatorState } from './state.js';

export interface MondayAutomationEngine {
  /** The app credentials the engine signs with / the receiver checks. */
  readonly signingSecret: string;
  readonly clientSecret: string;
  readonly appId: number;

  /**
   * A JWT as monday signs its calls to our app (HS256, Signing Secret unless `secret` is
   * given). Send it raw or as `Bearer`.
   */
  mintJwt(input: MintJwtInput): string;
  /** One action run, retried per the policy; resolves when it has finished. */
  runAction(input: RunActionInput): Promise<ActionRun>;
  /** For an app trigger, subscribes at our app first; rejects with RecipeSetupError on a non-2xx. */
  createRecipe(input: CreateRecipeInput): Promise<Recipe>;
  /** Unsubscribes (app triggers) and deletes whatever the answer; resolves with the unsubscribe attempt. */
  deleteRecipe(id: number): Promise<ActionAttempt | null>;
  turnOffRecipe(id: number): Recipe;
  turnOnRecipe(id: number): Recipe;
  /** Plays one trigger event on a recipe; null when the recipe is off. */
  triggerRecipe(id: number, triggerOutputs: Record<string, unknown>): Promise<ActionRun | null>;
  /** Sets a status label as a board user would; resolves with the (finished) runs it caused. */
  changeStatus(itemId: string | number, columnId: string, label: string): Promise<ActionRun[]>;
  /** Loads every page of a remote-options field; rejects with CouldNotLoadFieldsError. */
  fetchOptions(input: FetchOptionsInput): Promise<RemoteOptionsResult>;
  /** The receiver answers the next `count` deliveries with `status` (429 adds Retry-After). */
  failTriggerDeliveries(count: number, status?: number, options?: { retryAfterSeconds?: number }): void;
  /** Resolves when no background automation work (mutation- or trigger-fired runs) is left. */
  idle(): Promise<void>;
  /** Resolves with the first `count` finished runs once there are that many (rejects after timeoutMs, default 5 s). */
  waitForRuns(count: number, timeoutMs?: number): Promise<ActionRun[]>;
  /** Every finished action run, in finishing order. */
  readonly actionRuns: ActionRun[];
  /** Every request our app made to a webhookUrl, whatever it was answered. */
  readonly triggerDeliveries: TriggerDelivery[];
  /** Every HTTP request the engine sent to our app (actions, subscribe, unsubscribe, options). */
  readonly appCalls: AppCall[];
  /** Recipes that exist now (deleted ones are gone). */
  readonly recipes: Recipe[];
}

export interface AutomationRole {
  engine: MondayAutomationEngine;
  /** Mount on the emulator's app: the trigger receiver. */
  router: Router;
  /** Stops retries and in-flight requests; call before closing the server. */
  shutdown(): void;
}

export function createAutomationRole(input: {
  state: EmulatorState;
  config: AutomationConfig;
  issueShortLivedToken: (accountId: number, userId: number) => string;
}): AutomationRole {
  const context = createAutomationContext(input);
  listenForStatusChanges(context);
  const { automation } = context;
  const engine: MondayAutomationEngine = {
    signingSecret: input.config.signingSecret,
    clientSecret: input.config.clientSecret,
    appId: input.config.appId,
    mintJwt: (mint) => context.mintJwt(mint),
    runAction: (run) => runAction(context, run),
    createRecipe: (recipe) => createRecipe(context, recipe),
    deleteRecipe: (id) => deleteRecipe(context, id),
    turnOffRecipe: (id) => turnOffRecipe(context, id),
    turnOnRecipe: (id) => turnOnRecipe(context, id),
    triggerRecipe: (id, outputs) => triggerRecipe(context, id, outputs),
    changeStatus: (itemId, columnId, label) => changeStatus(context, itemId, columnId, label),
    fetchOptions: (options) => fetchRemoteOptions(context, options),
    failTriggerDeliveries: (count, status, options) => failTriggerDeliveries(context, count, status, options),
    idle: () => context.idle(),
    waitForRuns: (count, timeoutMs) => context.waitForRuns(count, timeoutMs),
    actionRuns: automation.actionRuns,
    triggerDeliveries: automation.triggerDeliveries,
    appCalls: automation.appCalls,
    get recipes() {
      return [...automation.recipes.values()];
    },
  };
  return { engine, router: createTriggerReceiver(context), shutdown: () => context.shutdown() };
}
