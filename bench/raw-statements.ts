// The baseline's statements: contact rows written with the raw driver as the service stores
// them, for the import and upsert figures (bench/run.ts) and the load figure (bench/load.ts).
import { randomUUID } from 'node:crypto';
import { CONTACT_COLUMNS } from '../src/domain/contacts/contacts.store.js';

const CONTACT_INSERT_COLUMNS = [
  'id',
  'accountId',
  'firstName',
  'lastName',
  'fullName',
  'phone',
  'location',
  'locationDefaulted',
  'timezone',
  'timezoneInferred',
  'language',
  'status',
  'sourceKind',
  'externalId',
  'customFields',
  'priority',
  'assignedWorkflowId',
  'callCount',
  'maxAttempts',
  'lastCallAt',
  'nextCallAt',
  'createdAt',
  'updatedAt',
  'dedupKey',
  'phoneDigits',
] as const;
const CASTS: Record<string, string> = {
  id: '::uuid',
  accountId: '::uuid',
  assignedWorkflowId: '::uuid',
  status: '::"ContactStatus"',
  sourceKind: '::"SourceKind"',
  customFields: '::jsonb',
  locationDefaulted: '::boolean',
  timezoneInferred: '::boolean',
  priority: '::int',
  callCount: '::int',
  maxAttempts: '::int',
  lastCallAt: '::timestamptz',
  nextCallAt: '::timestamptz',
  createdAt: '::timestamptz',
  updatedAt: '::timestamptz',
};
const COLUMN_LIST = CONTACT_INSERT_COLUMNS.map((c) => `"${c}"`).join(', ');

/** One contact row as the service would store it for { phone, firstName, lastName }. */
export function rawRow(accountId: string, phone: string, firstName: string, lastName: string): unknown[] {
  const now = new Date().toISOString();
  return [
    randomUUID(),
    accountId,
    firstName,
    lastName,
    `${firstName} ${lastName}`,
    phone,
    'US',
    true,
    'America/Los_Angeles',
    true,
    null,
    null,
    'api',
    null,
    null,
    0,
    null,
    0,
    null,
    null,
    null,
    now,
    now,
    `phone=${phone}`,
    phone.slice(1),
  ];
}

export function multiRowInsert(rows: unknown[][]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const placeholders = row.map((v, j) => {
      values.push(v);
      return `$${values.length}${CASTS[CONTACT_INSERT_COLUMNS[j]] ?? ''}`;
    });
    return `(${placeholders.join(', ')})`;
  });
  return {
    text: `INSERT INTO "Contact" (${COLUMN_LIST}) VALUES ${tuples.join(',\n')} ON CONFLICT ("accountId", "dedupKey") DO NOTHING RETURNING "id"`,
    values,
  };
}

export const UPSERT_SQL = `INSERT INTO "Contact" (${COLUMN_LIST})
  VALUES (${CONTACT_INSERT_COLUMNS.map((c, j) => `$${j + 1}${CASTS[c] ?? ''}`).join(', ')})
  ON CONFLICT ("accountId", "dedupKey") DO UPDATE SET "firstName" = EXCLUDED."firstName", "lastName" = EXCLUDED."lastName",
    "fullName" = EXCLUDED."fullName", "phone" = EXCLUDED."phone", "updatedAt" = EXCLUDED."updatedAt"
  RETURNING ${CONTACT_COLUMNS.strings.join('')}`;
