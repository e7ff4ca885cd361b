// schema/schema.graphql is printed from code and checked in: this fails when it is stale.
import fs from 'node:fs';
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/domain/schema.js';

describe('schema/schema.graphql', () => {
  it('matches the schema built from code (run `npm run schema:print` after changing it)', () => {
    const file = fs.readFileSync(path.resolve(import.meta.dirname, '../../schema/schema.graphql'), 'utf8');
    expect(file.trim()).toBe(printSchema(lexicographicSortSchema(schema)).trim());
  });
});

describe('schema/openapi.json', () => {
  it('matches the OpenAPI document built from the input schemas (run `npm run schema:print`)', async () => {
    const { buildOpenApi } = await import('../../src/rest/openapi.js');
    const file = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../schema/openapi.json'), 'utf8'));
    expect(file).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });
});
