// Request id and actor resolution shared by every HTTP surface.
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { RequestContext, Services } from '../domain/context.js';
import { authenticateApiKey } from '../domain/api-keys/api-keys.service.js';
import { noteRequestAccount } from './access-log.js';
import { spendKeyQuota } from './edge/rate-limit/rate-limits.js';

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a well-formed incoming x-request-id; otherwise mints a UUID. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** An account-scoped context from the API key, or a 401 DomainError. */
export async function apiKeyContext(services: Services, req: Request, requestId: string): Promise<RequestContext> {
  const actor = noteRequestAccount(req, await authenticateApiKey(services, bearerToken(req.headers.authorization)));
  return { ...services, requestId, actor, isAdmin: false };
}

/**
 * What a surface calls before reading a body: the API key's context (a 401 DomainError without
 * a valid key), then the key's rate limit (a 429 DomainError past it).
 */
export async function keyedRequestContext(services: Services, req: Request, res: Response): Promise<RequestContext> {
  const ctx = await apiKeyContext(services, req, res.locals.requestId as string);
  if (ctx.actor?.apiKeyId) await spendKeyQuota(res, ctx.actor.apiKeyId);
  return ctx;
}
