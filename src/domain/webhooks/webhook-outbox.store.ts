// How writes put webhook events into the DomainEvent outbox: in the statement (or transaction)
// that makes the change, so an event exists exactly when its change committed. Events only
// webhooks consume (contact.*, enrollment.*, import.completed, bulk_update.completed) are written only when
// the Account has an enabled endpoint subscribed to the type: an Account without webhooks pays
// one index probe per statement, not a row per contact written. call.ended is written for every
// ended call (the board app's trigger reads it too). The payload names the subject only; the
// fan-out (src/jobs/webhook-delivery.ts) renders the body from it, by the API's own shapes.
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../db/sql-client.js';
import type { WebhookEventType } from './webhook-events.rules.js';

/** True in SQL when the Account has an enabled endpoint subscribed to `type`. */
export function subscribedSql(accountId: string | Prisma.Sql, type: WebhookEventType): Prisma.Sql {
  const account = typeof accountId === 'string' ? Prisma.sql`${accountId}::uuid` : accountId;
  return Prisma.sql`EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."accountId" = ${account}
    AND NOT e."disabled" AND ${type} = ANY(e."events"))`;
}

/**
 * A CTE body inserting one `type` event per row of `rows` (a CTE name with "id" and "updatedAt"
 * columns: contacts just written), each with payload { contactId }, when the Account listens.
 */
export function contactEventsFrom(rows: string, accountId: string, type: WebhookEventType): Prisma.Sql {
  return Prisma.sql`INSERT INTO "DomainEvent" ("id", "accountId", "type", "payload", "createdAt")
    SELECT gen_random_uuid(), ${accountId}::uuid, ${type}, jsonb_build_object('contactId', w."id"), w."updatedAt"
      FROM ${Prisma.raw(`"${rows}"`)} w WHERE ${subscribedSql(accountId, type)}`;
}

/** Writes one `type` event per contact id (in the caller's transaction), when the Account listens. */
export async function recordContactEvents(
  tx: SqlClient,
  accountId: string,
  type: WebhookEventType,
  contactIds: string[],
  at: Date,
): Promise<void> {
  if (contactIds.length === 0) return;
  await tx.$executeRaw`INSERT INTO "DomainEvent" ("id", "accountId", "type", "payload", "createdAt")
    SELECT gen_random_uuid(), ${accountId}::uuid, ${type}, jsonb_build_object('contactId', c.id), ${at}::timestamptz
      FROM unnest(${contactIds}::uuid[]) AS c(id) WHERE ${subscribedSql(accountId, type)}`;
}

/**
 * A CTE body inserting a job's completion event (import.completed, bulk_update.completed) for each
 * row of `rows` (a CTE name with "id" and "accountId" columns: the job rows just finished), with
 * payload { importId } or { updateId }, when the job's Account listens.
 */
export function jobCompletedEventsFrom(
  rows: string,
  type: 'import.completed' | 'bulk_update.completed',
  at: Date,
): Prisma.Sql {
  const key = type === 'import.completed' ? 'importId' : 'updateId';
  return Prisma.sql`INSERT INTO "DomainEvent" ("id", "accountId", "type", "payload", "createdAt")
    SELECT gen_random_uuid(), j."accountId", ${type}, jsonb_build_object(${key}::text, j."id"), ${at}::timestamptz
      FROM ${Prisma.raw(`"${rows}"`)} j WHERE ${subscribedSql(Prisma.sql`j."accountId"`, type)}`;
}

/**
 * A CTE body inserting one `type` event per row of `rows` (a CTE name with an "id" column:
 * enrollments of `accountId` just started or ended), with payload { enrollmentId }, when the
 * Account listens. The Account is one constant, so the subscription is probed once per
 * statement, not per row: a stop of a million enrollments in an Account that does not listen
 * writes nothing more.
 */
export function enrollmentEventsFrom(
  rows: string,
  accountId: string,
  type: 'enrollment.started' | 'enrollment.ended',
  at: Date,
): Prisma.Sql {
  return Prisma.sql`INSERT INTO "DomainEvent" ("id", "accountId", "type", "payload", "createdAt")
    SELECT gen_random_uuid(), ${accountId}::uuid, ${type}, jsonb_build_object('enrollmentId', r."id"), ${at}::timestamptz
      FROM ${Prisma.raw(`"${rows}"`)} r WHERE ${subscribedSql(accountId, type)}`;
}
