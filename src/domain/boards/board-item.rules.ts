// A board item as monday's API reads it, and the contact the enroll action upserts from it
// through the Account's mapped columns. Pure: the caller reads the item and raises failures.
import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/max';
import { normalizePhone } from '../../normalize/phone.js';
import type { BoardColumn, BoardColumnMapping, TimezoneColumnType } from './board-mapping.rules.js';
import { existingTimezone, phoneColumnValue } from './timezone-fill.rules.js';

/** One column value of an item, as monday's API returns it. */
export interface ItemColumnValue {
  id: string;
  type: string;
  text: string | null;
  /** The raw `value` JSON text (null when empty). */
  value: string | null;
  phone?: string | null;
  country_short_name?: string | null;
  timezone?: string | null;
  label?: string | null;
}

export interface BoardItem {
  id: string;
  name: string;
  boardId: string;
  /** The board's columns among those asked for (a mapped column missing here was deleted). */
  boardColumns: BoardColumn[];
  values: Map<string, ItemColumnValue>;
}

export interface ItemContact {
  firstName?: string | null;
  lastName?: string | null;
  fullName?: string | null;
  phone: string;
  timezone?: string;
  customFields?: Record<string, string | null>;
}

export type ItemContactResult =
  | { ok: true; contact: ItemContact }
  | { ok: false; reason: 'missing_phone' | 'invalid_phone'; message: string };

/**
 * The item's phone must carry its country code, else the run fails with severity 4000 (docs/board-app.md,
 * "What a failure looks like on the board"):
 * `+44 20 7946 0958`, `0044…`, or the digits with the code (`442079460958`, as monday often
 * stores them). A number only valid once the flag's country is assumed is refused, and so is a
 * number whose code is not the flag's country's.
 */
export function itemPhone(
  column:
    | { value?: string | null; phone?: string | null; country_short_name?: string | null; text?: string | null }
    | undefined,
): { ok: true; e164: string } | { ok: false; reason: 'missing_phone' | 'invalid_phone'; message: string } {
  const value = column ? phoneColumnValue(column) : { phone: null, countryShortName: null };
  const phone = value.phone ?? (column?.text?.trim() || null);
  if (!phone)
    return {
      ok: false,
      reason: 'missing_phone',
      message: 'The item has no phone number: fill its Phone column, then run the automation again.',
    };
  const flag = value.countryShortName?.toUpperCase() ?? null;
  const international = /^\s*(\+|00)/.test(phone) ? phone : `+${phone.trim()}`;
  const number = normalizePhone(international, null);
  const code = flag && isSupportedCountry(flag) ? getCountryCallingCode(flag) : null;
  if (!number.ok || (code !== null && !number.e164.startsWith(`+${code}`))) {
    const country = flag ? ` for ${flag}` : '';
    const example = code ? ` (for example +${code} followed by the number)` : ' (for example +44 20 7946 0958)';
    return {
      ok: false,
      reason: 'invalid_phone',
      message: `The phone number "${phone}" is not a valid number${country}: it must include the country code${example}.`,
    };
  }
  return { ok: true, e164: number.e164 };
}

export function itemContact(
  item: BoardItem,
  mapping: BoardColumnMapping,
  timezoneColumnType: TimezoneColumnType | null,
): ItemContactResult {
  const phone = itemPhone(item.values.get(mapping.phoneColumnId));
  if (!phone.ok) return phone;
  const text = (columnId: string | null) => {
    if (!columnId) return undefined;
    const value = item.values.get(columnId)?.text?.trim();
    return value ? value : null;
  };
  const contact: ItemContact = { phone: phone.e164 };
  if (mapping.itemNameIsFullName) contact.fullName = item.name.trim() || null;
  else {
    if (mapping.firstNameColumnId) contact.firstName = text(mapping.firstNameColumnId);
    if (mapping.lastNameColumnId) contact.lastName = text(mapping.lastNameColumnId);
  }
  if (mapping.timezoneColumnId && timezoneColumnType) {
    const column = item.values.get(mapping.timezoneColumnId);
    const zone = column ? existingTimezone(timezoneColumnType, column.value, column.text) : null;
    if (zone) contact.timezone = zone;
  }
  if (mapping.extraFields.length > 0) {
    contact.customFields = Object.fromEntries(mapping.extraFields.map((f) => [f.identifier, text(f.columnId) ?? null]));
  }
  return { ok: true, contact };
}
