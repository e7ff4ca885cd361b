/**
 * State and record types of the emulator's automation roles (the engine and the trigger receiver):
 * the recipes set up on boards, the action runs the engine made against our app, the trigger
 * deliveries our app made to the receiver, and every HTTP call the engine sent us.
 *
 * Everything here is plain data so tests can assert on it directly.
 */

/** How the engine retries an action run that got a 5xx without severity, a network error or no answer. */
export interface RetryPolicy {
  /** Waits before the 2nd, 3rd, ... attempt; when used up the run gives up. Real monday: ~30 min of retries. */
  delaysMs: number[];
  /** One attempt that has not answered within this counts as failed (real: ~60 s). */
  timeoutMs: number;
  /** No new attempt starts later than this after the first one, by the emulator clock (real: 30 min). */
  windowMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  delaysMs: [20, 50, 100],
  timeoutMs: 60_000,
  windowMs: 30 * 60_000,
});

/** One HTTP answer (or its absence) as the engine saw it. */
export interface ActionAttempt {
  /** null: network error or timeout (see `error`). */
  status: number | null;
  /** Parsed JSON when the answer was JSON, else the raw text (null when there was no answer). */
  body: unknown;
  ms: number;
  /** emulator clock (epoch ms) when the attempt started */
  at: number;
  error?: 'timeout' | `network: ${string}`;
}

/**
 * - success: answered 200;
 * - failed: a severity 4000 body, or any 4xx (no retry);
 * - disabled: a severity 6000 body (the automation is turned off);
 * - gave_up: 5xx without severity / no answer, retried until the delays or the window ran out;
 * - refused: not sent at all, the automation had been disabled by an earlier 6000 or turned off.
 */
export type ActionOutcome = 'success' | 'failed' | 'disabled' | 'gave_up' | 'refused';

export interface ActionRun {
  /** The idempotency key our side sees; identical on every retry of this run. */
  actionUuid: string;
  triggerUuid: string;
  url: string;
  accountId: number;
  userId: number;
  recipeId: number;
  integrationId: number;
  inputFields: Record<string, unknown>;
  /** The exact body sent on every attempt. */
  requestBody: ActionRequestBody;
  outcome: ActionOutcome;
  attempts: ActionAttempt[];
  /** success only: the `outputFields` of the answer (absent when the answer had none). */
  outputFields?: Record<string, unknown>;
  /** What monday shows the automation's creator (severity bodies only). */
  notification?: { title: string | undefined; description: string | undefined };
  /** What monday writes to the activity log. */
  runtimeError?: string;
  /** 6000 only. */
  disableError?: string;
  /** refused only. */
  refusedReason?: string;
  /** Set when a recipe ran this action (same as `integrationId`). */
  recipe?: number;
  startedAt: number;
  finishedAt: number;
}

/** The body monday POSTs to an action's run URL. */
export interface ActionRequestBody {
  payload: {
    blockKind: 'action';
    inboundFieldValues: Record<string, unknown>;
    inputFields: Record<string, unknown>;
    credentialsValues: Record<string, unknown>;
    recipeId: number;
    integrationId: number;
  };
  runtimeMetadata: { actionUuid: string; triggerUuid: string };
}

/** What a recipe's context gives its blocks (the "Context" field source). */
export interface RecipeContext {
  boardId: number;
  accountId: number;
  userId: number;
}

/** monday's built-in "When {status} changes (to {label})"; outputs `{ boardId, itemId }`. */
export interface StatusChangeTrigger {
  kind: 'status_change';
  columnId: string;
  /** Only fire when the new label is this one. */
  toLabel?: string;
}

export type TriggerOutputType = 'string' | 'number' | 'boolean' | 'date';

/** Our custom trigger block: monday subscribes when the recipe is created. */
export interface AppTrigger {
  kind: 'app';
  subscribeUrl: string;
  unsubscribeUrl: string;
  /** The trigger block's input fields as sent in the subscribe body (e.g. `{ boardId, agentId }`). */
  inputFields?: Record<string, unknown> | ((context: RecipeContext) => Record<string, unknown>);
  /**
   * The block's declared output fields; when given, the receiver answers 400 to a delivery that
   * lacks one or carries the wrong type (null is accepted). Extra keys pass.
   */
  outputFields?: Record<string, TriggerOutputType>;
  /** Send `Authorization: Bearer <jwt>` to subscribe/unsubscribe instead of the raw JWT. */
  bearer?: boolean;
}

export type RecipeTrigger = StatusChangeTrigger | AppTrigger;

export type ActionInputFields =
  | Record<string, unknown>
  | ((triggerOutputs: Record<string, unknown>, context: RecipeContext) => Record<string, unknown>);

export interface RecipeAction {
  url: string;
  inputFields: ActionInputFields;
  /** Send `Authorization: Bearer <jwt>` instead of the raw JWT (as workflow blocks do). */
  bearer?: boolean;
}

export interface TriggerSubscription {
  subscriptionId: number;
  /** What our subscribe answer returned as `webhookId`, else `subscriptionId`. */
  webhookId: unknown;
  /** Where our side fires the trigger: this emulator's receiver. */
  webhookUrl: string;
}

export interface Recipe {
  /** The automation instance id; monday sends it as `integrationId`. */
  id: number;
  /** The recipe definition in our app (same across accounts). */
  recipeId: number;
  integrationId: number;
  accountId: number;
  userId: number;
  boardId: string;
  trigger: RecipeTrigger;
  action: RecipeAction;
  /** false after turnOffRecipe or a 6000 answer; triggers are then accepted and ignored. */
  active: boolean;
  /** Set by a severity 6000 answer; cleared by turnOnRecipe. */
  disabled: { description: string | undefined; at: number } | null;
  subscription?: TriggerSubscription;
}

export type DeliveryOutcome =
  | 'accepted'
  | 'ignored_recipe_off'
  | 'fault_injected'
  | 'missing_authorization'
  | 'invalid_token'
  | 'wrong_app_id'
  | 'unknown_subscription'
  | 'bad_body';

/** One request our side made to a `webhookUrl`, whatever the answer. */
export interface TriggerDelivery {
  subscriptionId: string;
  /** `trigger.outputFields` when the body had them, else null. */
  outputFields: Record<string, unknown> | null;
  /** HTTP status the receiver answered. */
  status: number;
  outcome: DeliveryOutcome;
  /** Why a 400 was answered. */
  problem?: string;
  authorization: string | null;
  body: unknown;
  /** emulator clock (epoch ms) */
  at: number;
}

export type AppCallKind = 'action' | 'subscribe' | 'unsubscribe' | 'options';

/** Every HTTP request the engine sent to our app. */
export interface AppCall {
  kind: AppCallKind;
  url: string;
  authorization: string | null;
  body: unknown;
  status: number | null;
  responseBody: unknown;
  error?: ActionAttempt['error'];
  ms: number;
  at: number;
}

export interface TriggerFault {
  remaining: number;
  status: number;
  retryAfterSeconds?: number;
}

export interface AutomationState {
  recipes: Map<number, Recipe>;
  /** subscriptionId → recipe id, for the receiver; removed when the recipe is deleted. */
  subscriptions: Map<string, number>;
  /** integrationIds disabled by a 6000 answer to a run that no recipe made (direct runAction). */
  disabledIntegrations: Map<number, string | undefined>;
  actionRuns: ActionRun[];
  triggerDeliveries: TriggerDelivery[];
  appCalls: AppCall[];
  triggerFaults: TriggerFault[];
  nextNumericId: number;
}

export function createAutomationState(): AutomationState {
  return {
    recipes: new Map(),
    subscriptions: new Map(),
    disabledIntegrations: new Map(),
    actionRuns: [],
    triggerDeliveries: [],
    appCalls: [],
    triggerFaults: [],
    // Distinct from the board/item ids so a mixed-up id never resolves by accident.
    nextNumericId: 480_000_001,
  };
}

export function nextNumericId(automation: AutomationState): number {
  const id = automation.nextNumericId;
  automation.nextNumericId += 1;
  return id;
}
