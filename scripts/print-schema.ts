// Writes the GraphQL schema (sorted, so diffs stay small) to schema/schema.graphql.
// Run with `npm run schema:print`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/domain/schema.js';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schema/schema.graphql');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, `${printSchema(lexicographicSortSchema(schema))}\n`);
console.log(`Wrote ${path.relative(process.cwd(), target) || target}`);
