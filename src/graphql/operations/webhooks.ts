// The webhook endpoint operations REST and the MCP tools run.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

const WebhookEndpointFields = graphql(`fragment WebhookEndpointFields on WebhookEndpoint {
  id url description events disabled disabledReason failingSince previousSecretExpiresAt createdAt updatedAt
}`);

const NewSecretFields = graphql(`fragment NewSecretFields on WebhookEndpointWithSecret {
  id url description events disabled disabledReason failingSince previousSecretExpiresAt createdAt updatedAt secret
}`);

const WebhookDeliveryFields = graphql(`fragment WebhookDeliveryFields on WebhookDelivery {
  id endpointId eventId webhookId eventType status attempts responseStatus lastError nextAttemptAt lastAttemptAt
  createdAt deliveredAt payload
}`);

export const WebhookOperations = {
  createWebhookEndpoint: defineOperation(
    graphql(`mutation ($input: JSON!) { createWebhookEndpoint(input: $input) { ...NewSecretFields } }`, [
      NewSecretFields,
    ]),
  ),
  listWebhookEndpoints: defineOperation(
    graphql(
      `query ($limit: Int, $nextToken: String) {
    webhookEndpoints(limit: $limit, nextToken: $nextToken) { data { ...WebhookEndpointFields } nextToken } }`,
      [WebhookEndpointFields],
    ),
  ),
  getWebhookEndpoint: defineOperation(
    graphql(`query ($id: String!) { webhookEndpoint(id: $id) { ...WebhookEndpointFields } }`, [WebhookEndpointFields]),
  ),
  updateWebhookEndpoint: defineOperation(
    graphql(
      `mutation ($id: String!, $input: JSON!) { updateWebhookEndpoint(id: $id, input: $input) { ...WebhookEndpointFields } }`,
      [WebhookEndpointFields],
    ),
  ),
  deleteWebhookEndpoint: defineOperation(graphql(`mutation ($id: String!) { deleteWebhookEndpoint(id: $id) }`)),
  rotateWebhookEndpointSecret: defineOperation(
    graphql(`mutation ($id: String!) { rotateWebhookEndpointSecret(id: $id) { ...NewSecretFields } }`, [
      NewSecretFields,
    ]),
  ),
  listWebhookDeliveries: defineOperation(
    graphql(
      `query ($endpointId: String!, $status: String, $limit: Int, $nextToken: String) {
    webhookDeliveries(endpointId: $endpointId, status: $status, limit: $limit, nextToken: $nextToken) {
      data { ...WebhookDeliveryFields } nextToken
    }
  }`,
      [WebhookDeliveryFields],
    ),
  ),
  retryWebhookDelivery: defineOperation(
    graphql(
      `mutation ($endpointId: String!, $deliveryId: String!) {
    retryWebhookDelivery(endpointId: $endpointId, deliveryId: $deliveryId) { ...WebhookDeliveryFields } }`,
      [WebhookDeliveryFields],
    ),
  ),
};
