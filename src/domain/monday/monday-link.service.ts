// The link between a Contactline Account and a monday.com account (made by the board app's
// OAuth install): showing it, removing it, storing it when the install completes, and
// resolving a request monday signed to the Account it acts for. The monday access token never
// leaves this module's callers except encrypted.
import type { Actor, RequestContext, Services } from '../context.js';
import { requireActor, requireAdmin } from '../context.js';
import { badRequest, DomainError, notFound } from '../errors.js';
import { directSql } from '../../db/sql-client.js';
import { findLinkedAccount } from './monday-link.store.js';
import { decodeCursor, encodeCursor, PageQuerySchema } from '../shared/cursor.js';
import { assertUuid } from '../shared/ids.js';
import { isUniqueViolation } from '../contacts/contacts-write.service.js';
import { parseInput } from '../shared/validation.js';

/** A link as every surface shows it: never the token. */
export interface MondayLinkRecord {
  accountId: string;
  mondayAccountId: string;
  mondayUserId: string;
  /** The Contactline user whose API key signed the install; the board app acts as them. */
  userId: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface MondayUnlinkResult {
  accountId: string;
  /** The link removed; null when the Account was not linked (unlinking is idempotent). */
  removedLink: MondayLinkRecord | null;
  /** Trigger subscriptions of the Account soft-deleted (they stop firing). */
  subscriptionsRemoved: number;
}

const WITHOUT_TOKEN = { accessTokenEncrypted: true } as const;

/**
 * The Account whose link an operation reads or changes. A key acts on its own Account (an
 * `accountId` naming another one is not_found, as for any other Account's resource); the
 * operator token must name one, and it must exist.
 */
async function targetAccountId(ctx: RequestContext, accountId: string | null | undefined): Promise<string> {
  if (ctx.isAdmin) {
    if (!accountId) throw badRequest('accountId is required with the operator token');
    const account = await ctx.db.prisma.account.findUnique({
      where: { id: assertUuid(accountId, 'accountId') },
      select: { id: true },
    });
    if (!account) throw notFound(`No account ${accountId}`);
    return account.id;
  }
  const actor = requireActor(ctx);
  if (accountId && accountId.toLowerCase() !== actor.accountId) throw notFound(`No account ${accountId}`);
  return actor.accountId;
}

/** The Account's monday link, or null when it has none. */
export async function getMondayLink(ctx: RequestContext, accountId?: string | null): Promise<MondayLinkRecord | null> {
  const target = await targetAccountId(ctx, accountId);
  return ctx.db.prisma.mondayLink.findUnique({ where: { accountId: target }, omit: WITHOUT_TOKEN });
}

/** Operator: every Account's link, newest first, one page at a time. */
export async function listMondayLinks(
  ctx: RequestContext,
  input: unknown,
): Promise<{ data: MondayLinkRecord[]; nextToken: string | null }> {
  requireAdmin(ctx);
  const { limit, nextToken } = parseInput(PageQuerySchema, input);
  const cursor = nextToken ? decodeCursor(nextToken) : null;
  const rows = await ctx.db.prisma.mondayLink.findMany({
    where: cursor
      ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, accountId: { lt: cursor.id } }] }
      : {},
    orderBy: [{ createdAt: 'desc' }, { accountId: 'desc' }],
    take: limit + 1,
    omit: WITHOUT_TOKEN,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page,
    nextToken: rows.length > limit ? encodeCursor({ createdAt: last.createdAt, id: last.accountId }) : null,
  };
}

/**
 * Removes the Account's link and soft-deletes its trigger subscriptions (monday keeps the
 * automations, but nothing fires them and their subscribe/unsubscribe calls get 403 until the
 * Account is linked again). Board mappings are kept for a later re-link. Idempotent.
 */
export async function unlinkMonday(ctx: RequestContext, accountId?: string | null): Promise<MondayUnlinkResult> {
  const target = await targetAccountId(ctx, accountId);
  return ctx.db.prisma.$transaction(async (tx) => {
    const link = await tx.mondayLink.findUnique({ where: { accountId: target }, omit: WITHOUT_TOKEN });
    if (link) await tx.mondayLink.delete({ where: { accountId: target } });
    const removed = await tx.mondayTriggerSubscription.updateMany({
      where: { accountId: target, deletedAt: null },
      data: { deletedAt: ctx.clock.now() },
    });
    return { accountId: target, removedLink: link, subscriptionsRemoved: removed.count };
  });
}

export interface SaveMondayLinkInput {
  mondayAccountId: string;
  mondayUserId: string;
  /** Already encrypted (token-crypto.ts); this module never sees the plain token. */
  accessTokenEncrypted: string;
}

/**
 * Stores the link an OAuth install produced, for the acting key's Account (the install's
 * signer). A monday account already linked to another Account is a conflict: moving it
 * silently would send that account's boards to a different customer. Re-linking the same
 * pair refreshes the token; linking the Account to another monday account replaces its link
 * and soft-deletes the subscriptions that came from the previous monday account.
 */
export async function saveMondayLink(ctx: RequestContext, input: SaveMondayLinkInput): Promise<MondayLinkRecord> {
  const actor = requireActor(ctx);
  const conflict = () =>
    new DomainError(
      'conflict',
      `monday account ${input.mondayAccountId} is already linked to another Contactline account; unlink it there first (or ask support)`,
    );
  try {
    return await ctx.db.prisma.$transaction(async (tx) => {
      const holder = await tx.mondayLink.findUnique({
        where: { mondayAccountId: input.mondayAccountId },
        select: { accountId: true },
      });
      if (holder && holder.accountId !== actor.accountId) throw conflict();
      const now = ctx.clock.now();
      await tx.mondayTriggerSubscription.updateMany({
        where: { accountId: actor.accountId, mondayAccountId: { not: input.mondayAccountId }, deletedAt: null },
        data: { deletedAt: now },
      });
      const data = {
        mondayAccountId: input.mondayAccountId,
        mondayUserId: input.mondayUserId,
        userId: actor.userId,
        accessTokenEncrypted: input.accessTokenEncrypted,
        updatedAt: now,
      };
      return tx.mondayLink.upsert({
        where: { accountId: actor.accountId },
        create: { accountId: actor.accountId, ...data, createdAt: now },
        update: data,
        omit: WITHOUT_TOKEN,
      });
    });
  } catch (error) {
    // Two installs of one monday account racing: the unique index decides, as a conflict.
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

/**
 * The board app's authentication step, as authenticateApiKey is the API's: the Account linked
 * to monday's account (from monday's verified token), acting as the user who linked it, or 403
 * when the monday account is not linked (yet, or any more).
 */
export async function authenticateMondayAccount(
  services: Pick<Services, 'db'>,
  mondayAccountId: string,
): Promise<Actor> {
  const link = await findLinkedAccount(directSql(services.db.sql), mondayAccountId);
  if (!link) {
    throw new DomainError(
      'forbidden',
      'This monday account is not linked to Contactline yet: install the app and sign in with a Contactline API key.',
    );
  }
  return {
    accountId: link.accountId,
    userId: link.userId,
    apiKeyId: null,
    scopes: null,
    account: { id: link.accountId, defaultLocation: link.defaultLocation, dedupFields: link.dedupFields },
  };
}

/** Whether monday's account is linked to some Account (monday's Authorization URL asks). */
export async function isMondayAccountLinked(services: Pick<Services, 'db'>, mondayAccountId: string): Promise<boolean> {
  const link = await services.db.prisma.mondayLink.findUnique({
    where: { mondayAccountId },
    select: { accountId: true },
  });
  return link !== null;
}

/**
 * The actor of an install in progress: the API key that started it, still unrevoked, unexpired
 * and with every scope, with its Account's rules; null when that is no longer so.
 */
export async function installingActor(
  services: Pick<Services, 'db' | 'clock'>,
  install: { accountId: string; userId: string; keyId: string },
): Promise<Actor | null> {
  const key = await services.db.prisma.apiKey.findFirst({
    where: {
      id: install.keyId,
      accountId: install.accountId,
      userId: install.userId,
      revokedAt: null,
      scopes: { isEmpty: true },
      OR: [{ expiresAt: null }, { expiresAt: { gt: services.clock.now() } }],
    },
    select: { account: { select: { id: true, defaultLocation: true, dedupFields: true } } },
  });
  if (!key) return null;
  return {
    accountId: install.accountId,
    userId: install.userId,
    apiKeyId: install.keyId,
    scopes: null,
    account: key.account,
  };
}

/** The email of the Contactline user who linked (shown as "linked by"), or null if they were removed. */
export async function linkerEmail(ctx: Pick<RequestContext, 'db'>, link: MondayLinkRecord): Promise<string | null> {
  const user = await ctx.db.prisma.user.findFirst({
    where: { id: link.userId, accountId: link.accountId },
    select: { email: true },
  });
  return user?.email ?? null;
}

/** The Account's stored monday access token (encrypted), or null when it is not linked. */
export async function linkedAccessToken(ctx: Pick<RequestContext, 'db'>, accountId: string): Promise<string | null> {
  const link = await ctx.db.prisma.mondayLink.findUnique({
    where: { accountId },
    select: { accessTokenEncrypted: true },
  });
  return link?.accessTokenEncrypted ?? null;
}
