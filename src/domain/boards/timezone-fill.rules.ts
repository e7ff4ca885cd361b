// The board app's "Fill timezone from phone" automation step (docs/board-app.md, "Build the recipes"):
// the pure decision for one item. It reads the item's phone column and timezone column, keeps a
// timezone that is already there, and otherwise resolves a single IANA zone from the phone:
//   1. the number's country, when it is not a +1 country and has one zone ('country');
//   2. for +1 (NANP) numbers, the area code ('area_code');
//   3. otherwise the calling code ('calling_code').
// More than one zone, or none, is a failure with a sentence a board user can act on; the caller
// maps it to severity 4000 and writes nothing. No I/O here: the monday GraphQL read and the
// change_column_value write belong to the caller.
//
// The zones come from src/normalize/phone-timezone.ts, the same rule that infers a contact's
// zone on upsert: nothing about zones is decided in this file.
import { normalizePhone, phoneDigits } from '../../normalize/phone.js';
import { phoneZones, type PhoneZoneSource } from '../../normalize/phone-timezone.js';
import { canonicalTimezone } from '../../normalize/timezone.js';
import type { TimezoneColumnType } from './board-mapping.rules.js';

/** The item's phone column: `PhoneValue { phone country_short_name }` or its raw `value` JSON. */
export interface PhoneColumnValue {
  phone: string | null;
  countryShortName: string | null;
}

export type TimezoneResolution =
  | { ok: true; timezone: string; source: PhoneZoneSource }
  | {
      ok: false;
      reason: 'no_phone' | 'invalid_phone' | 'ambiguous' | 'unknown';
      candidates: string[];
      message: string;
    };

export type { TimezoneColumnType };

export type TimezoneFillPlan =
  | { action: 'keep'; timezone: string }
  | { action: 'write'; timezone: string; value: string; source: string }
  | { action: 'fail'; reason: string; message: string; candidates: string[] };

/** +1 (NANP) numbers are resolved by their area code, so a failure names it. */
const NANP_CALLING_CODE = '1';

/** How many candidate zones a failure message lists before "and N more". */
const LISTED_CANDIDATES = 4;

/**
 * A phone column as read through monday's GraphQL API → PhoneColumnValue. The
 * `PhoneValue` fragment fields win; otherwise the raw `value` JSON
 * (`{"phone":"...","countryShortName":"US"}`) is read. Empty strings become null; the country is
 * upper-cased. Never throws (unreadable JSON gives nulls).
 */
export function phoneColumnValue(column: {
  value?: string | null;
  phone?: string | null;
  country_short_name?: string | null;
}): PhoneColumnValue {
  let fromValue: { phone?: unknown; countryShortName?: unknown } = {};
  if (typeof column.value === 'string' && column.value !== '') {
    const parsed = parseJson(column.value);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      fromValue = parsed as typeof fromValue;
    }
  }
  const country = nonEmpty(column.country_short_name) ?? nonEmpty(fromValue.countryShortName);
  return {
    phone: nonEmpty(column.phone) ?? nonEmpty(fromValue.phone),
    countryShortName: country === null ? null : country.toUpperCase(),
  };
}

/**
 * The single IANA zone of the item's phone number, or why there is none. The column's country
 * flag is the default country for a number stored without its country code ("020 7946 0958"
 * + GB). Never throws.
 */
export function resolveTimezoneFromPhone(value: PhoneColumnValue): TimezoneResolution {
  const phone = nonEmpty(value?.phone);
  const flag = nonEmpty(value?.countryShortName);
  if (phone === null) {
    return failure('no_phone', [], 'The item has no phone number, so its timezone cannot be filled from it.');
  }

  const number = normalizePhone(phone, flag);
  if (!number.ok) {
    const forCountry = flag ? ` for the selected country (${flag.toUpperCase()})` : '';
    return failure(
      'invalid_phone',
      [],
      `The phone number "${phone}" is not a valid number${forCountry}: it must include the ` +
        'country code (for example +44 20 7946 0958), so its timezone cannot be filled.',
    );
  }

  const { e164 } = number;
  const { zones, source } = phoneZones(e164);
  if (zones.length === 1) return { ok: true, timezone: zones[0], source };

  const nanp = phoneDigits(e164).startsWith(NANP_CALLING_CODE);
  // NANP zones follow the area code, so the message names it; elsewhere it names the number.
  const subject = nanp ? `+1 ${phoneDigits(e164).slice(1, 4)} numbers` : `The number ${e164}`;
  if (zones.length === 0) {
    return failure('unknown', [], `${subject} ${nanp ? 'have' : 'has'} no known time zone: set the timezone by hand.`);
  }
  return failure(
    'ambiguous',
    zones,
    `${subject} ${nanp ? 'span' : 'matches'} ${count(zones.length)} time zones ` +
      `(${listZones(zones)}): set the timezone by hand.`,
  );
}

/**
 * The change_column_value `value` argument (already a JSON-encoded string, as monday takes it)
 * that writes `zone`: text → `"America/New_York"` (a JSON string), world_clock →
 * `{"timezone":"America/New_York"}`. (change_simple_column_value does not support World Clock.)
 * The zone is written under its canonical IANA name; a name that is not a zone throws
 * RangeError, so a bad value never reaches the board.
 */
export function timezoneColumnValue(type: TimezoneColumnType, zone: string): string {
  const canonical = canonicalTimezone(zone);
  if (canonical === null) throw new RangeError(`not an IANA time zone: ${JSON.stringify(zone)}`);
  switch (type) {
    case 'text':
      return JSON.stringify(canonical);
    case 'world_clock':
      return JSON.stringify({ timezone: canonical });
    default:
      throw new RangeError(`unsupported timezone column type: ${JSON.stringify(type)}`);
  }
}

/**
 * The IANA zone a timezone column holds now (canonical name: `US/Eastern` → America/New_York,
 * case-insensitive), or null when it is empty or not a zone. Reads the raw `value` JSON first
 * (world_clock `{"timezone": "..."}`, text a JSON string, or a bare string), then the display
 * `text`. Never throws.
 */
export function existingTimezone(
  type: TimezoneColumnType,
  rawValue: string | null,
  text: string | null,
): string | null {
  const fromValue = rawValue === null || rawValue === undefined ? null : zoneInRawValue(type, rawValue);
  if (fromValue) return fromValue;
  return typeof text === 'string' ? canonicalTimezone(text) : null;
}

/**
 * The whole decision for one item: keep a valid zone already in the timezone column (an invalid
 * value counts as empty and is overwritten), else write the zone resolved from the phone, else
 * fail with the reason, a message for the board user and the candidate zones.
 */
export function planTimezoneFill(input: {
  phone: PhoneColumnValue;
  timezoneColumn: { type: TimezoneColumnType; rawValue: string | null; text: string | null };
}): TimezoneFillPlan {
  const column = input.timezoneColumn;
  const existing = existingTimezone(column.type, column.rawValue, column.text);
  if (existing) return { action: 'keep', timezone: existing };

  const resolution = resolveTimezoneFromPhone(input.phone);
  if (!resolution.ok) {
    return {
      action: 'fail',
      reason: resolution.reason,
      message: resolution.message,
      candidates: resolution.candidates,
    };
  }
  return {
    action: 'write',
    timezone: resolution.timezone,
    value: timezoneColumnValue(column.type, resolution.timezone),
    source: resolution.source,
  };
}

// --- helpers ---------------------------------------------------------------------------------

function zoneInRawValue(type: TimezoneColumnType, raw: string): string | null {
  const parsed = parseJson(raw);
  if (type === 'world_clock') {
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const zone = (parsed as { timezone?: unknown }).timezone;
      return typeof zone === 'string' ? canonicalTimezone(zone) : null;
    }
    return null;
  }
  // A text column's value is a JSON string; accept a bare (unencoded) name as well.
  if (typeof parsed === 'string') return canonicalTimezone(parsed);
  return parsed === undefined ? canonicalTimezone(raw) : null;
}

/** JSON.parse, or undefined when the text is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function nonEmpty(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function failure(
  reason: 'no_phone' | 'invalid_phone' | 'ambiguous' | 'unknown',
  candidates: string[],
  message: string,
): TimezoneResolution {
  return { ok: false, reason, candidates, message };
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

function count(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}

function listZones(zones: readonly string[]): string {
  if (zones.length <= LISTED_CANDIDATES + 1) return zones.join(', ');
  return `${zones.slice(0, LISTED_CANDIDATES).join(', ')} and ${zones.length - LISTED_CANDIDATES} more`;
}
