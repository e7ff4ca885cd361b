// The one table of what an API key's scopes allow (src/domain/api-keys/key-scopes.ts) covers the
// whole schema: every Query and Mutation field is either open to keys, with the scope it needs,
// or listed as not for keys (the operator's, the console's, the board app's). A new field that
// is in neither fails here, so no operation is left open to a key with fewer scopes by accident;
// and the guide's table names every field under its scope.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/domain/schema.js';
import { FIELD_SCOPES, KEY_SCOPES, NOT_FOR_KEYS } from '../../src/domain/api-keys/key-scopes.js';

const rootFields = [schema.getQueryType()!, schema.getMutationType()!].flatMap((root) =>
  Object.keys(root.getFields()).map((field) => `${root.name}.${field}`),
);

describe('API key scopes', () => {
  it('place every root field: open to keys with a scope, or not for keys', () => {
    const unplaced = rootFields.filter((field) => !(field in FIELD_SCOPES) && !NOT_FOR_KEYS.has(field));
    expect(unplaced).toEqual([]);
    const both = rootFields.filter((field) => field in FIELD_SCOPES && NOT_FOR_KEYS.has(field));
    expect(both).toEqual([]);
  });

  it('name no field the schema does not have, and use every scope', () => {
    const known = new Set(rootFields);
    expect(Object.keys(FIELD_SCOPES).filter((field) => !known.has(field))).toEqual([]);
    expect([...NOT_FOR_KEYS].filter((field) => !known.has(field))).toEqual([]);
    expect(KEY_SCOPES.filter((scope) => !Object.values(FIELD_SCOPES).includes(scope))).toEqual([]);
  });

  it("are the guide's table: each field in its scope's row", () => {
    const guide = fs.readFileSync(new URL('../../docs/api-keys.md', import.meta.url), 'utf8');
    const rows = new Map(
      guide
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .map((line) => [line.split('|')[1].trim().replaceAll('`', ''), line] as const),
    );
    expect([...rows.keys()].filter((scope) => KEY_SCOPES.includes(scope as never))).toEqual([...KEY_SCOPES]);
    for (const [field, scope] of Object.entries(FIELD_SCOPES)) {
      // A mutation's `…Typed` twin is named once, with its mutation.
      const name = field.slice(field.indexOf('.') + 1).replace(/Typed$/, '');
      expect(rows.get(scope), `${field} in the row of ${scope}`).toMatch(new RegExp(`\`${name}\``));
    }
  });
});
