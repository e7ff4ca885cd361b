// Input schemas of a voice agent (zod): the one source of its fields' bounds and defaults, for
// the operator's writes, the console's, the typed GraphQL inputs generated from them and the
// console's form (which offers these statuses, providers and languages). The checks that need
// more than a schema (a real time zone, a known language, a phone number, the provider's
// references) are agents.service.ts's.
import { z } from 'zod';
import { SUPPORTED_LOCALES } from '../../normalize/language.js';
import { DEFAULT_WORKING_HOURS, WorkingHoursSchema } from '../calls/calling-hours.inputs.js';
import { VOICE_PROVIDERS } from '../../calls/telephony/voice-provider.port.js';

export { VOICE_PROVIDERS };

/** An agent's statuses (the database enum AgentStatus). */
export const AGENT_STATUSES = ['live', 'paused', 'draft'] as const;

/** The languages an agent speaks (its defaultLanguage is read as one of them). */
export const AGENT_LANGUAGES = SUPPORTED_LOCALES;

export const agentFields = {
  name: z.string().trim().min(1).max(200),
  status: z.enum(AGENT_STATUSES),
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

/** A new agent in the Account the caller acts in (the console's): a field left out takes its default. */
export const CreateAccountAgentSchema = z.strictObject({
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

/** The operator's new agent: the same, in the Account named. */
export const CreateAgentSchema = z.strictObject({ accountId: z.uuid(), ...CreateAccountAgentSchema.shape });

/** The fields of an agent to change (the operator's and the console's): a field left out is kept. */
export const UpdateAgentSchema = z.strictObject(
  Object.fromEntries(Object.entries(agentFields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof agentFields]: z.ZodOptional<(typeof agentFields)[K]>;
  },
);
