/**
 * monday GraphQL API emulator (`POST /v2`): the queries and column-value mutations the board
 * app calls, with monday's error shapes.
 *
 * `createMondayApi(state, options)` returns an Express router that can be mounted on any
 * Express app (the standalone server in ./index.ts mounts it at the root).
 */
import express, { type Request, type Response, type Router } from 'express';
import { buildSchema, graphql, type GraphQLError, Kind, parse, visit, type GraphQLFormattedError } from 'graphql';
import {
  getCounters,
  notifyColumnChanges,
  storedValueToJson,
  storedValueToText,
  type ColumnValueChange,
  type EmulatorState,
  type MondayBoard,
  type MondayColumn,
  type MondayItem,
  type MondayToken,
  type StoredValue,
} from './state.js';
import { MondayApiError, parseColumnWrite, type InputShape, type ParseContext, type ParsedWrite } from './values.js';

export interface MondayApiOptions {
  /** Route path of the GraphQL endpoint (default `/v2`). */
  path?: string;
  /** Validate phone numbers with libphonenumber against the country (default true). */
  strictPhoneValidation?: boolean;
  /** Max ids accepted by `items(ids)` (default 100). */
  maxItemIds?: number;
  /** Complexity cost of one request (default: 10 points per selected field + 1). */
  complexityOf?: (query: string, variables: Record<string, unknown> | undefined) => number;
}

export const MONDAY_SDL = /* GraphQL */ `
  scalar JSON

  enum ColumnType { name text phone world_clock status long_text numbers email }

  type Query {
    items(ids: [ID!], limit: Int, page: Int): [Item]
    boards(ids: [ID!], limit: Int, page: Int): [Board]
    complexity: Complexity
    me: User
  }

  type Mutation {
    change_simple_column_value(board_id: ID!, item_id: ID, column_id: String!, value: String, create_labels_if_missing: Boolean): Item
    change_column_value(board_id: ID!, item_id: ID, column_id: String!, value: JSON!, create_labels_if_missing: Boolean): Item
    change_multiple_column_values(board_id: ID!, item_id: ID, column_values: JSON!, create_labels_if_missing: Boolean): Item
    complexity: Complexity
  }

  type Complexity { query: Int! before: Int! after: Int! reset_in_x_seconds: Int! }

  type Account { id: ID! name: String! }
  type User { id: ID! account: Account! }

  type Board {
    id: ID!
    name: String!
    columns(ids: [String]): [Column]
  }

  type Column {
    id: ID!
    title: String!
    type: ColumnType!
    settings_str: String!
    settings: JSON
  }

  type Item {
    id: ID!
    name: String!
    board: Board
    column_values(ids: [String!]): [ColumnValue!]!
  }

  interface ColumnValue { id: ID! type: ColumnType! text: String value: JSON column: Column! }

  type TextValue implements ColumnValue { id: ID! type: ColumnType! text: String value: JSON column: Column! }
  type LongTextValue implements ColumnValue { id: ID! type: ColumnType! text: String value: JSON column: Column! }
  type NumbersValue implements ColumnValue { id: ID! type: ColumnType! text: String value: JSON column: Column! number: Float }
  type EmailValue implements ColumnValue { id: ID! type: ColumnType! text: String value: JSON column: Column! email: String }
  type PhoneValue implements ColumnValue {
    id: ID! type: ColumnType! text: String value: JSON column: Column!
    phone: String
    country_short_name: String
  }
  type WorldClockValue implements ColumnValue { id: ID! type: ColumnType! text: String value: JSON column: Column! timezone: String }
  type StatusValue implements ColumnValue {
    id: ID! type: ColumnType! text: String value: JSON column: Column!
    label: String
    index: Int
    is_done: Boolean
  }
`;

const schema = buildSchema(MONDAY_SDL);

const TYPENAME: Record<string, string> = {
  text: 'TextValue',
  long_text: 'LongTextValue',
  numbers: 'NumbersValue',
  email: 'EmailValue',
  phone: 'PhoneValue',
  world_clock: 'WorldClockValue',
  status: 'StatusValue',
};

interface RequestContext {
  state: EmulatorState;
  token: MondayToken;
  options: Required<Omit<MondayApiOptions, 'complexityOf'>>;
  complexity: { query: number; before: number; after: number; reset_in_x_seconds: number };
}

// ---------------------------------------------------------------------------------------------
// Presenters (objects handed to graphql's default resolvers)

function presentColumn(column: MondayColumn) {
  return {
    id: column.id,
    title: column.title,
    type: column.type,
    settings_str: JSON.stringify(column.type === 'status' ? { labels: column.labels ?? {} } : {}),
    // API 2025-10 and later: the settings as JSON; a status column's labels as a list (monday's docs).
    settings: column.type === 'status' ? { labels: statusLabelSettings(column) } : {},
  };
}

/** A status column's labels as `settings.labels` lists them: id, label, index (display order), flags. */
function statusLabelSettings(column: MondayColumn) {
  return Object.entries(column.labels ?? {}).map(([index, label], position) => ({
    id: Number(index),
    color: Number(index),
    label,
    index: position,
    is_done: label === 'Done',
    is_deactivated: false,
  }));
}

function presentBoard(board: MondayBoard) {
  return {
    id: board.id,
    name: board.name,
    columns: ({ ids }: { ids?: (string | null)[] | null }) =>
      board.columns.filter((c) => !ids || ids.includes(c.id)).map(presentColumn),
  };
}

function presentColumnValue(column: MondayColumn, stored: StoredValue | undefined) {
  const base = {
    __typename: TYPENAME[column.type],
    id: column.id,
    type: column.type,
    text: storedValueToText(column, stored),
    value: storedValueToJson(stored),
    column: presentColumn(column),
  };
  switch (column.type) {
    case 'phone':
      return {
        ...base,
        phone: stored?.type === 'phone' ? stored.phone : null,
        country_short_name: stored?.type === 'phone' ? stored.countryShortName : null,
      };
    case 'world_clock':
      return { ...base, timezone: stored?.type === 'world_clock' ? stored.timezone : null };
    case 'status': {
      const index = stored?.type === 'status' ? stored.index : null;
      return {
        ...base,
        index,
        label: index === null ? null : (column.labels?.[index] ?? null),
        is_done: index === null ? false : column.labels?.[index] === 'Done',
      };
    }
    case 'numbers':
      return { ...base, number: stored?.type === 'numbers' ? Number(stored.number) : null };
    case 'email':
      return { ...base, email: stored?.type === 'email' ? stored.email : null };
    default:
      return base;
  }
}

function presentItem(state: EmulatorState, item: MondayItem) {
  const board = state.boards.get(item.boardId);
  return {
    id: item.id,
    name: item.name,
    board: board ? presentBoard(board) : null,
    column_values: ({ ids }: { ids?: string[] | null }) => {
      if (!board) return [];
      // The name column is not readable through column_values (read `items { name }`).
      const cols = board.columns.filter((c) => c.type !== 'name' && (!ids || ids.includes(c.id)));
      return cols.map((c) => presentColumnValue(c, item.values[c.id]));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Resolvers

function boardForWrite(ctx: RequestContext, boardId: string): MondayBoard {
  const board = ctx.state.boards.get(String(boardId));
  if (!board || board.accountId !== ctx.token.accountId) {
    throw new MondayApiError(`Board not found (board_id: ${boardId})`, 'InvalidBoardIdException', 200, {
      board_id: String(boardId),
    });
  }
  return board;
}

function itemForWrite(ctx: RequestContext, board: MondayBoard, itemId: string | null | undefined): MondayItem {
  const item = itemId == null ? undefined : ctx.state.items.get(String(itemId));
  if (!item || item.boardId !== board.id) {
    throw new MondayApiError(`Item not found in board (item_id: ${itemId})`, 'ResourceNotFoundException', 404, {
      item_id: itemId == null ? null : String(itemId),
      board_id: board.id,
    });
  }
  return item;
}

function columnForWrite(board: MondayBoard, columnId: string): MondayColumn {
  const column = board.columns.find((c) => c.id === columnId);
  if (!column) {
    throw new MondayApiError(
      `This column ID doesn't exist for the board (column_id: ${columnId})`,
      'InvalidColumnIdException',
      200,
      { column_id: columnId, board_id: board.id },
    );
  }
  return column;
}

function decodeJsonArg(raw: unknown, argName: string): unknown {
  if (typeof raw !== 'string') return raw; // already an object (inline literal or object variable)
  try {
    return JSON.parse(raw);
  } catch {
    throw new MondayApiError(`Invalid JSON in argument ${argName}`, 'JsonParseException', 400, { argument: argName });
  }
}

function newParseContext(ctx: RequestContext, createLabels: boolean | null | undefined): ParseContext {
  return {
    createLabelsIfMissing: createLabels === true,
    labelDrafts: new Map(),
    strictPhoneValidation: ctx.options.strictPhoneValidation,
  };
}

/** Applies validated writes atomically (labels first, then values); returns what changed. */
function commitWrites(
  board: MondayBoard,
  item: MondayItem,
  writes: [MondayColumn, ParsedWrite][],
  pc: ParseContext,
): ColumnValueChange[] {
  for (const [columnId, labels] of pc.labelDrafts) {
    const column = board.columns.find((c) => c.id === columnId);
    if (column) column.labels = labels;
  }
  const changes: ColumnValueChange[] = [];
  for (const [column, w] of writes) {
    const previous = item.values[column.id];
    if (w.kind === 'name') item.name = w.name;
    else if (w.kind === 'clear') delete item.values[column.id];
    else item.values[column.id] = w.value;
    changes.push({ board, item, column, previous, current: item.values[column.id] });
  }
  return changes;
}

/** Validates and applies writes outside a request (used for seeding); throws MondayApiError. */
export function applyColumnWrites(
  board: MondayBoard,
  item: MondayItem,
  entries: [string, unknown][],
  shape: InputShape,
  opts: { createLabelsIfMissing?: boolean; strictPhoneValidation?: boolean } = {},
): void {
  const pc: ParseContext = {
    createLabelsIfMissing: opts.createLabelsIfMissing === true,
    labelDrafts: new Map(),
    strictPhoneValidation: opts.strictPhoneValidation ?? true,
  };
  const writes: [MondayColumn, ParsedWrite][] = entries.map(([columnId, raw]) => {
    const column = columnForWrite(board, columnId);
    return [column, parseColumnWrite(column, raw, shape, pc)];
  });
  commitWrites(board, item, writes, pc);
}

type ItemsArgs = { ids?: string[] | null; limit?: number | null; page?: number | null };

function makeRoot(ctx: RequestContext) {
  const { state, token } = ctx;
  const ownBoard = (id: string) => {
    const b = state.boards.get(String(id));
    return b && b.accountId === token.accountId ? b : undefined;
  };
  const writeSingle = (
    args: { board_id: string; item_id?: string | null; column_id: string; create_labels_if_missing?: boolean | null },
    raw: unknown,
    shape: InputShape,
  ) => {
    const board = boardForWrite(ctx, args.board_id);
    const item = itemForWrite(ctx, board, args.item_id);
    const column = columnForWrite(board, args.column_id);
    const pc = newParseContext(ctx, args.create_labels_if_missing);
    const w = parseColumnWrite(column, raw, shape, pc);
    notifyColumnChanges(state, commitWrites(board, item, [[column, w]], pc));
    return presentItem(state, item);
  };

  return {
    complexity: () => ctx.complexity,
    me: () => ({
      id: String(token.userId),
      account: { id: String(token.accountId), name: state.accounts.get(token.accountId)?.name ?? '' },
    }),
    items: ({ ids, limit, page }: ItemsArgs) => {
      if (ids && ids.length > ctx.options.maxItemIds) {
        throw new MondayApiError(
          `Exceeded the maximum number of item ids per query (${ctx.options.maxItemIds}); got ${ids.length}`,
          'ItemsLimitationException',
          200,
          { max_ids: ctx.options.maxItemIds, requested: ids.length },
        );
      }
      let items: MondayItem[];
      if (ids) {
        items = [...new Set(ids.map(String))]
          .map((id) => state.items.get(id))
          .filter((i): i is MondayItem => !!i && !!ownBoard(i.boardId));
      } else {
        const lim = Math.min(limit ?? 25, ctx.options.maxItemIds);
        const p = Math.max(page ?? 1, 1);
        items = [...state.items.values()].filter((i) => ownBoard(i.boardId)).slice((p - 1) * lim, p * lim);
      }
      return items.map((i) => presentItem(state, i));
    },
    boards: ({ ids, limit, page }: ItemsArgs) => {
      let boards: MondayBoard[];
      if (ids) {
        boards = [...new Set(ids.map(String))].map((id) => ownBoard(id)).filter((b): b is MondayBoard => !!b);
      } else {
        const lim = limit ?? 25;
        const p = Math.max(page ?? 1, 1);
        boards = [...state.boards.values()]
          .filter((b) => b.accountId === token.accountId)
          .slice((p - 1) * lim, p * lim);
      }
      return boards.map(presentBoard);
    },
    change_simple_column_value: (args: {
      board_id: string;
      item_id?: string | null;
      column_id: string;
      value?: string | null;
      create_labels_if_missing?: boolean | null;
    }) => writeSingle(args, args.value ?? null, 'simple'),
    change_column_value: (args: {
      board_id: string;
      item_id?: string | null;
      column_id: string;
      value: unknown;
      create_labels_if_missing?: boolean | null;
    }) => writeSingle(args, decodeJsonArg(args.value, 'value'), 'json'),
    change_multiple_column_values: (args: {
      board_id: string;
      item_id?: string | null;
      column_values: unknown;
      create_labels_if_missing?: boolean | null;
    }) => {
      const board = boardForWrite(ctx, args.board_id);
      const item = itemForWrite(ctx, board, args.item_id);
      const decoded = decodeJsonArg(args.column_values, 'column_values');
      if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
        throw new MondayApiError(
          'column_values must be a JSON object keyed by column id',
          'ColumnValueException',
          200,
          {},
        );
      }
      const pc = newParseContext(ctx, args.create_labels_if_missing);
      const writes: [MondayColumn, ParsedWrite][] = Object.entries(decoded).map(([columnId, raw]) => {
        const column = columnForWrite(board, columnId);
        return [column, parseColumnWrite(column, raw, 'multi', pc)];
      });
      notifyColumnChanges(state, commitWrites(board, item, writes, pc));
      return presentItem(state, item);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Transport: auth, faults, limits, headers

const DEFAULT_QUOTA = { minute: 5000, concurrency: 250, complexity: 10_000_000 };

function defaultComplexityOf(query: string): number {
  let fields = 0;
  try {
    visit(parse(query), {
      [Kind.FIELD]() {
        fields += 1;
      },
    });
  } catch {
    return 0;
  }
  return fields * 10 + 1;
}

function rateLimitHeaders(state: EmulatorState, res: Response, accountId: number | null) {
  const now = state.now();
  const minuteQ = state.limits.requestsPerMinute || DEFAULT_QUOTA.minute;
  const concQ = state.limits.concurrency || DEFAULT_QUOTA.concurrency;
  const cxQ = state.limits.complexityPerMinute || DEFAULT_QUOTA.complexity;
  let minuteR = minuteQ;
  let minuteT = 60;
  let concR = concQ;
  let cxR = cxQ;
  let cxT = 60;
  if (accountId !== null) {
    const c = getCounters(state, accountId);
    minuteR = Math.max(0, minuteQ - c.minuteWindow.length);
    minuteT = c.minuteWindow.length ? Math.max(0, Math.ceil((c.minuteWindow[0] + 60_000 - now) / 1000)) : 60;
    concR = Math.max(0, concQ - c.inFlight);
    cxR = Math.max(0, cxQ - c.complexityUsed);
    cxT = Math.max(0, Math.ceil((c.complexityWindowStart + 60_000 - now) / 1000));
  }
  res.setHeader(
    'RateLimit-Policy',
    `"minuteRate";q=${minuteQ};w=60, "concurrency";q=${concQ}, "complexityMinute";q=${cxQ};w=60`,
  );
  res.setHeader(
    'RateLimit',
    `"minuteRate";r=${minuteR};t=${minuteT}, "concurrency";r=${concR}, "complexityMinute";r=${cxR};t=${cxT}`,
  );
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

function utcDay(ms: number) {
  return new Date(ms).toISOString().slice(0, 10);
}

let requestSeq = 0;

export function createMondayApi(state: EmulatorState, options: MondayApiOptions = {}): Router {
  const opts = {
    path: options.path ?? '/v2',
    strictPhoneValidation: options.strictPhoneValidation ?? true,
    maxItemIds: options.maxItemIds ?? 100,
  };
  const complexityOf = options.complexityOf ?? ((q: string) => defaultComplexityOf(q));
  const router = express.Router();

  router.post(opts.path, express.json({ limit: '10mb' }), async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    const query = typeof body.query === 'string' ? body.query : '';
    const variables =
      body.variables && typeof body.variables === 'object' ? (body.variables as Record<string, unknown>) : undefined;
    const authorization = req.get('authorization') ?? null;
    const requestId = `emu-${++requestSeq}`;
    const entry = {
      at: state.now(),
      apiVersion: req.get('api-version') ?? null,
      authorization,
      query,
      variables,
      operationName: typeof body.operationName === 'string' ? body.operationName : null,
      status: 0,
      errorCodes: [] as string[],
    };
    state.requests.push(entry);

    const send = (
      status: number,
      payload: Record<string, unknown>,
      accountId: number | null,
      headers: Record<string, string> = {},
    ) => {
      entry.status = status;
      const errs = (payload.errors as { extensions?: { code?: unknown } }[] | undefined) ?? [];
      entry.errorCodes = errs.map((e) => String(e.extensions?.code ?? ''));
      rateLimitHeaders(state, res, accountId);
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      res.status(status).json(payload);
    };

    // --- auth
    const raw = authorization?.replace(/^Bearer\s+/i, '').trim() ?? '';
    const token = raw ? state.tokens.get(raw) : undefined;
    if (!token || (token.expiresAt !== null && token.expiresAt <= state.now())) {
      const expired = !!token;
      if (state.latencyMs > 0) await sleep(state.latencyMs);
      send(
        401,
        {
          errors: [
            {
              message: expired ? 'Not Authenticated: token expired' : 'Not Authenticated',
              extensions: {
                code: 'UNAUTHENTICATED',
                status_code: 401,
                error_data: { reason: expired ? 'expired' : 'invalid' },
                request_id: requestId,
              },
            },
          ],
          error_message: 'Not Authenticated',
          status_code: 401,
        },
        null,
      );
      return;
    }
    const accountId = token.accountId;
    const counters = getCounters(state, accountId);
    const now = state.now();

    // --- counters (failed calls count too)
    counters.minuteWindow = counters.minuteWindow.filter((t) => t > now - 60_000);
    counters.minuteWindow.push(now);
    if (counters.complexityWindowStart + 60_000 <= now) {
      counters.complexityWindowStart = now;
      counters.complexityUsed = 0;
    }
    const day = utcDay(now);
    if (counters.dailyDay !== day) {
      counters.dailyDay = day;
      counters.dailyCount = 0;
    }
    counters.dailyCount += 1;

    const tooMany = (code: string, message: string, retryIn: number, extra: Record<string, unknown> = {}) =>
      send(
        429,
        {
          errors: [
            {
              message,
              extensions: { code, status_code: 429, retry_in_seconds: retryIn, ...extra, request_id: requestId },
            },
          ],
          account_id: accountId,
        },
        accountId,
        { 'Retry-After': String(retryIn) },
      );

    // --- concurrency is judged on arrival; the artificial latency keeps the request in flight
    const lim = state.limits;
    const overConcurrency = !!lim.concurrency && counters.inFlight >= lim.concurrency;
    counters.inFlight += 1;
    try {
      if (state.latencyMs > 0) await sleep(state.latencyMs);

      // --- injected faults
      const fault = state.faults.find((f) => f.count > 0);
      if (fault) {
        fault.count -= 1;
        state.faults = state.faults.filter((f) => f.count > 0);
        if (fault.kind === '429') {
          const retryIn = fault.retryInSeconds ?? 60;
          const limit = state.limits.complexityPerMinute || DEFAULT_QUOTA.complexity;
          tooMany('COMPLEXITY_BUDGET_EXHAUSTED', 'Complexity budget exhausted', retryIn, {
            complexity: complexityOf(query, variables),
            complexity_budget_left: Math.max(0, limit - counters.complexityUsed),
            complexity_budget_limit: limit,
          });
        } else {
          send(500, { error_message: 'Internal server error', status_code: 500 }, accountId);
        }
        return;
      }

      // --- configured limits
      if (lim.daily && counters.dailyCount > lim.daily) {
        const tomorrow = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
        tooMany('DAILY_LIMIT_EXCEEDED', 'Daily limit exceeded', Math.ceil((tomorrow - now) / 1000));
        return;
      }
      if (lim.requestsPerMinute && counters.minuteWindow.length > lim.requestsPerMinute) {
        tooMany(
          'RATE_LIMIT_EXCEEDED',
          'Minute limit rate exceeded',
          Math.max(1, Math.ceil((counters.minuteWindow[0] + 60_000 - now) / 1000)),
        );
        return;
      }
      if (overConcurrency) {
        tooMany('maxConcurrencyExceeded', 'Concurrency limit exceeded', 1);
        return;
      }
      const cost = complexityOf(query, variables);
      const budget = lim.complexityPerMinute || DEFAULT_QUOTA.complexity;
      const resetIn = Math.max(0, Math.ceil((counters.complexityWindowStart + 60_000 - now) / 1000));
      if (counters.complexityUsed + cost > budget) {
        tooMany('COMPLEXITY_BUDGET_EXHAUSTED', 'Complexity budget exhausted', resetIn, {
          complexity: cost,
          complexity_budget_left: budget - counters.complexityUsed,
          complexity_budget_limit: budget,
        });
        return;
      }
      const before = budget - counters.complexityUsed;
      counters.complexityUsed += cost;

      // --- execute
      const ctx: RequestContext = {
        state,
        token,
        options: opts,
        complexity: { query: cost, before, after: before - cost, reset_in_x_seconds: resetIn },
      };
      const result = await graphql({
        schema,
        source: query,
        rootValue: makeRoot(ctx),
        contextValue: ctx,
        variableValues: variables,
        operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
      });
      const payload: Record<string, unknown> = {};
      if (result.data !== undefined) payload.data = result.data;
      if (result.errors?.length) payload.errors = result.errors.map((e) => formatError(e, requestId));
      payload.account_id = accountId;
      send(200, payload, accountId);
    } finally {
      counters.inFlight -= 1;
    }
  });

  return router;
}

function formatError(e: GraphQLError, requestId: string): GraphQLFormattedError {
  const f = e.toJSON();
  const orig = e.originalError;
  if (orig instanceof MondayApiError) {
    return {
      ...f,
      message: orig.message,
      extensions: { code: orig.code, status_code: orig.statusCode, error_data: orig.errorData, request_id: requestId },
    };
  }
  if (orig) {
    return {
      ...f,
      extensions: { code: 'INTERNAL_SERVER_ERROR', status_code: 500, error_data: {}, request_id: requestId },
    };
  }
  // parse / validation / variable coercion errors
  return {
    ...f,
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status_code: 400, error_data: {}, request_id: requestId },
  };
}
