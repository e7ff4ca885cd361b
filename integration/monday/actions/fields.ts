// Reading an action's input fields as monday sends them: ids arrive as numbers, a custom list field
// as its option object { title, value }.
import { runFailed } from '../action-failure.js';

/** A block's input fields, which monday sends as `inputFields` or `inboundFieldValues`. */
export function inputFieldsOf(payload: {
  inputFields?: unknown;
  inboundFieldValues?: unknown;
}): Record<string, unknown> {
  return (payload.inputFields ?? payload.inboundFieldValues ?? {}) as Record<string, unknown>;
}

/** A custom list field arrives as its option object ({ title, value }); accept a raw value too. */
export function optionValue(field: unknown): string | null {
  if (field === null || field === undefined || field === '') return null;
  if (typeof field === 'object' && 'value' in (field as object))
    return optionValue((field as { value: unknown }).value);
  return String(field);
}

/** A monday id (number or digit string) as a string, or null. */
export function mondayId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value.trim())) return value.trim();
  return null;
}

export function boardAndItem(fields: Record<string, unknown>): { boardId: string | null; itemId: string } {
  const itemId = mondayId(fields.itemId);
  if (!itemId)
    throw runFailed(
      'No item',
      'The automation did not say which item to act on.',
      `itemId: ${JSON.stringify(fields.itemId ?? null)}`,
    );
  return { boardId: mondayId(fields.boardId), itemId };
}

/** A column picked in the recipe sentence arrives as its id string. */
export function columnId(value: unknown): string | null {
  const id = optionValue(value);
  return id && id.length <= 100 ? id : null;
}
