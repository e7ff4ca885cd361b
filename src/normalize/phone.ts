// Phone numbers: the pattern a written phone must match, and normalization to E.164 with
// libphonenumber-js's `max` metadata (the only one that checks a number is really valid, not
// just well shaped).
import {
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';

/**
 * The pattern a `phone` sent in a write must match: an optional single leading `+` or `00`, then
 * digits with optional spaces, parentheses, dots and hyphens, at least one digit. A value that
 * fails it is a bad request (400) before any parsing. The lookahead keeps the check linear on
 * long input.
 */
export const PHONE_WRITE_PATTERN: RegExp = /^(?:\+|00)?(?=[^0-9]*[0-9])[0-9 ().-]+$/;

export type PhoneNormalization = { ok: true; e164: string; country: string | null } | { ok: false };

/**
 * Reads a phone number as E.164 (`+442079460958`). `defaultCountry` (ISO alpha-2, any case) is
 * used for numbers written without an international prefix; without it only international
 * numbers can be read. `country` is the region the number belongs to (null for non-geographic
 * numbers such as +800). Only numbers valid under the `max` metadata are ok. Never throws.
 */
export function normalizePhone(input: string, defaultCountry?: string | null): PhoneNormalization {
  if (typeof input !== 'string') return { ok: false };
  const text = input.trim();
  if (!PHONE_WRITE_PATTERN.test(text)) return { ok: false };

  const country = toCountryCode(defaultCountry);
  let number = parseValid(text, country);
  // libphonenumber reads a leading 00 as international only when it is the default country's
  // own exit code (so `00 44 ...` with default US is a US number, and invalid): retry as `+`.
  if (!number && text.startsWith('00')) number = parseValid(`+${text.slice(2)}`, country);
  if (!number) return { ok: false };
  return { ok: true, e164: number.number, country: number.country ?? null };
}

/** The digits of an E.164 number without the `+` (`+14155552671` → `14155552671`). */
export function phoneDigits(e164: string): string {
  return typeof e164 === 'string' ? e164.replace(/\D/g, '') : '';
}

function toCountryCode(country: string | null | undefined): CountryCode | undefined {
  if (typeof country !== 'string') return undefined;
  const upper = country.trim().toUpperCase();
  return isSupportedCountry(upper) ? upper : undefined;
}

function parseValid(text: string, defaultCountry: CountryCode | undefined): PhoneNumber | undefined {
  try {
    const number = parsePhoneNumberFromString(text, { defaultCountry, extract: false });
    return number?.isValid() ? number : undefined;
  } catch {
    // parsePhoneNumberFromString is documented not to throw; this is belt and braces.
    return undefined;
  }
}
