// Request id and actor resolution shared by every HTTP surface.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext, Services } from '../domain/context.js';
import { authenticateApiKey } from '../domain/api-keys/api-keys.service.js';
import { noteRequestStarted } from '../db/foreground-traffic.js';
import { noteRequestAccount } from './access-log.js';
import { spendKeyQuota } from './edge/rate-limit/rate-limits.js';
import type { EdgeResponse } from './edge-response.js';

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a well-formed incoming x-request-id; otherwise mints a UUID. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The first step of every request: its id (echoed in x-request-id) and its locals. */
export function beginRequest(req: IncomingMessage, res: ServerResponse): EdgeResponse {
  // Background work on the embedded database sizes its chunks by the requests coming (src/db/foreground-traffic.ts).
  noteRequestStarted();
  const incoming = req.headers['x-request-id'];
  const requestId = requestIdFor(typeof incoming === 'string' ? incoming : undefined);
  const edge = res as EdgeResponse;
  edge.locals = { requestId };
  res.setHeader('x-request-id', requestId);
  return edge;
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** An account-scoped context from the API key, or a 401 DomainError. */
export async function apiKeyContext(
  services: Services,
  req: IncomingMessage,
  requestId: string,
): Promise<RequestContext> {
  const actor = noteRequestAccount(req, await authenticateApiKey(services, bearerToken(req.headers.authorization)));
  return { ...services, requestId, actor, isAdmin: false };
}

/**
 * What a surface calls before reading a body: the API key's context (a 401 DomainError without
 * a valid key), then the key's rate limit (a 429 DomainError past it).
 */
export async function keyedRequestContext(
  services: Services,
  req: IncomingMessage,
  res: EdgeResponse,
): Promise<RequestContext> {
  const ctx = await apiKeyContext(services, req, res.locals.requestId as string);
  if (ctx.actor?.apiKeyId) await spendKeyQuota(res, ctx.actor.apiKeyId);
  return ctx;
}
