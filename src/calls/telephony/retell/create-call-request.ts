// The body of Retell's create-phone-call for one of our calls.
//
// - Our call id goes in `metadata` (returned on the call and in every webhook of that call,
//   and filterable by the list endpoint, which findCall uses).
// - The agent is set per call (`override_agent_id`): the from-number may be bound to another.
// - This call's webhooks go to the Account's URL through a per-call agent override
//   (`agent_override.agent.webhook_url`), which replaces the account-level webhook for the call;
//   the events are pinned too, so an agent configured with fewer still sends the three we read.
// - The contact's variables go in `retell_llm_dynamic_variables`, whose values Retell accepts
//   only as strings: null becomes "", numbers and booleans their text, objects their JSON.
import type { CallCreatePhoneCallParams } from 'retell-sdk/resources/call';
import type { ProviderCallRequest } from '../voice-provider.port.js';
import { CALL_ID_METADATA_KEY } from './retell-call.js';

/** The webhook events the adapter reads (./webhook-events.ts). */
export const WEBHOOK_EVENTS = ['call_started', 'call_ended', 'call_analyzed'] as const;

/** Dynamic variable names for the contact (use them in the agent's prompt as {{first_name}}…). */
export const CONTACT_VARIABLES = {
  firstName: 'first_name',
  lastName: 'last_name',
  fullName: 'full_name',
  language: 'language',
  timezone: 'timezone',
} as const;

/** A dynamic variable's value as Retell takes it: always a string. */
export function variableText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * The dynamic variables: the contact's custom fields under their own names, then ours, which
 * win over a custom field of the same name.
 */
export function dynamicVariables(variables: ProviderCallRequest['variables']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables.customFields)) out[name] = variableText(value);
  out[CONTACT_VARIABLES.firstName] = variableText(variables.firstName);
  out[CONTACT_VARIABLES.lastName] = variableText(variables.lastName);
  out[CONTACT_VARIABLES.fullName] = variableText(variables.fullName);
  out[CONTACT_VARIABLES.language] = variableText(variables.language);
  out[CONTACT_VARIABLES.timezone] = variableText(variables.timezone);
  return out;
}

export function createCallRequest(request: ProviderCallRequest): CallCreatePhoneCallParams {
  return {
    from_number: request.fromNumber,
    to_number: request.toNumber,
    override_agent_id: request.assistantId,
    metadata: { [CALL_ID_METADATA_KEY]: request.callId },
    retell_llm_dynamic_variables: dynamicVariables(request.variables),
    agent_override: {
      agent: {
        webhook_url: request.webhookUrl,
        webhook_events: [...WEBHOOK_EVENTS],
      },
    },
  };
}
