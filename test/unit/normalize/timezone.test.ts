// Time zone rules: IANA names, zones of locations and phone numbers, and inference.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { iso31662 } from 'iso-3166';

// Counts how often the phone data file is decoded: it must be once per process, not per call.
const decodeCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('bson', async (importOriginal) => {
  const actual = await importOriginal<typeof import('bson')>();
  return {
    ...actual,
    deserialize: (...args: Parameters<typeof actual.deserialize>) => {
      decodeCalls.count++;
      return actual.deserialize(...args);
    },
  };
});

// A test worker's files share their modules: forget the copies an earlier file loaded (with the
// real bson) so these imports load with the counting one, and leave no mock to the next file.
vi.resetModules();
afterAll(() => {
  vi.doUnmock('bson');
  vi.resetModules();
});

const { canonicalTimezone, timezoneForLocation } = await import('../../../src/normalize/timezone.js');
const { timezoneForPhone, timezonesForPhone } = await import('../../../src/normalize/phone-timezone.js');
const { inferTimezone } = await import('../../../src/normalize/infer-timezone.js');
const { SUBDIVISION_TIMEZONES } = await import('../../../src/normalize/data/subdivision-timezones.js');

describe('canonicalTimezone', () => {
  it.each([
    ['America/New_York', 'America/New_York'],
    ['america/new_york', 'America/New_York'],
    ['AMERICA/NEW_YORK', 'America/New_York'],
    ['  America/New_York  ', 'America/New_York'],
    ['Europe/London', 'Europe/London'],
    ['Asia/Jerusalem', 'Asia/Jerusalem'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['GMT', 'UTC'],
    // Old names resolve to the current ones (ICU itself still calls some of these canonical).
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
    ['Asia/Katmandu', 'Asia/Kathmandu'],
    ['Asia/Rangoon', 'Asia/Yangon'],
    ['America/Godthab', 'America/Nuuk'],
    ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['America/Indianapolis', 'America/Indiana/Indianapolis'],
    ['Pacific/Enderbury', 'Pacific/Kanton'],
    // Aliases resolve to their target.
    ['US/Eastern', 'America/New_York'],
    ['US/Pacific', 'America/Los_Angeles'],
    ['Israel', 'Asia/Jerusalem'],
    ['Asia/Tel_Aviv', 'Asia/Jerusalem'],
    ['America/Yellowknife', 'America/Edmonton'],
    // Fixed-offset zones are valid IANA names.
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['etc/gmt-14', 'Etc/GMT-14'],
    // Distinct zones that behave like others keep their own name.
    ['America/Detroit', 'America/Detroit'],
    ['Europe/Guernsey', 'Europe/Guernsey'],
  ])('%j → %s', (input, expected) => {
    expect(canonicalTimezone(input)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'Foo/Bar',
    'America/New York',
    'America/Springfield',
    'Mars/Olympus_Mons',
    '+05:00',
    'UTC+5',
    'Z',
    'Local',
    'Eastern',
    '../etc/passwd',
    'America//New_York',
    'x'.repeat(100),
    '日本',
  ])('%j is unknown', (input) => {
    expect(canonicalTimezone(input)).toBeNull();
  });

  it('resolves every zone Intl lists', () => {
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      const canonical = canonicalTimezone(zone);
      expect(canonical, zone).not.toBeNull();
      // The canonical name is itself canonical and usable by Intl.
      expect(canonicalTimezone(canonical!)).toBe(canonical);
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: canonical! })).not.toThrow();
    }
  });
});

describe('timezoneForLocation', () => {
  it.each<[string, string | null]>([
    // Subdivision table.
    ['US-CA', 'America/Los_Angeles'],
    ['us-ca', 'America/Los_Angeles'],
    ['US-NY', 'America/New_York'],
    ['US-DC', 'America/New_York'],
    ['US-IL', 'America/Chicago'],
    ['US-CO', 'America/Denver'],
    ['US-HI', 'Pacific/Honolulu'],
    ['US-WA', 'America/Los_Angeles'],
    ['US-PR', 'America/Puerto_Rico'],
    ['US-GU', 'Pacific/Guam'],
    ['CA-AB', 'America/Edmonton'],
    ['CA-MB', 'America/Winnipeg'],
    ['CA-NB', 'America/Halifax'],
    ['CA-NS', 'America/Halifax'],
    ['CA-PE', 'America/Halifax'],
    ['CA-NT', 'America/Edmonton'],
    ['CA-YT', 'America/Whitehorse'],
    // Split subdivisions.
    ...['TX', 'FL', 'IN', 'KY', 'TN', 'ND', 'SD', 'NE', 'KS', 'OR', 'ID', 'MI', 'AK', 'AZ', 'NV', 'UM'].map(
      (state): [string, null] => [`US-${state}`, null],
    ),
    ...['ON', 'QC', 'BC', 'NL', 'NU', 'SK'].map((province): [string, null] => [`CA-${province}`, null]),
    // Countries with one zone.
    ['DE', 'Europe/Berlin'],
    ['GB', 'Europe/London'],
    ['IL', 'Asia/Jerusalem'],
    ['FR', 'Europe/Paris'],
    ['IE', 'Europe/Dublin'],
    ['IN', 'Asia/Kolkata'],
    ['JP', 'Asia/Tokyo'],
    ['UA', null], // Kyiv and Simferopol
    ['PR', 'America/Puerto_Rico'],
    // Countries with several zones.
    ['US', null],
    ['CA', null],
    ['AU', null],
    ['RU', null],
    ['BR', null],
    ['MX', null],
    ['ES', null], // Madrid and the Canaries
    ['PT', null], // Lisbon and the Azores
    ['CN', null], // Shanghai and Urumqi
    // Subdivisions of other countries follow their country.
    ['DE-BY', 'Europe/Berlin'],
    ['GB-ENG', 'Europe/London'],
    ['IL-TA', 'Asia/Jerusalem'],
    ['AU-NSW', null],
    ['ES-CN', null],
    // Unknown.
    ['', null],
    ['ZZ', null],
    ['XX-YY', null],
    ['not a code', null],
  ])('%j → %s', (location, expected) => {
    expect(timezoneForLocation(location)).toBe(expected);
  });
});

describe('subdivision time zone table', () => {
  const tableCodes = Object.keys(SUBDIVISION_TIMEZONES);

  it('covers every US and Canadian subdivision in ISO 3166-2, and nothing else', () => {
    const isoCodes = iso31662
      .map((entry) => entry.code)
      .filter((code) => code.startsWith('US-') || code.startsWith('CA-'))
      .sort();
    expect([...tableCodes].sort()).toEqual(isoCodes);
  });

  it.each(tableCodes.filter((code) => SUBDIVISION_TIMEZONES[code] !== null))('%s names a canonical zone', (code) => {
    const zone = SUBDIVISION_TIMEZONES[code]!;
    expect(canonicalTimezone(zone)).toBe(zone);
  });

  it.each(['AS', 'GU', 'MP', 'PR', 'VI'])('US-%s has the same zone as the country code %s', (territory) => {
    expect(SUBDIVISION_TIMEZONES[`US-${territory}`]).toBe(timezoneForLocation(territory));
  });
});

describe('timezonesForPhone and timezoneForPhone', () => {
  it.each<[string, string[], string | null]>([
    ['+14155552671', ['America/Los_Angeles'], 'America/Los_Angeles'],
    ['+12125550100', ['America/New_York'], 'America/New_York'],
    ['+13125550100', ['America/Chicago'], 'America/Chicago'],
    ['+18085550100', ['Pacific/Honolulu'], 'Pacific/Honolulu'],
    // Arizona's 928 includes the Navajo Nation, which keeps daylight time.
    ['+19285550100', ['America/Denver', 'America/Phoenix'], null],
    ['+19155550100', ['America/Denver'], 'America/Denver'], // El Paso, TX
    ['+15062345678', ['America/Halifax'], 'America/Halifax'], // New Brunswick
    ['+17875550100', ['America/Puerto_Rico'], 'America/Puerto_Rico'],
    // Alaska: Adak or Anchorage.
    ['+19075550100', ['America/Adak', 'America/Anchorage'], null],
    // Portugal: the Azores or Lisbon.
    ['+351912345678', ['Atlantic/Azores', 'Europe/Lisbon'], null],
    ['+972502345678', ['Asia/Jerusalem'], 'Asia/Jerusalem'],
    ['+97231234567', ['Asia/Jerusalem'], 'Asia/Jerusalem'],
    // Guernsey, Isle of Man, Jersey and London behave the same: one zone, the UK's.
    ['+442079460958', ['Europe/London'], 'Europe/London'],
    ['+447400123456', ['Europe/London'], 'Europe/London'],
    // Guernsey's own range names Guernsey.
    ['+441481256789', ['Europe/Guernsey'], 'Europe/Guernsey'],
    // The data lists Irish numbers under the UK's zones; Dublin behaves the same.
    ['+353861234567', ['Europe/Dublin'], 'Europe/Dublin'],
    // Rome and the Vatican, Helsinki and Mariehamn, Oslo and Longyearbyen: one zone each.
    ['+393123456789', ['Europe/Rome'], 'Europe/Rome'],
    ['+358401234567', ['Europe/Helsinki'], 'Europe/Helsinki'],
    ['+4791234567', ['Europe/Oslo'], 'Europe/Oslo'],
    ['+59995181234', ['America/Curacao'], 'America/Curacao'],
    // Asia/Calcutta in the data is Asia/Kolkata.
    ['+918123456789', ['Asia/Kolkata'], 'Asia/Kolkata'],
    ['+4915123456789', ['Europe/Berlin'], 'Europe/Berlin'],
    ['+33612345678', ['Europe/Paris'], 'Europe/Paris'],
    // Countries with several zones: all of them, whatever the range (a Canaries landline too).
    ['+34612345678', ['Atlantic/Canary', 'Europe/Madrid'], null],
    ['+34922123456', ['Atlantic/Canary', 'Europe/Madrid'], null],
    ['+8613800138000', ['Asia/Shanghai', 'Asia/Urumqi'], null],
    [
      '+61412345678',
      [
        'Australia/Adelaide',
        'Australia/Brisbane',
        'Australia/Darwin',
        'Australia/Eucla',
        'Australia/Lord_Howe',
        'Australia/Perth',
        'Australia/Sydney',
      ],
      null,
    ],
    // The data names America/Chicago for Nicaragua, which keeps no daylight time.
    ['+50581234567', ['America/Managua'], 'America/Managua'],
    // No zone data for the calling code, or not a valid number.
    ['+80012345678', [], null],
    ['+1', [], null],
    ['+61', [], null],
    ['', [], null],
    ['+', [], null],
    ['abc', [], null],
  ])('%j → %j', (e164, zones, single) => {
    expect(timezonesForPhone(e164)).toEqual(zones);
    expect(timezoneForPhone(e164)).toBe(single);
  });

  it('is ambiguous for a NANP number without area-code data (toll free)', () => {
    const zones = timezonesForPhone('+18005550100');
    expect(zones.length).toBeGreaterThan(5);
    expect(zones).toContain('America/New_York');
    expect(zones).toContain('America/Los_Angeles');
    expect(new Set(zones).size).toBe(zones.length);
    expect(timezoneForPhone('+18005550100')).toBeNull();
  });

  it('returns canonical, distinct zones for every number', () => {
    for (const e164 of [
      '+18005550100',
      '+79161234567',
      '+61412345678',
      '+525512345678',
      '+5511912345678',
      '+628112345678',
      '+442079460958',
      '+353861234567',
    ]) {
      const zones = timezonesForPhone(e164);
      expect(zones.length, e164).toBeGreaterThan(0);
      expect(new Set(zones).size, e164).toBe(zones.length);
      for (const zone of zones) expect(canonicalTimezone(zone), zone).toBe(zone);
    }
  });

  it('returns a fresh array each call (callers cannot corrupt the cache)', () => {
    const first = timezonesForPhone('+442079460958');
    first.push('Mars/Olympus_Mons');
    expect(timezonesForPhone('+442079460958')).toEqual(['Europe/London']);
  });

  it('decodes the prefix data once, not per call, across 10,000 lookups', () => {
    const numbers = ['+14155552671', '+19075550100', '+442079460958', '+351912345678', '+972502345678'];
    let singles = 0;
    for (let i = 0; i < 10_000; i++) {
      if (timezoneForPhone(numbers[i % numbers.length])) singles++;
    }
    expect(singles).toBe(6_000);
    expect(decodeCalls.count).toBe(1);
  });
});

describe('inferTimezone', () => {
  it.each<[string | null, string | null, string | null]>([
    // The location's subdivision first...
    ['US-CA', '+442079460958', 'America/Los_Angeles'],
    ['CA-AB', null, 'America/Edmonton'],
    // ...then its country when that has one zone...
    ['DE', '+14155552671', 'Europe/Berlin'],
    ['DE-BY', null, 'Europe/Berlin'],
    ['IL', null, 'Asia/Jerusalem'],
    // ...else the phone.
    ['US-TX', '+19155550100', 'America/Denver'],
    ['US', '+14155552671', 'America/Los_Angeles'],
    ['AU', '+442079460958', 'Europe/London'],
    [null, '+972502345678', 'Asia/Jerusalem'],
    // A phone whose zone is not certain gives none.
    [null, '+61412345678', null],
    ['AU', '+61412345678', null],
    ['US-NY', '+61412345678', 'America/New_York'],
    // Nothing single.
    ['US', '+19075550100', null],
    ['US-TX', null, null],
    [null, '+351912345678', null],
    ['PT', '+351912345678', null],
    [null, null, null],
    ['', '', null],
  ])('location %j, phone %j → %s', (location, e164, expected) => {
    expect(inferTimezone(location, e164)).toBe(expected);
  });
});
