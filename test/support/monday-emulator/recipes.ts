/**
 * Recipes (automations) on a board: a trigger block plus an action block. Creating one with
 * our custom trigger subscribes at our app; deleting it unsubscribes; turning it off keeps the
 * subscription but ignores what fires.
 */
import { isPlainObject } from './app-http.js';
import { DEFAULT_RECIPE_ID, runAction } from './action-runner.js';
import type { AutomationContext } from './automation-context.js';
import {
  nextNumericId,
  type ActionAttempt,
  type ActionRun,
  type AppTrigger,
  type Recipe,
  type RecipeAction,
  type RecipeContext,
  type RecipeTrigger,
} from './automation-state.js';

export interface CreateRecipeInput {
  /** The account and user who set the automation up; monday acts as them (JWT claims). */
  accountId: number;
  userId: number;
  boardId: string | number;
  trigger: RecipeTrigger;
  action: RecipeAction;
  /** The recipe definition in our app; default 30440660. */
  recipeId?: number;
}

/** A subscribe answered with something else than 2xx: monday shows an error and creates nothing. */
export class RecipeSetupError extends Error {
  constructor(
    readonly attempt: ActionAttempt,
    readonly subscribeUrl: string,
  ) {
    super(
      `error shown in monday UI: the trigger subscribe at ${subscribeUrl} answered ${attempt.status === null ? attempt.error : `HTTP ${attempt.status}`}; the automation was not created`,
    );
    this.name = 'RecipeSetupError';
  }
}

export function webhookUrlFor(context: AutomationContext, subscriptionId: number): string {
  return `${context.config.origin}/automations/apps-events/${subscriptionId}`;
}

function recipeContextOf(recipe: Pick<Recipe, 'boardId' | 'accountId' | 'userId'>): RecipeContext {
  // monday sends board ids as numbers.
  return { boardId: Number(recipe.boardId), accountId: recipe.accountId, userId: recipe.userId };
}

function checkBoardAndTrigger(context: AutomationContext, input: CreateRecipeInput): string {
  const board = context.state.boards.get(String(input.boardId));
  if (!board || board.accountId !== input.accountId) {
    throw new Error(`monday emulator: board ${input.boardId} does not exist in account ${input.accountId}`);
  }
  if (input.trigger.kind === 'status_change') {
    const { columnId, toLabel } = input.trigger;
    const column = board.columns.find((c) => c.id === columnId);
    if (column?.type !== 'status')
      throw new Error(`monday emulator: board ${board.id} has no status column ${columnId}`);
    // In monday's UI the label is picked from the column's existing labels.
    if (toLabel !== undefined && !Object.values(column.labels ?? {}).includes(toLabel)) {
      throw new Error(`monday emulator: status column ${columnId} has no label "${toLabel}"`);
    }
  }
  return board.id;
}

export async function createRecipe(context: AutomationContext, input: CreateRecipeInput): Promise<Recipe> {
  const boardId = checkBoardAndTrigger(context, input);
  const integrationId = nextNumericId(context.automation);
  const recipe: Recipe = {
    id: integrationId,
    recipeId: input.recipeId ?? DEFAULT_RECIPE_ID,
    integrationId,
    accountId: input.accountId,
    userId: input.userId,
    boardId,
    trigger: input.trigger,
    action: input.action,
    active: true,
    disabled: null,
  };
  if (input.trigger.kind === 'app') recipe.subscription = await subscribe(context, recipe, input.trigger);
  context.automation.recipes.set(recipe.id, recipe);
  if (recipe.subscription) context.automation.subscriptions.set(String(recipe.subscription.subscriptionId), recipe.id);
  return recipe;
}

/** monday's subscribe call to our trigger: throws RecipeSetupError when our app does not answer 2xx. */
async function subscribe(
  context: AutomationContext,
  recipe: Recipe,
  trigger: AppTrigger,
): Promise<Recipe['subscription']> {
  const subscriptionId = nextNumericId(context.automation);
  const webhookUrl = webhookUrlFor(context, subscriptionId);
  const inputFields =
    typeof trigger.inputFields === 'function'
      ? trigger.inputFields(recipeContextOf(recipe))
      : (trigger.inputFields ?? {});
  const body = {
    payload: {
      webhookUrl,
      subscriptionId,
      blockMetadata: { shouldCalculateDynamicMapping: false },
      inputFields: structuredClone(inputFields),
      inboundFieldValues: structuredClone(inputFields),
      credentialsValues: {},
      recipeId: recipe.recipeId,
      integrationId: recipe.integrationId,
    },
  };
  const attempt = await context.postSignedToApp({
    kind: 'subscribe',
    url: trigger.subscribeUrl,
    accountId: recipe.accountId,
    userId: recipe.userId,
    bearer: trigger.bearer,
    body,
  });
  if (attempt.status === null || attempt.status < 200 || attempt.status > 299)
    throw new RecipeSetupError(attempt, trigger.subscribeUrl);
  const answered = isPlainObject(attempt.body) ? attempt.body.webhookId : undefined;
  // Without a webhookId monday keeps using the subscriptionId in later calls.
  return { subscriptionId, webhookUrl, webhookId: answered ?? subscriptionId };
}

function recipeOrThrow(context: AutomationContext, id: number): Recipe {
  const recipe = context.automation.recipes.get(id);
  if (!recipe) throw new Error(`monday emulator: no recipe ${id}`);
  return recipe;
}

/**
 * Deletes the automation; for our trigger, POSTs the unsubscribe (`{ payload: { webhookId } }`).
 * Whatever our app answers, the automation is gone and its webhookUrl answers 404. Returns the
 * unsubscribe attempt.
 */
export async function deleteRecipe(context: AutomationContext, id: number): Promise<ActionAttempt | null> {
  const recipe = recipeOrThrow(context, id);
  context.automation.recipes.delete(id);
  if (!recipe.subscription || recipe.trigger.kind !== 'app') return null;
  context.automation.subscriptions.delete(String(recipe.subscription.subscriptionId));
  const url = recipe.trigger.unsubscribeUrl;
  return context.postSignedToApp({
    kind: 'unsubscribe',
    url,
    accountId: recipe.accountId,
    userId: recipe.userId,
    bearer: recipe.trigger.bearer,
    body: { payload: { webhookId: recipe.subscription.webhookId } },
  });
}

/** Off: the subscription stays (no unsubscribe call), fired triggers are accepted and ignored. */
export function turnOffRecipe(context: AutomationContext, id: number): Recipe {
  const recipe = recipeOrThrow(context, id);
  recipe.active = false;
  return recipe;
}

/** On again, also after a 6000 answer disabled it. */
export function turnOnRecipe(context: AutomationContext, id: number): Recipe {
  const recipe = recipeOrThrow(context, id);
  recipe.active = true;
  recipe.disabled = null;
  return recipe;
}

/** Runs the recipe's action for one trigger event; null when the recipe is off. */
export async function fireRecipe(
  context: AutomationContext,
  recipe: Recipe,
  triggerOutputs: Record<string, unknown>,
): Promise<ActionRun | null> {
  if (!recipe.active) return null;
  const { inputFields } = recipe.action;
  const resolved =
    typeof inputFields === 'function'
      ? inputFields(triggerOutputs, recipeContextOf(recipe))
      : structuredClone(inputFields);
  return runAction(context, {
    url: recipe.action.url,
    accountId: recipe.accountId,
    userId: recipe.userId,
    inputFields: resolved,
    recipeId: recipe.recipeId,
    integrationId: recipe.integrationId,
    recipe: recipe.id,
    ...(recipe.action.bearer === undefined ? {} : { bearer: recipe.action.bearer }),
  });
}

/** Test helper: play a trigger event on a recipe directly (as if its trigger had fired). */
export function triggerRecipe(
  context: AutomationContext,
  id: number,
  triggerOutputs: Record<string, unknown>,
): Promise<ActionRun | null> {
  return context.track(fireRecipe(context, recipeOrThrow(context, id), triggerOutputs));
}
