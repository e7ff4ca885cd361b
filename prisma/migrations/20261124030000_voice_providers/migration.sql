-- Voice agents run on a provider: the built-in simulator, Vapi or Retell AI. An agent names its
-- provider's references (the assistant or agent id, and the number it calls from) and may cap
-- its calls in flight; an Account keeps its provider keys encrypted (AES-256-GCM, the key in
-- PROVIDER_CREDENTIALS_KEY), never in clear. A call remembers its provider, the provider's id
-- for it, its recording, and, while it is being placed, since when (a lease for reconciling a
-- placement whose answer never came).
CREATE TYPE "VoiceProvider" AS ENUM ('simulator', 'vapi', 'retell');

ALTER TABLE "Agent"
  ADD COLUMN "provider" "VoiceProvider" NOT NULL DEFAULT 'simulator',
  ADD COLUMN "providerAgentId" TEXT,
  ADD COLUMN "providerPhoneNumber" TEXT,
  ADD COLUMN "maxConcurrentCalls" INTEGER;

CREATE TABLE "ProviderCredential" (
  "accountId" UUID NOT NULL,
  "provider" "VoiceProvider" NOT NULL,
  "apiKeyEncrypted" TEXT NOT NULL,
  "apiKeyLastFour" TEXT NOT NULL,
  "webhookSecretEncrypted" TEXT,
  "maxConcurrentCalls" INTEGER,
  "createdAt" TIMESTAMPTZ(3) NOT NULL,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "ProviderCredential_pkey" PRIMARY KEY ("accountId", "provider"),
  CONSTRAINT "ProviderCredential_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

ALTER TABLE "Call"
  ADD COLUMN "provider" "VoiceProvider" NOT NULL DEFAULT 'simulator',
  ADD COLUMN "providerCallId" TEXT,
  ADD COLUMN "recordingUrl" TEXT,
  ADD COLUMN "placingSince" TIMESTAMPTZ(3);

CREATE UNIQUE INDEX "Call_provider_providerCallId_key" ON "Call" ("provider", "providerCallId");
-- Calls in flight, counted per agent and per Account and provider against their caps.
CREATE INDEX "Call_in_flight_idx" ON "Call" ("agentId", "accountId", "provider") WHERE "status" IN ('placing', 'queued', 'ringing', 'in_progress');
-- Placing calls whose lease ran out, for the reconciliation pass.
CREATE INDEX "Call_placing_idx" ON "Call" ("placingSince") WHERE "status" = 'placing';
