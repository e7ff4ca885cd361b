// Do-not-call registry files, as pure rules: how a line of a registry's file is read (skipped, a
// number of the registry's country, or malformed), what part of the Account's copy a number
// falls in (its scope), and how the numbers that share all their digits but the last four are
// stored (a block). docs/dnc-registries.md; docs/decisions/0037-dnc-registry-imports.md.
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/max';
import { normalizePhone } from '../../normalize/phone.js';
import { DNC_REGISTRIES, type DncRegistry } from './calling-rule.types.js';
import { RULE_SET } from './rule-set.js';

/** Registries whose copies are kept per +1 area code (the US registry is sold and downloaded that way). */
export const REGISTRIES_BY_AREA_CODE: ReadonlySet<DncRegistry> = new Set(['us_national', 'ca_national']);

export const isDncRegistry = (value: string): value is DncRegistry => Object.hasOwn(DNC_REGISTRIES, value);

/** What part of a registry's copy covers this number: its area code for a +1 registry, else the whole ("*"). */
export function registryScope(registry: DncRegistry, e164: string): string {
  return REGISTRIES_BY_AREA_CODE.has(registry) ? e164.replace(/\D/g, '').slice(1, 4) : '*';
}

/** The most days a copy may be old under the rule set's rule for the registry (null: no rule names it). */
export function maxCopyAgeDays(registry: DncRegistry): number | null {
  const ages = RULE_SET.rules.flatMap((r) =>
    r.restriction.kind === 'registry' && r.restriction.registry === registry ? [r.restriction.maxCopyAgeDays] : [],
  );
  return ages.length ? Math.min(...ages) : null;
}

/** A +1 area code: three digits, the first 2–9, not a service code (N11). */
export const AREA_CODE_PATTERN = /^[2-9](?!11)[0-9]{2}$/;

/** A line longer than this is malformed (no written number is that long). */
export const MAX_LINE_LENGTH = 64;

export type LineReading =
  | { kind: 'skip' }
  /** The E.164 number's digits, without the `+`. */
  | { kind: 'number'; digits: string }
  | { kind: 'malformed'; message: string };

const SKIP: LineReading = { kind: 'skip' };
/** A NANP line: digits, optionally after a `+`, with spaces, parentheses, dots, hyphens or a comma between. */
const NANP_LINE = /^\+?[0-9 ().,-]+$/;

/**
 * Reads one line of a registry file. Blank lines and lines starting with `#` are skipped. A +1
 * registry's line is ten digits (`4155550123`, as the FTC distributes the US registry, and the
 * CRTC the Canadian one), also written `415,5550123`, `(415) 555-0123` or with the leading 1 or
 * +1; the area code and the exchange start with 2–9. Any other registry's line is a number of
 * its country, national (`06 12 34 56 78`) or international (`+33 6 12 34 56 78`,
 * `0033612345678`, `33612345678`), valid under libphonenumber's full metadata.
 */
export function readRegistryLine(registry: DncRegistry, line: string): LineReading {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return SKIP;
  if (text.length > MAX_LINE_LENGTH) return malformed(`longer than ${MAX_LINE_LENGTH} characters`);
  if (REGISTRIES_BY_AREA_CODE.has(registry)) return readNanp(text);
  const country = DNC_REGISTRIES[registry];
  const read = normalizePhone(text, country);
  if (!read.ok || read.e164.slice(1, 1 + callingCode(country).length) !== callingCode(country))
    return malformed(`not a valid ${country} phone number`);
  return { kind: 'number', digits: read.e164.slice(1) };
}

function readNanp(text: string): LineReading {
  if (!NANP_LINE.test(text)) return malformed('not a phone number (expected ten digits: area code and number)');
  let digits = text.replace(/[^0-9]/g, '');
  if (digits.length === 11 && digits[0] === '1') digits = digits.slice(1);
  if (digits.length !== 10) return malformed(`${digits.length} digits (expected ten: area code and number)`);
  if (!AREA_CODE_PATTERN.test(digits.slice(0, 3)))
    return malformed(`${digits.slice(0, 3)} is not an area code (three digits, the first 2–9, not N11)`);
  if (digits[3] < '2') return malformed('the exchange (the three digits after the area code) must start with 2–9');
  return { kind: 'number', digits: `1${digits}` };
}

const malformed = (message: string): LineReading => ({ kind: 'malformed', message });

const callingCodes = new Map<string, string>();
function callingCode(country: string): string {
  let code = callingCodes.get(country);
  if (code === undefined) {
    code = getCountryCallingCode(country as CountryCode);
    callingCodes.set(country, code);
  }
  return code;
}

// ---------------------------------------------------------------------------------------------
// Blocks

/** Numbers in a block: those sharing all their digits but the last four. */
export const BLOCK_SIZE = 10_000;
/** A block as a bitmap: one bit per number. */
export const BITMAP_BYTES = BLOCK_SIZE / 8;
/** Up to this many numbers a block is their 2-byte codes (smaller than the bitmap); above, the bitmap. */
export const MAX_CODES = Math.floor((BITMAP_BYTES - 1) / 2);

/** A number's block (its digits but the last four) and its place in it (the last four). */
export const blockOf = (digits: string) => ({
  prefix: digits.slice(0, -4),
  offset: Number(digits.slice(-4)),
});

/**
 * The stored form of a block's numbers (offsets 0–9999, sorted, without repeats): the bitmap
 * (bit n in byte n >> 3 at n & 7 from the least significant bit, as PostgreSQL's get_bit reads
 * it) when more than MAX_CODES, else each number's 2-byte code: 0x80 | n >> 7, then n & 0x7F.
 * A code's first byte has its high bit set and its second not, so a search for a code in the
 * bytes can only match at a code's start.
 */
export function encodeBlock(offsets: ArrayLike<number>): Buffer {
  if (offsets.length > MAX_CODES) {
    const bitmap = Buffer.alloc(BITMAP_BYTES);
    for (let i = 0; i < offsets.length; i++) bitmap[offsets[i] >> 3] |= 1 << (offsets[i] & 7);
    return bitmap;
  }
  const codes = Buffer.alloc(offsets.length * 2);
  for (let i = 0; i < offsets.length; i++) {
    codes[2 * i] = 0x80 | (offsets[i] >> 7);
    codes[2 * i + 1] = offsets[i] & 0x7f;
  }
  return codes;
}

/** The offsets a stored block holds, sorted. */
export function decodeBlock(bits: Uint8Array): number[] {
  const offsets: number[] = [];
  if (bits.length === BITMAP_BYTES) {
    for (let byte = 0; byte < BITMAP_BYTES; byte++) {
      const value = bits[byte];
      if (value === 0) continue;
      for (let bit = 0; bit < 8; bit++) if (value & (1 << bit)) offsets.push(byte * 8 + bit);
    }
    return offsets;
  }
  for (let i = 0; i + 1 < bits.length; i += 2) offsets.push(((bits[i] & 0x7f) << 7) | bits[i + 1]);
  return offsets;
}

/** The union of offset lists, sorted, without repeats. */
export function mergeOffsets(...lists: ArrayLike<number>[]): Uint16Array {
  let length = 0;
  for (const list of lists) length += list.length;
  const all = new Uint16Array(length);
  let at = 0;
  for (const list of lists) for (let i = 0; i < list.length; i++) all[at++] = list[i];
  all.sort();
  let kept = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i];
  return all.subarray(0, kept);
}
