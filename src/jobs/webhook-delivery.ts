// Outgoing webhooks, durably (docs/webhooks.md):
//
// 1. Fan-out: each DomainEvent not handled yet becomes one WebhookDelivery row per enabled
//    endpoint of its Account subscribed to its type (and created before it), with the body it
//    will send, rendered now (src/domain/webhooks/webhook-event-data.ts); the events are marked
//    handled in the same transaction.
// 2. Delivery: due rows of enabled endpoints are leased (nextAttemptAt moves past the attempt's
//    longest time), signed with the endpoint's secret(s) and the attempt's timestamp, sent
//    (src/jobs/webhook-sender.ts), then settled: a 2xx is delivered (and the endpoint is no
//    longer failing); anything else is tried again with exponential backoff (5 s, tripling, at
//    most 12 hours apart, a Retry-After honoured within that) until 3 days after the delivery was
//    made, then failed for good. An endpoint whose attempts have failed for 5 days running, with
//    no success between, is disabled, with a notice as the last line of its deliveries.
// 3. Recovery: a lease records the process holding it; the leases of processes that are gone
//    are given back, due at once, when a worker starts and every few seconds after.
//
// Delivery is at least once: a row is only sent again when a process dies between the
// receiver's 2xx and our commit, and it carries the same webhook-id (msg_<event id>) every time,
// so receivers drop duplicates by it. Nothing lives in memory: a restart resumes from the tables.
import { randomUUID } from 'node:crypto';
import type { Services, WebhookSettings } from '../domain/context.js';
import { directSql } from '../db/sql-client.js';
import { decryptSecret } from '../domain/shared/secret-box.js';
import { renderEventData } from '../domain/webhooks/webhook-event-data.js';
import { RETRY_FOR_MS } from '../domain/webhooks/webhook-endpoints.service.js';
import {
  disableFailingEndpoint,
  enabledEndpointsOf,
  insertWebhookDeliveries,
  leaseDueWebhookDeliveries,
  lockUnfanned,
  markEventsFanned,
  recordWebhookFailure,
  releaseWebhookLeasesOf,
  settleWebhookDelivered,
  webhookLeaseOwners,
  type LeasedWebhookDelivery,
  type NewWebhookDelivery,
  unfannedEvents,
} from '../domain/webhooks/webhook-deliveries.store.js';
import { ENDPOINT_DISABLED_NOTICE, webhookBody, webhookMessageId } from '../domain/webhooks/webhook-events.rules.js';
import { signedHeaders } from '../domain/webhooks/webhook-signing.js';
import { logger } from '../logger.js';
import { startPeriodic, type PeriodicWorker } from './periodic.js';
import { registerProcess, type ProcessLiveness } from './process-liveness.js';
import { ATTEMPT_TIMEOUT_MS, webhookSender, type WebhookSender } from './webhook-sender.js';

const FAN_OUT_BATCH = 500;
const DELIVERY_BATCH = 50;
/** Longer than an attempt can take: a leased row is only picked again once its sender is surely gone. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 50_000;
export const FIRST_RETRY_MS = 5_000;
export const MAX_RETRY_MS = 12 * 60 * 60_000;
/** An endpoint failing this long, without a success between, is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60_000;
/** Passes between two looks for leases of processes that are gone (the first pass looks too). */
const RECLAIM_EVERY_PASSES = 10;
/** A pass keeps fanning out and sending while there is work, for at most this long. */
const PASS_BUDGET_MS = 2_000;

type JobServices = Pick<Services, 'db' | 'clock'> & { webhooks: WebhookSettings };

/**
 * Fans out the oldest events not handled yet; returns how many events it handled. The bodies are
 * rendered before the transaction (reads of their own: on the embedded database a read outside
 * an open transaction would wait for it), then the events still not handled are claimed, their
 * deliveries inserted and the events marked, in one short transaction; events another worker
 * claimed meanwhile are left to it.
 */
export async function fanOutWebhookEvents(services: JobServices): Promise<number> {
  const db = directSql(services.db.sql);
  const events = await unfannedEvents(db, FAN_OUT_BATCH);
  if (events.length === 0) return 0;
  const endpoints = await enabledEndpointsOf(db, [...new Set(events.map((e) => e.accountId))]);
  const listening = events.filter((event) =>
    endpoints.some((e) => receives(e, event.accountId, event.type, event.createdAt)),
  );
  const rendered = listening.length > 0 ? await renderEventData({ db: services.db }, listening) : new Map();
  return services.db.sql.transaction(async (runner) => {
    const tx = directSql(runner);
    const claimed = await lockUnfanned(
      tx,
      events.map((e) => e.seq),
    );
    if (claimed.size === 0) return 0;
    const now = services.clock.now();
    const deliveries: NewWebhookDelivery[] = [];
    for (const event of listening) {
      const data = rendered.get(event.id);
      if (!data || !claimed.has(event.seq)) continue;
      const payload = webhookBody(event.type, new Date(event.createdAt), data.data);
      for (const endpoint of endpoints) {
        if (!receives(endpoint, event.accountId, event.type, event.createdAt)) continue;
        deliveries.push({
          id: randomUUID(),
          endpointId: endpoint.id,
          accountId: event.accountId,
          eventId: event.id,
          eventType: event.type,
          contactId: data.contactId,
          payload,
        });
      }
    }
    await insertWebhookDeliveries(tx, deliveries, now, new Date(now.getTime() + RETRY_FOR_MS));
    await markEventsFanned(tx, [...claimed], now);
    return claimed.size;
  });
}

function receives(
  endpoint: { accountId: string; events: string[]; createdAt: Date },
  accountId: string,
  type: string,
  at: Date,
): boolean {
  return (
    endpoint.accountId === accountId &&
    endpoint.events.includes(type) &&
    new Date(endpoint.createdAt).getTime() <= new Date(at).getTime()
  );
}

export interface DeliveryOptions {
  /** The process that leases (recorded on the rows, so a later process can tell it is gone). */
  leaseOwner?: string;
  /** Deliveries leased at once (default DELIVERY_BATCH, sent concurrently). */
  limit?: number;
  /** Told of each attempt: the service's own time on it (its share of the lease, signing, settling) and the send's. */
  observe?: (attempt: { serviceMs: number; sendMs: number }) => void;
}

/** Sends the deliveries that are due; returns how many it attempted. */
export async function deliverDueWebhooks(
  services: JobServices,
  sender: WebhookSender,
  options: DeliveryOptions = {},
): Promise<number> {
  const now = services.clock.now();
  const leaseStarted = performance.now();
  const leased = await leaseDueWebhookDeliveries(directSql(services.db.sql), {
    now,
    until: new Date(now.getTime() + LEASE_MS),
    owner: options.leaseOwner ?? null,
    limit: options.limit ?? DELIVERY_BATCH,
  });
  const leaseShareMs = (performance.now() - leaseStarted) / Math.max(leased.length, 1);
  await Promise.all(leased.map((row) => deliverOne(services, sender, row, leaseShareMs, options.observe)));
  return leased.length;
}

/** The secrets that sign now: the current one, and the one it replaced while its 24 hours last. */
function signingSecrets(row: LeasedWebhookDelivery, key: Buffer, now: Date): string[] {
  const secrets = [decryptSecret(row.secretEncrypted, key)];
  if (row.previousSecretEncrypted && row.previousSecretExpiresAt && new Date(row.previousSecretExpiresAt) > now)
    secrets.push(decryptSecret(row.previousSecretEncrypted, key));
  return secrets;
}

async function deliverOne(
  services: JobServices,
  sender: WebhookSender,
  row: LeasedWebhookDelivery,
  leaseShareMs: number,
  observe: DeliveryOptions['observe'],
): Promise<void> {
  const started = performance.now();
  const db = directSql(services.db.sql);
  const key = services.webhooks.secretsKey;
  const sentAt = services.clock.now();
  let sendMs = 0;
  const send = async (attempt: Parameters<WebhookSender['send']>[0]) => {
    const sendStarted = performance.now();
    try {
      return await sender.send(attempt);
    } finally {
      sendMs = performance.now() - sendStarted;
    }
  };
  const outcome = key
    ? await send({
        url: row.url,
        headers: signedHeaders(webhookMessageId(row.eventId), sentAt, row.payload, signingSecrets(row, key, sentAt)),
        body: row.payload,
      })
    : { status: null, retryAfter: null, error: 'WEBHOOK_SECRETS_KEY is not set: nothing can be signed' };
  const now = services.clock.now();
  const settled = () => observe?.({ serviceMs: leaseShareMs + performance.now() - started - sendMs, sendMs });
  if (outcome.error === null && outcome.status !== null) {
    await settleWebhookDelivered(db, row, outcome.status, now);
    return settled();
  }
  const backoff = Math.min(FIRST_RETRY_MS * 3 ** (row.attempts - 1), MAX_RETRY_MS);
  const wait = Math.max(backoff, retryAfterMs(outcome.retryAfter, now) ?? 0);
  const next = now.getTime() + wait <= new Date(row.giveUpAt).getTime() ? new Date(now.getTime() + wait) : null;
  const failingSince = await recordWebhookFailure(db, {
    id: row.id,
    endpointId: row.endpointId,
    responseStatus: outcome.status,
    error: outcome.error ?? 'failed',
    now,
    next,
  });
  if (now.getTime() - new Date(failingSince).getTime() >= DISABLE_AFTER_MS) {
    const reason = `disabled: every attempt failed since ${new Date(failingSince).toISOString()} (5 days); last: ${outcome.error}`;
    const eventId = randomUUID();
    const disabled = await disableFailingEndpoint(
      db,
      row.endpointId,
      {
        id: randomUUID(),
        eventId,
        eventType: ENDPOINT_DISABLED_NOTICE,
        payload: webhookBody(ENDPOINT_DISABLED_NOTICE, now, { endpointId: row.endpointId, failingSince, reason }),
        reason,
      },
      now,
    );
    if (disabled) logger.warn({ component: 'webhooks', endpointId: row.endpointId }, 'webhook endpoint disabled');
  }
  settled();
}

function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(seconds * 1000, MAX_RETRY_MS);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(Math.max(at - now.getTime(), 0), MAX_RETRY_MS);
}

/** Gives back, due now, the leases held by processes that are gone; returns how many. */
export async function reclaimAbandonedWebhookLeases(
  services: JobServices,
  liveness: Pick<ProcessLiveness, 'gone'>,
): Promise<number> {
  const db = directSql(services.db.sql);
  const gone = await liveness.gone(await webhookLeaseOwners(db));
  if (gone.length === 0) return 0;
  return releaseWebhookLeasesOf(db, gone, services.clock.now());
}

export interface WebhookWorkerOptions {
  intervalMs?: number;
  /** The sender (default: webhookSender over the settings). */
  sender?: WebhookSender;
}

/**
 * Fans out and delivers every `intervalMs`, one pass at a time; a pass goes on while there is
 * work (up to PASS_BUDGET_MS), and the first (and every RECLAIM_EVERY_PASSES-th) first takes back
 * the leases of processes that are gone.
 */
export function startWebhookDelivery(services: JobServices, options: WebhookWorkerOptions = {}): PeriodicWorker {
  const sender = options.sender ?? webhookSender(services.webhooks);
  if (!services.webhooks.secretsKey)
    logger.warn({ component: 'webhooks' }, 'WEBHOOK_SECRETS_KEY is not set: webhook endpoints cannot be created');
  let liveness: Promise<ProcessLiveness> | null = null;
  let passes = 0;
  const worker = startPeriodic(
    options.intervalMs ?? 250,
    async () => {
      liveness ??= registerProcess(services.db).catch((error) => {
        liveness = null;
        throw error;
      });
      const self = await liveness;
      if (passes++ % RECLAIM_EVERY_PASSES === 0) await reclaimAbandonedWebhookLeases(services, self);
      const started = performance.now();
      while (performance.now() - started < PASS_BUDGET_MS) {
        const fanned = await fanOutWebhookEvents(services);
        const sent = await deliverDueWebhooks(services, sender, { leaseOwner: self.id });
        if (fanned === 0 && sent === 0) break;
      }
    },
    (error) => {
      logger.error({ component: 'webhooks', err: error }, 'webhook delivery pass failed; retrying next tick');
    },
  );
  return {
    async stop() {
      await worker.stop();
      sender.close();
      const self = await liveness?.catch(() => null);
      await self?.close();
    },
  };
}
