// Voice agents: who calls, when (working hours in a time zone), how often (attempt limit,
// retry delay). Created and changed by the operator (in any Account) or by a person in the
// console (in their own Account), through the same checks; the dialer reads them.
import type { z } from 'zod';
import type { RequestContext } from '../context.js';
import { requireActor, requireAdmin, requireConsoleUser } from '../context.js';
import { badRequest, badRequestFor, DomainError, notFound } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { UUID_PATTERN } from '../shared/ids.js';
import { canonicalTimezone } from '../../normalize/timezone.js';
import { normalizeLanguage } from '../../normalize/language.js';
import { normalizePhone } from '../../normalize/phone.js';
import { isUniqueViolation } from '../contacts/contacts-write.service.js';
import { VOICE_PROVIDERS, type VoiceProvider } from '../../calls/telephony/voice-provider.port.js';
import { AGENT_LANGUAGES, CreateAccountAgentSchema, CreateAgentSchema, UpdateAgentSchema } from './agents.inputs.js';

export { CreateAccountAgentSchema, CreateAgentSchema, UpdateAgentSchema };

/** One refused field, as parseInput reports zod's: the path and what is wrong with it. */
type Issue = { path: string; message: string };

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
    const message = `a ${agent.provider} agent needs ${what}`;
    throw badRequest(`${missing.join(', ')}: ${message}`, {
      issues: missing.map((path) => ({ path, message })),
    });
  }
  if (agent.provider === 'retell') {
    const parsed = normalizePhone(agent.providerPhoneNumber ?? '', null);
    if (!parsed.ok)
      throw badRequestFor([
        {
          path: 'providerPhoneNumber',
          message: `"${agent.providerPhoneNumber}" is not a phone number in international format (e.g. +14155550100)`,
        },
      ]);
    return { ...agent, providerPhoneNumber: parsed.e164 };
  }
  return agent;
}

type Locale = { timezone?: unknown; defaultLanguage?: unknown; phoneNumber?: unknown };

/** The agent's number, zone and language as the dialer uses them, and a problem for each that is not one. */
function checkAgentLocale(input: Locale): { normalized: Locale; issues: Issue[] } {
  const normalized: Locale = {};
  const issues: Issue[] = [];
  if (typeof input.phoneNumber === 'string' && input.phoneNumber) {
    const parsed = normalizePhone(input.phoneNumber, null);
    if (parsed.ok) normalized.phoneNumber = parsed.e164;
    else
      issues.push({
        path: 'phoneNumber',
        message: `"${input.phoneNumber}" is not a phone number in international format (e.g. +14155550100)`,
      });
  }
  if (typeof input.timezone === 'string') {
    const zone = canonicalTimezone(input.timezone);
    if (zone) normalized.timezone = zone;
    else
      issues.push({
        path: 'timezone',
        message: `"${input.timezone}" is not an IANA time zone (e.g. America/New_York)`,
      });
  }
  if (typeof input.defaultLanguage === 'string') {
    const locale = normalizeLanguage(input.defaultLanguage);
    if (locale) normalized.defaultLanguage = locale;
    else
      issues.push({
        path: 'defaultLanguage',
        message: `"${input.defaultLanguage}" is not one of ${AGENT_LANGUAGES.join(', ')}`,
      });
  }
  return { normalized, issues };
}

/** The provider and its references an input names: for the checks run when the input is refused anyway. */
function referencesOf(input: Record<string, unknown>): Partial<ProviderReferences> {
  const out: Partial<ProviderReferences> = {};
  if ((VOICE_PROVIDERS as readonly unknown[]).includes(input.provider)) out.provider = input.provider as VoiceProvider;
  for (const key of ['providerAgentId', 'providerPhoneNumber'] as const) {
    const value = input[key];
    if (typeof value === 'string' || value === null) out[key] = typeof value === 'string' ? value.trim() : value;
  }
  return out;
}

/**
 * The input parsed with its schema, its number, zone and language normalized, its provider's
 * references checked as they will be (over `base`: the agent as stored, or a new agent's
 * default provider); else one 400 naming every refused field: the schema's problems, the
 * zone's, language's and number's, and the references' together (a form shows them all at once).
 */
function parseAgentInput<S extends z.ZodType<Locale & Partial<ProviderReferences>>>(
  schema: S,
  input: unknown,
  base: ProviderReferences,
): z.output<S> {
  let data: z.output<S> | undefined;
  let issues: Issue[] = [];
  try {
    data = parseInput(schema, input);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'bad_request') throw error;
    issues = (error.details.issues ?? []) as Issue[];
  }
  const raw = (data ?? (typeof input === 'object' && input !== null ? input : {})) as Record<string, unknown>;
  const locale = checkAgentLocale(raw);
  const named = new Set(issues.map((issue) => issue.path));
  issues.push(...locale.issues.filter((issue) => !named.has(issue.path)));
  let references: ProviderReferences;
  try {
    references = checkProviderReferences({ ...base, ...referencesOf(raw) });
  } catch (error) {
    // Alone, the references' own 400; with other problems, theirs among them.
    if (issues.length === 0 || !(error instanceof DomainError)) throw error;
    const more = (error.details.issues ?? []) as Issue[];
    issues.push(...more.filter((issue) => !named.has(issue.path)));
    throw badRequestFor(issues);
  }
  if (issues.length > 0 || !data) throw badRequestFor(issues);
  // A Retell from-number is kept as E.164 (when this input sets it).
  const phone = data.providerPhoneNumber === undefined ? {} : { providerPhoneNumber: references.providerPhoneNumber };
  return { ...data, ...locale.normalized, ...phone };
}

/** A new agent's provider when its input names none. */
const NEW_AGENT: ProviderReferences = { provider: 'simulator' };

type AgentRecord = Awaited<ReturnType<RequestContext['db']['prisma']['agent']['create']>>;

/** The 409 of a number that is already another agent's (an agent's number routes inbound calls: one agent each). */
const numberTaken = (phoneNumber: string) =>
  new DomainError('conflict', `phoneNumber: ${phoneNumber} is already another agent's number`, {
    issues: [{ path: 'phoneNumber', message: `${phoneNumber} is already another agent's number` }],
  });

/** Runs an agent write, refusing (409) a number another agent has, checked first and held by the unique index. */
async function writeAgent(
  ctx: RequestContext,
  phoneNumber: string | null | undefined,
  id: string | null,
  write: () => Promise<AgentRecord>,
): Promise<AgentRecord> {
  if (phoneNumber) {
    const holder = await ctx.db.prisma.agent.findFirst({
      where: { phoneNumber, ...(id ? { id: { not: id } } : {}) },
      select: { id: true },
    });
    if (holder) throw numberTaken(phoneNumber);
  }
  try {
    return await write();
  } catch (error) {
    if (phoneNumber && isUniqueViolation(error)) throw numberTaken(phoneNumber);
    throw error;
  }
}

/** Operator: a voice agent in the Account named. */
export async function createAgent(ctx: RequestContext, input: unknown) {
  requireAdmin(ctx);
  return insertAgent(ctx, parseAgentInput(CreateAgentSchema, input, NEW_AGENT));
}

/** Console: a voice agent in the signed-in person's Account. */
export async function createAccountAgent(ctx: RequestContext, input: unknown) {
  const { accountId } = requireConsoleUser(ctx);
  const data = parseAgentInput(CreateAccountAgentSchema, input, NEW_AGENT);
  return insertAgent(ctx, { ...data, accountId });
}

async function insertAgent(ctx: RequestContext, data: z.output<typeof CreateAgentSchema>) {
  const account = await ctx.db.prisma.account.findUnique({ where: { id: data.accountId } });
  if (!account) throw notFound(`No account ${data.accountId}`);
  const now = ctx.clock.now();
  return writeAgent(ctx, data.phoneNumber, null, () =>
    ctx.db.prisma.agent.create({
      data: { ...data, workingHours: data.workingHours as object, createdAt: now, updatedAt: now },
    }),
  );
}

/** Operator: changes the fields sent on a voice agent of any Account. */
export async function updateAgent(ctx: RequestContext, id: string, input: unknown) {
  requireAdmin(ctx);
  return changeAgent(ctx, id, null, input);
}

/** Console: changes the fields sent on a voice agent of the signed-in person's Account (another's: 404). */
export async function updateAccountAgent(ctx: RequestContext, id: string, input: unknown) {
  return changeAgent(ctx, id, requireConsoleUser(ctx).accountId, input);
}

/** `accountId`: the Account the agent must be in (null: any, for the operator). */
async function changeAgent(ctx: RequestContext, id: string, accountId: string | null, input: unknown) {
  const existing = await ctx.db.prisma.agent.findFirst({ where: { id, ...(accountId ? { accountId } : {}) } });
  if (!existing) throw notFound(`No agent ${id}`);
  // The references are checked as they will be after the change.
  const data = parseAgentInput(UpdateAgentSchema, input, existing);
  return writeAgent(ctx, data.phoneNumber, id, () =>
    ctx.db.prisma.agent.update({
      where: { id },
      data: { ...data, workingHours: data.workingHours as object | undefined, updatedAt: ctx.clock.now() },
    }),
  );
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
