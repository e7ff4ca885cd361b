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
import { DEFAULT_WORKING_HOURS, WorkingHoursSchema } from '../calls/calling-hours.rules.js';
import { VOICE_PROVIDERS, type VoiceProvider } from '../../calls/telephony/voice-provider.port.js';

type ProviderReferences = {
  provider: VoiceProvider;
  providerAgentId?: string | null;
  providerPhoneNumber?: string | null;
};

/**
 * A Vapi or Retell agent names the provider's assistant (or agent) and the number it calls
 * from; a Retell from-number is E.164. The simulator needs neither. A 400 names what is missing.
 */
function checkProviderReferences<T extends ProviderReferences>(agent: T): T {
  if (agent.provider === 'simulator') return agent;
  const missing = (['providerAgentId', 'providerPhoneNumber'] as const).filter((field) => !agent[field]);
  if (missing.length > 0) {
    const what =
      agent.provider === 'vapi' ? 'the Vapi assistant id and phone number id' : 'the Retell agent id and from-number';
    throw badRequest(`${missing.join(', ')}: a ${agent.provider} agent needs ${what}`);
  }
  if (agent.provider === 'retell') {
    const parsed = normalizePhone(agent.providerPhoneNumber ?? '', null);
    if (!parsed.ok)
      throw badRequest(
        `providerPhoneNumber: "${agent.providerPhoneNumber}" is not a phone number in international format (e.g. +14155550100)`,
      );
    return { ...agent, providerPhoneNumber: parsed.e164 };
  }
  return agent;
}

const agentFields = {
  name: z.string().trim().min(1).max(200),
  status: z.enum(['live', 'paused', 'draft']),
  timezone: z.string().max(64),
  defaultLanguage: z.string().max(64),
  attemptLimit: z.number().int().min(1).max(50),
  workingHours: WorkingHoursSchema,
  retryDelayMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
  callNewContactsImmediately: z.boolean(),
  /** The agent's own number; inbound calls to it create or find the caller in this Account. */
  phoneNumber: z.string().max(64).nullable(),
  /** Who runs the agent's calls; vapi and retell need the two references below. */
  provider: z.enum(VOICE_PROVIDERS),
  /** Vapi assistant id or Retell agent id. */
  providerAgentId: z.string().trim().min(1).max(200).nullable(),
  /** Vapi phone number id or Retell from-number (E.164). */
  providerPhoneNumber: z.string().trim().min(1).max(200).nullable(),
  /** Calls in flight at most (null: the provider's default). */
  maxConcurrentCalls: z.number().int().min(1).max(10_000).nullable(),
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
  provider: agentFields.provider.default('simulator'),
  providerAgentId: agentFields.providerAgentId.optional(),
  providerPhoneNumber: agentFields.providerPhoneNumber.optional(),
  maxConcurrentCalls: agentFields.maxConcurrentCalls.optional(),
});

export const UpdateAgentSchema = z.strictObject(
  Object.fromEntries(Object.entries(agentFields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof agentFields]: z.ZodOptional<(typeof agentFields)[K]>;
  },
);

/** A zone and a language the dialer can use, or a 400 naming the field. */
function normalizeAgentLocale<T extends { timezone?: string; defaultLanguage?: string; phoneNumber?: string | null }>(
  input: T,
): T {
  const out = { ...input };
  if (input.phoneNumber) {
    const parsed = normalizePhone(input.phoneNumber, null);
    if (!parsed.ok)
      throw badRequest(
        `phoneNumber: "${input.phoneNumber}" is not a phone number in international format (e.g. +14155550100)`,
      );
    out.phoneNumber = parsed.e164;
  }
  if (input.timezone !== undefined) {
    const zone = canonicalTimezone(input.timezone);
    if (!zone) throw badRequest(`timezone: "${input.timezone}" is not an IANA time zone (e.g. America/New_York)`);
    out.timezone = zone;
  }
  if (input.defaultLanguage !== undefined) {
    const locale = normalizeLanguage(input.defaultLanguage);
    if (!locale)
      throw badRequest(
        `defaultLanguage: "${input.defaultLanguage}" is not one of en-US, en-GB, he-IL, fr-FR, de-DE, es-ES, es-MX, es-US, es-419`,
      );
    out.defaultLanguage = locale;
  }
  return out;
}

export async function createAgent(ctx: RequestContext, input: unknown) {
  requireAdmin(ctx);
  const data = checkProviderReferences(normalizeAgentLocale(parseInput(CreateAgentSchema, input)));
  const account = await ctx.db.prisma.account.findUnique({ where: { id: data.accountId } });
  if (!account) throw notFound(`No account ${data.accountId}`);
  const now = ctx.clock.now();
  return ctx.db.prisma.agent.create({
    data: { ...data, workingHours: data.workingHours as object, createdAt: now, updatedAt: now },
  });
}

export async function updateAgent(ctx: RequestContext, id: string, input: unknown) {
  requireAdmin(ctx);
  const data = normalizeAgentLocale(parseInput(UpdateAgentSchema, input));
  const existing = await ctx.db.prisma.agent.findUnique({ where: { id } });
  if (!existing) throw notFound(`No agent ${id}`);
  // The references are checked as they will be after the change.
  const references = checkProviderReferences({ ...existing, ...data, provider: data.provider ?? existing.provider });
  data.providerPhoneNumber = data.providerPhoneNumber === undefined ? undefined : references.providerPhoneNumber;
  return ctx.db.prisma.agent.update({
    where: { id },
    data: { ...data, workingHours: data.workingHours as object | undefined, updatedAt: ctx.clock.now() },
  });
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
  if (input.after !== undefined && !UUID_PATTERN.test(input.after))
    throw badRequest('The page cursor is not one this API issued');
  const rows = await ctx.db.prisma.agent.findMany({
    where: { accountId: actor.accountId, ...(input.after ? { id: { gt: input.after } } : {}) },
    orderBy: { id: 'asc' },
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return { data: page, next: rows.length > input.limit ? page[page.length - 1].id : null };
}
