-- Outgoing webhooks (README, "Webhooks"): an Account's endpoints, and one delivery row per
-- (endpoint, event) fanned out from the DomainEvent outbox. A delivery keeps the exact body it
-- sends (signed afresh at each attempt, with the attempt's timestamp) so every retry carries the
-- same webhook-id and the same bytes.
CREATE TABLE "WebhookEndpoint" (
  "id"                      UUID NOT NULL,
  "accountId"               UUID NOT NULL,
  "url"                     TEXT NOT NULL,
  "description"             TEXT,
  "events"                  TEXT[] NOT NULL,
  -- The signing secret (whsec_…), AES-256-GCM with WEBHOOK_SECRETS_KEY; never answered again.
  "secretEncrypted"         TEXT NOT NULL,
  -- After a rotation, the old secret signs alongside the new one until previousSecretExpiresAt.
  "previousSecretEncrypted" TEXT,
  "previousSecretExpiresAt" TIMESTAMPTZ(3),
  "disabled"                BOOLEAN NOT NULL DEFAULT false,
  "disabledReason"          TEXT,
  -- The first failed attempt since the last success (null: not failing); 5 days of it disables.
  "failingSince"            TIMESTAMPTZ(3),
  "createdAt"               TIMESTAMPTZ(3) NOT NULL,
  "updatedAt"               TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "WebhookEndpoint_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "WebhookEndpoint_accountId_createdAt_id_idx" ON "WebhookEndpoint" ("accountId", "createdAt" DESC, "id" DESC);

CREATE TABLE "WebhookDelivery" (
  "id"             UUID NOT NULL,
  "endpointId"     UUID NOT NULL,
  "accountId"      UUID NOT NULL,
  -- The DomainEvent's id: the webhook-id is msg_ and this, the same on every attempt.
  "eventId"        UUID NOT NULL,
  "eventType"      TEXT NOT NULL,
  -- The contact the event is about (contact events, call.ended), so that erasing it finds it.
  "contactId"      UUID,
  -- The exact body sent, as JSON text.
  "payload"        TEXT NOT NULL,
  -- pending, delivered, failed (gave up, or an endpoint's final notice), cancelled
  "status"         TEXT NOT NULL DEFAULT 'pending',
  "attempts"       INTEGER NOT NULL DEFAULT 0,
  "nextAttemptAt"  TIMESTAMPTZ(3),
  -- Retried until then (3 days after it was made, or after a retry asked by hand).
  "giveUpAt"       TIMESTAMPTZ(3) NOT NULL,
  "lastAttemptAt"  TIMESTAMPTZ(3),
  "responseStatus" INTEGER,
  "lastError"      TEXT,
  "createdAt"      TIMESTAMPTZ(3) NOT NULL,
  "deliveredAt"    TIMESTAMPTZ(3),
  -- The process holding the attempt's lease (src/jobs/process-liveness.ts); null when not leased.
  "leasedBy"       UUID,
  CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "WebhookDelivery_endpointId_eventId_key" ON "WebhookDelivery" ("endpointId", "eventId");
-- The endpoint's log, newest first (GET …/deliveries).
CREATE INDEX "WebhookDelivery_endpointId_createdAt_id_idx" ON "WebhookDelivery" ("endpointId", "createdAt" DESC, "id" DESC);
-- Due deliveries, for the sender's lease: only pending rows are in it.
CREATE INDEX "WebhookDelivery_due_idx" ON "WebhookDelivery" ("nextAttemptAt") WHERE "status" = 'pending';
CREATE INDEX "WebhookDelivery_contactId_idx" ON "WebhookDelivery" ("contactId") WHERE "contactId" IS NOT NULL;

-- The webhook fan-out's position in the outbox: events it has not handled yet. Events already
-- stored are before any endpoint, so they count as handled.
ALTER TABLE "DomainEvent" ADD COLUMN "webhooksFannedAt" TIMESTAMPTZ(3);
UPDATE "DomainEvent" SET "webhooksFannedAt" = "createdAt";
CREATE INDEX "DomainEvent_webhook_fan_out_idx" ON "DomainEvent" ("seq") WHERE "webhooksFannedAt" IS NULL;
