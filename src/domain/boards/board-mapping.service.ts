// The Account's board mapping, read by the enroll action: one board per Account; choosing another
// board clears the mappings; every save is checked against the board's real columns through
// monday's API. Also the Account's call result → status label mapping (the set-status action).
import { Prisma, type BoardMapping } from '../../generated/prisma/client.js';
import { requireActor, type RequestContext } from '../context.js';
import { badRequest, DomainError, notFound } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import {
  mappingProblems,
  timezoneColumnTypeOf,
  type BoardColumn,
  type BoardColumnMapping,
  type ExtraField,
} from './board-mapping.rules.js';
import { SetBoardMappingSchema } from './board-mapping.inputs.js';
import { labelForResult, validateStatusLabelMapping, type StatusLabelMapping } from './status-labels.js';
import { CALL_RESULTS } from '../../calls/telephony/telephony.port.js';
import { linkedAccessToken } from '../monday/monday-link.service.js';

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

/** The board and its columns, read through the Account's monday link. */
export async function readBoard(
  ctx: RequestContext,
  boardId: string,
): Promise<{ id: string; name: string; columns: BoardColumn[] }> {
  const { accountId } = requireActor(ctx);
  if (!/^\d{1,20}$/.test(boardId)) throw badRequest('boardId must be a monday board id (digits)');
  if (!ctx.boards)
    throw badRequest('The monday board app is not configured on this service (set MONDAY_SIGNING_SECRET)');
  const accessTokenEncrypted = await linkedAccessToken(ctx, accountId);
  if (!accessTokenEncrypted) {
    throw badRequest('This Account is not linked to a monday account yet: install the board app from monday first');
  }
  const board = await ctx.boards.board({ accessTokenEncrypted }, boardId);
  if (!board) throw notFound(`monday board ${boardId} does not exist or the linked monday user cannot see it`);
  return board;
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
  if (!next.phoneColumnId) throw badRequest('input.phoneColumnId: the phone column is required when mapping a board');
  if (next.itemNameIsFullName && (next.firstNameColumnId || next.lastNameColumnId)) {
    throw badRequest('input: map either the item name as the full name, or first and last name columns, not both');
  }
  const board = await readBoard(ctx, change.boardId);
  const problems = mappingProblems(next, board.columns);
  if (problems.length > 0) {
    throw badRequest(`The mapping does not fit board "${board.name}": ${problems.join('; ')}`, {
      issues: problems.map((message) => ({ path: 'input', message })),
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
