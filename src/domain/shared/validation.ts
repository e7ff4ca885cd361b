// Turns a zod failure into the API's 400 `bad_request`: a message naming every bad field by its path,
// plus the same list as `issues` for code that wants to point at fields. The one place zod's
// messages are put in the API's words, for every surface that parses with these schemas.
import { z } from 'zod';
import { badRequestFor } from '../errors.js';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  // reportInput: a key that was not sent shows as an issue whose input is undefined.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 20).map((issue) => ({
    path: formatPath(prefix, issue.path),
    message: messageOf(schema, issue),
  }));
  throw badRequestFor(issues);
}

function messageOf(schema: z.ZodType, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
  // zod says "expected string, received undefined" of a key not sent: say it is required, and
  // whether null would do (a bulk item's externalId is required but may be null).
  const notSent = issue.path.length > 0 && 'input' in issue && issue.input === undefined;
  if (notSent && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
    const mayBeNull = schemaAt(schema, issue.path)?.safeParse(null).success ?? false;
    if (issue.code === 'invalid_value')
      return `is required (one of ${[...issue.values.map(String), ...(mayBeNull ? ['or null'] : [])].join(', ')})`;
    return mayBeNull ? 'is required (it may be null)' : 'is required';
  }
  return issue.message;
}

/** The schema `path` leads to inside `schema`, through objects, arrays and their wrappers; undefined if it cannot be followed. */
function schemaAt(schema: z.ZodType, path: PropertyKey[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    const inner = unwrapped(current);
    if (inner instanceof z.ZodObject) current = inner.shape[String(key)] as z.ZodType | undefined;
    else if (inner instanceof z.ZodArray) current = inner.element as z.ZodType;
    else return undefined;
    if (!current) return undefined;
  }
  return current;
}

/** The schema inside optional, nullable, default and pipe (transform) wrappers. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault)
      current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else return current;
  }
}

function formatPath(prefix: string, path: PropertyKey[]): string {
  let out = prefix;
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${String(part)}` : String(part);
  return out;
}
