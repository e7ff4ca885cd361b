/**
 * What the automation roles share: configuration, state, JWT minting, the HTTP client towards
 * our app, and bookkeeping of in-flight work so tests can wait for monday's side to settle.
 */
import { authorizationFor, mintMondayJwt, type MintJwtInput } from './app-jwt.js';
import { postToApp, type PostToAppInput } from './app-http.js';
import {
  createAutomationState,
  type ActionAttempt,
  type ActionRun,
  type AutomationState,
  type RetryPolicy,
} from './automation-state.js';
import type { EmulatorState } from './state.js';

export interface AutomationConfig {
  signingSecret: string;
  clientSecret: string;
  appId: number;
  retry: RetryPolicy;
  acceptRawSecret: boolean;
  /** `http://127.0.0.1:port`, the base of the webhookUrls handed to our app. */
  origin: string;
}

export interface AutomationContext {
  state: EmulatorState;
  automation: AutomationState;
  config: AutomationConfig;
  mintJwt(input: MintJwtInput): string;
  postToApp(input: Omit<PostToAppInput, 'signal'>): Promise<ActionAttempt>;
  /**
   * POSTs to our app as monday signs its calls, so each caller does not mint and attach the
   * JWT itself: a fresh JWT for the account and user with `aud` = the URL (raw, or `Bearer <jwt>`),
   * within one attempt's timeout.
   */
  postSignedToApp(
    input: Pick<PostToAppInput, 'kind' | 'url' | 'body'> & { accountId: number; userId: number; bearer?: boolean },
  ): Promise<ActionAttempt>;
  /** Registers background work (mutation-fired recipes, trigger-fired actions) for `idle()`. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Resolves when no tracked work is left, including work started by work that finished. */
  idle(): Promise<void>;
  /** Appends a finished run to the log and wakes `waitForRuns`. */
  recordRun(run: ActionRun): void;
  waitForRuns(count: number, timeoutMs?: number): Promise<ActionRun[]>;
  /** Aborts in-flight requests and pending retries (emulator close). */
  shutdown(): void;
  readonly signal: AbortSignal;
}

export interface CreateAutomationContextInput {
  state: EmulatorState;
  config: AutomationConfig;
  issueShortLivedToken: (accountId: number, userId: number) => string;
}

export function createAutomationContext(input: CreateAutomationContextInput): AutomationContext {
  const { state, config } = input;
  const automation = createAutomationState();
  const closing = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const runWaiters = new Set<() => void>();

  const context: AutomationContext = {
    state,
    automation,
    config,
    signal: closing.signal,
    mintJwt: (mint) =>
      mintMondayJwt(
        { signingSecret: config.signingSecret, nowMs: state.now, issueShortLivedToken: input.issueShortLivedToken },
        mint,
      ),
    postToApp: (post) => postToApp({ nowMs: state.now, log: automation.appCalls }, { ...post, signal: closing.signal }),
    postSignedToApp: ({ accountId, userId, bearer, ...post }) =>
      context.postToApp({
        ...post,
        authorization: authorizationFor(context.mintJwt({ accountId, userId, aud: post.url }), bearer ?? false),
        timeoutMs: config.retry.timeoutMs,
      }),
    track(work) {
      const settled = work.then(
        () => undefined,
        (error: unknown) => console.error('monday emulator: background automation work failed', error),
      );
      inFlight.add(settled);
      void settled.finally(() => inFlight.delete(settled));
      return work;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    recordRun(run) {
      automation.actionRuns.push(run);
      for (const wake of [...runWaiters]) wake();
    },
    waitForRuns(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (automation.actionRuns.length < count) return;
          cleanup();
          resolve(automation.actionRuns.slice(0, count));
        };
        const timer = setTimeout(() => {
          cleanup();
          const outcomes = automation.actionRuns.map((r) => r.outcome).join(', ') || 'none';
          reject(
            new Error(
              `monday emulator: waited ${timeoutMs} ms for ${count} action runs, saw ${automation.actionRuns.length} (${outcomes})`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          runWaiters.delete(check);
        };
        runWaiters.add(check);
        check();
      });
    },
    shutdown() {
      closing.abort(new Error('monday emulator closed'));
    },
  };
  return context;
}
