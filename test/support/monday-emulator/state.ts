/**
 * In-memory state of the monday GraphQL API emulator.
 *
 * Everything a test may want to seed or assert lives here: accounts, boards and their
 * columns, items with per-type stored values, API tokens (short-lived or not), an injectable
 * clock, a request log, fault injection and rate-limit counters.
 */

export type MondayColumnType = 'name' | 'text' | 'phone' | 'world_clock' | 'status' | 'long_text' | 'numbers' | 'email';

export interface MondayColumn {
  id: string;
  title: string;
  type: MondayColumnType;
  /** status columns only: label index → label text. */
  labels?: Record<number, string>;
}

export interface MondayBoard {
  id: string;
  accountId: number;
  name: string;
  columns: MondayColumn[];
}

/** Canonical stored value per column type (this is what `value` serialises to). */
export type StoredValue =
  | { type: 'text'; text: string }
  | { type: 'long_text'; text: string }
  | { type: 'numbers'; number: string }
  | { type: 'email'; email: string; text: string }
  | { type: 'phone'; phone: string; countryShortName: string }
  | { type: 'world_clock'; timezone: string }
  | { type: 'status'; index: number };

export interface MondayItem {
  id: string;
  name: string;
  boardId: string;
  /** columnId → stored value; a missing key means the column is empty. */
  values: Record<string, StoredValue>;
}

export interface MondayToken {
  accountId: number;
  userId: number;
  /** epoch ms; `null` = never expires (e.g. a personal/OAuth token). */
  expiresAt: number | null;
}

export interface MondayAccount {
  id: number;
  name: string;
}

export interface RequestLogEntry {
  at: number;
  /** raw `API-Version` header, or null when absent. */
  apiVersion: string | null;
  /** raw `Authorization` header (as sent). */
  authorization: string | null;
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | null;
  /** HTTP status the emulator answered with. */
  status: number;
  /** GraphQL error codes returned (extensions.code), if any. */
  errorCodes: string[];
}

export type FaultKind = '429' | '500';

export interface FaultPlan {
  /** Answer the next `count` requests with this fault (decremented as it fires). */
  kind: FaultKind;
  count: number;
  /** 429 only: `retry_in_seconds` and `Retry-After` (default 60). */
  retryInSeconds?: number;
}

export interface RateLimitConfig {
  /** requests per sliding 60 s window per account (0/undefined = unlimited; reported as 5000). */
  requestsPerMinute?: number;
  /** complexity points per 60 s window per account (default 10,000,000). */
  complexityPerMinute?: number;
  /** concurrent in-flight requests per account (0/undefined = unlimited; reported as 250). */
  concurrency?: number;
  /** daily calls per account, reset at 00:00 UTC by the emulator clock (0/undefined = unlimited). */
  daily?: number;
}

export interface EmulatorState {
  accounts: Map<number, MondayAccount>;
  boards: Map<string, MondayBoard>;
  items: Map<string, MondayItem>;
  tokens: Map<string, MondayToken>;
  /** Injectable clock (epoch ms). Replace `state.now` or use `advance()` helpers. */
  now: () => number;
  requests: RequestLogEntry[];
  /** Pending fault plans; the first entry with count > 0 fires. */
  faults: FaultPlan[];
  /** Artificial latency added to every request (ms). */
  latencyMs: number;
  limits: RateLimitConfig;
  /** Internal counters (per account). */
  counters: Map<number, AccountCounters>;
  nextId: number;
  /** Told after every successful write mutation (the automation engine listens for status changes). */
  columnChangeListeners: ColumnChangeListener[];
}

/** One column of one item written by an API mutation (what monday's own automations react to). */
export interface ColumnValueChange {
  board: MondayBoard;
  item: MondayItem;
  column: MondayColumn;
  /** undefined = the column was empty */
  previous: StoredValue | undefined;
  current: StoredValue | undefined;
}

export type ColumnChangeListener = (changes: ColumnValueChange[]) => void;

export interface AccountCounters {
  /** request timestamps within the last minute. */
  minuteWindow: number[];
  complexityWindowStart: number;
  complexityUsed: number;
  inFlight: number;
  dailyDay: string;
  dailyCount: number;
}

export const DEFAULT_STATUS_LABELS: Readonly<Record<number, string>> = Object.freeze({
  0: 'Working on it',
  1: 'Done',
  2: 'Stuck',
});

export function createEmulatorState(opts: { now?: () => number; limits?: RateLimitConfig } = {}): EmulatorState {
  return {
    accounts: new Map(),
    boards: new Map(),
    items: new Map(),
    tokens: new Map(),
    now: opts.now ?? (() => Date.now()),
    requests: [],
    faults: [],
    latencyMs: 0,
    limits: { ...(opts.limits ?? {}) },
    counters: new Map(),
    nextId: 1_000_000_001,
    columnChangeListeners: [],
  };
}

export function nextId(state: EmulatorState): string {
  const id = state.nextId;
  state.nextId += 1;
  return String(id);
}

/** Tells the listeners; a failing listener must not fail the mutation that caused the change. */
export function notifyColumnChanges(state: EmulatorState, changes: ColumnValueChange[]): void {
  if (changes.length === 0) return;
  for (const listener of state.columnChangeListeners) {
    try {
      listener(changes);
    } catch (error) {
      console.error('monday emulator: column change listener failed', error);
    }
  }
}

export function getCounters(state: EmulatorState, accountId: number): AccountCounters {
  let c = state.counters.get(accountId);
  if (!c) {
    c = {
      minuteWindow: [],
      complexityWindowStart: state.now(),
      complexityUsed: 0,
      inFlight: 0,
      dailyDay: '',
      dailyCount: 0,
    };
    state.counters.set(accountId, c);
  }
  return c;
}

/** Converts a stored value into the API's `value` (JSON text). */
export function storedValueToJson(v: StoredValue | undefined): string | null {
  if (!v) return null;
  switch (v.type) {
    case 'text':
      return JSON.stringify(v.text);
    case 'long_text':
      return JSON.stringify({ text: v.text });
    case 'numbers':
      return JSON.stringify(v.number);
    case 'email':
      return JSON.stringify({ email: v.email, text: v.text });
    case 'phone':
      return JSON.stringify({ phone: v.phone, countryShortName: v.countryShortName });
    case 'world_clock':
      return JSON.stringify({ timezone: v.timezone });
    case 'status':
      return JSON.stringify({ index: v.index });
  }
}

/** Display text (`text` field) for a stored value. Empty status → null, other empty → "". */
export function storedValueToText(column: MondayColumn, v: StoredValue | undefined): string | null {
  if (!v) return column.type === 'status' ? null : '';
  switch (v.type) {
    case 'text':
    case 'long_text':
      return v.text;
    case 'numbers':
      return v.number;
    case 'email':
      return v.email;
    case 'phone':
      return v.phone;
    case 'world_clock':
      return v.timezone;
    case 'status':
      return column.labels?.[v.index] ?? null;
  }
}
