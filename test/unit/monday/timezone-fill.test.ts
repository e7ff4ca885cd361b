// monday "Fill timezone from phone": resolving one zone from the phone column, reading and
// writing the timezone column, and the keep / write / fail decision.
import { describe, expect, it } from 'vitest';
import {
  existingTimezone,
  phoneColumnValue,
  planTimezoneFill,
  resolveTimezoneFromPhone,
  timezoneColumnValue,
  type PhoneColumnValue,
  type TimezoneColumnType,
} from '../../../src/domain/boards/timezone-fill.rules.js';

/** Australia's zones: a number there can be in any of them. */
const AUSTRALIA = [
  'Australia/Adelaide',
  'Australia/Brisbane',
  'Australia/Darwin',
  'Australia/Eucla',
  'Australia/Lord_Howe',
  'Australia/Perth',
  'Australia/Sydney',
];

const phone = (number: string | null, country: string | null = null): PhoneColumnValue => ({
  phone: number,
  countryShortName: country,
});

describe('resolveTimezoneFromPhone: one zone', () => {
  it.each([
    // Countries with a single zone: the flag (the number's country) decides.
    ['+44 20 7946 0958', 'GB', 'Europe/London', 'country'],
    ['+49 30 901820', 'DE', 'Europe/Berlin', 'country'],
    ['+972 3 123 4567', 'IL', 'Asia/Jerusalem', 'country'],
    ['+81 3 1234 5678', 'JP', 'Asia/Tokyo', 'country'],
    ['+33 1 42 68 53 00', 'FR', 'Europe/Paris', 'country'],
    ['+91 22 2345 6789', 'IN', 'Asia/Kolkata', 'country'],
    ['+91 98765 43210', 'IN', 'Asia/Kolkata', 'country'],
    ['+353 1 812 3456', 'IE', 'Europe/Dublin', 'country'],
    ['+7 701 123 4567', 'KZ', 'Asia/Almaty', 'country'],
    // No flag: the number's own region.
    ['+44 20 7946 0958', null, 'Europe/London', 'country'],
    ['+81 3 1234 5678', null, 'Asia/Tokyo', 'country'],
    // A national number takes the flag as its country.
    ['020 7946 0958', 'GB', 'Europe/London', 'country'],
    ['030 901820', 'DE', 'Europe/Berlin', 'country'],
    ['03-123-4567', 'IL', 'Asia/Jerusalem', 'country'],
    // 00 international prefix.
    ['0044 20 7946 0958', null, 'Europe/London', 'country'],
    // The flag is lower-case or padded.
    ['020 7946 0958', ' gb ', 'Europe/London', 'country'],
    // The country's own zone, not the representative zone Google's range data names
    // (America/Chicago for Nicaragua, which keeps no daylight time).
    ['+505 8123 4567', 'NI', 'America/Managua', 'country'],
    // Regions tzdb does not list: the calling code's one zone.
    ['+247 62345', 'AC', 'Atlantic/St_Helena', 'calling_code'],
    ['+383 44 123 456', 'XK', 'Europe/Belgrade', 'calling_code'],
    // +1 numbers: always the area code, whatever the country.
    ['+1 415 555 2671', 'US', 'America/Los_Angeles', 'area_code'],
    ['+1 212 555 0100', 'US', 'America/New_York', 'area_code'],
    ['+1 202 555 0169', 'US', 'America/New_York', 'area_code'],
    ['+1 416 555 0100', 'CA', 'America/Toronto', 'area_code'],
    ['+1 604 555 0100', 'CA', 'America/Vancouver', 'area_code'],
    ['+1 809 555 0100', 'DO', 'America/Santo_Domingo', 'area_code'],
    ['+1 671 555 0100', 'GU', 'Pacific/Guam', 'area_code'],
    ['415 555 2671', 'US', 'America/Los_Angeles', 'area_code'],
    ['(212) 555-0100', 'US', 'America/New_York', 'area_code'],
    ['+14155552671', null, 'America/Los_Angeles', 'area_code'],
    // The digits win over a flag that does not match them.
    ['+1 212 555 0100', 'GB', 'America/New_York', 'area_code'],
    ['+44 20 7946 0958', 'US', 'Europe/London', 'country'],
    // A Guernsey mobile range inside +44: the number's own region, not the GB flag.
    ['+44 7911 123456', 'GB', 'Europe/Guernsey', 'country'],
    // Digits with the calling code but no plus, read against the flag.
    ['12025550169', 'US', 'America/New_York', 'area_code'],
  ])('%s (%s) → %s by %s', (number, country, timezone, source) => {
    expect(resolveTimezoneFromPhone(phone(number, country))).toEqual({ ok: true, timezone, source });
  });
});

describe('resolveTimezoneFromPhone: failures', () => {
  it.each([
    // [phone, flag, reason, candidates]
    [null, 'US', 'no_phone', []],
    ['', 'US', 'no_phone', []],
    ['   ', null, 'no_phone', []],
    ['hello', null, 'invalid_phone', []],
    ['12345', 'US', 'invalid_phone', []],
    ['+1 555', null, 'invalid_phone', []],
    ['+44 20 7946 0958 ext 12', 'GB', 'invalid_phone', []],
    // A national number with no flag cannot be read.
    ['020 7946 0958', null, 'invalid_phone', []],
    ['415 555 2671', null, 'invalid_phone', []],
    // Valid for the flag? No: a US number written nationally with a GB flag.
    ['415 555 2671', 'GB', 'invalid_phone', []],
    ['+1 907 555 0100', 'US', 'ambiguous', ['America/Adak', 'America/Anchorage']],
    ['+1 208 555 0100', 'US', 'ambiguous', ['America/Denver', 'America/Los_Angeles']],
    ['+1 850 444 1234', 'US', 'ambiguous', ['America/Chicago', 'America/New_York']],
    ['+1 448 234 5678', 'US', 'ambiguous', ['America/Chicago', 'America/New_York']],
    // Countries with several zones fail whatever the range (a former bug: an Australian mobile was
    // filled with Australia/Sydney).
    ['+61 412 345 678', 'AU', 'ambiguous', AUSTRALIA],
    ['+61 2 9374 4000', 'AU', 'ambiguous', AUSTRALIA],
    ['+61 8 9123 4567', 'AU', 'ambiguous', AUSTRALIA],
    ['0412 345 678', 'AU', 'ambiguous', AUSTRALIA],
    ['+62 811 234 567', 'ID', 'ambiguous', ['Asia/Jakarta', 'Asia/Jayapura', 'Asia/Makassar']],
    [
      '+55 11 91234 5678',
      'BR',
      'ambiguous',
      ['America/Manaus', 'America/Noronha', 'America/Rio_Branco', 'America/Sao_Paulo'],
    ],
    ['+34 922 123 456', 'ES', 'ambiguous', ['Atlantic/Canary', 'Europe/Madrid']],
    ['+34 912 345 678', 'ES', 'ambiguous', ['Atlantic/Canary', 'Europe/Madrid']],
    ['+351 912 345 678', 'PT', 'ambiguous', ['Atlantic/Azores', 'Europe/Lisbon']],
    // +1 numbers tied to no place: every NANP zone.
    [
      '+1 600 234 5678',
      'CA',
      'ambiguous',
      expect.arrayContaining(['America/New_York', 'America/Los_Angeles', 'America/Regina']),
    ],
    // Non-geographic: no zone at all.
    ['+800 1234 5678', null, 'unknown', []],
  ] as const)('%s (%s) → %s', (number, country, reason, candidates) => {
    const result = resolveTimezoneFromPhone(phone(number, country));
    expect(result).toMatchObject({ ok: false, reason, candidates });
    if (result.ok) return;
    expect(result.message.length).toBeGreaterThan(20);
    expect(result.message).toMatch(/[.]$/);
  });

  it('toll-free +1 800 numbers are ambiguous across many zones', () => {
    const result = resolveTimezoneFromPhone(phone('+1 800 555 0100', 'US'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe('ambiguous');
    expect(result.candidates.length).toBeGreaterThan(5);
    expect(result.candidates).toContain('America/New_York');
    expect(result.message).toMatch(
      /^\+1 800 numbers span \d+ time zones \(.* and \d+ more\): set the timezone by hand\.$/,
    );
  });

  it('names the area code and the zones in an ambiguous +1 message', () => {
    const result = resolveTimezoneFromPhone(phone('+1 907 555 0100', 'US'));
    expect(result).toMatchObject({
      ok: false,
      message: '+1 907 numbers span two time zones (America/Adak, America/Anchorage): set the timezone by hand.',
    });
  });

  it('names the number and the zones in an ambiguous non +1 message', () => {
    const result = resolveTimezoneFromPhone(phone('+61 412 345 678', 'AU'));
    expect(result).toMatchObject({
      ok: false,
      message:
        'The number +61412345678 matches seven time zones (Australia/Adelaide, Australia/Brisbane, ' +
        'Australia/Darwin, Australia/Eucla and 3 more): set the timezone by hand.',
    });
  });

  it('the Russian, Mexican and Chinese ranges of the data name no zone', () => {
    for (const [number, country] of [
      ['+7 495 123 4567', 'RU'],
      ['+7 383 123 4567', 'RU'],
      ['+52 55 1234 5678', 'MX'],
      ['+52 664 123 4567', 'MX'],
      ['+86 138 0013 8000', 'CN'],
    ] as const) {
      const result = resolveTimezoneFromPhone(phone(number, country));
      expect(result, number).toMatchObject({ ok: false, reason: 'ambiguous' });
      if (!result.ok) expect(result.candidates.length, number).toBeGreaterThan(1);
    }
  });

  it('asks for the country code when the phone cannot be read', () => {
    for (const [number, country] of [
      ['020 7946 0958', null],
      ['garbage', 'US'],
    ] as const) {
      const result = resolveTimezoneFromPhone(phone(number, country));
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.message).toContain(`"${number}"`);
      expect(result.message).toContain('must include the country code');
    }
  });

  it('mentions the selected country when the number is invalid for it', () => {
    const result = resolveTimezoneFromPhone(phone('415 555 2671', 'GB'));
    expect(result).toMatchObject({ ok: false, reason: 'invalid_phone' });
    if (!result.ok) expect(result.message).toContain('(GB)');
  });

  it('never throws on malformed input', () => {
    const bad = [
      { phone: 42, countryShortName: null },
      { phone: '+44 20 7946 0958', countryShortName: 7 },
      { phone: undefined, countryShortName: undefined },
      null,
    ] as unknown as PhoneColumnValue[];
    for (const value of bad) expect(() => resolveTimezoneFromPhone(value)).not.toThrow();
    expect(resolveTimezoneFromPhone(bad[1])).toMatchObject({ ok: true, timezone: 'Europe/London' });
    expect(resolveTimezoneFromPhone(bad[3])).toMatchObject({ ok: false, reason: 'no_phone' });
  });
});

describe('phoneColumnValue', () => {
  it.each([
    [{ phone: '+12025550169', country_short_name: 'US' }, phone('+12025550169', 'US')],
    [{ value: '{"phone":"+12025550169","countryShortName":"US"}' }, phone('+12025550169', 'US')],
    [
      { value: '{"phone":"02079460958","countryShortName":"gb","changed_at":"2024-01-01"}' },
      phone('02079460958', 'GB'),
    ],
    // The fragment wins over the raw value.
    [
      { phone: '+442079460958', country_short_name: 'GB', value: '{"phone":"+1","countryShortName":"US"}' },
      phone('+442079460958', 'GB'),
    ],
    [{ phone: '', country_short_name: '', value: null }, phone(null, null)],
    [{ value: null }, phone(null, null)],
    [{ value: 'not json' }, phone(null, null)],
    [{ value: '"+12025550169"' }, phone(null, null)],
    [{ value: '{"phone":"+12025550169"}' }, phone('+12025550169', null)],
    [{}, phone(null, null)],
  ])('%j', (column, expected) => {
    expect(phoneColumnValue(column)).toEqual(expected);
  });
});

describe('timezoneColumnValue', () => {
  it.each([
    ['text', 'America/New_York', '"America/New_York"'],
    ['text', 'Europe/London', '"Europe/London"'],
    ['world_clock', 'America/New_York', '{"timezone":"America/New_York"}'],
    ['world_clock', 'Europe/London', '{"timezone":"Europe/London"}'],
    // Written under the canonical name.
    ['text', 'Asia/Calcutta', '"Asia/Kolkata"'],
    ['world_clock', 'us/eastern', '{"timezone":"America/New_York"}'],
  ] as const)('%s %s → %s', (type, zone, expected) => {
    const value = timezoneColumnValue(type, zone);
    expect(value).toBe(expected);
    // The value is a JSON-encoded string, as change_column_value's JSON argument wants.
    expect(() => JSON.parse(value)).not.toThrow();
  });

  it('refuses a name that is not a time zone', () => {
    expect(() => timezoneColumnValue('text', 'Eastern')).toThrow(RangeError);
    expect(() => timezoneColumnValue('world_clock', '')).toThrow(RangeError);
    expect(() => timezoneColumnValue('fancy' as TimezoneColumnType, 'UTC')).toThrow(RangeError);
  });
});

describe('existingTimezone', () => {
  it.each([
    // [type, rawValue, text, expected]
    ['world_clock', '{"timezone":"America/New_York"}', '', 'America/New_York'],
    ['world_clock', '{"timezone":"Asia/Calcutta","changed_at":"2024-01-01T00:00:00Z"}', null, 'Asia/Kolkata'],
    ['world_clock', '{"timezone":"Mars/Olympus"}', null, null],
    ['world_clock', '{"timezone":null}', null, null],
    ['world_clock', '{}', '', null],
    ['world_clock', null, '', null],
    ['world_clock', 'garbage', null, null],
    ['text', '"America/Los_Angeles"', 'America/Los_Angeles', 'America/Los_Angeles'],
    ['text', '"america/los_angeles"', null, 'America/Los_Angeles'],
    ['text', '"US/Pacific"', 'US/Pacific', 'America/Los_Angeles'],
    // A bare (unencoded) name in the raw value, or only the display text.
    ['text', 'Europe/Berlin', null, 'Europe/Berlin'],
    ['text', null, 'Europe/Berlin', 'Europe/Berlin'],
    ['text', '"  Europe/Berlin  "', null, 'Europe/Berlin'],
    ['text', '"Eastern time"', 'Eastern time', null],
    ['text', '"GMT+2"', 'GMT+2', null],
    ['text', '""', '', null],
    ['text', null, null, null],
    ['text', '42', '42', null],
  ] as const)('%s %s / %s → %s', (type, rawValue, text, expected) => {
    expect(existingTimezone(type, rawValue, text)).toBe(expected);
  });
});

describe('planTimezoneFill', () => {
  const column = (type: TimezoneColumnType, rawValue: string | null = null, text: string | null = null) => ({
    type,
    rawValue,
    text,
  });

  it('keeps a zone already in a World Clock column', () => {
    expect(
      planTimezoneFill({
        phone: phone('+44 20 7946 0958', 'GB'),
        timezoneColumn: column('world_clock', '{"timezone":"America/Chicago"}'),
      }),
    ).toEqual({ action: 'keep', timezone: 'America/Chicago' });
  });

  it('keeps a zone already in a text column, even with no phone', () => {
    expect(
      planTimezoneFill({
        phone: phone(null),
        timezoneColumn: column('text', '"Asia/Tokyo"', 'Asia/Tokyo'),
      }),
    ).toEqual({ action: 'keep', timezone: 'Asia/Tokyo' });
  });

  it.each([
    // [phone, flag, column, timezone, source, value]
    ['+1 415 555 2671', 'US', column('text'), 'America/Los_Angeles', 'area_code', '"America/Los_Angeles"'],
    [
      '+1 212 555 0100',
      'US',
      column('world_clock'),
      'America/New_York',
      'area_code',
      '{"timezone":"America/New_York"}',
    ],
    ['020 7946 0958', 'GB', column('world_clock', '{}'), 'Europe/London', 'country', '{"timezone":"Europe/London"}'],
    // An invalid value in the column counts as empty and is overwritten.
    [
      '+972 3 123 4567',
      'IL',
      column('text', '"Israel time"', 'Israel time'),
      'Asia/Jerusalem',
      'country',
      '"Asia/Jerusalem"',
    ],
    [
      '+7 701 123 4567',
      'KZ',
      column('world_clock', '{"timezone":"Nowhere/Special"}'),
      'Asia/Almaty',
      'country',
      '{"timezone":"Asia/Almaty"}',
    ],
    ['+81 3 1234 5678', 'JP', column('text', '""', ''), 'Asia/Tokyo', 'country', '"Asia/Tokyo"'],
  ])('%s (%s) → write %s', (number, country, timezoneColumn, timezone, source, value) => {
    expect(planTimezoneFill({ phone: phone(number, country), timezoneColumn })).toEqual({
      action: 'write',
      timezone,
      source,
      value,
    });
  });

  it.each([
    [null, 'US', 'no_phone', []],
    ['not a phone', null, 'invalid_phone', []],
    ['020 7946 0958', null, 'invalid_phone', []],
    ['+1 907 555 0100', 'US', 'ambiguous', ['America/Adak', 'America/Anchorage']],
    ['+61 412 345 678', 'AU', 'ambiguous', AUSTRALIA],
    ['+800 1234 5678', null, 'unknown', []],
  ] as const)('%s (%s) → fail %s, nothing written', (number, country, reason, candidates) => {
    const plan = planTimezoneFill({
      phone: phone(number, country),
      timezoneColumn: column('text', '"not a zone"', 'not a zone'),
    });
    expect(plan).toMatchObject({ action: 'fail', reason, candidates });
    expect(plan).not.toHaveProperty('value');
    if (plan.action === 'fail') expect(plan.message).not.toBe('');
  });
});
