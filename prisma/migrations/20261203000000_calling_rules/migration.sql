-- Calling rules (src/domain/calling-rules/): the Account's calling policy and its history, the
-- contacts' consents, do-not-call registry copies, and the audit of each placed call.
CREATE TABLE "CallingPolicy" (
  "accountId" UUID NOT NULL PRIMARY KEY REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "purpose" TEXT NOT NULL,
  "requireWrittenConsent" BOOLEAN NOT NULL,
  "attemptCapMax" INTEGER,
  "attemptCapPeriodHours" INTEGER,
  "disabledJurisdictions" JSONB NOT NULL,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL,
  "updatedBy" TEXT NOT NULL
);

CREATE TABLE "CallingPolicyChange" (
  "id" UUID NOT NULL PRIMARY KEY,
  "accountId" UUID NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL,
  "actor" TEXT NOT NULL,
  "change" JSONB NOT NULL
);
CREATE INDEX "CallingPolicyChange_accountId_at_idx" ON "CallingPolicyChange" ("accountId", "at" DESC);

CREATE TABLE "Consent" (
  "id" UUID NOT NULL PRIMARY KEY,
  "accountId" UUID NOT NULL,
  "contactId" UUID NOT NULL REFERENCES "Contact"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "kind" TEXT NOT NULL,
  "workflowId" UUID,
  "method" TEXT NOT NULL,
  "evidence" TEXT,
  "obtainedAt" TIMESTAMPTZ(3) NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL,
  "revokedAt" TIMESTAMPTZ(3),
  "revokedBy" TEXT
);
-- The dialer reads a contact's live consents; a revocation finds them by Account and phone through the contacts.
CREATE INDEX "Consent_contactId_createdAt_idx" ON "Consent" ("contactId", "createdAt");

CREATE TABLE "DncRegistryCopy" (
  "accountId" UUID NOT NULL,
  "registry" TEXT NOT NULL,
  "scope" TEXT NOT NULL,
  "downloadedAt" TIMESTAMPTZ(3) NOT NULL,
  "importedAt" TIMESTAMPTZ(3) NOT NULL,
  "numbers" INTEGER NOT NULL,
  PRIMARY KEY ("accountId", "registry", "scope")
);

CREATE TABLE "DncRegistryBlock" (
  "accountId" UUID NOT NULL,
  "registry" TEXT NOT NULL,
  "prefix" TEXT NOT NULL,
  "bits" BYTEA NOT NULL,
  PRIMARY KEY ("accountId", "registry", "prefix")
);

ALTER TABLE "Call" ADD COLUMN "dialingAudit" JSONB;

ALTER TABLE "Enrollment" ADD COLUMN "dialingHold" TEXT;
-- A consent, a registry import or a policy change finds the enrollments set aside by index.
CREATE INDEX "Enrollment_held_idx" ON "Enrollment" ("accountId", "contactId") WHERE "dialingHold" IS NOT NULL AND "active";
