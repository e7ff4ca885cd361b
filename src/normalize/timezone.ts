// Time zones: checks IANA names, infers a location's zone (subdivision table, then the
// country's single zone), and merges lists of zones. Zones that are aliases or currently behave
// the same count as one, so "Europe/Guernsey or Europe/London" is one answer. A phone number's
// zone is in phone-timezone.ts; inferTimezone (location, then phone) in infer-timezone.ts.
import { rawTimeZones, timeZonesNames } from '@vvo/tzdb';
import { SUBDIVISION_TIMEZONES } from './data/subdivision-timezones.js';

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
  if (Object.hasOwn(SUBDIVISION_TIMEZONES, code)) {
    return SUBDIVISION_TIMEZONES[code];
  }
  const zones = countryTimezones(code.split('-')[0]);
  return zones.length === 1 ? zones[0] : null;
}

/**
 * The zones of a country (ISO alpha-2, upper case): @vvo/tzdb's groups of its zones, those
 * that currently behave the same merged into one name. One zone means the country keeps one
 * clock. Empty for a code tzdb does not list. The one definition of "a country with one zone",
 * for locations and phone numbers alike.
 */
export function countryTimezones(country: string): string[] {
  const cached = mergedCountryZones.get(country);
  if (cached) return [...cached];
  const zones = getZonesByCountry().get(country);
  if (!zones) return [];
  const merged = mergeZones(zones, [country]);
  mergedCountryZones.set(country, merged);
  return [...merged];
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

type ZoneIndex = { groupOfZone: Map<string, string>; countryOfZone: Map<string, string> };
let zoneIndex: ZoneIndex | undefined;
let zonesByCountry: Map<string, string[]> | undefined;
const mergedCountryZones = new Map<string, readonly string[]>();

/**
 * @vvo/tzdb groups the zones of a country that currently behave the same under one current
 * name (America/Boise and America/Denver → America/Denver; aliases such as Asia/Calcutta too).
 * Indexes: any member → group name, group name → country.
 */
function indexGroups(): ZoneIndex {
  if (zoneIndex) return zoneIndex;
  const groups = new Map<string, string>();
  const countries = new Map<string, string>();
  for (const zone of rawTimeZones) {
    countries.set(zone.name, zone.countryCode);
    for (const member of zone.group) if (!groups.has(member)) groups.set(member, zone.name);
    groups.set(zone.name, zone.name);
  }
  zoneIndex = { groupOfZone: groups, countryOfZone: countries };
  return zoneIndex;
}

function zoneGroup(zone: string): string {
  return indexGroups().groupOfZone.get(zone) ?? zone;
}

function zoneCountry(zone: string): string | undefined {
  return indexGroups().countryOfZone.get(zone);
}

/** Country → the names of its tzdb groups (one per set of its zones that behave the same). */
function getZonesByCountry(): Map<string, string[]> {
  if (zonesByCountry) return zonesByCountry;
  zonesByCountry = new Map();
  for (const zone of rawTimeZones) {
    if (!zone.countryCode) continue;
    zonesByCountry.set(zone.countryCode, [...(zonesByCountry.get(zone.countryCode) ?? []), zone.name]);
  }
  return zonesByCountry;
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
export function mergeZones(zones: readonly string[], preferredCountries: readonly string[]): string[] {
  const grouped = [...new Set(zones.map((zone) => zoneGroup(canonicalTimezone(zone) ?? zone)))].sort();
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
    const own = getZonesByCountry().get(country);
    if (own?.length === 1 && behaviour(own[0]) === key) return own[0];
  }
  return members[0];
}
