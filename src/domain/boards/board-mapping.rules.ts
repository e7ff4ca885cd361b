// Which board columns feed which contact fields when the enroll action reads an item (docs/board-app.md,
// "Map the board"), checked against the board's real columns: when the mapping is saved and
// again each time an action uses it. Pure.

/** A board column as monday's API describes it. */
export interface BoardColumn {
  id: string;
  title: string;
  type: string;
  /** A status column's labels, in monday's order (deactivated ones left out); absent for other types. */
  labels?: string[];
}

export interface ExtraField {
  columnId: string;
  /** The key the agent reads: the contact's customFields[identifier]. */
  identifier: string;
}

export interface BoardColumnMapping {
  firstNameColumnId: string | null;
  lastNameColumnId: string | null;
  /** The item name (monday's `name` column) holds the full name. */
  itemNameIsFullName: boolean;
  phoneColumnId: string;
  timezoneColumnId: string | null;
  extraFields: ExtraField[];
}

/** monday has no timezone column type: a zone is kept in a World Clock column or a text column. */
export const TIMEZONE_COLUMN_TYPES = ['text', 'world_clock'] as const;
export type TimezoneColumnType = (typeof TIMEZONE_COLUMN_TYPES)[number];

/**
 * The item name is not a column value monday's API returns (it is read as `items { name }`):
 * map it with itemNameIsFullName instead.
 */
const ITEM_NAME_COLUMN = 'name';

/** The column ids an action reads for this mapping (the item name comes with the item). */
export function mappedColumnIds(mapping: BoardColumnMapping): string[] {
  const ids = [
    mapping.firstNameColumnId,
    mapping.lastNameColumnId,
    mapping.phoneColumnId,
    mapping.timezoneColumnId,
    ...mapping.extraFields.map((f) => f.columnId),
  ];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
}

/** The contact fields a single board column feeds (input names of setBoardMapping). */
export const COLUMN_FIELDS = ['phoneColumnId', 'firstNameColumnId', 'lastNameColumnId', 'timezoneColumnId'] as const;
export type ColumnField = (typeof COLUMN_FIELDS)[number];

/**
 * The column types each field accepts: the one place the board app's compatibility rules live
 * (the checks below, the GraphQL `MondayColumn.mappableAs` and so every picker read them). null:
 * any column, its text is read. The phone must be a phone column (its country flag makes a
 * number without a code callable); a zone is kept in a World Clock or a text column.
 */
export const COLUMN_TYPES_BY_FIELD: Readonly<Record<ColumnField, readonly string[] | null>> = {
  phoneColumnId: ['phone'],
  firstNameColumnId: null,
  lastNameColumnId: null,
  timezoneColumnId: TIMEZONE_COLUMN_TYPES,
};

const FIELD_ROLES: Readonly<Record<ColumnField, string>> = {
  phoneColumnId: 'phone',
  firstNameColumnId: 'first name',
  lastNameColumnId: 'last name',
  timezoneColumnId: 'timezone',
};

/** Whether `column` may feed `field` (the item name never is a column: itemNameIsFullName maps it). */
export function columnFits(field: ColumnField | 'extraFields', column: BoardColumn): boolean {
  if (column.id === ITEM_NAME_COLUMN || column.type === 'name') return false;
  const allowed = field === 'extraFields' ? null : COLUMN_TYPES_BY_FIELD[field];
  return allowed === null || allowed.includes(column.type);
}

/** The fields a column may feed, in COLUMN_FIELDS order (then extraFields, which takes any column). */
export function fieldsFedBy(column: BoardColumn): Array<ColumnField | 'extraFields'> {
  return [...COLUMN_FIELDS, 'extraFields' as const].filter((field) => columnFits(field, column));
}

/** One way a mapping does not fit the board, and the input field it is about. */
export interface MappingProblem {
  field: ColumnField | 'extraFields';
  message: string;
}

/**
 * Every way the mapping does not fit the board's columns, as sentences a board user can act
 * on, each with the field it names (empty: it fits).
 */
export function mappingProblemsByField(mapping: BoardColumnMapping, columns: readonly BoardColumn[]): MappingProblem[] {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const problems: MappingProblem[] = [];
  const check = (field: ColumnField | 'extraFields', role: string, columnId: string | null) => {
    if (columnId === null) return;
    if (columnId === ITEM_NAME_COLUMN) {
      problems.push({ field, message: `${role}: the item name cannot be mapped as a column; use itemNameIsFullName` });
      return;
    }
    const column = byId.get(columnId);
    if (!column) {
      problems.push({ field, message: `${role}: column "${columnId}" is not on the board (deleted or renamed?)` });
      return;
    }
    const allowed = field === 'extraFields' ? null : COLUMN_TYPES_BY_FIELD[field];
    if (allowed && !allowed.includes(column.type)) {
      problems.push({
        field,
        message: `${role}: column "${column.title}" is a ${column.type} column; it must be ${allowed.map((t) => `a ${t}`).join(' or ')} column`,
      });
    }
  };
  check('firstNameColumnId', FIELD_ROLES.firstNameColumnId, mapping.firstNameColumnId);
  check('lastNameColumnId', FIELD_ROLES.lastNameColumnId, mapping.lastNameColumnId);
  check('phoneColumnId', FIELD_ROLES.phoneColumnId, mapping.phoneColumnId);
  check('timezoneColumnId', FIELD_ROLES.timezoneColumnId, mapping.timezoneColumnId);
  for (const field of mapping.extraFields) check('extraFields', `extra field ${field.identifier}`, field.columnId);
  return problems;
}

/** mappingProblemsByField's sentences alone. */
export function mappingProblems(mapping: BoardColumnMapping, columns: readonly BoardColumn[]): string[] {
  return mappingProblemsByField(mapping, columns).map((problem) => problem.message);
}

/** The type of the mapped timezone column, as the board reports it. */
export function timezoneColumnTypeOf(
  mapping: BoardColumnMapping,
  columns: readonly BoardColumn[],
): TimezoneColumnType | null {
  const type = columns.find((c) => c.id === mapping.timezoneColumnId)?.type;
  return (TIMEZONE_COLUMN_TYPES as readonly string[]).includes(type ?? '') ? (type as TimezoneColumnType) : null;
}
