// The input rules as pure functions: text PostgreSQL cannot store (found at any depth, named by
// its path), the customFields limits, and the schema's ID arguments (every one is checked as a
// UUID, so a new `...Id` argument cannot forget it).
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/domain/schema.js';
import { findUnstorableText, unstorableTextReason } from '../../src/domain/shared/storable-text.js';
import { CUSTOM_FIELDS_LIMITS, customFieldsLimitProblem } from '../../src/domain/contacts/custom-fields.rules.js';
import { checkedArguments } from '../../src/domain/shared/argument-guard.js';

describe('storable text', () => {
  it.each([
    ['a NUL', 'a\u0000b', /NUL/],
    ['a lone high surrogate', 'a\ud800', /surrogate/],
    ['a lone low surrogate', '\udc00a', /surrogate/],
    ['surrogates in the wrong order', '\udc00\ud800', /surrogate/],
  ])('refuses %s', (_name, text, reason) => {
    expect(unstorableTextReason(text)).toMatch(reason);
  });

  it.each(['', 'Ada', 'Zoë', '😀 emoji (a surrogate pair)', '\u0001 other control characters', '中文', '\ufffd'])(
    'accepts %j',
    (text) => {
      expect(unstorableTextReason(text)).toBeNull();
    },
  );

  it('names the first bad value or key by its path, at any depth, without recursion', () => {
    expect(
      findUnstorableText({
        contacts: [{ firstName: 'ok' }, { customFields: { address: { lines: ['x', 'a\u0000'] } } }],
      }),
    ).toEqual({
      path: 'contacts[1].customFields.address.lines[1]',
      message: expect.stringMatching(/NUL/),
    });
    expect(findUnstorableText({ customFields: { 'bad key\ud800': 1 } })?.path).toBe('customFields["bad key\\ud800"]');
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep, 'x')?.path).toBe(`x${'[0]'.repeat(100_000)}`);
    expect(findUnstorableText({ a: [1, true, null, { b: 'fine' }], when: new Date(0) })).toBeNull();
  });
});

describe('customFields limits', () => {
  const { maxBytes, maxDepth, maxKeys } = CUSTOM_FIELDS_LIMITS;
  const nested = (levels: number) => {
    let value: Record<string, unknown> = { k: 'v' };
    for (let i = 1; i < levels; i++) value = { k: value };
    return value;
  };

  it('accepts each limit exactly, refuses one past it', () => {
    expect(customFieldsLimitProblem(nested(maxDepth))).toBeNull();
    expect(customFieldsLimitProblem(nested(maxDepth + 1))).toMatch(/levels/);
    expect(customFieldsLimitProblem({ list: [[[[[[['deepest']]]]]]] })).toBeNull();
    expect(customFieldsLimitProblem({ list: [[[[[[[['too deep']]]]]]]] })).toMatch(/levels/);
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(customFieldsLimitProblem(keys(maxKeys))).toBeNull();
    expect(customFieldsLimitProblem(keys(maxKeys + 1))).toMatch(/keys/);
    expect(customFieldsLimitProblem({ a: keys(maxKeys / 2), b: keys(maxKeys / 2) })).toMatch(/keys/);
    expect(customFieldsLimitProblem({ s: 'x'.repeat(maxBytes - 8) })).toBeNull();
    expect(customFieldsLimitProblem({ s: 'x'.repeat(maxBytes - 7) })).toMatch(/bytes/);
    // Bytes, not characters: é is two bytes in UTF-8.
    expect(customFieldsLimitProblem({ s: 'é'.repeat(maxBytes / 2) })).toMatch(/bytes/);
  });

  it('measures a huge or very deep value in bounded time and stack', () => {
    expect(customFieldsLimitProblem({ list: Array.from({ length: 5_000_000 }, () => 0) })).toMatch(/bytes/);
    expect(customFieldsLimitProblem(nested(200_000))).toMatch(/levels/);
  });
});

describe('ID arguments of the schema', () => {
  const roots = [schema.getQueryType()!, schema.getMutationType()!];
  const argumentsOf = roots.flatMap((root) =>
    Object.values(root.getFields()).flatMap((field) => field.args.map((arg) => ({ field: field.name, arg }))),
  );
  /** Ids that are not ours: a contact's id in its source system, a monday board's number. */
  const FOREIGN_IDS = new Set(['externalId', 'boardId']);

  it('every id and ...Id argument is checked as a UUID', () => {
    const ids = argumentsOf.filter(({ arg }) => /(^id|Id)$/.test(arg.name) && !FOREIGN_IDS.has(arg.name));
    expect(ids.length).toBeGreaterThan(15);
    for (const { field, arg } of ids) expect(arg.extensions?.uuid, `${field}(${arg.name})`).toBe(true);
  });

  it('a malformed one is the 400 naming it; a valid one reaches the resolver lower-cased', () => {
    expect(() => checkedArguments({ id: 'x' }, ['id'])).toThrow('id must be a UUID');
    expect(checkedArguments({ id: 'A0000000-0000-4000-8000-00000000000F', name: 'n' }, ['id'])).toEqual({
      id: 'a0000000-0000-4000-8000-00000000000f',
      name: 'n',
    });
    expect(checkedArguments({ accountId: null }, ['accountId'])).toEqual({ accountId: null });
    expect(() => checkedArguments({ name: 'a\u0000' }, [])).toThrow('name: must not contain the NUL character');
    expect(() => checkedArguments({ input: { contacts: [{}, { firstName: '\ud800' }] } }, [])).toThrow(
      /^contacts\[1\]\.firstName: /,
    );
  });
});
