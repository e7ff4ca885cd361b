// "Set {status column} from the call result": the Account's call result → label mapping
// (DEFAULT_STATUS_LABELS by default); a result mapped to nothing leaves the status as it is.
// The result comes from the "when a call ends" trigger's output, or, when the recipe does not
// pass it, from the item's contact's latest finished call.
import { CALL_RESULTS, type CallResult } from '../../../src/calls/telephony/telephony.port.js';
import type { Services } from '../../../src/domain/context.js';
import { labelForResult, type StatusLabelMapping } from '../../../src/domain/boards/status-labels.js';
import { automationBroken, runFailed } from '../action-failure.js';
import type { ActionHandler } from '../action-runs.js';
import type { MondayConfig } from '../config.js';
import { MondayApiFailure } from '../monday-api.js';
import { boardAndItem, columnId, optionValue } from './fields.js';
import { readRunItem } from './run-item.js';

export function setStatusAction(services: Services, config: MondayConfig): ActionHandler {
  return async ({ ctx, claims }, { fields }) => {
    const accountId = ctx.actor!.accountId;
    // A call of a contact that did not come from a board fires the trigger without an item:
    // there is no status to set, and that is not a failure of the automation.
    if (fields.itemId === null || fields.itemId === undefined || fields.itemId === '') return { callResult: optionValue(fields.callResult), label: null, changed: false };
    const { itemId } = boardAndItem(fields);
    const statusColumnId = columnId(fields.statusColumnId);
    if (!statusColumnId) throw automationBroken('Status column not chosen', 'Choose the status column in the automation, then turn it back on.', 'statusColumnId missing');
    const result = optionValue(fields.callResult) ?? (await latestCallResult(services, accountId, itemId));
    if (!result) throw runFailed('No call yet', `Item ${itemId} has no finished Contactline call, so there is no result to show.`, `item ${itemId}: no call result`);
    if (!(CALL_RESULTS as readonly string[]).includes(result)) throw runFailed('Unknown call result', `"${result}" is not a Contactline call result.`, `callResult ${result}`);

    const mapping = await services.db.prisma.boardMapping.findUnique({ where: { accountId }, select: { statusLabels: true } });
    const label = labelForResult(result as CallResult, mapping?.statusLabels as StatusLabelMapping | null);
    if (label === null) return { callResult: result, label: null, changed: false };

    const { api, item } = await readRunItem(config, claims, itemId, [statusColumnId]);
    const column = item.boardColumns.find((c) => c.id === statusColumnId);
    if (column?.type !== 'status') {
      throw automationBroken('Status column missing', `Column "${statusColumnId}" is not a status column on this board: choose the status column again.`, `status column ${statusColumnId}: ${column?.type ?? 'missing'}`);
    }
    try {
      await api.changeColumnValue(item.boardId, item.id, statusColumnId, JSON.stringify({ label }));
    } catch (error) {
      if (error instanceof MondayApiFailure && error.kind === 'column_value') {
        throw runFailed('Status label missing', `The label "${label}" is not on the "${column.title}" column: add it to the column, or change the call result labels in Contactline.`, `item ${itemId}: ${error.message}`);
      }
      throw error;
    }
    return { callResult: result, label, changed: true };
  };
}

async function latestCallResult(services: Services, accountId: string, itemId: string): Promise<string | null> {
  const { rows } = await services.db.sql.query<{ result: string }>(
    `SELECT c.result FROM "MondayItemLink" l JOIN "Call" c ON c."contactId" = l."contactId"
      WHERE l."accountId" = $1 AND l."itemId" = $2 AND c.result IS NOT NULL AND c."endedAt" IS NOT NULL
      ORDER BY c."endedAt" DESC LIMIT 1`,
    [accountId, itemId],
  );
  return rows[0]?.result ?? null;
}
