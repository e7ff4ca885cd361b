// CSV rendering of a contact page, and of a page of the call audit, shared by the surfaces that
// answer them as CSV (REST's GET /contacts/csv and /calls/audit.csv, the console's export). A
// contact page: the response fields in CONTACT_RESPONSE_FIELDS order, customFields as JSON,
// booleans true/false, nulls empty, RFC 4180 quoting (csv-stringify).
import { stringify } from 'csv-stringify/sync';
import { CONTACT_RESPONSE_FIELDS } from '../../domain/contacts/contacts.rules.js';
import { CALL_AUDIT_COLUMNS } from '../../domain/calling-rules/call-audit.service.js';

/** A page of contacts; `header: false` for a page after the first of one file. */
export function contactsToCsv(contacts: Array<Record<string, unknown>>, options: { header?: boolean } = {}): string {
  return stringify(contacts, {
    header: options.header ?? true,
    columns: [...CONTACT_RESPONSE_FIELDS],
    cast: {
      boolean: (value) => (value ? 'true' : 'false'),
      object: (value) => JSON.stringify(value),
    },
  });
}

/** A page of the call audit: CALL_AUDIT_COLUMNS in order, nulls empty. */
export function callAuditToCsv(rows: Array<Record<string, unknown>>): string {
  return stringify(rows, { header: true, columns: [...CALL_AUDIT_COLUMNS] });
}
