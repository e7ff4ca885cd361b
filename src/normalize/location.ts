// Locations: reads a contact's free-text location as an ISO 3166 code, either a country (`US`)
// or a country subdivision (`US-CA`). Codes come from iso-3166 (the current list); country names
// in many languages from i18n-iso-countries, with country-to-iso for the common forms it misses;
// subdivision names in English from CLDR and in the local language from iso-3166.
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { countryToAlpha2 } from 'country-to-iso';
import { iso31661, iso31662 } from 'iso-3166';
import { nameKey } from './text.js';

/** Country codes a location may carry: ISO 3166-1 assigned codes, plus Kosovo's XK. */
const COUNTRY_CODES: ReadonlySet<string> = new Set([
  ...iso31661.map((entry) => entry.alpha2),
  ...Object.keys(countries.getAlpha2Codes()),
]);

/** ISO 3166-2 subdivision code → its parent (a country code or another subdivision). */
const SUBDIVISION_PARENTS: ReadonlyMap<string, string> = new Map(iso31662.map((entry) => [entry.code, entry.parent]));

const ALPHA2 = /^[a-z]{2}$/i;
const ALPHA3 = /^[a-z]{3}$/i;
const SUBDIVISION_CODE = /^([a-z]{2})\s*-\s*([a-z0-9]{1,3})$/i;

/**
 * Reads a location as an ISO 3166 code: `US`, `US-CA`, or null when unreadable.
 * Accepts alpha-2 and alpha-3 country codes, subdivision codes (any case), country names in many
 * languages and subdivision names in English or the local language. A two-letter code is always
 * a country (`CA` is Canada); a name that is both a country and a subdivision is the country
 * (Georgia); a subdivision name shared by several countries (Punjab) is read in
 * `defaultCountry` when it has one there, else it is unreadable. Never throws.
 */
export function normalizeLocation(input: string, defaultCountry?: string | null): string | null {
  if (typeof input !== 'string') return null;
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '' || text.length > 200) return null;

  if (ALPHA2.test(text)) {
    const code = text.toUpperCase();
    if (COUNTRY_CODES.has(code)) return code;
    // Not an assigned code: it can still be a common short form such as UK.
    return countryFromName(text);
  }
  if (ALPHA3.test(text)) {
    const alpha2 = countries.alpha3ToAlpha2(text.toUpperCase());
    if (alpha2) return alpha2;
  }
  const codeMatch = SUBDIVISION_CODE.exec(text);
  if (codeMatch) {
    const code = `${codeMatch[1]}-${codeMatch[2]}`.toUpperCase();
    if (SUBDIVISION_PARENTS.has(code)) return code;
    // An unknown subdivision code of a known country is unreadable rather than a guess.
    if (COUNTRY_CODES.has(codeMatch[1].toUpperCase())) return null;
  }

  return countryFromName(text) ?? subdivisionFromName(text, defaultCountry);
}

/** The country part of a normalized location (`US-CA` → `US`, `DE` → `DE`). */
export function countryOf(location: string): string {
  if (typeof location !== 'string') return '';
  return location.split('-')[0].trim().toUpperCase();
}

// --- names ---------------------------------------------------------------------------------

let countryNames: Map<string, string> | undefined;
let subdivisionNames: Map<string, string[]> | undefined;

/** Name key → country code, built once from every language i18n-iso-countries ships. */
function getCountryNames(): Map<string, string> {
  if (countryNames) return countryNames;
  const candidates = new Map<string, Set<string>>();
  for (const language of countries.langs()) {
    const names = countries.getNames(language, { select: 'all' });
    for (const [code, list] of Object.entries(names)) {
      for (const name of list) {
        const key = nameKey(name);
        if (key === '') continue;
        let codes = candidates.get(key);
        if (!codes) {
          codes = new Set();
          candidates.set(key, codes);
        }
        codes.add(code);
      }
    }
  }
  // A name that means different countries in different data ("Congo") is left to the fallback.
  countryNames = new Map();
  for (const [key, codes] of candidates) if (codes.size === 1) countryNames.set(key, [...codes][0]);
  return countryNames;
}

/** Name key → subdivision codes, from CLDR's English names and iso-3166's local names. */
function getSubdivisionNames(): Map<string, string[]> {
  if (subdivisionNames) return subdivisionNames;
  const names = new Map<string, Set<string>>();
  const add = (name: string, code: string): void => {
    const key = nameKey(name);
    if (key === '') return;
    let codes = names.get(key);
    if (!codes) {
      codes = new Set();
      names.set(key, codes);
    }
    codes.add(code);
  };
  for (const entry of iso31662) add(entry.name, entry.code);
  for (const [cldrKey, name] of Object.entries(loadCldrEnglishSubdivisions())) {
    // CLDR keys are the ISO code lowercased without the hyphen ("usca"); CLDR also keeps
    // withdrawn codes, which are skipped so only current codes are ever returned.
    const code = `${cldrKey.slice(0, 2)}-${cldrKey.slice(2)}`.toUpperCase();
    if (SUBDIVISION_PARENTS.has(code)) add(name, code);
  }
  subdivisionNames = new Map([...names].map(([key, codes]) => [key, [...codes]]));
  return subdivisionNames;
}

function loadCldrEnglishSubdivisions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const data = require('cldr-subdivisions-full/subdivisions/en/en.json') as {
    subdivisions: { localeDisplayNames: { subdivisions: Record<string, string> } };
  };
  return data.subdivisions.localeDisplayNames.subdivisions;
}

function countryFromName(text: string): string | null {
  const code = getCountryNames().get(nameKey(text));
  if (code) return code;
  // country-to-iso knows common English forms (England, Holland, curly apostrophes).
  try {
    const fallback = countryToAlpha2(text);
    return fallback && COUNTRY_CODES.has(fallback) ? fallback : null;
  } catch {
    return null;
  }
}

function subdivisionFromName(text: string, defaultCountry: string | null | undefined): string | null {
  let codes = getSubdivisionNames().get(nameKey(text));
  if (!codes) return null;
  if (new Set(codes.map(countryOf)).size > 1) {
    // Shared by several countries: only the Account's default country can break the tie.
    const preferred = typeof defaultCountry === 'string' ? defaultCountry.trim().toUpperCase() : '';
    codes = codes.filter((code) => countryOf(code) === preferred);
  }
  if (codes.length === 1) return codes[0];
  // Several subdivisions of one country share the name (a region and its department, say):
  // take the top-level one when there is exactly one.
  const topLevel = codes.filter((code) => SUBDIVISION_PARENTS.get(code) === countryOf(code));
  return topLevel.length === 1 ? topLevel[0] : null;
}
