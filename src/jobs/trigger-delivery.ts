// "When a call ends" trigger delivery: every ended call is sent to each matching subscription
// (docs/board-app.md, 'The "when a call ends" trigger'), durably. How a delivery reaches its subscriber is
// the channel's (the board app's: a POST to monday's webhook URL, signed; composed by
// src/service.ts); everything else is here:
//
// 1. Fan-out: each call.ended DomainEvent (written in the same transaction as the call's outcome)
//    becomes one MondayTriggerDelivery row per matching subscription, and the event is marked
//    dispatched, in one transaction. Agent-builder test calls and transferred calls fire nothing;
//    a subscription's agent filter keeps only that agent's calls, and an automation on a board
//    skips items of other boards.
// 2. Delivery: due rows are leased (nextAttemptAt moves past any channel's answer time), sent
//    through the channel, then marked delivered; 408, 429, 5xx and no answer are retried with
//    exponential backoff (honouring Retry-After) for up to a day; 404 and 410 mean the
//    subscriber is gone (the subscription is dropped); any other answer ends the delivery.
// 3. Recovery: a lease records the process holding it (`leasedBy`). When a worker starts, and
//    every few seconds after, the leases of processes that are gone (./process-liveness.ts)
//    are given back, due at once: a delivery a killed process was sending goes out again within
//    a second or two of the next start, not when its lease runs out.
//
// The unique (webhookId, callId) row means one call fires a subscription at most once; a row is
// only sent again when the process dies between the subscriber's 2xx and our commit
// (at-least-once over HTTP; documented). Nothing lives in memory: a restart resumes from the tables.
import type { Services } from '../domain/context.js';
import { directSql } from '../db/sql-client.js';
import { callEndedBody } from '../domain/monday/call-ended-outputs.rules.js';
import {
  activeSubscriptionsOf,
  dropSubscription,
  insertDeliveries,
  itemsOfContacts,
  leaseDueDeliveries,
  leaseOwners,
  lockUndispatchedCallEnded,
  markEventsDispatched,
  releaseLeasesOf,
  rescheduleDelivery,
  settleDelivery,
  type LeasedDelivery,
  type NewDelivery,
} from '../domain/monday/trigger-deliveries.store.js';
import { logger } from '../logger.js';
import { startPeriodic, type PeriodicWorker } from './periodic.js';
import { registerProcess, type ProcessLiveness } from './process-liveness.js';

const FAN_OUT_BATCH = 200;
const DELIVERY_BATCH = 20;
/**
 * Longer than any channel's answer time (the board app's: 30 s): a leased row is only picked
 * again once its sender is surely gone.
 */
const LEASE_MS = 2 * 60_000;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 10 * 60_000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Passes between two looks for leases of processes that are gone (the first pass looks too). */
const RECLAIM_EVERY_PASSES = 10;

export interface TriggerLog {
  warn(message: string): void;
  error(message: string, options?: { error?: Error }): void;
}

/** How the subscriber answered a delivery (status 0: no answer). */
export interface ChannelAnswer {
  status: number;
  /** The Retry-After header, when the subscriber sent one. */
  retryAfter: string | null;
  /** The start of the answer's body, for the delivery's last error. */
  body: string;
}

/** Who sends deliveries to their subscribers: handed to the job by the composition root. */
export interface TriggerChannel {
  /** Why deliveries must wait (said once when the worker starts), or null when they can be sent. */
  waitReason: string | null;
  /** Sends a delivery's stored body to its subscription's URL. A throw counts as no answer. */
  send(webhookUrl: string, body: unknown, now: Date): Promise<ChannelAnswer>;
  /** Where the job's warnings and failures are written (the board app's log). */
  log?: TriggerLog;
}

type JobServices = Pick<Services, 'db' | 'clock'>;

const serviceLog: TriggerLog = {
  warn: (message) => logger.warn({ component: 'trigger-delivery' }, message),
  error: (message, options) => logger.error({ component: 'trigger-delivery', err: options?.error }, message),
};

/** Fans undispatched call.ended events out to deliveries; returns how many events it handled. */
export async function fanOutCallEnded(services: JobServices): Promise<number> {
  return services.db.sql.transaction(async (runner) => {
    const tx = directSql(runner);
    const events = await lockUndispatchedCallEnded(tx, FAN_OUT_BATCH);
    if (events.length === 0) return 0;
    const now = services.clock.now();
    const firing = events.map((e) => e.payload).filter((p) => !p.testCall && !p.transferred);
    if (firing.length > 0) {
      const [subscriptions, links] = await Promise.all([
        activeSubscriptionsOf(tx, [...new Set(firing.map((p) => p.accountId))]),
        itemsOfContacts(tx, [...new Set(firing.map((p) => p.contactId))]),
      ]);
      const itemOf = new Map(links.map((l) => [l.contactId, l]));
      const deliveries: NewDelivery[] = [];
      for (const call of firing) {
        for (const subscription of subscriptions) {
          if (subscription.accountId !== call.accountId) continue;
          if (subscription.agentId && subscription.agentId !== call.agentId) continue;
          // An automation on a board hears about that board's items only (its follow-up actions
          // act on the item, with that board's columns); a contact from no board reaches all.
          const item = itemOf.get(call.contactId);
          if (item && subscription.boardId && item.boardId !== subscription.boardId) continue;
          const payload = JSON.stringify(callEndedBody(call, item));
          deliveries.push({ webhookId: subscription.webhookId, callId: call.callId, payload });
        }
      }
      await insertDeliveries(tx, deliveries, now);
    }
    await markEventsDispatched(
      tx,
      events.map((e) => e.seq),
      now,
    );
    return events.length;
  });
}

export interface DeliveryOptions {
  /** The process that leases (recorded on the rows, so a later process can tell it is gone). */
  leaseOwner?: string;
}

/** Sends the deliveries that are due; returns how many it attempted. */
export async function deliverDueTriggers(
  services: JobServices,
  channel: TriggerChannel,
  options: DeliveryOptions = {},
): Promise<number> {
  // A channel that cannot send yet (startTriggerDelivery said why) leaves them due.
  if (channel.waitReason !== null) return 0;
  const now = services.clock.now();
  const leased = await leaseDueDeliveries(directSql(services.db.sql), {
    now,
    until: new Date(now.getTime() + LEASE_MS),
    owner: options.leaseOwner ?? null,
    limit: DELIVERY_BATCH,
  });
  await Promise.all(leased.map((row) => deliverOne(services, channel, row)));
  return leased.length;
}

async function deliverOne(services: JobServices, channel: TriggerChannel, row: LeasedDelivery): Promise<void> {
  const db = directSql(services.db.sql);
  if (!row.webhookUrl || row.subscriptionDeleted) {
    return settleDelivery(db, row.id, 'cancelled', 'the automation was deleted', services.clock.now());
  }
  let status = 0;
  let retryAfterMs: number | null = null;
  let error: string;
  try {
    const answer = await channel.send(row.webhookUrl, row.payload, services.clock.now());
    status = answer.status;
    retryAfterMs = retryAfter(answer.retryAfter, services.clock.now());
    error = `HTTP ${status}: ${answer.body.slice(0, 300)}`;
  } catch (e) {
    error = `no answer: ${(e as Error).message}`;
  }
  const now = services.clock.now();
  if (status >= 200 && status < 300) return settleDelivery(db, row.id, 'delivered', null, now);
  if (status === 404 || status === 410) {
    // The subscriber no longer knows the subscription (the automation was deleted without an unsubscribe).
    await dropSubscription(db, row.webhookId, now);
    return settleDelivery(db, row.id, 'cancelled', error, now);
  }
  const retryable = status === 0 || status === 408 || status === 429 || status >= 500;
  if (!retryable || now.getTime() - new Date(row.createdAt).getTime() > GIVE_UP_AFTER_MS) {
    const log = channel.log ?? serviceLog;
    log.warn(`call-ended trigger delivery ${row.id} (subscription ${row.webhookId}) failed for good: ${error}`);
    return settleDelivery(db, row.id, 'failed', error, now);
  }
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** (row.attempts - 1), MAX_RETRY_MS);
  await rescheduleDelivery(db, row.id, new Date(now.getTime() + Math.max(backoff, retryAfterMs ?? 0)), error);
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
export async function reclaimAbandonedLeases(
  services: JobServices,
  liveness: Pick<ProcessLiveness, 'gone'>,
): Promise<number> {
  const db = directSql(services.db.sql);
  const gone = await liveness.gone(await leaseOwners(db));
  if (gone.length === 0) return 0;
  return releaseLeasesOf(db, gone, services.clock.now());
}

/**
 * Fans out and delivers every `intervalMs`, one pass at a time; the first pass (and every
 * RECLAIM_EVERY_PASSES-th) first takes back the leases of processes that are gone.
 */
export function startTriggerDelivery(services: JobServices, channel: TriggerChannel, intervalMs = 500): PeriodicWorker {
  const log = channel.log ?? serviceLog;
  if (channel.waitReason !== null) log.warn(channel.waitReason);
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
      await deliverDueTriggers(services, channel, { leaseOwner: self.id });
    },
    (error) => {
      const cause = error instanceof Error ? error : new Error(String(error));
      log.error('trigger delivery pass failed; retrying next tick', { error: cause });
    },
  );
  return {
    async stop() {
      await worker.stop();
      const self = await liveness?.catch(() => null);
      await self?.close();
    },
  };
}
