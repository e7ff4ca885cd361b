// Phone rules: the pattern a written phone must match, and E.164 normalization with the `max` metadata.
import { describe, expect, it } from 'vitest';
import { PHONE_WRITE_PATTERN, normalizePhone, phoneDigits } from '../../../src/normalize/phone.js';

describe('PHONE_WRITE_PATTERN', () => {
  it.each([
    '+14155552671',
    '+1 (415) 555-2671',
    '+1 415.555.2671',
    '00 44 20 7946 0958',
    '0044 20 7946 0958',
    '(415) 555-2671',
    '415.555.2671',
    '4155552671',
    '+44 (0) 20 7946 0958',
    '+972-50-234-5678',
    '1',
    '+1',
    '00',
    '(0)1',
    '- 1 -',
  ])('accepts %j', (value) => {
    expect(PHONE_WRITE_PATTERN.test(value)).toBe(true);
  });

  it.each([
    '',
    ' ',
    '+',
    '++14155552671',
    '+ +1 415',
    '1+415',
    '+1 415 555 2671 ext 12',
    '415-555-2671 x12',
    '415/555/2671',
    '415_555_2671',
    'abc',
    'phone: 4155552671',
    '#4155552671',
    '*67 4155552671',
    '()-. ',
    '+()',
    '１２３４５', // full-width digits
    '٤١٥٥٥٥٢٦٧١', // Arabic-Indic digits
    '4155552671\n',
    '\t4155552671',
    ' +14155552671', // the pattern is for trimmed input
    '0044+20 7946 0958',
  ])('rejects %j', (value) => {
    expect(PHONE_WRITE_PATTERN.test(value)).toBe(false);
  });

  it('is stateless between calls (no global flag)', () => {
    expect(PHONE_WRITE_PATTERN.global).toBe(false);
    expect(PHONE_WRITE_PATTERN.test('+14155552671')).toBe(true);
    expect(PHONE_WRITE_PATTERN.test('+14155552671')).toBe(true);
  });

  it('stays fast on long input that almost matches', () => {
    const started = Date.now();
    expect(PHONE_WRITE_PATTERN.test(`${'('.repeat(50_000)}x`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('normalizePhone', () => {
  it.each<[string, string | null | undefined, string, string | null]>([
    ['+14155552671', null, '+14155552671', 'US'],
    ['+1 (415) 555-2671', undefined, '+14155552671', 'US'],
    ['  +1 415 555 2671  ', null, '+14155552671', 'US'],
    ['(415) 555-2671', 'US', '+14155552671', 'US'],
    ['415.555.2671', 'us', '+14155552671', 'US'],
    ['415 555 2671', ' US ', '+14155552671', 'US'],
    ['+44 (0) 20 7946 0958', null, '+442079460958', 'GB'],
    ['+44 (0) 20 7946 0958', 'US', '+442079460958', 'GB'],
    ['020 7946 0958', 'GB', '+442079460958', 'GB'],
    ['00 44 20 7946 0958', 'US', '+442079460958', 'GB'],
    ['00 44 20 7946 0958', null, '+442079460958', 'GB'],
    ['00 44 20 7946 0958', 'GB', '+442079460958', 'GB'],
    ['0044 20 7946 0958', 'DE', '+442079460958', 'GB'],
    ['011 44 20 7946 0958', 'US', '+442079460958', 'GB'],
    ['+972 50-234-5678', null, '+972502345678', 'IL'],
    ['050-234-5678', 'IL', '+972502345678', 'IL'],
    ['03-123-4567', 'IL', '+97231234567', 'IL'],
    ['+351 912 345 678', null, '+351912345678', 'PT'],
    ['+1 907 555 0100', null, '+19075550100', 'US'],
    ['+49 151 23456789', null, '+4915123456789', 'DE'],
    ['0151 23456789', 'DE', '+4915123456789', 'DE'],
    ['06 12 34 56 78', 'FR', '+33612345678', 'FR'],
    ['+33 (0)6 12 34 56 78', null, '+33612345678', 'FR'],
    ['+1 506 234 5678', null, '+15062345678', 'CA'],
    ['+44 1481 256789', null, '+441481256789', 'GG'],
    ['+800 1234 5678', null, '+80012345678', null],
    ['+14155552671', 'XX', '+14155552671', 'US'],
    ['+14155552671', '', '+14155552671', 'US'],
  ])('%j (default %j) → %s', (input, defaultCountry, e164, country) => {
    expect(normalizePhone(input, defaultCountry)).toEqual({ ok: true, e164, country });
  });

  it.each<[string, string | null | undefined]>([
    ['4155552671', null], // national number without a default country
    ['4155552671', undefined],
    ['4155552671', 'XX'], // unknown default country: as if none
    ['+1 555 555 5555', null], // well shaped, but 555 is not an area code
    ['+972 50-123-4567', null], // Israeli mobile numbers never start with 1 after the prefix
    ['+44 20 7946 095', null], // one digit short
    ['+44 20 7946 0958 1234', null], // too long
    ['+44 20 7946 0958 ext 1', null], // extensions fail the write pattern
    ['++44 20 7946 0958', null],
    ['+00 44 20 7946 0958', null],
    ['+', null],
    ['00', null],
    ['0', null],
    ['1', 'US'],
    ['911', 'US'],
    ['', 'US'],
    ['   ', 'US'],
    ['not a number', 'US'],
    ['1-800-FLOWERS', 'US'],
  ])('%j (default %j) is not a valid number', (input, defaultCountry) => {
    expect(normalizePhone(input, defaultCountry)).toEqual({ ok: false });
  });

  it('gives the same E.164 for every way of writing one number', () => {
    const spellings = [
      '+442079460958',
      '+44 20 7946 0958',
      '+44 (0) 20 7946 0958',
      '+44.20.7946.0958',
      '+44-20-7946-0958',
      '0044 20 7946 0958',
      '00 44 (0)20 7946 0958',
    ];
    for (const spelling of spellings) {
      expect(normalizePhone(spelling, 'US')).toEqual({ ok: true, e164: '+442079460958', country: 'GB' });
    }
  });

  it('handles 10,000 calls without reloading anything (no timing assertion)', () => {
    let valid = 0;
    for (let i = 0; i < 10_000; i++) {
      const result = normalizePhone(`+1 415 555 ${String(1000 + (i % 9000)).padStart(4, '0')}`, 'US');
      if (result.ok) valid++;
    }
    expect(valid).toBe(10_000);
  });
});

describe('phoneDigits', () => {
  it.each([
    ['+14155552671', '14155552671'],
    ['+442079460958', '442079460958'],
    ['+1 (415) 555-2671', '14155552671'],
    ['', ''],
    ['+', ''],
  ])('%j → %j', (input, digits) => {
    expect(phoneDigits(input)).toBe(digits);
  });
});
