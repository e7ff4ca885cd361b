// "When a call ends" trigger delivery: every ended call is POSTed as
// `{ trigger: { outputFields } }` to the webhookUrl of each matching subscription (README,
// 'The "when a call ends" trigger'), durably:
//
// 1. Fan-out: each call.ended DomainEvent (written in the same transaction as the call's outcome)
//    becomes one MondayTriggerDelivery row per matching subscription, and the event is marked
//    dispatched, in one transaction. Agent-builder test calls and transferred calls fire nothing;
//    a subscription's agent filter keeps only that agent's calls, and an automation on a board
//    skips items of other boards.
// 2. Delivery: due rows are leased (nextAttemptAt moves past the HTTP timeout), POSTed to the
//    subscription's webhookUrl with our `{ appId }` JWT, then marked delivered; 429, 5xx and no
//    answer are retried with exponential backoff (honouring Retry-After) for up to a day.
// 3. Recovery: a lease records the process holding it (`leasedBy`). When a worker starts, and
//    every few seconds after, the leases of processes that are gone (src/jobs/process-liveness.ts)
//    are given back, due at once: a delivery a killed process was sending goes out again within
//    a second or two of the next start, not when its lease runs out.
//
// The unique (webhookId, callId) row means one call fires a subscription at most once; a row is
// only sent again when the process dies between monday's 2xx and our commit (at-least-once over
// HTTP; documented). Nothing lives in memory: a restart resumes from the tables.
import type { Services } from '../../src/domain/context.js';
import type { CallEndedEvent } from '../../src/domain/calls/call-events.service.js';
import { startPeriodic, type PeriodicWorker } from '../../src/jobs/periodic.js';
import { registerProcess, type ProcessLiveness } from '../../src/jobs/process-liveness.js';
import { boardLogger, errorOf } from './board-logger.js';
import type { MondayConfig } from './config.js';
import { signTriggerAuthorization } from './monday-jwt.js';

const FAN_OUT_BATCH = 200;
const DELIVERY_BATCH = 20;
const HTTP_TIMEOUT_MS = 30_000;
/** Longer than the HTTP timeout: a leased row is only picked again once its sender is surely gone. */
const LEASE_MS = 2 * 60_000;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 10 * 60_000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Passes between two looks for leases of processes that are gone (the first pass looks too). */
const RECLAIM_EVERY_PASSES = 10;

/** The trigger block's output fields (declared in monday/manifest.json). */
export interface CallEndedOutputs {
  itemId: number | string | null;
  boardId: number | string | null;
  callResult: string;
  endReason: string;
  durationSeconds: number;
  isLastCall: boolean;
  callId: string;
  contactId: string;
  agentId: string | null;
  workflowId: string | null;
}

/** Fans undispatched call.ended events out to deliveries; returns how many events it handled. */
export async function fanOutCallEnded(services: Pick<Services, 'db' | 'clock'>): Promise<number> {
  return services.db.sql.transaction(async (tx) => {
    const { rows: events } = await tx.query<{ seq: string; payload: CallEndedEvent }>(
      `SELECT seq, payload FROM "DomainEvent"
        WHERE "dispatchedAt" IS NULL AND type = 'call.ended'
        ORDER BY seq LIMIT ${FAN_OUT_BATCH} FOR UPDATE SKIP LOCKED`,
    );
    if (events.length === 0) return 0;
    const firing = events.map((e) => e.payload).filter((p) => !p.testCall && !p.transferred);
    if (firing.length > 0) {
      const accountIds = [...new Set(firing.map((p) => p.accountId))];
      const contactIds = [...new Set(firing.map((p) => p.contactId))];
      const [{ rows: subscriptions }, { rows: links }] = await Promise.all([
        tx.query<{ webhookId: string; accountId: string; agentId: string | null; boardId: string | null }>(
          `SELECT "webhookId", "accountId", "agentId", "boardId" FROM "MondayTriggerSubscription"
            WHERE "accountId" = ANY($1::uuid[]) AND "deletedAt" IS NULL`,
          [accountIds],
        ),
        tx.query<{ contactId: string; boardId: string; itemId: string }>(
          `SELECT "contactId", "boardId", "itemId" FROM "MondayItemLink" WHERE "contactId" = ANY($1::uuid[])`,
          [contactIds],
        ),
      ]);
      const itemOf = new Map(links.map((l) => [l.contactId, l]));
      const deliveries: Array<{ webhookId: string; callId: string; payload: string }> = [];
      for (const call of firing) {
        for (const subscription of subscriptions) {
          if (subscription.accountId !== call.accountId) continue;
          if (subscription.agentId && subscription.agentId !== call.agentId) continue;
          // An automation on a board hears about that board's items only (its follow-up actions
          // act on the item, with that board's columns); a contact from no board reaches all.
          const item = itemOf.get(call.contactId);
          if (item && subscription.boardId && item.boardId !== subscription.boardId) continue;
          deliveries.push({ webhookId: subscription.webhookId, callId: call.callId, payload: JSON.stringify({ trigger: { outputFields: outputsOf(call, item) } }) });
        }
      }
      if (deliveries.length > 0) {
        await tx.query(
          `INSERT INTO "MondayTriggerDelivery" (id, "webhookId", "callId", payload, "nextAttemptAt", "createdAt")
           SELECT gen_random_uuid(), d."webhookId", d."callId"::uuid, d.payload::jsonb, $2, $2
             FROM jsonb_to_recordset($1::jsonb) AS d("webhookId" text, "callId" text, payload text)
           ON CONFLICT ("webhookId", "callId") DO NOTHING`,
          [JSON.stringify(deliveries), services.clock.now()],
        );
      }
    }
    await tx.query(`UPDATE "DomainEvent" SET "dispatchedAt" = $2 WHERE seq = ANY($1::bigint[])`, [events.map((e) => e.seq), services.clock.now()]);
    return events.length;
  });
}

export function outputsOf(call: CallEndedEvent, item: { boardId: string; itemId: string } | undefined): CallEndedOutputs {
  return {
    itemId: item ? mondayIdValue(item.itemId) : null,
    boardId: item ? mondayIdValue(item.boardId) : null,
    callResult: call.result,
    endReason: call.endReason,
    durationSeconds: call.durationSeconds,
    isLastCall: call.lastCall,
    callId: call.callId,
    contactId: call.contactId,
    agentId: call.agentId,
    workflowId: call.workflowId,
  };
}

/** monday takes its ids (item, board) as numbers in trigger outputs; ones beyond 2^53 stay strings. */
function mondayIdValue(id: string): number | string {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : id;
}

interface LeasedDelivery {
  id: string;
  webhookId: string;
  payload: unknown;
  attempts: number;
  createdAt: Date;
  webhookUrl: string | null;
  subscriptionDeleted: boolean;
}

export interface DeliveryOptions {
  fetch?: typeof fetch;
  /** The process that leases (recorded on the rows, so a later process can tell it is gone). */
  leaseOwner?: string;
}

/** Sends the deliveries that are due; returns how many it attempted. */
export async function deliverDueTriggers(services: Pick<Services, 'db' | 'clock'>, config: MondayConfig, options: DeliveryOptions = {}): Promise<number> {
  // Without an app id there is no trigger JWT to sign (startTriggerDelivery says so once).
  if (config.appId === null) return 0;
  const now = services.clock.now();
  const { rows } = await services.db.sql.query<LeasedDelivery>(
    `UPDATE "MondayTriggerDelivery" d SET attempts = d.attempts + 1, "nextAttemptAt" = $2, "leasedBy" = $3::uuid
       FROM (SELECT id, "webhookId" FROM "MondayTriggerDelivery" WHERE status = 'pending' AND "nextAttemptAt" <= $1
              ORDER BY "nextAttemptAt" LIMIT ${DELIVERY_BATCH} FOR UPDATE SKIP LOCKED) due
       LEFT JOIN "MondayTriggerSubscription" sub ON sub."webhookId" = due."webhookId"
      WHERE d.id = due.id
      RETURNING d.id, d."webhookId", d.payload, d.attempts, d."createdAt", sub."webhookUrl", (sub."deletedAt" IS NOT NULL) AS "subscriptionDeleted"`,
    [now, new Date(now.getTime() + LEASE_MS), options.leaseOwner ?? null],
  );
  await Promise.all(rows.map((row) => deliverOne(services, config, row, options.fetch ?? fetch)));
  return rows.length;
}

async function deliverOne(services: Pick<Services, 'db' | 'clock'>, config: MondayConfig, row: LeasedDelivery, fetchImpl: typeof fetch): Promise<void> {
  if (!row.webhookUrl || row.subscriptionDeleted) return settle(services, row.id, 'cancelled', 'the automation was deleted');
  let status = 0;
  let retryAfterMs: number | null = null;
  let error: string;
  try {
    const response = await fetchImpl(row.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: signTriggerAuthorization(config.appId!, config.signingSecret, services.clock.now()) },
      body: JSON.stringify(row.payload),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    status = response.status;
    retryAfterMs = retryAfter(response.headers.get('retry-after'), services.clock.now());
    error = `HTTP ${status}: ${(await response.text().catch(() => '')).slice(0, 300)}`;
  } catch (e) {
    error = `no answer: ${(e as Error).message}`;
  }
  if (status >= 200 && status < 300) return settle(services, row.id, 'delivered', null);
  if (status === 404 || status === 410) {
    // monday no longer knows the subscription (the automation was deleted without an unsubscribe).
    await services.db.sql.query(`UPDATE "MondayTriggerSubscription" SET "deletedAt" = $2 WHERE "webhookId" = $1 AND "deletedAt" IS NULL`, [row.webhookId, services.clock.now()]);
    return settle(services, row.id, 'cancelled', error);
  }
  const retryable = status === 0 || status === 408 || status === 429 || status >= 500;
  const now = services.clock.now();
  if (!retryable || now.getTime() - new Date(row.createdAt).getTime() > GIVE_UP_AFTER_MS) {
    boardLogger(config).warn(`call-ended trigger delivery ${row.id} (subscription ${row.webhookId}) failed for good: ${error}`);
    return settle(services, row.id, 'failed', error);
  }
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** (row.attempts - 1), MAX_RETRY_MS);
  const next = new Date(now.getTime() + Math.max(backoff, retryAfterMs ?? 0));
  await services.db.sql.query(`UPDATE "MondayTriggerDelivery" SET "nextAttemptAt" = $2, "lastError" = $3, "leasedBy" = NULL WHERE id = $1`, [row.id, next, error]);
}

async function settle(services: Pick<Services, 'db' | 'clock'>, id: string, status: 'delivered' | 'cancelled' | 'failed', error: string | null): Promise<void> {
  await services.db.sql.query(
    `UPDATE "MondayTriggerDelivery" SET status = $2, "lastError" = COALESCE($3, "lastError"), "deliveredAt" = CASE WHEN $2 = 'delivered' THEN $4::timestamptz ELSE NULL END, "leasedBy" = NULL WHERE id = $1`,
    [id, status, error, services.clock.now()],
  );
}

function retryAfter(header: string | null, now: Date): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(seconds * 1000, MAX_RETRY_MS);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(Math.max(at - now.getTime(), 0), MAX_RETRY_MS);
}

/**
 * Gives back, due now, the leases held by processes that are gone; returns how many. The
 * delivery's attempt is not counted back: the process may have sent it before it died.
 */
export async function reclaimAbandonedLeases(services: Pick<Services, 'db' | 'clock'>, liveness: Pick<ProcessLiveness, 'gone'>): Promise<number> {
  const { rows } = await services.db.sql.query<{ owner: string }>(
    `SELECT DISTINCT "leasedBy"::text AS owner FROM "MondayTriggerDelivery" WHERE status = 'pending' AND "leasedBy" IS NOT NULL`,
  );
  const gone = await liveness.gone(rows.map((r) => r.owner));
  if (gone.length === 0) return 0;
  const { rowCount } = await services.db.sql.query(
    `UPDATE "MondayTriggerDelivery" SET "leasedBy" = NULL, "nextAttemptAt" = $2 WHERE status = 'pending' AND "leasedBy" = ANY($1::uuid[])`,
    [gone, services.clock.now()],
  );
  return rowCount;
}

/**
 * Fans out and delivers every `intervalMs`, one pass at a time; the first pass (and every
 * RECLAIM_EVERY_PASSES-th) first takes back the leases of processes that are gone.
 */
export function startTriggerDelivery(services: Pick<Services, 'db' | 'clock'>, config: MondayConfig, intervalMs = 500, options: DeliveryOptions = {}): PeriodicWorker {
  if (config.appId === null) {
    boardLogger(config).warn('MONDAY_APP_ID is not set: call-ended triggers wait until it is (the trigger JWT carries the app id)');
  }
  let liveness: Promise<ProcessLiveness> | null = null;
  let passes = 0;
  const worker = startPeriodic(
    intervalMs,
    async () => {
      // Registered on the first pass (a connection of its own on PostgreSQL); retried if that fails.
      liveness ??= registerProcess(services.db).catch((error) => {
        liveness = null;
        throw error;
      });
      const self = await liveness;
      if (passes++ % RECLAIM_EVERY_PASSES === 0) await reclaimAbandonedLeases(services, self);
      await fanOutCallEnded(services);
      await deliverDueTriggers(services, config, { ...options, leaseOwner: self.id });
    },
    (error) => boardLogger(config).error('trigger delivery pass failed; retrying next tick', { error: errorOf(error) }),
  );
  return {
    async stop() {
      await worker.stop();
      const self = await liveness?.catch(() => null);
      await self?.close();
    },
  };
}
