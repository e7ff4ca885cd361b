// Generated hostile values for the fuzz suites (fast-check): text PostgreSQL cannot store (NUL,
// lone surrogates), huge strings, JSON nested far past any limit, and values of the wrong type.
// Every suite runs with a fixed seed (FUZZ_SEED overrides it) and a modest number of runs per
// field, and fast-check prints the seed and the shrunk counterexample of a failure.
import fc from 'fast-check';

/** fc.assert's options for one field: reproducible, and small enough to keep the suite fast. */
export function fuzzOptions(numRuns = 20): fc.Parameters<unknown> {
  return { seed: Number(process.env.FUZZ_SEED ?? 20261127), numRuns, endOnFailure: true };
}

/** Text PostgreSQL cannot store, alone or inside ordinary text. */
const unstorable = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d', '\udc00\ud800', 'ok\u0000'),
  fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\ud800', '\udbff'), fc.string({ maxLength: 8 })).map((parts) => parts.join('')),
);

/** Strings of every kind: unstorable ones, any code units (lone surrogates included), huge ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: unstorable, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 300 }), weight: 1 },
  { arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', '%', '%00', '\\', '"', '{}', 'null', '-1', '1e309', '../..', '\u2028'), weight: 1 },
);

/** An object nested `levels` deep ({"k":{"k":…}}), built without recursion. */
export function nestedObject(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { k: 'v' };
  for (let i = 1; i < levels; i++) value = { k: value };
  return value;
}

/** JSON far deeper than any limit (arrays and objects). */
export const deepJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: 9, max: 5_000 }).map(nestedObject),
  fc.integer({ min: 9, max: 5_000 }).map((levels) => {
    let value: unknown = ['v'];
    for (let i = 1; i < levels; i++) value = [value];
    return value;
  }),
);

/** Values of the wrong type for any field. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 1e308, -0),
);

/** Anything a client might send in place of a field's value. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 5 },
  { arbitrary: deepJson, weight: 1 },
  { arbitrary: wrongType, weight: 2 },
  { arbitrary: fc.dictionary(hostileString, hostileString, { minKeys: 1, maxKeys: 3 }), weight: 1 },
);

/**
 * A path segment for a URL: percent-encoded UTF-8, and a lone surrogate as the bytes a
 * careless client would send for it (WTF-8), which is not UTF-8 at all.
 */
export function pathSegment(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (/^[A-Za-z0-9_.~-]$/.test(char)) out += char;
    else if (code >= 0xd800 && code <= 0xdfff) out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    else out += [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
  return out;
}
