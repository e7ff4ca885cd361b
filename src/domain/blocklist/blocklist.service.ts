// The Account's do-not-call list. Adding a phone also moves contacts with it to `dnc`.
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { requireAdmin } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { normalizePhone } from '../../normalize/phone.js';
import { countryOf } from '../../normalize/location.js';
import { moveContactsToDnc } from './blocklist.store.js';

export const BlockPhoneSchema = z.strictObject({
  accountId: z.uuid(),
  phone: z.string().min(1).max(64),
  reason: z.string().max(200).optional(),
});

export async function blockPhone(ctx: RequestContext, input: unknown) {
  requireAdmin(ctx);
  const data = parseInput(BlockPhoneSchema, input);
  const account = await ctx.db.prisma.account.findUnique({ where: { id: data.accountId } });
  if (!account) throw notFound(`No account ${data.accountId}`);
  const parsed = normalizePhone(data.phone, account.defaultLocation ? countryOf(account.defaultLocation) : null);
  if (!parsed.ok) throw badRequest(`phone: "${data.phone}" is not a valid phone number; include the country code`);
  const now = ctx.clock.now();
  return ctx.db.prisma.$transaction(async (tx) => {
    const entry = await tx.blockedPhone.upsert({
      where: { accountId_phone: { accountId: account.id, phone: parsed.e164 } },
      create: { accountId: account.id, phone: parsed.e164, reason: data.reason, createdAt: now },
      update: {},
    });
    await moveContactsToDnc(tx, account.id, parsed.e164, now, 'block_list');
    return entry;
  });
}

export async function unblockPhone(ctx: RequestContext, accountId: string, phone: string) {
  requireAdmin(ctx);
  const result = await ctx.db.prisma.blockedPhone.deleteMany({ where: { accountId, phone } });
  return result.count > 0;
}
