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
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\ud800', '\udbff'), fc.string({ maxLength: 8 }))
    .map((parts) => parts.join('')),
);

/** Strings of every kind: unstorable ones, any code units (lone surrogates included), huge ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: unstorable, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 300 }), weight: 1 },
  { arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
  {
    arbitrary: fc.constantFrom('', ' ', '%', '%00', '\\', '"', '{}', 'null', '-1', '1e309', '../..', '\u2028'),
    weight: 1,
  },
);

/** An object nested `levels` deep ({"k":{"k":…}}), built without recursion. */
export function nestedObject(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { k: 'v' };
  for (let i = 1; i < levels; i++) value = { k: value };
  return value;
}

/**
 * JSON nested `levels` deep, kept as a marker: JSON.stringify (and so fetch bodies and the MCP
 * client) overflows the test process's stack long before the service should, so the suites
 * write it as text with toJson, or materialize it at a depth the client can send.
 */
export class DeepJson {
  constructor(
    readonly levels: number,
    readonly array: boolean,
  ) {}

  text(): string {
    return this.array
      ? `${'['.repeat(this.levels)}"v"${']'.repeat(this.levels)}`
      : `${'{"k":'.repeat(this.levels)}"v"${'}'.repeat(this.levels)}`;
  }
}

/** JSON far deeper than any limit (objects and arrays). */
export const deepJson: fc.Arbitrary<DeepJson> = fc
  .tuple(fc.integer({ min: 9, max: 6_000 }), fc.boolean())
  .map(([levels, array]) => new DeepJson(levels, array));

/** JSON text of `value`, with each DeepJson written out (at most `maxLevels` deep). */
export function toJson(value: unknown, maxLevels = Number.POSITIVE_INFINITY): string {
  const deep: DeepJson[] = [];
  // A DeepJson becomes a marker string ("\u0001deep<n>\u0001" once escaped), then its text.
  const text = JSON.stringify(value, (_key, item) =>
    item instanceof DeepJson
      ? `\u0001deep${deep.push(new DeepJson(Math.min(item.levels, maxLevels), item.array)) - 1}\u0001`
      : item,
  );
  return text.replace(/"\\u0001deep(\d+)\\u0001"/g, (_match, index: string) => deep[Number(index)].text());
}

/** `value` with each DeepJson as real nested JSON, at most `maxLevels` deep (what a JSON client can still serialize). */
export function materialize(value: unknown, maxLevels = 1_000): unknown {
  return JSON.parse(toJson(value, maxLevels));
}

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
    else if (code >= 0xd800 && code <= 0xdfff)
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    else out += [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
  return out;
}
