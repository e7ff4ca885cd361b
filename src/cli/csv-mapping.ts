// Maps CSV columns to contact write fields: by header name (case, spaces, _ and - ignored),
// `--map "Column=field"` overrides, everything else goes to customFields under its header.
import { usageError } from './output.js';

export const WRITE_FIELDS = [
  'firstName',
  'lastName',
  'fullName',
  'phone',
  'location',
  'timezone',
  'language',
  'status',
  'externalId',
  'priority',
] as const;
export type WriteField = (typeof WRITE_FIELDS)[number];

export type Target = { kind: 'field'; field: WriteField } | { kind: 'custom'; key: string } | { kind: 'skip' };

/** Header names (normalized: lower case, letters and digits only) each field is recognised by. */
const ALIASES: Record<WriteField, string[]> = {
  firstName: ['firstname', 'first', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
  fullName: ['fullname', 'name', 'contactname'],
  phone: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'mobilenumber', 'cell', 'cellphone', 'telephone', 'tel'],
  location: ['location', 'country', 'state', 'province'],
  timezone: ['timezone', 'tz'],
  language: ['language', 'lang', 'locale'],
  status: ['status'],
  externalId: ['externalid', 'id', 'extid'],
  priority: ['priority'],
};

const normalize = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

const BY_ALIAS = new Map<string, WriteField>(
  (Object.entries(ALIASES) as Array<[WriteField, string[]]>).flatMap(([field, names]) =>
    names.map((n) => [n, field] as [string, WriteField]),
  ),
);
const FIELD_BY_LOWER = new Map<string, WriteField>(WRITE_FIELDS.map((f) => [f.toLowerCase(), f]));

/** Parses one `--map` value: "Column=field", "Column=customFields.key" or "Column=-" (skip the column). */
export function parseMapSpec(spec: string): { column: string; target: Target } {
  const at = spec.lastIndexOf('=');
  const column = at > 0 ? spec.slice(0, at).trim() : '';
  const to = at > 0 ? spec.slice(at + 1).trim() : '';
  if (!column || !to)
    throw usageError(
      `--map "${spec}": expected "Column=field" (field: ${WRITE_FIELDS.join(', ')}, customFields.<key> or - to skip)`,
    );
  if (to === '-') return { column, target: { kind: 'skip' } };
  if (to.startsWith('customFields.')) {
    const key = to.slice('customFields.'.length);
    if (!key || key.length > 128) throw usageError(`--map "${spec}": the custom field key must be 1 to 128 characters`);
    return { column, target: { kind: 'custom', key } };
  }
  const field = FIELD_BY_LOWER.get(to.toLowerCase());
  if (!field)
    throw usageError(
      `--map "${spec}": unknown field "${to}"; use one of ${WRITE_FIELDS.join(', ')}, customFields.<key> or -`,
    );
  return { column, target: { kind: 'field', field } };
}

/**
 * One target per header. Explicit mappings win; a field already taken (explicitly or by an
 * earlier column) sends later look-alike columns to customFields instead of overwriting it.
 */
export function buildMapping(headers: string[], specs: string[]): Target[] {
  const explicit = new Map<number, Target>();
  for (const spec of specs) {
    const { column, target } = parseMapSpec(spec);
    const index =
      headers.indexOf(column) >= 0
        ? headers.indexOf(column)
        : headers.findIndex((h) => h.toLowerCase() === column.toLowerCase());
    if (index < 0)
      throw usageError(
        `--map "${spec}": the CSV has no column "${column}" (columns: ${headers.map((h) => `"${h}"`).join(', ')})`,
      );
    explicit.set(index, target);
  }
  const taken = new Set<WriteField>();
  for (const t of explicit.values()) if (t.kind === 'field') taken.add(t.field);
  return headers.map((header, index) => {
    const fixed = explicit.get(index);
    if (fixed) return fixed;
    const field = BY_ALIAS.get(normalize(header));
    if (field && !taken.has(field)) {
      taken.add(field);
      return { kind: 'field', field };
    }
    return { kind: 'custom', key: header.slice(0, 128) };
  });
}

export function describeTarget(t: Target): string {
  return t.kind === 'field' ? t.field : t.kind === 'custom' ? `customFields.${t.key}` : '(skipped)';
}

export type RowResult = { ok: true; item: Record<string, unknown> } | { ok: false; reason: string; message: string };

/** Builds one bulk item from a CSV row; empty cells are left out, priority must be an integer. */
export function rowToItem(
  cells: Record<string, string | undefined>,
  headers: string[],
  mapping: Target[],
  sourceKind: string,
): RowResult {
  const item: Record<string, unknown> = { sourceKind, externalId: null };
  const custom: Record<string, string> = {};
  for (let i = 0; i < headers.length; i++) {
    const value = cells[headers[i]];
    const target = mapping[i];
    if (value === undefined || value === '' || target.kind === 'skip') continue;
    if (target.kind === 'custom') custom[target.key] = value;
    else if (target.field === 'priority') {
      if (!/^[+-]?\d+$/.test(value))
        return { ok: false, reason: 'invalid-priority', message: `priority "${value}" is not a whole number` };
      item.priority = Number.parseInt(value, 10);
    } else item[target.field] = value;
  }
  if (Object.keys(custom).length > 0) item.customFields = custom;
  return { ok: true, item };
}
