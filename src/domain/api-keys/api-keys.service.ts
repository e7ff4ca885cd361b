// API keys, sent as `Authorization: Bearer svc_pk_…`: `svc_pk_` + 32 random bytes in base62,
// shown once, stored only as a SHA-256 hash; named, revocable; last use kept to the minute. A
// key may carry scopes (./key-scopes.ts) and an expiry; one created without either has every
// scope and never expires. An expired key is refused like a revoked one.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../shared/tokens.js';
import { z } from 'zod';
import type { Actor, RequestContext, Services } from '../context.js';
import { requireAdmin, requireConsoleUser } from '../context.js';
import { badRequestFor, DomainError, notFound } from '../errors.js';
import { isoDateTime } from '../contacts/contacts.inputs.js';
import { ScopesSchema, type KeyScope } from './key-scopes.js';
import { parseInput } from '../shared/validation.js';
import { directSql } from '../../db/sql-client.js';
import { findActiveKey } from './api-keys.store.js';

export const KEY_PREFIX = 'svc_pk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** lastUsedAt is refreshed at most this often, so authentication stays one read. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function generateSecret(): string {
  let n = BigInt(`0x${randomBytes(32).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return KEY_PREFIX + out.padStart(43, '0');
}

/** An API key's stored form (the secret itself is never stored). */
export const hashSecret = sha256Hex;

/** A new key's scopes (omitted: every scope) and expiry (omitted: never; else in the future). */
const KeyLimits = {
  scopes: ScopesSchema.nullish(),
  expiresAt: isoDateTime.nullish(),
};

export const CreateKeySchema = z.strictObject({
  userId: z.uuid(),
  name: z.string().trim().min(1).max(100),
  ...KeyLimits,
});

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  userId: string;
  name: string;
  lastFour: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** Empty: every scope. */
  scopes: string[];
  expiresAt: Date | null;
}

export const NewKeySchema = z.strictObject({ name: z.string().trim().min(1).max(100), ...KeyLimits });

type KeyLimitsInput = { scopes?: KeyScope[] | null; expiresAt?: Date | null };

/** Creates a key for a user; the secret is in the result and nowhere else, ever. */
export async function createApiKey(
  ctx: RequestContext,
  input: unknown,
): Promise<{ key: ApiKeyRecord; secret: string }> {
  requireAdmin(ctx);
  const { userId, name, ...limits } = parseInput(CreateKeySchema, input);
  const user = await ctx.db.prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound(`No user ${userId}`);
  // Nothing acts as a person removed from their Account (accounts.service.ts removeUser).
  if (user.removedAt)
    throw new DomainError('conflict', `User ${userId} was removed from their Account: invite them again first`);
  return insertKey(ctx, user, name, limits);
}

/** Console: a key owned by the signed-in person, in their Account. */
export async function createAccountApiKey(
  ctx: RequestContext,
  input: unknown,
): Promise<{ key: ApiKeyRecord; secret: string }> {
  const caller = requireConsoleUser(ctx);
  const { name, ...limits } = parseInput(NewKeySchema, input);
  return insertKey(ctx, { id: caller.userId, accountId: caller.accountId }, name, limits);
}

async function insertKey(
  ctx: RequestContext,
  user: { id: string; accountId: string },
  name: string,
  limits: KeyLimitsInput,
) {
  const now = ctx.clock.now();
  const expiresAt = limits.expiresAt ?? null;
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    throw badRequestFor([{ path: 'expiresAt', message: 'must be in the future' }]);
  const secret = generateSecret();
  const key = await ctx.db.prisma.apiKey.create({
    data: {
      accountId: user.accountId,
      userId: user.id,
      name,
      secretHash: hashSecret(secret),
      lastFour: secret.slice(-4),
      createdAt: now,
      scopes: limits.scopes ?? [],
      expiresAt,
    },
    omit: { secretHash: true },
  });
  return { key, secret };
}

export async function listApiKeys(ctx: RequestContext, accountId: string): Promise<ApiKeyRecord[]> {
  requireAdmin(ctx);
  return keysOfAccount(ctx, accountId);
}

/** Console: the signed-in person's Account's keys, revoked ones too, oldest first. */
export async function listAccountApiKeys(ctx: RequestContext): Promise<ApiKeyRecord[]> {
  return keysOfAccount(ctx, requireConsoleUser(ctx).accountId);
}

const keysOfAccount = (ctx: RequestContext, accountId: string) =>
  ctx.db.prisma.apiKey.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' }, omit: { secretHash: true } });

export async function revokeApiKey(ctx: RequestContext, id: string): Promise<ApiKeyRecord> {
  requireAdmin(ctx);
  return revokeKey(ctx, id, null);
}

/** Console: revokes a key of the signed-in person's Account (another Account's key is not found). */
export async function revokeAccountApiKey(ctx: RequestContext, id: string): Promise<ApiKeyRecord> {
  return revokeKey(ctx, id, requireConsoleUser(ctx).accountId);
}

/** Revoking twice keeps the first time. `accountId`: the Account the key must be in (null: any). */
async function revokeKey(ctx: RequestContext, id: string, accountId: string | null): Promise<ApiKeyRecord> {
  const key = await ctx.db.prisma.apiKey.findFirst({ where: { id, ...(accountId ? { accountId } : {}) } });
  if (!key) throw notFound(`No API key ${id}`);
  const revoke = () =>
    ctx.db.prisma.apiKey.update({
      where: { id },
      data: { revokedAt: key.revokedAt ?? ctx.clock.now() },
      omit: { secretHash: true },
    });
  // Answered once this process has heard the notice of it (every process is told by the same commit).
  return ctx.activeKeys ? ctx.activeKeys.changing(revoke) : revoke();
}

/**
 * Resolves a bearer secret to its actor, or throws 401. One indexed read (key, user and
 * Account rules together), none when this process has the key in memory; the last-used time is
 * written only when a minute has passed.
 */
export async function authenticateApiKey(services: Services, secret: string | undefined): Promise<Actor> {
  if (!secret?.startsWith(KEY_PREFIX))
    throw new DomainError('unauthenticated', 'Missing or malformed API key: send Authorization: Bearer svc_pk_...');
  const secretHash = hashSecret(secret);
  const load = () => findActiveKey(directSql(services.db.sql), secretHash);
  // This process's memory of the keys it has seen, when it keeps one (./active-keys.cache.ts).
  const row = await (services.activeKeys ? services.activeKeys.find(secretHash, load) : load());
  const now = services.clock.now();
  // An expired key is refused like a revoked one (its row may be kept in memory: time sends no notice).
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= now.getTime()))
    throw new DomainError('unauthenticated', 'Unknown, revoked or expired API key');
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Not awaited: bookkeeping must not add a round trip to every request. The row may be the
    // one kept in memory: it remembers the write, so the next one waits its minute.
    row.lastUsedAt = now;
    services.db.prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => {});
  }
  return {
    accountId: row.accountId,
    userId: row.userId,
    apiKeyId: row.id,
    scopes: row.scopes.length === 0 ? null : (row.scopes as KeyScope[]),
    account: { id: row.accountId, defaultLocation: row.defaultLocation, dedupFields: row.dedupFields },
  };
}
