// SQL of the do-not-call list: moving an Account's contacts with a blocked phone to `dnc`.
import type { SqlClient } from '../../db/sql-client.js';
import { recordContactEvents } from '../webhooks/webhook-outbox.store.js';

/** Moves the Account's contacts with this phone to `dnc` (their contact.updated events with them); how many. */
export async function moveContactsToDnc(tx: SqlClient, accountId: string, phone: string, now: Date): Promise<number> {
  const moved = await tx.$queryRaw<Array<{ id: string }>>`UPDATE "Contact" SET "status" = 'dnc', "updatedAt" = ${now}
    WHERE "accountId" = ${accountId}::uuid AND "phone" = ${phone} RETURNING "id"`;
  await recordContactEvents(
    tx,
    accountId,
    'contact.updated',
    moved.map((row) => row.id),
    now,
  );
  return moved.length;
}
