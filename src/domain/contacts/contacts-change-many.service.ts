// A PATCH-style write applied to many stored contacts at once (a bulk-update chunk), in a few
// set-based statements instead of a few per contact, with the same outcome as applying the
// write to each contact in turn (changeStoredContact): a contact whose change would take a
// dedup key another contact holds at that moment, or leave it with none, or whose merged
// customFields would pass their limits, is skipped.
import {
  applyContactWrite,
  type AccountRules,
  type ContactRow,
  type PreparedWrite,
  type WriteMode,
} from './contacts.rules.js';
import { buildDedupKey } from './dedup.rules.js';
import { MergedCustomFieldsOverLimit } from './custom-fields.rules.js';
import {
  findBlockedPhones,
  findContactsByDedupKeys,
  releaseSavepoint,
  rollBackToSavepoint,
  setSavepoint,
  updateContacts,
} from './contacts.store.js';
import type { SqlClient } from '../../db/sql-client.js';
import type { SkippedContact } from './contact-jobs.store.js';
import { isUniqueViolation } from './contacts-write.service.js';
import { restartSequences, syncEnrollmentPriority } from '../enrollment/enrollment.store.js';

export interface ManyChanged {
  updated: number;
  /** The contacts left unchanged, each with its reason. */
  skipped: SkippedContact[];
}

/**
 * Applies `write` to `stored` (locked by the caller, in the order the write applies to them)
 * inside the caller's transaction.
 */
export async function changeStoredContacts(
  tx: SqlClient,
  account: AccountRules,
  stored: ContactRow[],
  write: PreparedWrite,
  mode: Exclude<WriteMode, 'import'>,
  now: Date,
): Promise<ManyChanged> {
  if (stored.length === 0) return { updated: 0, skipped: [] };
  const resultingPhone = (contact: ContactRow) => (write.phone !== undefined ? write.phone : contact.phone);
  const phones = new Set(stored.map(resultingPhone).filter((phone): phone is string => !!phone));
  const blocked = await findBlockedPhones(tx, account.id, [...phones]);
  const skipped: SkippedContact[] = [];
  const candidates = stored.flatMap((contact) => {
    const phone = resultingPhone(contact);
    try {
      const row = applyContactWrite(contact, write, {
        account,
        mode,
        phoneBlocked: phone !== null && blocked.has(phone),
        now,
      });
      return [{ stored: contact, row, key: buildDedupKey(account.dedupFields, row) }];
    } catch (error) {
      // This contact's customFields, merged with what the write sends, would pass the limits: skipped.
      if (!(error instanceof MergedCustomFieldsOverLimit)) throw error;
      skipped.push({ contactId: contact.id, reason: 'custom-fields-over-limit' });
      return [];
    }
  });

  // Who holds each key a contact moves to, as the write reaches each contact in turn: first
  // as stored (the holders outside these contacts locked, so they keep their keys), then
  // following each move.
  const movesTo = [
    ...new Set(candidates.flatMap((c) => (c.key.ok && c.key.key !== c.stored.dedupKey ? [c.key.key] : []))),
  ];
  const holderOf = new Map<string, string>();
  for (const holder of await findContactsByDedupKeys(tx, account.id, movesTo, true))
    holderOf.set(holder.dedupKey, holder.id);
  for (const contact of stored) holderOf.set(contact.dedupKey, contact.id);
  const writes: Array<{ stored: ContactRow; row: ContactRow }> = [];
  for (const { stored: contact, row, key } of candidates) {
    if (!key.ok) {
      skipped.push({
        contactId: contact.id,
        reason: key.reason === 'missing_dedup_field' ? 'missing-dedup-field' : 'dedup-key-too-long',
      });
      continue;
    }
    if (key.key !== contact.dedupKey) {
      const holder = holderOf.get(key.key);
      if (holder !== undefined && holder !== contact.id) {
        skipped.push({ contactId: contact.id, reason: 'dedup-conflict', conflictsWith: holder });
        continue;
      }
      holderOf.delete(contact.dedupKey);
      holderOf.set(key.key, contact.id);
    }
    row.dedupKey = key.key;
    writes.push({ stored: contact, row });
  }

  const written = await updateInOrder(
    tx,
    account.id,
    writes.map((w) => w.row),
  );
  // Left out of the statement: its key was taken meanwhile (a concurrent writer, or a move inside it).
  for (const w of writes) if (!written.has(w.row.id)) skipped.push({ contactId: w.row.id, reason: 'dedup-conflict' });
  const done = writes.filter((w) => written.has(w.row.id));
  await syncEnrollmentPriority(
    tx,
    done.filter((w) => w.row.priority !== w.stored.priority).map((w) => ({ id: w.row.id, priority: w.row.priority })),
  );
  await restartSequences(
    tx,
    account.id,
    done.filter((w) => w.row.status === 'connecting' && w.stored.status !== 'connecting').map((w) => w.row.id),
    now,
  );
  return { updated: done.length, skipped };
}

/**
 * Writes the rows in one statement. One statement checks its unique index row by row in no
 * set order, so keys that move between these contacts (one leaves a key another takes) can
 * collide inside it, and a concurrent writer may have inserted a key since the read: then the
 * statement is undone (a savepoint, so the transaction lives on) and the rows are written one
 * by one, in order; a row that still collides is left out. Returns the ids written.
 */
async function updateInOrder(tx: SqlClient, accountId: string, rows: ContactRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const all = await attempt(tx, () => updateContacts(tx, accountId, rows));
  if (all) return new Set(rows.map((r) => r.id));
  const written = new Set<string>();
  for (const row of rows) if (await attempt(tx, () => updateContacts(tx, accountId, [row]))) written.add(row.id);
  return written;
}

/** Runs `statement` under a savepoint: false (and undone) when it hit a unique violation. */
async function attempt(tx: SqlClient, statement: () => Promise<unknown>): Promise<boolean> {
  await setSavepoint(tx);
  try {
    await statement();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await rollBackToSavepoint(tx);
    return false;
  }
  await releaseSavepoint(tx);
  return true;
}
