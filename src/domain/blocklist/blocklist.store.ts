// SQL of the do-not-call list: moving an Account's contacts with a blocked phone to `dnc`, their consents revoked.
import type { SqlClient } from '../../db/sql-client.js';
import { recordContactEvents } from '../webhooks/webhook-outbox.store.js';
import { revokeConsentsOfPhone } from '../calling-rules/dialing.store.js';

/**
 * Moves the Account's contacts with this phone to `dnc` (their contact.updated events with them),
 * and revokes their consents (a do-not-call request revokes consent); how many contacts.
 */
export async function moveContactsToDnc(
  tx: SqlClient,
  accountId: string,
  phone: string,
  now: Date,
  revokedBy: 'block_list' | 'erasure',
): Promise<number> {
  await revokeConsentsOfPhone(tx, accountId, phone, now, revokedBy);
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
