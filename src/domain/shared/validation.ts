// Turns a zod failure into the API's 400 `bad_request`: a message naming every bad field by its path,
// plus the same list as `issues` for code that wants to point at fields.
import type { z } from 'zod';
import { badRequest } from '../errors.js';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 20).map((issue) => {
    const path = formatPath(prefix, issue.path);
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`
        : issue.message;
    return { path, message };
  });
  throw badRequest(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '), { issues });
}

function formatPath(prefix: string, path: PropertyKey[]): string {
  let out = prefix;
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${String(part)}` : String(part);
  return out;
}
