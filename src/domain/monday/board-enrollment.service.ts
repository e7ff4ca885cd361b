// The board app's enroll action, in two steps around monday's item read: first the workflow
// must take enrollments (the rule every enrollment follows, resolveEnrollmentTarget), a board
// must be mapped and the run must be on it, which tells the app the columns to read; then the
// item must be on the mapped board, the mapping must fit the board's columns as they are now,
// and the item must have a phone. The contact is upserted (sourceKind monday, externalId the
// item id) and enrolled by the API's own upsert, which writes the item link in its transaction.
// Each refusal carries its reason (FAILURE_REASONS), from which the app answers monday.
import type { BoardMapping } from '../../generated/prisma/client.js';
import { requireBoardApp, type RequestContext } from '../context.js';
import { failureFor } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { resolveEnrollmentTarget } from '../workflows/workflows.service.js';
import { upsertContact } from '../contacts/contacts.service.js';
import { columnMappingOf } from '../boards/board-mapping.service.js';
import { mappedColumnIds, mappingProblems, timezoneColumnTypeOf } from '../boards/board-mapping.rules.js';
import { itemContact, type ItemColumnValue } from '../boards/board-item.rules.js';
import { EnrollBoardItemSchema } from './board-enrollment.inputs.js';
import { linkContactToItem } from './item-links.store.js';

/** What to read of the run's item: the mapped columns, and whether the item name is one. */
export interface BoardItemFields {
  columnIds: string[];
  itemName: boolean;
}

export interface BoardEnrollment {
  contactId: string;
  workflowId: string;
  created: boolean;
}

/**
 * Before the item is read: the workflow takes enrollments, the Account maps a board, and the run
 * (when it names its board) is on it. Answers which of the item's fields to read.
 */
export async function boardEnrollmentTarget(
  ctx: RequestContext,
  workflowId: string,
  boardId: string | null,
): Promise<BoardItemFields> {
  const { accountId } = requireBoardApp(ctx);
  await resolveEnrollmentTarget(ctx, accountId, { workflowId });
  const row = await mappedBoard(ctx, accountId, boardId);
  const mapping = columnMappingOf(row);
  return { columnIds: mappedColumnIds(mapping), itemName: mapping.itemNameIsFullName };
}

/** Upserts and enrolls the item's contact, linked to the item, once the item fits the mapping. */
export async function enrollBoardItem(ctx: RequestContext, input: unknown): Promise<BoardEnrollment> {
  const { accountId } = requireBoardApp(ctx);
  const { workflowId, item } = parseInput(EnrollBoardItemSchema, input, 'input');
  // Read again: the item's own board is checked too, whatever the run claimed.
  const mapping = columnMappingOf(await mappedBoard(ctx, accountId, item.boardId));
  // The mapping is checked again against the board as it is now (a column may be gone).
  const problems = mappingProblems(mapping, item.columns);
  if (problems.length > 0) {
    throw failureFor(
      'mapping_out_of_date',
      `The board's columns changed: ${problems.join('; ')}. ` +
        'Update the mapping in Contactline, then turn the automation back on.',
    );
  }
  const values = new Map(
    Object.entries(item.values).map(([id, value]): [string, ItemColumnValue] => [
      id,
      { id, type: '', ...value, text: value.text ?? null, value: value.value ?? null },
    ]),
  );
  const boardItem = { id: item.id, name: item.name ?? '', boardId: item.boardId, boardColumns: item.columns, values };
  const built = itemContact(boardItem, mapping, timezoneColumnTypeOf(mapping, item.columns));
  if (!built.ok) throw failureFor(built.reason === 'missing_phone' ? 'phone_missing' : 'phone_invalid', built.message);
  const { contact, created } = await upsertContact(
    ctx,
    { ...built.contact, sourceKind: 'monday', externalId: item.id, assignmentOptions: { workflowId } },
    (tx, written, now) =>
      linkContactToItem(tx, { contactId: written.id, accountId, boardId: item.boardId, itemId: item.id }, now),
  );
  return { contactId: contact.id, workflowId, created };
}

/** The Account's mapping, when a board is mapped and `boardId` (if known) is that board. */
async function mappedBoard(ctx: RequestContext, accountId: string, boardId: string | null): Promise<BoardMapping> {
  const row = await ctx.db.prisma.boardMapping.findUnique({ where: { accountId } });
  if (!row) {
    throw failureFor(
      'board_not_mapped',
      "Contactline has no board mapped for this account: map this board's columns in Contactline, " +
        'then turn the automation back on.',
    );
  }
  if (boardId !== null && boardId !== row.boardId) {
    throw failureFor(
      'item_on_other_board',
      `This item is on board ${boardId}, but Contactline maps board ${row.boardId}: ` +
        'run the automation on the mapped board, or map this one.',
    );
  }
  return row;
}
