// The calls the board app makes to monday's GraphQL API, through the official
// client (@mondaydotcomorg/api) at the configured endpoint and pinned API version. Every failure
// becomes a MondayApiFailure with a kind the callers map to monday's action-failure answers:
// `unavailable` (rate limit, 5xx, network, a token monday no longer accepts) → retry later;
// `column_value`/`not_found` → this run failed; the rest → the configuration is broken.
import pkg from '@mondaydotcomorg/api';
import type { ApiClient as ApiClientType } from '@mondaydotcomorg/api';
import type { BoardColumn } from '../../src/domain/boards/board-mapping.rules.js';
import type { BoardItem, ItemColumnValue } from '../../src/domain/boards/board-item.rules.js';
import type { MondayConfig } from './config.js';

// The package's ESM build does not re-export its named classes reliably: go through the default.
const { ApiClient } = pkg as unknown as { ApiClient: typeof ApiClientType };

export type MondayApiFailureKind =
  | 'unavailable'
  | 'unauthorized'
  | 'column_value'
  | 'invalid_column'
  | 'not_found'
  | 'other';

export class MondayApiFailure extends Error {
  constructor(
    readonly kind: MondayApiFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'MondayApiFailure';
  }
}

export type { BoardItem, ItemColumnValue };

const READ_ITEM = `query ($itemIds: [ID!], $columnIds: [String!]) {
  items(ids: $itemIds) {
    id name
    board { id columns(ids: $columnIds) { id title type } }
    column_values(ids: $columnIds) {
      id type text value
      ... on PhoneValue { phone country_short_name }
      ... on WorldClockValue { timezone }
      ... on StatusValue { label }
    }
  }
}`;

// `settings` (JSON) replaced `settings_str` in API 2025-10; a status column's labels are in it.
const READ_BOARD = `query ($boardIds: [ID!]) { boards(ids: $boardIds) { id name columns { id title type settings } } }`;

const LIST_BOARDS = `query ($limit: Int, $page: Int) { boards(limit: $limit, page: $page) { id name } }`;

const CHANGE_COLUMN_VALUE = `mutation ($boardId: ID!, $itemId: ID!, $columnId: String!, $value: JSON!) {
  change_column_value(board_id: $boardId, item_id: $itemId, column_id: $columnId, value: $value) { id }
}`;

const ME = `query { me { id account { id } } }`;

export interface MondayApi {
  readItem(itemId: string, columnIds: string[]): Promise<BoardItem | null>;
  readBoard(boardId: string): Promise<{ id: string; name: string; columns: BoardColumn[] } | null>;
  /** One page of the boards the token's user can see (monday pages by number, from 1). */
  listBoards(limit: number, page: number): Promise<Array<{ id: string; name: string }>>;
  /** `value` is the JSON-encoded column value, as monday's change_column_value takes it. */
  changeColumnValue(boardId: string, itemId: string, columnId: string, value: string): Promise<void>;
  me(): Promise<{ userId: string; accountId: string }>;
}

/** A client acting with `token` (a request's shortLivedToken, or a linked account's OAuth token). */
export function mondayApi(config: Pick<MondayConfig, 'apiUrl' | 'apiVersion'>, token: string): MondayApi {
  const client = new ApiClient({ token, apiVersion: config.apiVersion, endpoint: config.apiUrl });
  const request = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    try {
      return await client.request<T>(query, variables, { timeoutMs: 20_000 });
    } catch (error) {
      throw asFailure(error);
    }
  };
  return {
    async readItem(itemId, columnIds) {
      const data = await request<{
        items: Array<{
          id: string;
          name: string;
          board: { id: string; columns: BoardColumn[] } | null;
          column_values: ItemColumnValue[];
        }> | null;
      }>(READ_ITEM, { itemIds: [itemId], columnIds });
      const item = data.items?.[0];
      if (!item?.board) return null;
      return {
        id: String(item.id),
        name: item.name,
        boardId: String(item.board.id),
        boardColumns: item.board.columns ?? [],
        values: new Map(item.column_values.map((v) => [v.id, v])),
      };
    },
    async readBoard(boardId) {
      const data = await request<{ boards: Array<{ id: string; name: string; columns: ColumnWithSettings[] }> | null }>(
        READ_BOARD,
        { boardIds: [boardId] },
      );
      const board = data.boards?.[0];
      return board ? { id: String(board.id), name: board.name, columns: (board.columns ?? []).map(columnOf) } : null;
    },
    async listBoards(limit, page) {
      const data = await request<{ boards: Array<{ id: string; name: string }> | null }>(LIST_BOARDS, { limit, page });
      return (data.boards ?? []).map((board) => ({ id: String(board.id), name: board.name }));
    },
    async changeColumnValue(boardId, itemId, columnId, value) {
      await request(CHANGE_COLUMN_VALUE, { boardId, itemId, columnId, value });
    },
    async me() {
      const data = await request<{ me: { id: string; account: { id: string } } }>(ME, {});
      return { userId: String(data.me.id), accountId: String(data.me.account.id) };
    },
  };
}

interface ColumnWithSettings {
  id: string;
  title: string;
  type: string;
  settings?: unknown;
}

interface StatusLabelSetting {
  label?: unknown;
  index?: unknown;
  is_deactivated?: unknown;
}

/** A column as the domain sees it: a status column with its active labels, in monday's order. */
function columnOf(column: ColumnWithSettings): BoardColumn {
  const base = { id: column.id, title: column.title, type: column.type };
  if (column.type !== 'status') return base;
  const settings = (typeof column.settings === 'string' ? safeJson(column.settings) : column.settings) as {
    labels?: StatusLabelSetting[];
  } | null;
  const labels = Array.isArray(settings?.labels) ? settings.labels : [];
  return {
    ...base,
    labels: labels
      .filter((l) => typeof l.label === 'string' && l.label !== '' && l.is_deactivated !== true)
      .sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0))
      .map((l) => l.label as string),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

interface ClientErrorLike {
  message?: string;
  response?: { status?: number; errors?: Array<{ message?: string; extensions?: Record<string, unknown> }> };
  name?: string;
}

/** graphql-request's ClientError (HTTP status + monday's errors[]) or a network failure → MondayApiFailure. */
function asFailure(error: unknown): MondayApiFailure {
  if (error instanceof MondayApiFailure) return error;
  const e = error as ClientErrorLike;
  const response = e?.response;
  if (!response)
    return new MondayApiFailure('unavailable', `monday's API did not answer (${e?.message ?? 'network error'})`);
  const first = response.errors?.[0];
  const code = String(first?.extensions?.code ?? '');
  const status = Number(first?.extensions?.status_code ?? response.status ?? 0);
  const message = first?.message ?? e.message ?? `HTTP ${response.status}`;
  if (status === 429 || /RATE|LIMIT|COMPLEXITY_BUDGET/i.test(code) || (response.status ?? 0) >= 500) {
    return new MondayApiFailure('unavailable', `monday's API is busy: ${message}`);
  }
  if (response.status === 401 || status === 401)
    return new MondayApiFailure('unauthorized', `monday refused the token: ${message}`);
  if (code === 'ColumnValueException') return new MondayApiFailure('column_value', message);
  if (code === 'InvalidColumnIdException') return new MondayApiFailure('invalid_column', message);
  if (code === 'InvalidBoardIdException' || code === 'InvalidItemIdException' || /not found/i.test(message))
    return new MondayApiFailure('not_found', message);
  return new MondayApiFailure('other', message);
}
