// The Account's board mapping, read by the enroll action: one board per Account; choosing another
// board clears the mappings; every save is checked against the board's real columns through
// monday's API. Also the Account's call result → status label mapping (the set-status action).
import { Prisma, type BoardMapping } from '../../generated/prisma/client.js';
import { requireActor, type RequestContext } from '../context.js';
import { badRequest, DomainError, notFound } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import {
  mappingProblemsByField,
  timezoneColumnTypeOf,
  type BoardColumn,
  type BoardColumnMapping,
  type ExtraField,
} from './board-mapping.rules.js';
import { SetBoardMappingSchema } from './board-mapping.inputs.js';
import { labelForResult, validateStatusLabelMapping, type StatusLabelMapping } from './status-labels.js';
import { CALL_RESULTS } from '../../calls/telephony/telephony.port.js';
import { linkedAccessToken } from '../monday/monday-link.service.js';
import type { MondayBoardSummary } from '../context.js';
import { type BoardItemCallRow, recentCallsOfBoard } from '../monday/board-calls.store.js';

export function columnMappingOf(row: BoardMapping): BoardColumnMapping {
  return {
    firstNameColumnId: row.firstNameColumnId,
    lastNameColumnId: row.lastNameColumnId,
    itemNameIsFullName: row.itemNameIsFullName,
    phoneColumnId: row.phoneColumnId,
    timezoneColumnId: row.timezoneColumnId,
    extraFields: (row.extraFields ?? []) as unknown as ExtraField[],
  };
}

export async function getBoardMapping(ctx: RequestContext): Promise<BoardMapping | null> {
  const { accountId } = requireActor(ctx);
  return ctx.db.prisma.boardMapping.findUnique({ where: { accountId } });
}

/** The link's stored token (encrypted) and the board directory, or why the boards cannot be read. */
async function boardAccess(ctx: RequestContext) {
  const { accountId } = requireActor(ctx);
  if (!ctx.boards)
    throw badRequest('The monday board app is not configured on this service (set MONDAY_SIGNING_SECRET)');
  const accessTokenEncrypted = await linkedAccessToken(ctx, accountId);
  if (!accessTokenEncrypted) {
    throw badRequest('This Account is not linked to a monday account yet: install the board app from monday first');
  }
  return { boards: ctx.boards, link: { accessTokenEncrypted } };
}

/** The board and its columns, read through the Account's monday link. */
export async function readBoard(
  ctx: RequestContext,
  boardId: string,
): Promise<{ id: string; name: string; columns: BoardColumn[] }> {
  requireActor(ctx);
  if (!/^\d{1,20}$/.test(boardId)) throw badRequest('boardId must be a monday board id (digits)');
  const { boards, link } = await boardAccess(ctx);
  const board = await boards.board(link, boardId);
  if (!board) throw notFound(`monday board ${boardId} does not exist or the linked monday user cannot see it`);
  return board;
}

/** monday pages boards by number; 100 a page is monday's own ceiling. */
const BOARD_PAGE_LIMIT = { default: 50, max: 100 };

export interface MondayBoardList {
  data: MondayBoardSummary[];
  page: number;
  /** The next page's number; null when this page was not full (monday gives no total). */
  nextPage: number | null;
}

/** One page of the boards the linked monday user can see (to choose the board to map). */
export async function listBoards(
  ctx: RequestContext,
  input: { page?: number | null; limit?: number | null },
): Promise<MondayBoardList> {
  requireActor(ctx);
  const page = input.page ?? 1;
  const limit = input.limit ?? BOARD_PAGE_LIMIT.default;
  if (!Number.isSafeInteger(page) || page < 1) throw badRequest('page must be 1 or more');
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > BOARD_PAGE_LIMIT.max)
    throw badRequest(`limit must be 1 to ${BOARD_PAGE_LIMIT.max}`);
  const { boards, link } = await boardAccess(ctx);
  const data = await boards.boards(link, { page, limit });
  return { data, page, nextPage: data.length === limit ? page + 1 : null };
}

/** The newest calls of the mapped board's items (the contacts its enroll action linked). */
export async function recentBoardCalls(
  ctx: RequestContext,
  row: Pick<BoardMapping, 'accountId' | 'boardId'>,
  limit: number | null | undefined,
): Promise<BoardItemCallRow[]> {
  const take = limit ?? 20;
  if (!Number.isSafeInteger(take) || take < 1 || take > 100) throw badRequest('limit must be 1 to 100');
  return recentCallsOfBoard(ctx.db.prisma, row.accountId, row.boardId, take);
}

/**
 * Saves the mapping. On the mapped board, the fields sent change and the others stay; on
 * another board (or the first time) the previous mapping is cleared, status labels included
 * (they named the old board's labels), and the phone column is required.
 */
export async function setBoardMapping(ctx: RequestContext, input: unknown): Promise<BoardMapping> {
  const { accountId } = requireActor(ctx);
  const change = parseInput(SetBoardMappingSchema, input, 'input');
  const current = await ctx.db.prisma.boardMapping.findUnique({ where: { accountId } });
  const sameBoard = current?.boardId === change.boardId;
  const base: BoardColumnMapping =
    sameBoard && current
      ? columnMappingOf(current)
      : {
          firstNameColumnId: null,
          lastNameColumnId: null,
          itemNameIsFullName: false,
          phoneColumnId: '',
          timezoneColumnId: null,
          extraFields: [],
        };
  const next: BoardColumnMapping = {
    firstNameColumnId: change.firstNameColumnId !== undefined ? change.firstNameColumnId : base.firstNameColumnId,
    lastNameColumnId: change.lastNameColumnId !== undefined ? change.lastNameColumnId : base.lastNameColumnId,
    itemNameIsFullName: change.itemNameIsFullName ?? base.itemNameIsFullName,
    phoneColumnId: change.phoneColumnId ?? base.phoneColumnId,
    timezoneColumnId: change.timezoneColumnId !== undefined ? change.timezoneColumnId : base.timezoneColumnId,
    extraFields: change.extraFields ?? base.extraFields,
  };
  if (!next.phoneColumnId) {
    const message = 'the phone column is required when mapping a board';
    throw badRequest(`input.phoneColumnId: ${message}`, { issues: [{ path: 'input.phoneColumnId', message }] });
  }
  if (next.itemNameIsFullName && (next.firstNameColumnId || next.lastNameColumnId)) {
    const message = 'map either the item name as the full name, or first and last name columns, not both';
    throw badRequest(`input: ${message}`, { issues: [{ path: 'input.itemNameIsFullName', message }] });
  }
  const board = await readBoard(ctx, change.boardId);
  const problems = mappingProblemsByField(next, board.columns);
  if (problems.length > 0) {
    const messages = problems.map((problem) => problem.message);
    throw badRequest(`The mapping does not fit board "${board.name}": ${messages.join('; ')}`, {
      issues: problems.map((problem) => ({ path: `input.${problem.field}`, message: problem.message })),
    });
  }
  const data = {
    ...next,
    extraFields: next.extraFields as never,
    boardId: change.boardId,
    timezoneColumnType: timezoneColumnTypeOf(next, board.columns),
    updatedAt: ctx.clock.now(),
  };
  return ctx.db.prisma.boardMapping.upsert({
    where: { accountId },
    create: { accountId, ...data },
    update: sameBoard ? data : { ...data, statusLabels: Prisma.DbNull },
  });
}

export async function removeBoardMapping(ctx: RequestContext): Promise<boolean> {
  const { accountId } = requireActor(ctx);
  const { count } = await ctx.db.prisma.boardMapping.deleteMany({ where: { accountId } });
  return count > 0;
}

/** Replaces the Account's call result → label mapping (null: back to DEFAULT_STATUS_LABELS). */
export async function setStatusLabels(ctx: RequestContext, input: unknown): Promise<BoardMapping> {
  const { accountId } = requireActor(ctx);
  let mapping: StatusLabelMapping | null = null;
  if (input !== null && input !== undefined) {
    const checked = validateStatusLabelMapping(input);
    if (!checked.ok) throw badRequest(`mapping: ${checked.message}`);
    mapping = checked.mapping;
  }
  const current = await ctx.db.prisma.boardMapping.findUnique({ where: { accountId } });
  if (!current)
    throw new DomainError(
      'not_found',
      'Map a board first (setBoardMapping): the status labels belong to the mapped board',
    );
  return ctx.db.prisma.boardMapping.update({
    where: { accountId },
    data: { statusLabels: mapping ?? Prisma.DbNull, updatedAt: ctx.clock.now() },
  });
}

/** Every call result with the label it sets under the Account's mapping (null: unchanged). */
export function effectiveStatusLabels(row: Pick<BoardMapping, 'statusLabels'> | null): Record<string, string | null> {
  const mapping = (row?.statusLabels ?? null) as StatusLabelMapping | null;
  return Object.fromEntries(CALL_RESULTS.map((result) => [result, labelForResult(result, mapping)]));
}
