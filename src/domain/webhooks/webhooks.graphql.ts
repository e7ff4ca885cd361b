// Webhook endpoints and their deliveries: the types, queries and mutations (REST runs them).
// Resolvers only call the services.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';
import {
  CreateWebhookEndpointSchema,
  DeliveryStatusSchema,
  UpdateWebhookEndpointSchema,
} from './webhook-endpoints.inputs.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  retryWebhookDelivery,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from './webhook-endpoints.service.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.rules.js';

export const WebhookEventTypeEnum = builder.enumType('WebhookEventType', {
  description: 'An event a webhook endpoint can receive.',
  values: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type.replace('.', '_'), { value: type }])) as Record<
    string,
    { value: (typeof WEBHOOK_EVENT_TYPES)[number] }
  >,
});

const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description:
    'pending: to be sent (again); delivered: answered 2xx; failed: given up after 3 days; cancelled; notice: a line of the log, not sent (the endpoint was disabled)',
  values: DeliveryStatusSchema.options,
});

/** Both endpoint types' shape: the secret is only ever on a create's or a rotation's answer. */
type EndpointShape = WebhookEndpointView & { secret?: string };

const endpointFields = (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, EndpointShape>) => ({
  id: t.exposeID('id'),
  url: t.exposeString('url'),
  description: t.exposeString('description', { nullable: true }),
  events: t.exposeStringList('events'),
  disabled: t.exposeBoolean('disabled'),
  disabledReason: t.exposeString('disabledReason', {
    nullable: true,
    description: 'Why it is disabled: through the API, or its attempts failed for 5 days',
  }),
  failingSince: t.expose('failingSince', {
    type: 'DateTime',
    nullable: true,
    description: 'The first failed attempt since the last success; null while deliveries succeed',
  }),
  previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
    type: 'DateTime',
    nullable: true,
    description: 'After a rotation: until when the previous secret signs too',
  }),
  createdAt: t.expose('createdAt', { type: 'DateTime' }),
  updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
});

const WebhookEndpointType = builder.objectRef<EndpointShape>('WebhookEndpoint').implement({
  description:
    'An outgoing webhook endpoint, exactly as GET /api/v1/webhook-endpoints/{id} returns it (never its secret).',
  fields: (t) => endpointFields(t),
});

const WebhookEndpointWithSecretType = builder.objectRef<EndpointShape>('WebhookEndpointWithSecret').implement({
  description: 'An endpoint with its new signing secret: the only time the secret is shown.',
  fields: (t) => ({
    ...endpointFields(t),
    secret: t.string({
      description: 'whsec_…: verify deliveries with it (Standard Webhooks)',
      resolve: (endpoint) => endpoint.secret ?? '',
    }),
  }),
});

const WebhookEndpointPage = builder
  .objectRef<{ data: EndpointShape[]; nextToken: string | null }>('WebhookEndpointPage')
  .implement({
    fields: (t) => ({
      data: t.field({ type: [WebhookEndpointType], resolve: (p) => p.data }),
      nextToken: t.exposeString('nextToken', { nullable: true, description: 'Absent (null) on the last page' }),
    }),
  });

const WebhookDeliveryType = builder.objectRef<WebhookDeliveryView>('WebhookDelivery').implement({
  description: 'One event sent (or to be sent) to one endpoint.',
  fields: (t) => ({
    id: t.exposeID('id'),
    endpointId: t.exposeString('endpointId'),
    eventId: t.exposeString('eventId'),
    webhookId: t.exposeString('webhookId', {
      description: 'The webhook-id header: msg_ and the event id, on every attempt',
    }),
    eventType: t.exposeString('eventType'),
    status: t.expose('status', { type: DeliveryStatusEnum }),
    attempts: t.exposeInt('attempts'),
    responseStatus: t.exposeInt('responseStatus', {
      nullable: true,
      description: "The last attempt's HTTP status; null when it got no answer",
    }),
    lastError: t.exposeString('lastError', { nullable: true }),
    nextAttemptAt: t.expose('nextAttemptAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When pending: the next attempt (null while an attempt is in flight)',
    }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    payload: t.expose('payload', { type: 'JSON', description: 'The body sent: { type, timestamp, data }' }),
  }),
});

const WebhookDeliveryPage = builder
  .objectRef<{ data: WebhookDeliveryView[]; nextToken: string | null }>('WebhookDeliveryPage')
  .implement({
    fields: (t) => ({
      data: t.field({ type: [WebhookDeliveryType], resolve: (p) => p.data }),
      nextToken: t.exposeString('nextToken', { nullable: true, description: 'Absent (null) on the last page' }),
    }),
  });

const enums = [[WebhookEventTypeEnum, WEBHOOK_EVENT_TYPES]] as const;

export const CreateWebhookEndpointInput = inputTypeFromZod('CreateWebhookEndpointInput', CreateWebhookEndpointSchema, {
  description: 'A new webhook endpoint (the REST body of POST /webhook-endpoints).',
  enums,
});

export const UpdateWebhookEndpointInput = inputTypeFromZod('UpdateWebhookEndpointInput', UpdateWebhookEndpointSchema, {
  description: 'Changes to a webhook endpoint (the REST body of PATCH /webhook-endpoints/{id}).',
  enums,
});

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: WebhookEndpointPage,
    description: "One page of the key's Account's webhook endpoints, newest first.",
    args: { limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) =>
      listWebhookEndpoints(ctx, { limit: args.limit ?? undefined, nextToken: args.nextToken ?? undefined }),
  }),
  webhookEndpoint: t.field({
    type: WebhookEndpointType,
    description: "One webhook endpoint of the key's Account.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => getWebhookEndpoint(ctx, args.id),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPage,
    description: "One page of an endpoint's deliveries, newest first (status: one status only).",
    args: {
      endpointId: t.arg.string({ required: true, ...UUID_ARG }),
      status: t.arg.string(),
      limit: t.arg.int(),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      listWebhookDeliveries(ctx, args.endpointId, {
        status: args.status ?? undefined,
        limit: args.limit ?? undefined,
        nextToken: args.nextToken ?? undefined,
      }),
  }),
}));

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: WebhookEndpointWithSecretType,
    description: 'Creates a webhook endpoint ({ url, events, description? }, as REST); its secret is answered once.',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => createWebhookEndpoint(ctx, args.input),
  }),
  createWebhookEndpointTyped: t.field({
    type: WebhookEndpointWithSecretType,
    description: 'createWebhookEndpoint with a typed input.',
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: (_root, args, ctx) => createWebhookEndpoint(ctx, args.input),
  }),
  updateWebhookEndpoint: t.field({
    type: WebhookEndpointType,
    description: 'Changes url, events, description, or disabled ({ … }, as REST PATCH).',
    args: { id: t.arg.string({ required: true, ...UUID_ARG }), input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => updateWebhookEndpoint(ctx, args.id, args.input),
  }),
  updateWebhookEndpointTyped: t.field({
    type: WebhookEndpointType,
    description: 'updateWebhookEndpoint with a typed input.',
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      input: t.arg({ type: UpdateWebhookEndpointInput, required: true }),
    },
    resolve: (_root, args, ctx) => updateWebhookEndpoint(ctx, args.id, args.input),
  }),
  deleteWebhookEndpoint: t.boolean({
    description: 'Deletes a webhook endpoint and its deliveries.',
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => deleteWebhookEndpoint(ctx, args.id),
  }),
  rotateWebhookEndpointSecret: t.field({
    type: WebhookEndpointWithSecretType,
    description: 'A new signing secret, answered once; the old one keeps signing alongside it for 24 hours.',
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => rotateWebhookEndpointSecret(ctx, args.id),
  }),
  retryWebhookDelivery: t.field({
    type: WebhookDeliveryType,
    description: 'Sends a delivery again now (same webhook-id), then retries it for another 3 days.',
    args: {
      endpointId: t.arg.string({ required: true, ...UUID_ARG }),
      deliveryId: t.arg.string({ required: true, ...UUID_ARG }),
    },
    resolve: (_root, args, ctx) => retryWebhookDelivery(ctx, args.endpointId, args.deliveryId),
  }),
}));
