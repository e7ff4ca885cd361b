// "Fill the timezone from the phone" step (docs/board-app.md, "Build the recipes"): keeps a zone
// already in the timezone column, else writes the one zone the phone resolves to, in the
// format that column type takes (text or World Clock), as planTimezoneFill decides. Columns
// come from the recipe sentence when it picks them, else from the Account's board mapping.
import { TIMEZONE_COLUMN_TYPES, type TimezoneColumnType } from '../../../src/domain/boards/board-mapping.rules.js';
import { phoneColumnValue, planTimezoneFill } from '../../../src/domain/boards/timezone-fill.rules.js';
import { BoardOperations } from '../../../src/graphql/operations/board.js';
import { automationBroken, runFailed } from '../action-failure.js';
import { runBoardOperation, type ActionHandler } from '../action-runs.js';
import type { MondayConfig } from '../config.js';
import { MondayApiFailure } from '../monday-api.js';
import { boardAndItem, columnId } from './fields.js';
import { readRunItem } from './run-item.js';

export function fillTimezoneAction(config: MondayConfig): ActionHandler {
  return async ({ ctx, claims }, { fields }) => {
    const { itemId } = boardAndItem(fields);
    const chosen = { phone: columnId(fields.phoneColumnId), timezone: columnId(fields.timezoneColumnId) };
    const { boardMapping: mapping } = await runBoardOperation(ctx, BoardOperations.timezoneColumns);
    const phoneColumnId = chosen.phone ?? mapping?.phoneColumnId ?? null;
    const timezoneColumnId = chosen.timezone ?? mapping?.timezoneColumnId ?? null;
    if (!phoneColumnId || !timezoneColumnId) {
      throw automationBroken(
        'Columns not chosen',
        'Choose the phone and timezone columns in the automation, or map them in Contactline, then turn the automation back on.',
        `phone ${phoneColumnId}, timezone ${timezoneColumnId}`,
      );
    }
    const { api, item } = await readRunItem(config, claims, itemId, [phoneColumnId, timezoneColumnId]);
    const types = new Map(item.boardColumns.map((c) => [c.id, c.type]));
    if (types.get(phoneColumnId) !== 'phone') {
      throw automationBroken(
        'Phone column missing',
        `Column "${phoneColumnId}" is not a phone column on this board: choose the phone column again.`,
        `phone column ${phoneColumnId}: ${types.get(phoneColumnId) ?? 'missing'}`,
      );
    }
    const timezoneType = types.get(timezoneColumnId);
    if (!(TIMEZONE_COLUMN_TYPES as readonly string[]).includes(timezoneType ?? '')) {
      throw automationBroken(
        'Timezone column missing',
        `Column "${timezoneColumnId}" must be a text or World Clock column on this board: choose the timezone column again.`,
        `timezone column ${timezoneColumnId}: ${timezoneType ?? 'missing'}`,
      );
    }
    const current = item.values.get(timezoneColumnId);
    const plan = planTimezoneFill({
      phone: phoneColumnValue(item.values.get(phoneColumnId) ?? {}),
      timezoneColumn: {
        type: timezoneType as TimezoneColumnType,
        rawValue: current?.value ?? null,
        text: current?.text ?? null,
      },
    });
    if (plan.action === 'fail')
      throw runFailed(
        'Timezone not filled',
        plan.message,
        `item ${itemId}: ${plan.reason} ${plan.candidates.join(',')}`,
      );
    if (plan.action === 'keep') return { timezone: plan.timezone, filled: false };
    try {
      await api.changeColumnValue(item.boardId, item.id, timezoneColumnId, plan.value);
    } catch (error) {
      if (error instanceof MondayApiFailure && error.kind === 'column_value') {
        throw runFailed(
          'Timezone not written',
          `monday refused the value ${plan.timezone}: ${error.message}`,
          `item ${itemId}: ${error.message}`,
        );
      }
      throw error;
    }
    return { timezone: plan.timezone, filled: true };
  };
}
