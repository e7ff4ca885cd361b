// The bounds of a contact's customFields, checked on every write that sends them (upsert,
// PATCH, bulk import items, bulk-update data, the board app's enroll action, which runs the
// upsert). Without them one 9 MB object was accepted, and twenty such contacts made a
// 100-contact page 207 MB; an object nested 4,500 levels deep overflowed the stack.
//
// Why these values: a CRM sync maps a record's properties onto flat keys (HubSpot and
// Salesforce records carry tens to a couple of hundred populated properties, each a short
// value), so 200 keys, 64 KB of JSON and 8 levels (room for a nested address or a list of
// tags) are far above any real sync, while keeping a page of 100 contacts under ~6.5 MB of
// custom fields and every recursive use of the value (JSON.stringify, jsonb) shallow.
import { DomainError } from '../errors.js';

export const CUSTOM_FIELDS_LIMITS = {
  /** The object serialized as JSON, in UTF-8 bytes. */
  maxBytes: 64 * 1024,
  /** Levels of nesting: `{"plan":"pro"}` is 1, `{"address":{"city":"Paris"}}` is 2. */
  maxDepth: 8,
  /** Keys of every object at every level, counted together. */
  maxKeys: 200,
} as const;

/**
 * Why `value` (a customFields object) is beyond the limits, or null when it is within them.
 * Iterative, and it stops as soon as a limit is passed, so any depth or size is measured in
 * bounded time and stack.
 */
export function customFieldsLimitProblem(value: Record<string, unknown>): string | null {
  const { maxBytes, maxDepth, maxKeys } = CUSTOM_FIELDS_LIMITS;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let keys = 0;
  // Every value serializes to at least one byte, so more values than bytes is over the size.
  let values = 0;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: current, depth } = next;
    if (++values > maxBytes) return `must be at most ${maxBytes} bytes as JSON`;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return `must be nested at most ${maxDepth} levels deep`;
    const children = Array.isArray(current) ? current : Object.values(current);
    if (!Array.isArray(current)) {
      keys += children.length;
      if (keys > maxKeys) return `must have at most ${maxKeys} keys (nested objects' keys included)`;
    }
    // Before pushing them: a million-item array is over the size without being walked.
    if (values + stack.length + children.length > maxBytes) return `must be at most ${maxBytes} bytes as JSON`;
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  // Shallow and bounded now, so serializing it is safe and cheap.
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > maxBytes) return `must be at most ${maxBytes} bytes as JSON`;
  return null;
}

/**
 * A write whose customFields are within the limits but, merged into the contact's stored ones
 * (keys not sent are kept), would pass them: the limits bound what is stored, not only what is
 * sent. A single write (upsert, PATCH, the board app's enroll) answers this 400 and stores
 * nothing; a bulk import item or a bulk-update's contact so refused is skipped and counted.
 */
export class MergedCustomFieldsOverLimit extends DomainError {
  constructor(problem: string) {
    const message = `merged with the contact's stored custom fields, customFields ${problem}; send null for the keys to remove`;
    super('bad_request', `customFields: ${message}`, { issues: [{ path: 'customFields', message }] });
  }
}
