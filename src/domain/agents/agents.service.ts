// Voice agents: who calls, when (working hours in a time zone), how often (attempt limit,
// retry delay). Operator operations; the dialer reads them.
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { requireActor, requireAdmin } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { UUID_PATTERN } from '../shared/ids.js';
import { canonicalTimezone } from '../../normalize/timezone.js';
import { normalizeLanguage } from '../../normalize/language.js';
import { normalizePhone } from '../../normalize/phone.js';
import { DEFAULT_WORKING_HOURS, WorkingHoursSchema } from '../calls/calling-hours.js';

const agentFields = {
  name: z.string().trim().min(1).max(200),
  status: z.enum(['live', 'paused', 'draft']),
  timezone: z.string().max(64),
  defaultLanguage: z.string().max(64),
  attemptLimit: z.number().int().min(1).max(50),
  workingHours: WorkingHoursSchema,
  retryDelayMinutes: z.number().int().min(1).max(7 * 24 * 60),
  callNewContactsImmediately: z.boolean(),
  /** The agent's own number; inbound calls to it create or find the caller in this Account. */
  phoneNumber: z.string().max(64).nullable(),
};

export const CreateAgentSchema = z.strictObject({
  accountId: z.uuid(),
  name: agentFields.name,
  status: agentFields.status.default('draft'),
  timezone: agentFields.timezone.default('UTC'),
  defaultLanguage: agentFields.defaultLanguage.default('en-US'),
  attemptLimit: agentFields.attemptLimit.default(3),
  workingHours: agentFields.workingHours.default(DEFAULT_WORKING_HOURS),
  retryDelayMinutes: agentFields.retryDelayMinutes.default(60),
  callNewContactsImmediately: agentFields.callNewContactsImmediately.default(false),
  phoneNumber: agentFields.phoneNumber.optional(),
});

export const UpdateAgentSchema = z.strictObject(
  Object.fromEntries(Object.entries(agentFields).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof agentFields]: z.ZodOptional<(typeof agentFields)[K]> },
);

/** A zone and a language the dialer can use, or a 400 naming the field. */
function normalizeAgentLocale<T extends { timezone?: string; defaultLanguage?: string; phoneNumber?: string | null }>(input: T): T {
  const out = { ...input };
  if (input.phoneNumber) {
    const parsed = normalizePhone(input.phoneNumber, null);
    if (!parsed.ok) throw badRequest(`phoneNumber: "${input.phoneNumber}" is not a phone number in international format (e.g. +14155550100)`);
    out.phoneNumber = parsed.e164;
  }
  if (input.timezone !== undefined) {
    const zone = canonicalTimezone(input.timezone);
    if (!zone) throw badRequest(`timezone: "${input.timezone}" is not an IANA time zone (e.g. America/New_York)`);
    out.timezone = zone;
  }
  if (input.defaultLanguage !== undefined) {
    const locale = normalizeLanguage(input.defaultLanguage);
    if (!locale) throw badRequest(`defaultLanguage: "${input.defaultLanguage}" is not one of en-US, en-GB, he-IL, fr-FR, de-DE, es-ES, es-MX, es-US, es-419`);
    out.defaultLanguage = locale;
  }
  return out;
}

export async function createAgent(ctx: RequestContext, input: unknown) {
  requireAdmin(ctx);
  const data = normalizeAgentLocale(parseInput(CreateAgentSchema, input));
  const account = await ctx.db.prisma.account.findUnique({ where: { id: data.accountId } });
  if (!account) throw notFound(`No account ${data.accountId}`);
  const now = ctx.clock.now();
  return ctx.db.prisma.agent.create({ data: { ...data, workingHours: data.workingHours as object, createdAt: now, updatedAt: now } });
}

export async function updateAgent(ctx: RequestContext, id: string, input: unknown) {
  requireAdmin(ctx);
  const data = normalizeAgentLocale(parseInput(UpdateAgentSchema, input));
  const existing = await ctx.db.prisma.agent.findUnique({ where: { id } });
  if (!existing) throw notFound(`No agent ${id}`);
  return ctx.db.prisma.agent.update({ where: { id }, data: { ...data, workingHours: data.workingHours as object | undefined, updatedAt: ctx.clock.now() } });
}

/** One of the key's Account's voice agents, or null (also for an id that is not a UUID). */
export async function findAgent(ctx: RequestContext, id: string) {
  const actor = requireActor(ctx);
  if (!UUID_PATTERN.test(id)) return null;
  return ctx.db.prisma.agent.findFirst({ where: { id, accountId: actor.accountId } });
}

/** The key's Account's voice agents, in a stable order, one page at a time (for pickers); `after` is the last id of the page before. */
export async function listAgents(ctx: RequestContext, input: { after?: string; limit: number }) {
  const actor = requireActor(ctx);
  if (input.after !== undefined && !UUID_PATTERN.test(input.after)) throw badRequest('The page cursor is not one this API issued');
  const rows = await ctx.db.prisma.agent.findMany({
    where: { accountId: actor.accountId, ...(input.after ? { id: { gt: input.after } } : {}) },
    orderBy: { id: 'asc' },
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return { data: page, next: rows.length > input.limit ? page[page.length - 1].id : null };
}
