/**
 * In-process emulator of monday.com for tests: its GraphQL API, its automation engine calling
 * our app, and the trigger receiver our app calls.
 *
 *   const monday = await startMondayEmulator({ signingSecret: SECRET, appId: 10155 });
 *   monday.addBoard({ id: 111, accountId: 1, columns: [{ id: 'phone', type: 'phone' }, { id: 'status', type: 'status' }] });
 *   monday.addItem({ id: 222, boardId: 111, name: 'Jane Doe', values: { phone: { phone: '+12025550169', countryShortName: 'US' } } });
 *   const token = monday.issueToken(1, 42);            // short-lived, 300 s
 *   new ApiClient({ token, apiVersion: '2026-10', endpoint: monday.url });
 *
 *   await monday.createRecipe({ accountId: 1, userId: 42, boardId: 111,
 *     trigger: { kind: 'status_change', columnId: 'status', toLabel: 'Done' },
 *     action: { url: `${ourApp}/actions/enroll`, inputFields: ({ itemId }, { boardId }) => ({ boardId, itemId }) } });
 *   const [run] = await monday.changeStatus(222, 'status', 'Done');   // run.outcome, run.attempts
 *   ...
 *   await monday.close();
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { applyColumnWrites, createMondayApi, type MondayApiOptions } from './graphql-api.js';
import { createAutomationRole, type MondayAutomationEngine } from './automation-engine.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './automation-state.js';
import { createMondayOAuth, type MondayOAuthEmulator, type MondayOAuthOptions } from './oauth.js';
import {
  createEmulatorState,
  DEFAULT_STATUS_LABELS,
  nextId,
  storedValueToJson,
  storedValueToText,
  type EmulatorState,
  type FaultKind,
  type MondayBoard,
  type MondayColumn,
  type MondayColumnType,
  type MondayItem,
  type RateLimitConfig,
  type RequestLogEntry,
  type StoredValue,
} from './state.js';

export * from './state.js';
export { MondayApiError } from './values.js';
export * from './automation-state.js';
export type { MondayAutomationEngine } from './automation-engine.js';
export type { MintJwtInput, MintSessionTokenInput } from './app-jwt.js';
import { mintSessionToken, type MintSessionTokenInput } from './app-jwt.js';
export { DEFAULT_RECIPE_ID, type ActionVerdict, type RunActionInput } from './action-runner.js';
export { RecipeSetupError, type CreateRecipeInput } from './recipes.js';
export {
  CouldNotLoadFieldsError,
  type FetchOptionsInput,
  type RemoteOption,
  type RemoteOptionsResult,
} from './remote-options.js';

export const DEFAULT_SIGNING_SECRET = 'monday-emulator-signing-secret';
export const DEFAULT_CLIENT_SECRET = 'monday-emulator-client-secret';
export const DEFAULT_APP_ID = 10155;

export interface AddColumnInput {
  id: string;
  type: MondayColumnType;
  /** default: the id */
  title?: string;
  /** status only: index → label map, or an array (array position = index). Default: Working on it / Done / Stuck. */
  labels?: Record<number, string> | string[];
}

export interface AddBoardInput {
  id?: string | number;
  accountId: number;
  name?: string;
  /** A `name` column (id "name") is prepended automatically when absent. */
  columns: AddColumnInput[];
}

export interface AddItemInput {
  id?: string | number;
  boardId: string | number;
  name: string;
  /**
   * Seed values keyed by column id, in the change_multiple_column_values entry format:
   * text: "Jane"; phone: {phone, countryShortName} or "+12025550169 US"; world_clock:
   * {timezone}; status: {label} | {index} | "Done". Validated like the real mutation
   * (phone validation is lenient for seeds unless `strictSeedValidation`); unknown status labels are created.
   */
  values?: Record<string, unknown>;
}

export interface ItemValueView {
  columnId: string;
  type: MondayColumnType;
  /** the stored value as the API's `value` would return it, already JSON-parsed (null when empty) */
  value: unknown;
  /** the raw `value` JSON text (null when empty) */
  valueJson: string | null;
  /** the API's `text` */
  text: string | null;
  /** status columns: current label (null when empty) */
  label?: string | null;
  stored: StoredValue | undefined;
}

export interface ItemSnapshot {
  id: string;
  name: string;
  boardId: string;
  values: Record<string, ItemValueView>;
}

export interface StartMondayEmulatorOptions extends MondayApiOptions {
  /** Clock (epoch ms). Default: Date.now() plus the offset moved by `advanceTime`. */
  now?: () => number;
  limits?: RateLimitConfig;
  /** Listen host (default 127.0.0.1) and port (default 0 = ephemeral). */
  host?: string;
  port?: number;
  /** Validate seeded phone numbers with libphonenumber too (default false). */
  strictSeedValidation?: boolean;
  /** Serve monday's OAuth endpoints (/oauth2/authorize, /oauth2/token) for this app client. */
  oauth?: MondayOAuthOptions;
  /** The app's Signing Secret: signs the JWTs sent to our app, checks the trigger JWTs we send. */
  signingSecret?: string;
  /** The app's Client Secret, here only to mint tokens our app must refuse. Default: `oauth.clientSecret`. */
  clientSecret?: string;
  /** Our numeric app id, expected in the trigger JWT payload `{ appId }`. */
  appId?: number;
  /** Action-run retries; default delays [20, 50, 100] ms, 60 s per attempt, 30 min window. */
  retry?: Partial<RetryPolicy>;
  /** Receiver: also accept the legacy raw Signing Secret as Authorization (default false). */
  acceptRawSecret?: boolean;
}

export interface MondayEmulator extends MondayAutomationEngine {
  /** e.g. `http://127.0.0.1:54321/v2` – pass as ApiClient `endpoint`. */
  url: string;
  /** `http://127.0.0.1:54321` */
  origin: string;
  state: EmulatorState;
  /** The Express app (GraphQL router mounted at `/`); extra routes may be added by other roles. */
  app: express.Express;
  /** The OAuth role (see ./oauth.ts); null unless `oauth` options were given. Its base URL is `origin`. */
  oauth: MondayOAuthEmulator | null;
  addBoard(input: AddBoardInput): MondayBoard;
  addItem(input: AddItemInput): MondayItem;
  /** A view's sessionToken (board view iframe ?sessionToken=), signed with the app's Client Secret. */
  mintSessionToken(input: MintSessionTokenInput): string;
  /** Opaque API token mapped to account/user; `ttlSeconds` null → never expires. */
  issueToken(accountId: number, userId: number, ttlSeconds?: number | null): string;
  revokeToken(token: string): void;
  /** Moves the default clock forward (no effect when a custom `now` was given). */
  advanceTime(ms: number): void;
  /** Answer the next `count` authenticated requests with a 429 (complexity budget) or 500. */
  failNext(kind: FaultKind, count?: number, opts?: { retryInSeconds?: number }): void;
  setLatency(ms: number): void;
  getItem(itemId: string | number): MondayItem | undefined;
  /** Read an item's stored values as the API would render them; throws for unknown items. */
  readItem(itemId: string | number): ItemSnapshot;
  readValue(itemId: string | number, columnId: string): ItemValueView;
  /** Request log (API-Version, query, variables, status, error codes). */
  readonly requests: RequestLogEntry[];
  close(): Promise<void>;
}

function normaliseLabels(labels: AddColumnInput['labels']): Record<number, string> {
  if (!labels) return { ...DEFAULT_STATUS_LABELS };
  if (Array.isArray(labels)) return Object.fromEntries(labels.map((l, i) => [i, l]));
  return { ...labels };
}

export async function startMondayEmulator(options: StartMondayEmulatorOptions = {}): Promise<MondayEmulator> {
  let offset = 0;
  const state = createEmulatorState({ now: options.now ?? (() => Date.now() + offset), limits: options.limits });
  const app = express();
  app.disable('x-powered-by');
  app.use(createMondayApi(state, options));
  const oauth = options.oauth ? createMondayOAuth(state, options.oauth) : null;
  if (oauth) app.use(oauth.router);

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, options.host ?? '127.0.0.1', (err?: Error) =>
      err ? reject(err) : resolve(s),
    );
  });
  const { address, port } = server.address() as AddressInfo;
  const origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const path = options.path ?? '/v2';
  const issueToken = (accountId: number, userId: number, ttlSeconds: number | null = 300) => {
    const token = `emu_slt_${randomBytes(18).toString('base64url')}`;
    state.tokens.set(token, {
      accountId,
      userId,
      expiresAt: ttlSeconds === null ? null : state.now() + ttlSeconds * 1000,
    });
    if (!state.accounts.has(accountId)) state.accounts.set(accountId, { id: accountId, name: `Account ${accountId}` });
    return token;
  };
  const clientSecret = options.clientSecret ?? options.oauth?.clientSecret ?? DEFAULT_CLIENT_SECRET;
  const appId = options.appId ?? DEFAULT_APP_ID;
  // Created once listening: the webhookUrls handed to our app need the origin.
  const automation = createAutomationRole({
    state,
    config: {
      signingSecret: options.signingSecret ?? DEFAULT_SIGNING_SECRET,
      clientSecret,
      appId,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      acceptRawSecret: options.acceptRawSecret ?? false,
      origin,
    },
    issueShortLivedToken: (accountId, userId) => issueToken(accountId, userId),
  });
  app.use(automation.router);

  const view = (item: MondayItem, column: MondayColumn): ItemValueView => {
    const stored = item.values[column.id];
    const valueJson = storedValueToJson(stored);
    const v: ItemValueView = {
      columnId: column.id,
      type: column.type,
      value: valueJson === null ? null : JSON.parse(valueJson),
      valueJson,
      text: storedValueToText(column, stored),
      stored,
    };
    if (column.type === 'status') v.label = stored?.type === 'status' ? (column.labels?.[stored.index] ?? null) : null;
    return v;
  };

  const base: Omit<MondayEmulator, keyof MondayAutomationEngine> = {
    url: `${origin}${path}`,
    origin,
    state,
    app,
    oauth: oauth?.oauth ?? null,
    addBoard(input) {
      const id = input.id === undefined ? nextId(state) : String(input.id);
      if (state.boards.has(id)) throw new Error(`board ${id} already exists`);
      if (!state.accounts.has(input.accountId)) {
        state.accounts.set(input.accountId, { id: input.accountId, name: `Account ${input.accountId}` });
      }
      const columns: MondayColumn[] = input.columns.map((c) => ({
        id: c.id,
        title: c.title ?? c.id,
        type: c.type,
        ...(c.type === 'status' ? { labels: normaliseLabels(c.labels) } : {}),
      }));
      if (!columns.some((c) => c.id === 'name')) columns.unshift({ id: 'name', title: 'Name', type: 'name' });
      const board: MondayBoard = { id, accountId: input.accountId, name: input.name ?? `Board ${id}`, columns };
      state.boards.set(id, board);
      return board;
    },
    addItem(input) {
      const board = state.boards.get(String(input.boardId));
      if (!board) throw new Error(`board ${input.boardId} does not exist`);
      const id = input.id === undefined ? nextId(state) : String(input.id);
      if (state.items.has(id)) throw new Error(`item ${id} already exists`);
      const item: MondayItem = { id, name: input.name, boardId: board.id, values: {} };
      if (input.values) {
        applyColumnWrites(board, item, Object.entries(input.values), 'multi', {
          createLabelsIfMissing: true,
          strictPhoneValidation: options.strictSeedValidation ?? false,
        });
      }
      state.items.set(id, item);
      return item;
    },
    issueToken,
    mintSessionToken: (input) => mintSessionToken({ clientSecret, nowMs: () => state.now(), appId }, input),
    revokeToken(token) {
      state.tokens.delete(token);
    },
    advanceTime(ms) {
      offset += ms;
    },
    failNext(kind, count = 1, opts = {}) {
      state.faults.push({ kind, count, retryInSeconds: opts.retryInSeconds });
    },
    setLatency(ms) {
      state.latencyMs = ms;
    },
    getItem(itemId) {
      return state.items.get(String(itemId));
    },
    readItem(itemId) {
      const item = state.items.get(String(itemId));
      if (!item) throw new Error(`item ${itemId} does not exist`);
      const board = state.boards.get(item.boardId);
      const values: Record<string, ItemValueView> = {};
      for (const c of board?.columns ?? []) if (c.type !== 'name') values[c.id] = view(item, c);
      return { id: item.id, name: item.name, boardId: item.boardId, values };
    },
    readValue(itemId, columnId) {
      const item = state.items.get(String(itemId));
      if (!item) throw new Error(`item ${itemId} does not exist`);
      const board = state.boards.get(item.boardId);
      const column = board?.columns.find((c) => c.id === columnId);
      if (!column) throw new Error(`column ${columnId} does not exist on board ${item.boardId}`);
      return view(item, column);
    },
    get requests() {
      return state.requests;
    },
    close() {
      automation.shutdown();
      return new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      });
    },
  };
  // Property descriptors, not a spread: the engine's `recipes` is a live getter.
  return Object.defineProperties(base, Object.getOwnPropertyDescriptors(automation.engine)) as MondayEmulator;
}
