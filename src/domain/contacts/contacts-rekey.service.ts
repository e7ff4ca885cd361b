// Rebuilds every contact's dedup key after an Account changes its dedup fields.
import { DomainError } from '../errors.js';
import { buildDedupKey } from './dedup.rules.js';
import { findDedupSources, replaceDedupKeys } from './contacts.store.js';
import type { SqlClient } from '../../db/sql-client.js';

export async function rebuildDedupKeys(tx: SqlClient, accountId: string, fields: string[]): Promise<void> {
  const rows = await findDedupSources(tx, accountId);
  const ids: string[] = [];
  const keys: string[] = [];
  const seen = new Map<string, string>();
  for (const row of rows) {
    const key = buildDedupKey(fields, row);
    // A contact with none of the new fields keys on its own id, so it never merges.
    const value = key.ok ? key.key : `id=${row.id}`;
    if (seen.has(value))
      throw new DomainError(
        'conflict',
        `contacts ${seen.get(value)} and ${row.id} would share a dedup key under ${fields.join(', ')}`,
      );
    seen.set(value, row.id);
    ids.push(row.id);
    keys.push(value);
  }
  await replaceDedupKeys(tx, accountId, ids, keys);
}
