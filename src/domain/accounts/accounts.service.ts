// Accounts and users: operator operations (create, set default location and dedup fields).
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { requireAdmin, requireConsoleUser } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { normalizeLocation } from '../../normalize/location.js';
import { isValidDedupField } from '../contacts/dedup.rules.js';
import { rebuildDedupKeys } from '../contacts/contacts-rekey.service.js';

export const CreateAccountSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  region: z.enum(['us', 'eu']).optional(),
  defaultLocation: z.string().max(64).nullable().optional(),
});

export async function createAccount(ctx: RequestContext, input: unknown) {
  requireAdmin(ctx);
  const data = parseInput(CreateAccountSchema, input);
  return ctx.db.prisma.account.create({
    data: {
      name: data.name,
      region: data.region ?? ctx.region,
      defaultLocation: resolveDefaultLocation(data.defaultLocation),
      createdAt: ctx.clock.now(),
    },
  });
}

function resolveDefaultLocation(value: string | null | undefined): string | null {
  if (!value) return null;
  const code = normalizeLocation(value);
  if (!code) throw badRequest(`defaultLocation: "${value}" is not a country, state or province we can read`);
  return code;
}

export const CreateUserSchema = z.strictObject({
  accountId: z.uuid(),
  email: z.email(),
  name: z.string().trim().max(200).optional(),
});

export async function createUser(ctx: RequestContext, input: unknown) {
  requireAdmin(ctx);
  const data = parseInput(CreateUserSchema, input);
  const account = await ctx.db.prisma.account.findUnique({ where: { id: data.accountId } });
  if (!account) throw notFound(`No account ${data.accountId}`);
  return ctx.db.prisma.user.create({ data: { ...data, createdAt: ctx.clock.now() } });
}

/**
 * Removes a user from their Account: their console sessions and invitations end, their API keys
 * and connected applications are revoked, and they can no longer sign in (the password is
 * cleared). The row stays, so what they did keeps its author; an invitation accepted later
 * brings them back. Answered once every process has heard of the revoked keys.
 */
export async function removeUser(ctx: RequestContext, input: unknown) {
  requireAdmin(ctx);
  const { id } = parseInput(z.strictObject({ id: z.uuid() }), input);
  const user = await ctx.db.prisma.user.findUnique({ where: { id } });
  if (!user) throw notFound(`No user ${id}`);
  const now = ctx.clock.now();
  const { prisma } = ctx.db;
  const remove = async () => {
    const [removed] = await prisma.$transaction([
      prisma.user.update({ where: { id }, data: { removedAt: user.removedAt ?? now, passwordHash: null } }),
      prisma.consoleSession.deleteMany({ where: { userId: id } }),
      prisma.userInvitation.deleteMany({ where: { userId: id } }),
      prisma.apiKey.updateMany({ where: { userId: id, revokedAt: null }, data: { revokedAt: now } }),
      prisma.oAuthGrant.updateMany({ where: { userId: id, revokedAt: null }, data: { revokedAt: now } }),
    ]);
    return removed;
  };
  return ctx.activeKeys ? ctx.activeKeys.changing(remove) : remove();
}

// Each field's rules are checked on the field itself, so a change with several bad fields is
// refused with every one of them at once (the console shows each next to its field).
export const UpdateAccountSchema = z.strictObject({
  defaultLocation: z
    .string()
    .max(64)
    .nullable()
    .optional()
    .superRefine((value, ctx) => {
      if (value && !normalizeLocation(value))
        ctx.addIssue({ code: 'custom', message: `"${value}" is not a country, state or province we can read` });
    }),
  dedupFields: z
    .array(z.string())
    .min(1)
    .max(5)
    .optional()
    .superRefine((fields, ctx) => {
      if (!fields) return;
      const bad = fields.filter((f) => !isValidDedupField(f));
      if (bad.length)
        ctx.addIssue({ code: 'custom', message: `${bad.join(', ')} — use phone, externalId or customFields.<key>` });
      else if (new Set(fields).size !== fields.length) ctx.addIssue({ code: 'custom', message: 'each field once' });
    }),
});

/**
 * Sets an Account's default location and/or dedup fields. New dedup fields rebuild every
 * contact's key; when two contacts would share a key the change is refused (409).
 */
export async function updateAccount(ctx: RequestContext, id: string, input: unknown) {
  requireAdmin(ctx);
  return applyAccountUpdate(ctx, id, input);
}

/** Console: the signed-in person's Account (its name, region, default location and dedup fields). */
export async function accountSettings(ctx: RequestContext) {
  const { accountId } = requireConsoleUser(ctx);
  return ctx.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
}

/** Console: the same change as the operator's updateAccount, on the signed-in person's Account. */
export async function updateAccountSettings(ctx: RequestContext, input: unknown) {
  const { accountId } = requireConsoleUser(ctx);
  return applyAccountUpdate(ctx, accountId, input);
}

async function applyAccountUpdate(ctx: RequestContext, id: string, input: unknown) {
  const data = parseInput(UpdateAccountSchema, input);
  const account = await ctx.db.prisma.account.findUnique({ where: { id } });
  if (!account) throw notFound(`No account ${id}`);
  const update = () =>
    ctx.db.prisma.$transaction(async (tx) => {
      const updated = await tx.account.update({
        where: { id },
        data: {
          ...(data.defaultLocation !== undefined
            ? { defaultLocation: resolveDefaultLocation(data.defaultLocation) }
            : {}),
          ...(data.dedupFields ? { dedupFields: data.dedupFields } : {}),
        },
      });
      if (data.dedupFields) await rebuildDedupKeys(tx as never, updated.id, data.dedupFields);
      return updated;
    });
  // The keys each process keeps carry the Account's rules: answered once this process has heard of the change.
  const rulesChange = data.defaultLocation !== undefined || data.dedupFields !== undefined;
  return ctx.activeKeys && rulesChange ? ctx.activeKeys.changing(update) : update();
}
