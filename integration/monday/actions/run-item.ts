// What every action does first with monday: read the run's item with the run's short-lived
// token, failing the run (not the automation) when there is no token or the item is gone.
import { automationBroken, runFailed, type MondayActionFailure } from '../action-failure.js';
import type { MondayConfig } from '../config.js';
import { mondayApi, type BoardItem, type MondayApi } from '../monday-api.js';
import type { MondayClaims } from '../monday-jwt.js';

/** The run's monday client and the item, with its board's columns and the values of `columnIds`. */
export async function readRunItem(
  config: MondayConfig,
  claims: MondayClaims,
  itemId: string,
  columnIds: string[],
): Promise<{ api: MondayApi; item: BoardItem }> {
  if (!claims.shortLivedToken)
    throw runFailed(
      'No monday token',
      'monday sent no short-lived token with this run (is the app served over HTTPS?).',
      'JWT without shortLivedToken',
    );
  const api = mondayApi(config, claims.shortLivedToken);
  const item = await api.readItem(itemId, columnIds);
  if (!item)
    throw runFailed(
      'Item not found',
      `Item ${itemId} no longer exists (or cannot be read by the automation's user).`,
      `item ${itemId}: not found`,
    );
  return { api, item };
}

/** An item on another board than the Account's mapped one: the automation is set up on the wrong board. */
export function boardNotMapped(boardId: string, mappedBoardId: string, detail: string): MondayActionFailure {
  return automationBroken(
    'Board not mapped',
    `This item is on board ${boardId}, but Contactline maps board ${mappedBoardId}: run the automation on the mapped board, or map this one.`,
    detail,
  );
}
