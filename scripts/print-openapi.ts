// Prints the OpenAPI document to schema/openapi.json (npm run schema:print).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from '../src/rest/openapi.js';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schema/openapi.json');
fs.writeFileSync(target, `${JSON.stringify(buildOpenApi(), null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), target)}`);
