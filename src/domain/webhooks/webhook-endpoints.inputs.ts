// The bodies of the webhook endpoint writes (REST and GraphQL parse them with these schemas; the
// typed GraphQL inputs are generated from them).
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.rules.js';
import { MAX_URL_LENGTH } from './webhook-url.rules.js';
import { PageLimitSchema } from '../shared/cursor.js';

const EventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .refine((events) => new Set(events).size === events.length, { message: 'each event may be listed once' })
  .describe(`The events to receive: ${WEBHOOK_EVENT_TYPES.join(', ')}`);

const UrlSchema = z
  .string()
  .max(MAX_URL_LENGTH)
  .describe('Where deliveries are POSTed: https, to a public address (no redirects are followed)');

const DescriptionSchema = z.string().trim().max(500).nullable();

export const CreateWebhookEndpointSchema = z.strictObject({
  url: UrlSchema,
  events: EventsSchema,
  description: DescriptionSchema.optional(),
});

export const UpdateWebhookEndpointSchema = z.strictObject({
  url: UrlSchema.optional(),
  events: EventsSchema.optional(),
  description: DescriptionSchema.optional(),
  disabled: z
    .boolean()
    .optional()
    .describe('true stops deliveries (they wait); false starts them again and clears a failure disable'),
});

/** notice: a line of the endpoint's log that is not sent (its disabling). */
export const DeliveryStatusSchema = z.enum(['pending', 'delivered', 'failed', 'cancelled', 'notice']);

export const DeliveryListSchema = z.object({
  status: DeliveryStatusSchema.optional(),
  limit: PageLimitSchema,
  nextToken: z.string().min(1).max(512).optional(),
});
