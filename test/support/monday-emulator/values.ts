/**
 * Column value parsing/validation for the emulator's write mutations, as monday's API checks them.
 *
 * Three input shapes exist:
 * - `simple`: the `value: String` of change_simple_column_value;
 * - `json`: the decoded `value: JSON` of change_column_value;
 * - `multi`: one entry of change_multiple_column_values' decoded object (a string is read as
 *   the simple format, anything else as the JSON format; world_clock still refuses strings).
 */
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { isPlainObject } from './app-http.js';
import type { MondayColumn, MondayColumnType, StoredValue } from './state.js';

export class MondayApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly statusCode: number = 200,
    readonly errorData: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'MondayApiError';
  }
}

const DOC_HINT =
  'Please check our API documentation for the correct data structure for this column. https://developer.monday.com/api-reference/docs/change-column-values';

export function columnValueError(column: MondayColumn, reason: string): MondayApiError {
  return new MondayApiError(`invalid value - ${reason}. ${DOC_HINT}`, 'ColumnValueException', 200, {
    column_type: column.type,
    column_id: column.id,
  });
}

export type InputShape = 'simple' | 'json' | 'multi';

export interface ParseContext {
  createLabelsIfMissing: boolean;
  /** Working copy of status labels per column id; committed by the caller on success. */
  labelDrafts: Map<string, Record<number, string>>;
  strictPhoneValidation: boolean;
}

/** Result: a stored value, `null` to clear the column, or `{ name }` for the name column. */
export type ParsedWrite = { kind: 'set'; value: StoredValue } | { kind: 'clear' } | { kind: 'name'; name: string };

const SET = (value: StoredValue): ParsedWrite => ({ kind: 'set', value });
const CLEAR: ParsedWrite = { kind: 'clear' };

function isEmptyObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

export function parseColumnWrite(
  column: MondayColumn,
  input: unknown,
  shape: InputShape,
  ctx: ParseContext,
): ParsedWrite {
  const asSimple = shape === 'simple' || (shape === 'multi' && typeof input === 'string');
  switch (column.type) {
    case 'name':
      return parseName(column, input);
    case 'text':
      return parseText(column, input);
    case 'long_text':
      if (input === null || input === '' || isEmptyObject(input)) return CLEAR;
      if (typeof input === 'string') return SET({ type: 'long_text', text: input });
      if (isPlainObject(input) && typeof input.text === 'string') {
        return input.text === '' ? CLEAR : SET({ type: 'long_text', text: input.text });
      }
      throw columnValueError(column, 'long text value must be a string or {"text": "..."}');
    case 'numbers':
      return parseNumbers(column, input);
    case 'email':
      return parseEmail(column, input, asSimple);
    case 'phone':
      return asSimple ? parsePhoneSimple(column, input as string | null, ctx) : parsePhoneJson(column, input, ctx);
    case 'world_clock':
      if (asSimple) {
        if (shape === 'simple') {
          throw columnValueError(
            column,
            'this column type does not support simple column values, use change_column_value',
          );
        }
        throw columnValueError(column, 'world clock value must be {"timezone": "<IANA time zone>"}');
      }
      return parseWorldClock(column, input);
    case 'status':
      return asSimple ? parseStatusSimple(column, input as string | null, ctx) : parseStatusJson(column, input, ctx);
  }
}

function parseName(column: MondayColumn, input: unknown): ParsedWrite {
  if (typeof input !== 'string') throw columnValueError(column, 'item name must be a string');
  if (input.trim() === '') throw columnValueError(column, 'item name cannot be empty');
  if (input.length > 255) {
    throw new MondayApiError('Item name is too long (maximum is 255 characters)', 'ItemNameTooLongException', 200, {
      max_length: 255,
    });
  }
  return { kind: 'name', name: input };
}

function parseText(column: MondayColumn, input: unknown): ParsedWrite {
  if (input === null || input === '') return CLEAR;
  if (typeof input === 'string') return SET({ type: 'text', text: input });
  if (typeof input === 'number' || typeof input === 'boolean') return SET({ type: 'text', text: String(input) });
  throw columnValueError(column, 'text value must be a string');
}

function parseNumbers(column: MondayColumn, input: unknown): ParsedWrite {
  if (input === null || input === '') return CLEAR;
  const s = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : undefined;
  if (s === undefined || !/^-?\d+(\.\d+)?$/.test(s)) throw columnValueError(column, 'numbers value must be numeric');
  return SET({ type: 'numbers', number: s });
}

function parseEmail(column: MondayColumn, input: unknown, asSimple: boolean): ParsedWrite {
  if (input === null || input === '' || isEmptyObject(input)) return CLEAR;
  let email: unknown;
  let text: unknown;
  if (asSimple && typeof input === 'string') {
    const [first, ...rest] = input.trim().split(/\s+/);
    email = first;
    text = rest.join(' ') || first;
  } else if (isPlainObject(input)) {
    email = input.email;
    text = input.text ?? input.email;
  }
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || typeof text !== 'string') {
    throw columnValueError(column, 'email value must be {"email": "...", "text": "..."}');
  }
  return SET({ type: 'email', email, text });
}

function validatePhone(column: MondayColumn, phone: string, country: unknown, strict: boolean): StoredValue {
  if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) {
    throw columnValueError(column, 'phone country code must be an upper-case ISO 3166-1 alpha-2 code (e.g. "US")');
  }
  const trimmed = phone.trim();
  if (!/^\+?[\d\s().-]{4,25}$/.test(trimmed) || (trimmed.match(/\d/g) ?? []).length < 4) {
    throw columnValueError(column, 'phone number is invalid');
  }
  if (strict) {
    let callingCode: string;
    try {
      callingCode = getCountryCallingCode(country as CountryCode);
    } catch {
      throw columnValueError(column, `unknown country code ${country}`);
    }
    const parsed = parsePhoneNumberFromString(trimmed, country as CountryCode);
    if (!parsed?.isValid() || parsed.countryCallingCode !== callingCode) {
      throw columnValueError(column, `phone number is not valid for country ${country}`);
    }
  }
  return { type: 'phone', phone: trimmed, countryShortName: country };
}

function parsePhoneSimple(column: MondayColumn, input: string | null, ctx: ParseContext): ParsedWrite {
  if (input === null || input.trim() === '') return CLEAR;
  const m = /^(.*\S)\s+(\S+)$/.exec(input.trim());
  if (!m) throw columnValueError(column, 'phone simple value must be "<number> <ISO-2 country code>"');
  return SET(validatePhone(column, m[1], m[2], ctx.strictPhoneValidation));
}

function parsePhoneJson(column: MondayColumn, input: unknown, ctx: ParseContext): ParsedWrite {
  if (input === null || input === '' || isEmptyObject(input)) return CLEAR;
  if (!isPlainObject(input) || typeof input.phone !== 'string') {
    throw columnValueError(column, 'phone value must be {"phone": "...", "countryShortName": "US"}');
  }
  if (input.phone.trim() === '') return CLEAR;
  return SET(validatePhone(column, input.phone, input.countryShortName, ctx.strictPhoneValidation));
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function parseWorldClock(column: MondayColumn, input: unknown): ParsedWrite {
  if (input === null || isEmptyObject(input)) return CLEAR;
  if (!isPlainObject(input) || typeof input.timezone !== 'string') {
    throw columnValueError(column, 'world clock value must be {"timezone": "<IANA time zone>"}');
  }
  if (input.timezone === '') return CLEAR;
  if (!isValidTimeZone(input.timezone)) throw columnValueError(column, `unknown time zone ${input.timezone}`);
  return SET({ type: 'world_clock', timezone: input.timezone });
}

function labelsFor(column: MondayColumn, ctx: ParseContext): Record<number, string> {
  let draft = ctx.labelDrafts.get(column.id);
  if (!draft) {
    draft = { ...(column.labels ?? {}) };
    ctx.labelDrafts.set(column.id, draft);
  }
  return draft;
}

function statusByIndex(column: MondayColumn, index: number, ctx: ParseContext): ParsedWrite {
  const labels = labelsFor(column, ctx);
  if (!Number.isInteger(index) || labels[index] === undefined) {
    throw columnValueError(column, 'index does not exist in column');
  }
  return SET({ type: 'status', index });
}

function statusByLabel(column: MondayColumn, label: string, ctx: ParseContext): ParsedWrite {
  const labels = labelsFor(column, ctx);
  for (const [k, v] of Object.entries(labels)) {
    if (v === label) return SET({ type: 'status', index: Number(k) });
  }
  if (!ctx.createLabelsIfMissing) throw columnValueError(column, 'label does not exist in column');
  // monday keeps index 5 for the default (grey) label; pick the lowest other free index.
  let index = 0;
  while (labels[index] !== undefined || index === 5) index += 1;
  labels[index] = label;
  return SET({ type: 'status', index });
}

function parseStatusSimple(column: MondayColumn, input: string | null, ctx: ParseContext): ParsedWrite {
  if (input === null || input === '') return CLEAR;
  if (/^\d+$/.test(input)) return statusByIndex(column, Number(input), ctx);
  return statusByLabel(column, input, ctx);
}

function parseStatusJson(column: MondayColumn, input: unknown, ctx: ParseContext): ParsedWrite {
  if (input === null || input === '' || isEmptyObject(input)) return CLEAR;
  if (isPlainObject(input)) {
    if (typeof input.label === 'string') return statusByLabel(column, input.label, ctx);
    if (typeof input.index === 'number') return statusByIndex(column, input.index, ctx);
    if (typeof input.index === 'string' && /^\d+$/.test(input.index))
      return statusByIndex(column, Number(input.index), ctx);
  }
  throw columnValueError(column, 'status value must be {"label": "..."} or {"index": n}');
}

export const SUPPORTED_COLUMN_TYPES: readonly MondayColumnType[] = [
  'name',
  'text',
  'phone',
  'world_clock',
  'status',
  'long_text',
  'numbers',
  'email',
];
