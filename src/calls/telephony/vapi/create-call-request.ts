// The `POST /call` body for one outbound call, and how our call id comes back on Vapi's calls.
//
// - Assistant and number: `assistantId` and `phoneNumberId` (the agent's providerAgentId and
//   providerPhoneNumber); the contact in `customer.number` (E.164, which Vapi checks).
// - Our call id: `assistantOverrides.metadata.contactlineCallId`, and the call's `name` (≤ 40
//   characters, shown in the dashboard's call log; a UUID is 36). Vapi echoes the call, with its
//   `assistantOverrides` and `name`, in every server message and in GET /call.
// - Variables: `assistantOverrides.variableValues` (LiquidJS `{{firstName}}`, any JSON value):
//   firstName, lastName, fullName (null when unknown), language, timezone, and customFields as
//   an object (`{{customFields.company}}`), so a custom field can never shadow Vapi's own
//   variables (customer, now, …).
// - Webhook routing: `assistantOverrides.server` sends this call's messages to
//   `request.webhookUrl` (the Account's /api/telephony/vapi/<accountId>), whatever server URL the
//   assistant or number has; its `headers` carry the call's token (./webhook-auth.ts); its
//   `backoffPlan` makes Vapi retry a delivery our server did not accept (Vapi retries nothing by
//   default), and `serverMessages` limits the messages to the two we use.
import type { Vapi } from '@vapi-ai/server-sdk';
import type { ProviderCallRequest } from '../voice-provider.port.js';
import { callWebhookToken, SECRET_HEADER } from './webhook-auth.js';

export const CALL_ID_METADATA_KEY = 'contactlineCallId';

/** The server messages Contactline reads (./server-messages.ts). */
export const SERVER_MESSAGES: Vapi.AssistantOverridesServerMessagesItem[] = ['status-update', 'end-of-call-report'];

/** Vapi's default delivery timeout; the webhook route answers well within it. */
export const WEBHOOK_TIMEOUT_SECONDS = 20;

/**
 * Retries of a delivery that failed or got a non-2xx answer: 5 retries, 2 s doubling (about a
 * minute in all), so that a restart of our server does not lose a call's outcome. 400/401/404
 * answers are final (a bad message or a wrong secret does not get better by retrying).
 */
export const WEBHOOK_BACKOFF_PLAN = {
  type: 'exponential',
  maxRetries: 5,
  baseDelaySeconds: 2,
  excludedStatusCodes: [400, 401, 404],
};

export function buildCreateCallRequest(request: ProviderCallRequest, webhookSecret: string | null): Vapi.CreateCallDto {
  const { variables } = request;
  return {
    name: request.callId,
    assistantId: request.assistantId,
    phoneNumberId: request.fromNumber,
    customer: { number: request.toNumber },
    assistantOverrides: {
      metadata: { [CALL_ID_METADATA_KEY]: request.callId },
      variableValues: {
        firstName: variables.firstName,
        lastName: variables.lastName,
        fullName: variables.fullName,
        language: variables.language,
        timezone: variables.timezone,
        customFields: variables.customFields,
      },
      serverMessages: SERVER_MESSAGES,
      server: {
        url: request.webhookUrl,
        timeoutSeconds: WEBHOOK_TIMEOUT_SECONDS,
        ...(webhookSecret ? { headers: { [SECRET_HEADER]: callWebhookToken(webhookSecret, request.callId) } } : {}),
        // The SDK types BackoffPlan.type and excludedStatusCodes as objects (a flaw of Vapi's
        // OpenAPI file); the API takes the strings and numbers its docs show.
        backoffPlan: WEBHOOK_BACKOFF_PLAN as unknown as Vapi.BackoffPlan,
      },
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our call id on a Vapi call: the metadata, else a UUID `name`; null for calls we did not place (inbound). */
export function ourCallIdOf(
  call: { assistantOverrides?: { metadata?: Record<string, unknown> } | null; name?: string | null } | null | undefined,
): string | null {
  const fromMetadata = call?.assistantOverrides?.metadata?.[CALL_ID_METADATA_KEY];
  if (typeof fromMetadata === 'string' && fromMetadata.length > 0) return fromMetadata;
  return typeof call?.name === 'string' && UUID.test(call.name) ? call.name : null;
}
