// Every normalization function takes any string (and survives non-strings) without throwing.
import { describe, expect, it } from 'vitest';
import {
  PHONE_WRITE_PATTERN,
  SUPPORTED_LOCALES,
  canonicalTimezone,
  countryOf,
  fillMissingName,
  inferTimezone,
  joinFullName,
  normalizeLanguage,
  normalizeLocation,
  normalizePhone,
  phoneDigits,
  splitFullName,
  timezoneForLocation,
  timezoneForPhone,
  timezonesForPhone,
} from '../../../src/normalize/index.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ALPHABET = [
  ...'abcXYZ019 +-_()./,;:\'"`&#*%$@!?~[]{}<>|\\',
  'é',
  'ß',
  'ñ',
  'ü',
  '\u0301',
  '\u05b0',
  'א',
  'ב',
  'ש',
  'ع',
  '中',
  '日',
  'к',
  'Ж',
  'ı',
  'İ',
  '\u0000',
  '\u0007',
  '\n',
  '\t',
  '\r',
  '\u00a0',
  '\u200b',
  '\u200e',
  '\u202e',
  '\ufeff',
  '\ud83d\ude00',
  '\ud800',
  '\udfff',
  '１',
  '٤',
  '’',
  '״',
];

function randomStrings(count: number, seed: number): string[] {
  const next = random(seed);
  const strings: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = Math.floor(next() * 40);
    let text = '';
    for (let j = 0; j < length; j++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
    strings.push(text);
  }
  return strings;
}

const NASTY = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '💩',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'US-__proto__',
  '+1 (((((((((((((((((((((((((((((((((((x',
  '0'.repeat(10_000),
  'a'.repeat(100_000),
  ' '.repeat(10_000),
  'Dr. '.repeat(1000),
  'de '.repeat(1000),
  '+'.repeat(1000),
  '-'.repeat(1000),
  '\u0301'.repeat(1000),
  'ד"ר ד"ר ד"ר',
  '"""""',
  '((()))',
  ',,,,',
];

const INPUTS = [...NASTY, ...randomStrings(2000, 20261122)];

describe('never throws on any string', () => {
  it('phone', () => {
    for (const input of INPUTS) {
      expect(() => PHONE_WRITE_PATTERN.test(input)).not.toThrow();
      for (const country of [null, undefined, 'US', 'GB', 'XX', '', input]) {
        const result = normalizePhone(input, country);
        if (result.ok) expect(result.e164).toMatch(/^\+[1-9]\d{6,14}$/);
      }
      expect(phoneDigits(input)).toMatch(/^\d*$/);
    }
  });

  it('location', () => {
    for (const input of INPUTS) {
      for (const country of [null, undefined, 'US', 'IN', 'xx', input]) {
        const location = normalizeLocation(input, country);
        if (location !== null) expect(location).toMatch(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/);
      }
      expect(() => countryOf(input)).not.toThrow();
    }
  });

  it('time zone', () => {
    for (const input of INPUTS) {
      const zone = canonicalTimezone(input);
      if (zone !== null) expect(canonicalTimezone(zone)).toBe(zone);
      expect(() => timezoneForLocation(input)).not.toThrow();
      expect(Array.isArray(timezonesForPhone(input))).toBe(true);
      expect(() => timezoneForPhone(input)).not.toThrow();
      expect(() => inferTimezone(input, input)).not.toThrow();
    }
  });

  it('language', () => {
    for (const input of INPUTS) {
      const locale = normalizeLanguage(input);
      if (locale !== null) expect(SUPPORTED_LOCALES).toContain(locale);
    }
  });

  it('names', () => {
    for (const input of INPUTS) {
      const parts = splitFullName(input);
      for (const part of [parts.firstName, parts.lastName]) {
        // Parts are trimmed, never empty strings.
        if (part !== null) expect(part).toBe(part.trim());
        if (part !== null) expect(part).not.toBe('');
      }
      expect(() => joinFullName(input, input)).not.toThrow();
      expect(() => fillMissingName(input, { firstName: input })).not.toThrow();
      expect(() => fillMissingName(input, { lastName: input })).not.toThrow();
    }
  });
});

describe('survives values that are not strings (untyped callers)', () => {
  const values = [null, undefined, 42, {}, [], true, Symbol('x')] as unknown as string[];

  it.each(values.map((value) => [value]))('%s', (value) => {
    expect(normalizePhone(value)).toEqual({ ok: false });
    expect(PHONE_WRITE_PATTERN.test(String(value as unknown))).toBe((value as unknown) === 42);
    expect(phoneDigits(value)).toBe('');
    expect(normalizeLocation(value)).toBeNull();
    expect(canonicalTimezone(value)).toBeNull();
    expect(timezoneForLocation(value)).toBeNull();
    expect(timezonesForPhone(value)).toEqual([]);
    expect(timezoneForPhone(value)).toBeNull();
    expect(normalizeLanguage(value)).toBeNull();
    expect(splitFullName(value)).toEqual({ firstName: null, lastName: null });
    expect(joinFullName(value, value)).toBeNull();
  });
});
