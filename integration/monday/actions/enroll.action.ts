// "Enroll this item in {workflow}" (docs/board-app.md, "Build the recipes"): the workflow and the board
// are checked first (boardEnrollmentTarget), then the item's mapped columns are read with the
// run's short-lived token, and the domain upserts its contact (sourceKind monday, externalId the
// item id), enrolls it and links it to the item (enrollBoardItem).
import { UUID_PATTERN } from '../../../src/domain/shared/ids.js';
import { BoardOperations } from '../../../src/graphql/operations/board.js';
import { automationBroken } from '../action-failure.js';
import { runBoardOperation, type ActionHandler } from '../action-runs.js';
import type { MondayConfig } from '../config.js';
import { boardAndItem, optionValue } from './fields.js';
import { readRunItem } from './run-item.js';

export function enrollAction(config: MondayConfig): ActionHandler {
  return async ({ ctx, claims }, { fields }) => {
    const { boardId, itemId } = boardAndItem(fields);
    const workflowId = optionValue(fields.workflowId);
    if (!workflowId || !UUID_PATTERN.test(workflowId)) {
      throw automationBroken(
        'Choose a workflow',
        'The automation has no Contactline workflow chosen: edit it and pick a workflow.',
        `workflowId: ${JSON.stringify(fields.workflowId ?? null)}`,
      );
    }
    const { boardEnrollmentTarget: read } = await runBoardOperation(ctx, BoardOperations.enrollmentTarget, {
      workflowId,
      boardId,
    });
    const { item } = await readRunItem(config, claims, itemId, read.columnIds);
    const enrolled = await runBoardOperation(ctx, BoardOperations.enrollItem, {
      input: {
        workflowId,
        item: {
          id: item.id,
          name: read.itemName ? item.name : null,
          boardId: item.boardId,
          columns: item.boardColumns.map(({ id, title, type }) => ({ id, title, type })),
          values: Object.fromEntries(item.values),
        },
      },
    });
    return { ...enrolled.enrollBoardItem };
  };
}
