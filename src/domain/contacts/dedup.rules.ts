// The Account's dedup key: the tuple of its dedup fields, in order, as one canonical string.
// A unique index on (accountId, dedupKey) makes concurrent writes of one contact safe.

/** Longest canonical key accepted (docs/decisions/0020-contact-write-rules.md: Dedup); longer is `dedup_key_too_long`. */
export const MAX_DEDUP_KEY_LENGTH = 512;

/** The values a dedup key is built from. */
export interface DedupSource {
  phone?: string | null;
  sourceKind?: string | null;
  externalId?: string | null;
  customFields?: Record<string, unknown> | null;
}

export type DedupKeyResult =
  | { ok: true; key: string }
  | { ok: false; reason: 'missing_dedup_field' | 'dedup_key_too_long' };

const SEPARATOR = '\u001f';

/**
 * Builds the key for `fields` (e.g. ["phone"], ["externalId"], ["customFields.crmId", "phone"]).
 * Missing when none of the fields has a value; a tuple with some parts empty is still a key.
 */
export function buildDedupKey(fields: readonly string[], source: DedupSource): DedupKeyResult {
  let present = 0;
  const parts = fields.map((field) => {
    const value = dedupFieldValue(field, source);
    if (value !== null) present++;
    return `${field}=${value ?? ''}`;
  });
  if (present === 0) return { ok: false, reason: 'missing_dedup_field' };
  const key = parts.join(SEPARATOR);
  if (key.length > MAX_DEDUP_KEY_LENGTH) return { ok: false, reason: 'dedup_key_too_long' };
  return { ok: true, key };
}

function dedupFieldValue(field: string, source: DedupSource): string | null {
  if (field === 'phone') return source.phone ?? null;
  if (field === 'externalId') return source.externalId ? `${source.sourceKind}:${source.externalId}` : null;
  if (field.startsWith('customFields.')) {
    const value = source.customFields?.[field.slice('customFields.'.length)];
    if (value === undefined || value === null || value === '') return null;
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
  return null;
}

/** Checks an operator-supplied dedup field list. */
export function isValidDedupField(field: string): boolean {
  return field === 'phone' || field === 'externalId' || /^customFields\.[^\s]{1,128}$/.test(field);
}
