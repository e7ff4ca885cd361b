/**
 * monday's built-in "When {status} changes (to {label})" trigger: a status column of an item
 * changes, through the GraphQL mutations or a test's `changeStatus`, and every active matching
 * recipe on that board runs its action with `{ boardId, itemId }` as trigger outputs.
 */
import { applyColumnWrites } from './graphql-api.js';
import type { AutomationContext } from './automation-context.js';
import type { ActionRun, Recipe } from './automation-state.js';
import { fireRecipe } from './recipes.js';
import type { ColumnValueChange, MondayColumn } from './state.js';

function labelOf(column: MondayColumn, value: ColumnValueChange['current']): string | null {
  return value?.type === 'status' ? (column.labels?.[value.index] ?? null) : null;
}

function matchingRecipes(context: AutomationContext, change: ColumnValueChange): Recipe[] {
  const { board, column, previous, current } = change;
  if (column.type !== 'status' || current?.type !== 'status') return [];
  // Writing the label an item already has is no change, so nothing fires.
  if (previous?.type === 'status' && previous.index === current.index) return [];
  const label = labelOf(column, current);
  return [...context.automation.recipes.values()].filter(
    (recipe) =>
      recipe.active &&
      recipe.boardId === board.id &&
      recipe.trigger.kind === 'status_change' &&
      recipe.trigger.columnId === column.id &&
      (recipe.trigger.toLabel === undefined || recipe.trigger.toLabel === label),
  );
}

/** Runs the recipes a set of changes triggers; resolves with the finished runs. */
export async function runStatusChangeRecipes(
  context: AutomationContext,
  changes: ColumnValueChange[],
): Promise<ActionRun[]> {
  const firings = changes.flatMap((change) =>
    matchingRecipes(context, change).map((recipe) =>
      fireRecipe(context, recipe, { boardId: Number(change.board.id), itemId: Number(change.item.id) }),
    ),
  );
  const runs = await Promise.all(firings);
  return runs.filter((run): run is ActionRun => run !== null);
}

/** Makes API mutations fire recipes in the background, as monday does; `idle()` waits for them. */
export function listenForStatusChanges(context: AutomationContext): void {
  context.state.columnChangeListeners.push((changes) => {
    void context.track(runStatusChangeRecipes(context, changes));
  });
}

/**
 * Test helper: sets an item's status label as a board user would (the label must exist) and
 * resolves with the action runs this caused, once they have finished.
 */
export async function changeStatus(
  context: AutomationContext,
  itemId: string | number,
  columnId: string,
  label: string,
): Promise<ActionRun[]> {
  const item = context.state.items.get(String(itemId));
  if (!item) throw new Error(`monday emulator: item ${itemId} does not exist`);
  const board = context.state.boards.get(item.boardId);
  const column = board?.columns.find((c) => c.id === columnId);
  if (!board || !column || column.type !== 'status')
    throw new Error(`monday emulator: board ${item.boardId} has no status column ${columnId}`);
  if (!Object.values(column.labels ?? {}).includes(label)) {
    throw new Error(
      `monday emulator: status column ${columnId} has no label "${label}" (has ${Object.values(column.labels ?? {}).join(', ')})`,
    );
  }
  const previous = item.values[columnId];
  applyColumnWrites(board, item, [[columnId, { label }]], 'json');
  return context.track(
    runStatusChangeRecipes(context, [{ board, item, column, previous, current: item.values[columnId] }]),
  );
}
