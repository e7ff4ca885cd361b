// What a webhook carries (docs/webhooks.md): the event types an endpoint can subscribe to, and
// the body every delivery sends, in the Standard Webhooks shape { type, timestamp, data }. Pure.

/** Every event an endpoint can subscribe to, in the order the documentation lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'call.ended',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'enrollment.started',
  'enrollment.ended',
  'import.completed',
  'bulk_update.completed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The log entry an endpoint gets when it is disabled for failing (not an event anyone subscribes
 * to, and never sent: the endpoint is failing): the last line of its deliveries.
 */
export const ENDPOINT_DISABLED_NOTICE = 'webhook_endpoint.disabled';

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** The webhook-id of an event's deliveries: the same on every attempt and for every endpoint. */
export function webhookMessageId(eventId: string): string {
  return `msg_${eventId}`;
}

/** The body of a delivery, as the exact JSON text stored with it and sent on every attempt. */
export function webhookBody(type: string, occurredAt: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data });
}
