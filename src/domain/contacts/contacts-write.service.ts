// Writes prepared contact writes: the one path behind upsert, bulk import, PATCH and
// bulk-update. Items apply in order in one transaction; a later item with the same dedup
// key updates the contact an earlier one created.
import type { RequestContext } from '../context.js';
import { DomainError } from '../errors.js';
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
  findForUpsert,
  insertContacts,
  updateContacts,
} from './contacts.store.js';
import { directSql, type SqlClient } from '../../db/sql-client.js';
import { applyEnrollment, type Enrollment } from '../enrollment/enrollment.rules.js';
import {
  findContactsCalledBy,
  restartSequences,
  startEnrollments,
  syncEnrollmentPriority,
} from '../enrollment/enrollment.store.js';

export interface WriteOutcome {
  contact: ContactRow;
  created: boolean;
}

/** Whole-transaction attempts before a write gives up (each lost race or deadlock is one). */
const MAX_ATTEMPTS = 10;

/**
 * A single upsert. The uncontended path runs without a transaction (3 round trips with
 * authentication): read the holder of the dedup key, then insert (ON CONFLICT DO NOTHING) or
 * update only if the row is unchanged since the read (xmin). A writer that loses that race
 * does not try its luck again (with 100 writers of one contact, most would lose every round
 * and give up): it queues behind the others on the row lock (upsertLocked), where every
 * writer wins in turn. So concurrent upserts of one contact end as one contact, one of them
 * answered "created", with every write applied in some order.
 */
export async function upsertOnePreparedContact(
  ctx: Pick<RequestContext, 'db' | 'clock'>,
  account: AccountRules,
  write: PreparedWrite,
): Promise<WriteOutcome> {
  if (!write.dedup.ok) throw new Error('upsertOnePreparedContact needs a write with a dedup key');
  const key = write.dedup.key;
  const db = directSql(ctx.db.sql);
  const found = await findForUpsert(db, account.id, key, {
    sent: write.phone !== undefined,
    value: write.phone ?? null,
  });
  const row = applyContactWrite(found.contact, write, {
    account,
    mode: 'import',
    phoneBlocked: found.phoneBlocked,
    now: ctx.clock.now(),
  });
  row.dedupKey = key;
  // An endpoint created after this read and before the write does not hear of it (as if created just after).
  const events = { events: found.webhooksListen };
  if (!found.contact) {
    if ((await insertContacts(db, account.id, [row], events)).size === 1) return { contact: row, created: true };
  } else if (found.version !== null && (await updateContacts(db, account.id, [row], [found.version], events)) === 1) {
    if (row.priority !== found.contact.priority)
      await syncEnrollmentPriority(db, [{ id: row.id, priority: row.priority }]);
    return { contact: row, created: false };
  }
  return withConflictRetry(() =>
    ctx.db.sql.transaction((runner) => upsertLocked(directSql(runner), account, write, key, ctx.clock.now())),
  );
}

/**
 * The contended path of a single upsert, in a transaction: the holder of the dedup key is
 * read FOR UPDATE, so concurrent writers of one contact take turns. When there is no holder
 * yet, the insert may still lose to a concurrent insert (ON CONFLICT DO NOTHING waits for it
 * to commit); the next read then finds and locks that contact. Only a contact deleted
 * between every read and write could exhaust the attempts.
 */
async function upsertLocked(
  tx: SqlClient,
  account: AccountRules,
  write: PreparedWrite,
  key: string,
  now: Date,
): Promise<WriteOutcome> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const [stored] = await findContactsByDedupKeys(tx, account.id, [key], true);
    const resultingPhone = write.phone !== undefined ? write.phone : (stored?.phone ?? null);
    const blocked = resultingPhone ? await findBlockedPhones(tx, account.id, [resultingPhone]) : new Set<string>();
    const row = applyContactWrite(stored ?? null, write, {
      account,
      mode: 'import',
      phoneBlocked: blocked.size > 0,
      now,
    });
    row.dedupKey = key;
    if (!stored) {
      if ((await insertContacts(tx, account.id, [row])).size === 1) return { contact: row, created: true };
      continue;
    }
    // Under the row lock the update always applies, unless something outside the service's
    // writers (a trigger, a manual statement) kept it from being written: then never answer as
    // if it had been.
    if ((await updateContacts(tx, account.id, [row])) !== 1) continue;
    if (row.priority !== stored.priority) await syncEnrollmentPriority(tx, [{ id: row.id, priority: row.priority }]);
    return { contact: row, created: false };
  }
  throw new DomainError('conflict', 'The contact kept changing while this upsert ran; retry it');
}

/**
 * Runs `attempt` (a whole transaction) again when it lost a race to a concurrent writer: an
 * insert race on a dedup key (see upsertInTransaction), a deadlock, or a serialization
 * failure. Contention is never the client's problem; a genuine dedup conflict is not retried.
 */
export async function withConflictRetry<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RetryableConflict || isContentionFailure(error)) || n >= MAX_ATTEMPTS) throw error;
    }
  }
}

/**
 * PostgreSQL's deadlock_detected (40P01) and serialization_failure (40001), as the driver
 * (pg, PGlite) or Prisma (P2034) reports them: the transaction was rolled back and is safe to
 * run again.
 */
export function isContentionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '40P01' || code === '40001' || code === 'P2034';
}

class RetryableConflict extends Error {}

/**
 * Applies `writes` (prepared, each with a dedup key) as import-style upserts inside the
 * caller's transaction, in order, and returns each resulting contact in input order (none for
 * an item skipped with options.skipOverLimit).
 * Throws RetryableConflict (see withConflictRetry) when a concurrent writer inserted one of
 * the same dedup keys first.
 */
export async function upsertInTransaction(
  tx: SqlClient,
  account: AccountRules,
  writes: PreparedWrite[],
  enrollment: Enrollment | null,
  now: Date,
  /**
   * For a batch already accepted (a bulk import): skip an item whose merged customFields pass
   * the limits, instead of failing them all; onSkip hears each skipped item's position in `writes`.
   */
  options: { skipOverLimit?: boolean; onSkip?: (position: number) => void } = {},
): Promise<WriteOutcome[]> {
  const keys = [...new Set(writes.map((w) => (w.dedup.ok ? w.dedup.key : '')))].filter(Boolean);
  const existing = await findContactsByDedupKeys(tx, account.id, keys, true);
  const byKey = new Map<string, { row: ContactRow; created: boolean }>(
    existing.map((row) => [row.dedupKey, { row, created: false }]),
  );
  const phones = new Set<string>();
  for (const w of writes) if (w.phone) phones.add(w.phone);
  for (const row of existing) if (row.phone) phones.add(row.phone);
  const blocked = await findBlockedPhones(tx, account.id, [...phones]);

  // Without reEnroll, a contact this workflow already called is not enrolled again.
  const alreadyCalled =
    enrollment && !enrollment.reEnroll
      ? await findContactsCalledBy(
          tx,
          enrollment.workflowId,
          existing.map((r) => r.id),
        )
      : new Set<string>();
  const enrolled = new Set<string>();

  const outcomes: WriteOutcome[] = [];
  for (const [position, write] of writes.entries()) {
    if (!write.dedup.ok) throw new Error('upsertInTransaction needs writes with a dedup key');
    const current = byKey.get(write.dedup.key);
    const resultingPhone = write.phone !== undefined ? write.phone : (current?.row.phone ?? null);
    let row: ContactRow;
    try {
      row = applyContactWrite(current?.row ?? null, write, {
        account,
        mode: 'import',
        phoneBlocked: resultingPhone !== null && blocked.has(resultingPhone),
        now,
      });
    } catch (error) {
      if (options.skipOverLimit && error instanceof MergedCustomFieldsOverLimit) {
        options.onSkip?.(position);
        continue;
      }
      throw error;
    }
    row.dedupKey = write.dedup.key;
    if (enrollment && !alreadyCalled.has(row.id)) {
      row = applyEnrollment(row, enrollment);
      enrolled.add(row.id);
    }
    const created = current ? current.created : true;
    byKey.set(row.dedupKey, { row, created });
    outcomes.push({ contact: row, created });
  }

  const finalRows = [...byKey.values()];
  // Inserted in dedup-key order, the order the read locks rows in, so two imports of
  // overlapping contacts wait for each other instead of deadlocking (mostly; see withConflictRetry).
  const toInsert = finalRows
    .filter((e) => e.created)
    .map((e) => e.row)
    .sort((a, b) => (a.dedupKey < b.dedupKey ? -1 : a.dedupKey > b.dedupKey ? 1 : 0));
  const toUpdate = finalRows.filter((e) => !e.created).map((e) => e.row);
  const inserted = await insertContacts(tx, account.id, toInsert);
  // A row missing here was inserted by a concurrent writer after our read: start over,
  // and this time the read finds (and locks) it.
  if (inserted.size !== toInsert.length) throw new RetryableConflict();
  await updateContacts(tx, account.id, toUpdate);
  if (enrollment && enrolled.size > 0) await startEnrollments(tx, account.id, [...enrolled], enrollment, now);
  const previous = new Map(existing.map((r) => [r.id, r]));
  await syncEnrollmentPriority(
    tx,
    toUpdate
      .filter((r) => previous.get(r.id)?.priority !== r.priority)
      .map((r) => ({ id: r.id, priority: r.priority })),
  );
  const before = new Map(existing.map((r) => [r.id, r.status]));
  const connecting = finalRows.filter(
    (e) => e.row.status === 'connecting' && before.get(e.row.id) !== 'connecting' && !enrolled.has(e.row.id),
  );
  await restartSequences(
    tx,
    account.id,
    connecting.map((e) => e.row.id),
    now,
  );
  // Later items may have changed an earlier item's contact: answer with the final state.
  return outcomes.map((o) => ({ contact: byKey.get(o.contact.dedupKey)?.row ?? o.contact, created: o.created }));
}

/**
 * Applies a PATCH or bulk-update write to one stored contact (inside the caller's
 * transaction). Returns null when the change would give the contact a dedup key another
 * contact holds, or leave it with none.
 */
export async function changeStoredContact(
  tx: SqlClient,
  account: AccountRules,
  stored: ContactRow,
  write: PreparedWrite,
  mode: Exclude<WriteMode, 'import'>,
  now: Date,
): Promise<
  | { ok: true; contact: ContactRow }
  | { ok: false; reason: 'conflict' | 'missing_dedup_field' | 'dedup_key_too_long'; holder?: ContactRow }
> {
  const resultingPhone = write.phone !== undefined ? write.phone : stored.phone;
  const blocked = resultingPhone ? await findBlockedPhones(tx, account.id, [resultingPhone]) : new Set<string>();
  const row = applyContactWrite(stored, write, { account, mode, phoneBlocked: blocked.size > 0, now });
  const key = buildDedupKey(account.dedupFields, row);
  if (!key.ok) return { ok: false, reason: key.reason };
  row.dedupKey = key.key;
  if (row.dedupKey !== stored.dedupKey) {
    const [holder] = await findContactsByDedupKeys(tx, account.id, [row.dedupKey], true);
    if (holder && holder.id !== stored.id) return { ok: false, reason: 'conflict', holder };
  }
  try {
    await updateContacts(tx, account.id, [row]);
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'conflict' };
    throw error;
  }
  if (row.priority !== stored.priority) await syncEnrollmentPriority(tx, [{ id: row.id, priority: row.priority }]);
  if (row.status === 'connecting' && stored.status !== 'connecting')
    await restartSequences(tx, account.id, [row.id], now);
  return { ok: true, contact: row };
}

/** Translates the database's unique violation at the data boundary (never shown raw). */
export function isUniqueViolation(error: unknown): boolean {
  const text =
    String((error as { message?: string })?.message ?? '') + JSON.stringify((error as { meta?: unknown })?.meta ?? {});
  return (error as { code?: string })?.code === 'P2002' || /23505|unique constraint|duplicate key/i.test(text);
}

export function dedupFailure(reason: 'missing_dedup_field' | 'dedup_key_too_long' | 'invalid_phone'): DomainError {
  const messages = {
    invalid_phone:
      'phone cannot be read as a phone number for its country; include the country code (e.g. +14155552671)',
    missing_dedup_field: "the contact has none of the Account's dedup fields",
    dedup_key_too_long: 'the dedup field values are too long (over 512 characters together)',
  };
  return new DomainError(reason, messages[reason]);
}
