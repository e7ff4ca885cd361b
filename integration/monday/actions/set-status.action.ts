// "Set {status column} from the call result": the label the Account maps the call result to
// (boardCallResultLabel: the result the trigger passed, else the item's contact's latest
// finished call); a result mapped to nothing leaves the status as it is.
import { BoardOperations } from '../../../src/graphql/operations/board.js';
import { automationBroken, runFailed } from '../action-failure.js';
import { runBoardOperation, type ActionHandler } from '../action-runs.js';
import type { MondayConfig } from '../config.js';
import { MondayApiFailure } from '../monday-api.js';
import { boardAndItem, columnId, optionValue } from './fields.js';
import { readRunItem } from './run-item.js';

export function setStatusAction(config: MondayConfig): ActionHandler {
  return async ({ ctx, claims }, { fields }) => {
    // A call of a contact that did not come from a board fires the trigger without an item:
    // there is no status to set, and that is not a failure of the automation.
    if (fields.itemId === null || fields.itemId === undefined || fields.itemId === '')
      return { callResult: optionValue(fields.callResult), label: null, changed: false };
    const { itemId } = boardAndItem(fields);
    const statusColumnId = columnId(fields.statusColumnId);
    if (!statusColumnId)
      throw automationBroken(
        'Status column not chosen',
        'Choose the status column in the automation, then turn it back on.',
        'statusColumnId missing',
      );
    const { boardCallResultLabel: result } = await runBoardOperation(ctx, BoardOperations.callResultLabel, {
      item: itemId,
      callResult: optionValue(fields.callResult),
    });
    const { label } = result;
    if (label === null) return { callResult: result.callResult, label: null, changed: false };

    const { api, item } = await readRunItem(config, claims, itemId, [statusColumnId]);
    const column = item.boardColumns.find((c) => c.id === statusColumnId);
    if (column?.type !== 'status') {
      throw automationBroken(
        'Status column missing',
        `Column "${statusColumnId}" is not a status column on this board: choose the status column again.`,
        `status column ${statusColumnId}: ${column?.type ?? 'missing'}`,
      );
    }
    try {
      await api.changeColumnValue(item.boardId, item.id, statusColumnId, JSON.stringify({ label }));
    } catch (error) {
      if (error instanceof MondayApiFailure && error.kind === 'column_value') {
        throw runFailed(
          'Status label missing',
          `The label "${label}" is not on the "${column.title}" column: add it to the column, or change the call result labels in Contactline.`,
          `item ${itemId}: ${error.message}`,
        );
      }
      throw error;
    }
    return { callResult: result.callResult, label, changed: true };
  };
}
