// Which board columns feed which contact fields when the enroll action reads an item (README,
// "Map the board"), checked against the board's real columns: when the mapping is saved and
// again each time an action uses it. Pure.

/** A board column as monday's API describes it. */
export interface BoardColumn {
  id: string;
  title: string;
  type: string;
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

/**
 * Every way the mapping does not fit the board's columns, as sentences a board user can act
 * on (empty: it fits). Phone must be a phone column; the timezone a text or World Clock column.
 */
export function mappingProblems(mapping: BoardColumnMapping, columns: readonly BoardColumn[]): string[] {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const problems: string[] = [];
  const check = (role: string, columnId: string | null, allowed?: readonly string[]) => {
    if (columnId === null) return;
    if (columnId === ITEM_NAME_COLUMN) {
      problems.push(`${role}: the item name cannot be mapped as a column; use itemNameIsFullName`);
      return;
    }
    const column = byId.get(columnId);
    if (!column) {
      problems.push(`${role}: column "${columnId}" is not on the board (deleted or renamed?)`);
      return;
    }
    if (allowed && !allowed.includes(column.type)) {
      problems.push(
        `${role}: column "${column.title}" is a ${column.type} column; it must be ${allowed.map((t) => `a ${t}`).join(' or ')} column`,
      );
    }
  };
  check('first name', mapping.firstNameColumnId);
  check('last name', mapping.lastNameColumnId);
  check('phone', mapping.phoneColumnId, ['phone']);
  check('timezone', mapping.timezoneColumnId, TIMEZONE_COLUMN_TYPES);
  for (const field of mapping.extraFields) check(`extra field ${field.identifier}`, field.columnId);
  return problems;
}

/** The type of the mapped timezone column, as the board reports it. */
export function timezoneColumnTypeOf(
  mapping: BoardColumnMapping,
  columns: readonly BoardColumn[],
): TimezoneColumnType | null {
  const type = columns.find((c) => c.id === mapping.timezoneColumnId)?.type;
  return (TIMEZONE_COLUMN_TYPES as readonly string[]).includes(type ?? '') ? (type as TimezoneColumnType) : null;
}
