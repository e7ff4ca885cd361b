// Maps CSV columns to contact write fields, for every surface that imports a CSV (the CLI's
// `import`, the console's Imports page): by header name (case, spaces, _ and - ignored),
// explicit choices override (`--map "Column=field"`, the console's select per column),
// everything else goes to customFields under its header.

/** A mapping the person asked for that cannot be applied (the CLI shows it as a usage error). */
export class CsvMappingError extends Error {}

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
    throw new CsvMappingError(
      `--map "${spec}": expected "Column=field" (field: ${WRITE_FIELDS.join(', ')}, customFields.<key> or - to skip)`,
    );
  if (to === '-') return { column, target: { kind: 'skip' } };
  if (to.startsWith('customFields.')) {
    const key = to.slice('customFields.'.length);
    if (!key || key.length > 128)
      throw new CsvMappingError(`--map "${spec}": the custom field key must be 1 to 128 characters`);
    return { column, target: { kind: 'custom', key } };
  }
  const field = FIELD_BY_LOWER.get(to.toLowerCase());
  if (!field)
    throw new CsvMappingError(
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
      throw new CsvMappingError(
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

/**
 * A column's target as one word, as the console's select sends it: a write field's name,
 * `custom` (customFields under the column's header) or `skip`.
 */
export type TargetChoice = WriteField | 'custom' | 'skip';

export const choiceOf = (target: Target): TargetChoice =>
  target.kind === 'field' ? target.field : target.kind === 'custom' ? 'custom' : 'skip';

/**
 * The targets of chosen words, one per header; a word that is none of the choices, or a write
 * field chosen for two columns (the second would overwrite the first), is refused with the
 * column it is about.
 */
export function mappingOfChoices(
  headers: string[],
  choices: string[],
): { ok: true; mapping: Target[] } | { ok: false; column: number; message: string } {
  if (choices.length !== headers.length)
    return { ok: false, column: 0, message: `expected a choice for each of the ${headers.length} columns` };
  const taken = new Map<WriteField, number>();
  const mapping: Target[] = [];
  for (let i = 0; i < headers.length; i++) {
    const choice = choices[i];
    if (choice === 'skip') mapping.push({ kind: 'skip' });
    else if (choice === 'custom') mapping.push({ kind: 'custom', key: headers[i].slice(0, 128) });
    else if ((WRITE_FIELDS as readonly string[]).includes(choice)) {
      const field = choice as WriteField;
      const earlier = taken.get(field);
      if (earlier !== undefined)
        return {
          ok: false,
          column: i,
          message: `${field} is already the field of column "${headers[earlier]}": choose another field, a custom field or skip`,
        };
      taken.set(field, i);
      mapping.push({ kind: 'field', field });
    } else return { ok: false, column: i, message: `"${choice}" is not a field, custom or skip` };
  }
  return { ok: true, mapping };
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
