// An Account's webhook endpoints (docs/webhooks.md): created with a signing secret shown once,
// listed, changed, deleted, their secret rotated (the old one keeps signing for 24 hours), and
// their deliveries listed and retried. Scoped to the key's Account: another Account's endpoint
// is as unknown as a missing one (404). Sending is src/jobs/webhook-delivery.ts's.
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { WebhookDelivery, WebhookEndpoint } from '../../generated/prisma/client.js';
import type { RequestContext, WebhookSettings } from '../context.js';
import { requireActor } from '../context.js';
import { badRequest, DomainError, notFound } from '../errors.js';
import { newestFirstPage, newestFirstPageOf, PageQuerySchema } from '../shared/cursor.js';
import { assertUuid } from '../shared/ids.js';
import { encryptSecret } from '../shared/secret-box.js';
import { parseInput } from '../shared/validation.js';
import type { z } from 'zod';
import {
  CreateWebhookEndpointSchema,
  DeliveryListSchema,
  type DeliveryStatusSchema,
  UpdateWebhookEndpointSchema,
} from './webhook-endpoints.inputs.js';
import { webhookMessageId } from './webhook-events.rules.js';
import { generateWebhookSecret } from './webhook-signing.js';
import { addressProblem, hostOf, isLoopbackName, urlProblem } from './webhook-url.rules.js';

/** Endpoints per Account: each event is sent to each, so the fan-out stays bounded. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;
/** How long the old secret signs alongside the new one after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;
/** How long a delivery is retried (from when it is made, or from a retry asked by hand). */
export const RETRY_FOR_MS = 3 * 24 * 60 * 60_000;

/** An endpoint as the API shows it: never its secret. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  disabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An endpoint with its new secret: the answer of a create or a rotation, the only time the secret is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  secret: string;
}

export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

/** A delivery as the API shows it. */
export interface WebhookDeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  webhookId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
  /** The body sent (parsed). */
  payload: unknown;
}

export async function createWebhookEndpoint(ctx: RequestContext, input: unknown): Promise<WebhookEndpointWithSecret> {
  const actor = requireActor(ctx);
  const data = parseInput(CreateWebhookEndpointSchema, input);
  const settings = webhookSettings(ctx);
  const key = requireSecretsKey(settings);
  await checkUrl(data.url, settings);
  const count = await ctx.db.prisma.webhookEndpoint.count({ where: { accountId: actor.accountId } });
  if (count >= MAX_ENDPOINTS_PER_ACCOUNT)
    throw new DomainError('conflict', `An Account has at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints`);
  const secret = generateWebhookSecret();
  const now = ctx.clock.now();
  const endpoint = await ctx.db.prisma.webhookEndpoint.create({
    data: {
      id: randomUUID(),
      accountId: actor.accountId,
      url: data.url,
      description: data.description ?? null,
      events: data.events,
      secretEncrypted: encryptSecret(secret, key),
      createdAt: now,
      updatedAt: now,
    },
  });
  return { ...endpointView(endpoint), secret };
}

/** One page of the Account's endpoints, newest first. */
export async function listWebhookEndpoints(
  ctx: RequestContext,
  query: unknown,
): Promise<{ data: WebhookEndpointView[]; nextToken: string | null }> {
  const actor = requireActor(ctx);
  const page = parseInput(PageQuerySchema, query);
  const { after, orderBy, take } = newestFirstPage(page);
  const rows = await ctx.db.prisma.webhookEndpoint.findMany({
    where: { accountId: actor.accountId, ...after },
    orderBy,
    take,
  });
  const { data, nextToken } = newestFirstPageOf(rows, page.limit);
  return { data: data.map(endpointView), nextToken };
}

export async function getWebhookEndpoint(ctx: RequestContext, id: string): Promise<WebhookEndpointView> {
  return endpointView(await findEndpoint(ctx, id));
}

/**
 * Changes an endpoint's url, events, description, or switches it off and on. Switching it on
 * again (disabled: false) also clears a disable for failing and its failure clock.
 */
export async function updateWebhookEndpoint(
  ctx: RequestContext,
  id: string,
  input: unknown,
): Promise<WebhookEndpointView> {
  const data = parseInput(UpdateWebhookEndpointSchema, input);
  const endpoint = await findEndpoint(ctx, id);
  if (data.url !== undefined) await checkUrl(data.url, webhookSettings(ctx));
  const switching =
    data.disabled === undefined || data.disabled === endpoint.disabled
      ? {}
      : data.disabled
        ? { disabled: true, disabledReason: 'disabled through the API' }
        : { disabled: false, disabledReason: null, failingSince: null };
  const updated = await ctx.db.prisma.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: {
      ...(data.url !== undefined ? { url: data.url } : {}),
      ...(data.events !== undefined ? { events: data.events } : {}),
      ...(data.description !== undefined ? { description: data.description } : {}),
      ...switching,
      updatedAt: ctx.clock.now(),
    },
  });
  return endpointView(updated);
}

/** Deletes an endpoint and its deliveries (those not sent yet are not sent). */
export async function deleteWebhookEndpoint(ctx: RequestContext, id: string): Promise<boolean> {
  const endpoint = await findEndpoint(ctx, id);
  await ctx.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  return true;
}

/**
 * A new secret for the endpoint, shown once; the secret it replaces keeps signing alongside it
 * for 24 hours (each delivery then carries both signatures), so receivers can switch without
 * missing one. A rotation within those 24 hours drops the oldest secret.
 */
export async function rotateWebhookEndpointSecret(ctx: RequestContext, id: string): Promise<WebhookEndpointWithSecret> {
  const endpoint = await findEndpoint(ctx, id);
  const key = requireSecretsKey(webhookSettings(ctx));
  const secret = generateWebhookSecret();
  const now = ctx.clock.now();
  const updated = await ctx.db.prisma.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: {
      secretEncrypted: encryptSecret(secret, key),
      previousSecretEncrypted: endpoint.secretEncrypted,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      updatedAt: now,
    },
  });
  return { ...endpointView(updated), secret };
}

/** One page of an endpoint's deliveries, newest first; `status` keeps one status only. */
export async function listWebhookDeliveries(
  ctx: RequestContext,
  endpointId: string,
  query: unknown,
): Promise<{ data: WebhookDeliveryView[]; nextToken: string | null }> {
  const { status, ...page } = parseInput(DeliveryListSchema, query);
  const endpoint = await findEndpoint(ctx, endpointId);
  const { after, orderBy, take } = newestFirstPage(page);
  const rows = await ctx.db.prisma.webhookDelivery.findMany({
    where: { endpointId: endpoint.id, ...(status ? { status } : {}), ...after },
    orderBy,
    take,
  });
  const { data, nextToken } = newestFirstPageOf(rows, page.limit);
  return { data: data.map(deliveryView), nextToken };
}

/**
 * Sends a delivery again, now, whatever became of it (a delivered one is sent again with the
 * same webhook-id, so a receiver that kept it drops it), then retried for another 3 days.
 * Refused for an endpoint that is disabled (switch it on first) and for a log notice.
 */
export async function retryWebhookDelivery(
  ctx: RequestContext,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await findEndpoint(ctx, endpointId);
  const id = assertUuid(deliveryId, 'deliveryId');
  const delivery = await ctx.db.prisma.webhookDelivery.findFirst({ where: { id, endpointId: endpoint.id } });
  if (!delivery) throw notFound(`No delivery ${deliveryId} of webhook endpoint ${endpointId}`);
  if (delivery.status === 'notice') throw new DomainError('conflict', 'A notice of the log is not a delivery');
  if (endpoint.disabled)
    throw new DomainError('conflict', 'The endpoint is disabled: switch it on (disabled: false) to send to it again');
  const now = ctx.clock.now();
  const updated = await ctx.db.prisma.webhookDelivery.update({
    where: { id: delivery.id },
    data: {
      status: 'pending',
      nextAttemptAt: now,
      giveUpAt: new Date(now.getTime() + RETRY_FOR_MS),
      leasedBy: null,
    },
  });
  return deliveryView(updated);
}

async function findEndpoint(ctx: RequestContext, id: string): Promise<WebhookEndpoint> {
  const actor = requireActor(ctx);
  const endpoint = await ctx.db.prisma.webhookEndpoint.findFirst({
    where: { id: assertUuid(id, 'id'), accountId: actor.accountId },
  });
  if (!endpoint) throw notFound(`No webhook endpoint ${id}`);
  return endpoint;
}

function endpointView(row: WebhookEndpoint): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    disabled: row.disabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince,
    previousSecretExpiresAt: row.previousSecretExpiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function deliveryView(row: WebhookDelivery): WebhookDeliveryView {
  return {
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    webhookId: webhookMessageId(row.eventId),
    eventType: row.eventType,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    lastError: row.lastError,
    // While an attempt is in flight (leased), its row's time is the lease's end, not a next attempt.
    nextAttemptAt: row.status === 'pending' && row.leasedBy === null ? row.nextAttemptAt : null,
    lastAttemptAt: row.lastAttemptAt,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
    payload: JSON.parse(row.payload),
  };
}

const NOT_CONFIGURED: WebhookSettings = { secretsKey: null, allowHttpLoopback: false, lookup: async () => [] };

function webhookSettings(ctx: RequestContext): WebhookSettings {
  return ctx.webhooks ?? NOT_CONFIGURED;
}

function requireSecretsKey(settings: WebhookSettings): Buffer {
  if (!settings.secretsKey)
    throw new DomainError(
      'unavailable',
      'Webhooks need WEBHOOK_SECRETS_KEY (32 bytes, base64) in the service configuration to keep their secrets',
    );
  return settings.secretsKey;
}

/**
 * The URL rules (webhook-url.rules.ts), and for a host name, the addresses it resolves to now: a
 * name leading to a private address is refused here already (and again at every connection).
 */
async function checkUrl(url: string, settings: WebhookSettings): Promise<void> {
  const refuse = (message: string) => badRequest(`url: ${message}`, { issues: [{ path: 'url', message }] });
  const problem = urlProblem(url, settings);
  if (problem) throw refuse(problem);
  const host = hostOf(new URL(url));
  if (isIP(host) || isLoopbackName(host)) return;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await settings.lookup(host);
  } catch (error) {
    throw refuse(`its host ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
  }
  for (const { address } of addresses) {
    const refused = addressProblem(address, settings);
    if (refused) throw refuse(`its host ${host} ${refused.replace(/^must not lead/, 'leads')}`);
  }
}
