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

-- A registry file being imported (status 'staging': its lines arrive in chunks) or imported
-- ('live': copies point at it). Staged blocks are invisible until finishing points the copies
-- at the import, in one transaction; a staging import left by a crash is deleted after an hour.
CREATE TABLE "DncRegistryImport" (
  "id" UUID NOT NULL PRIMARY KEY,
  "accountId" UUID NOT NULL REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "registry" TEXT NOT NULL,
  "downloadedAt" TIMESTAMPTZ(3) NOT NULL,
  "areaCodes" TEXT[] NOT NULL,
  "status" TEXT NOT NULL,
  "nextLine" INTEGER NOT NULL,
  "numbersRead" INTEGER NOT NULL,
  "startedAt" TIMESTAMPTZ(3) NOT NULL,
  "touchedAt" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "DncRegistryImport_staging_idx" ON "DncRegistryImport" ("touchedAt") WHERE "status" = 'staging';

-- The Account's copy of a registry for one scope (a +1 registry's area code, else "*"): the
-- import whose blocks answer for it.
CREATE TABLE "DncRegistryCopy" (
  "accountId" UUID NOT NULL REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "registry" TEXT NOT NULL,
  "scope" TEXT NOT NULL,
  "importId" UUID NOT NULL REFERENCES "DncRegistryImport"("id") ON UPDATE CASCADE,
  "downloadedAt" TIMESTAMPTZ(3) NOT NULL,
  "importedAt" TIMESTAMPTZ(3) NOT NULL,
  "numbers" INTEGER NOT NULL,
  PRIMARY KEY ("accountId", "registry", "scope")
);
CREATE INDEX "DncRegistryCopy_importId_idx" ON "DncRegistryCopy" ("importId");

-- The listed numbers of an import that share all their E.164 digits but the last four: a
-- bitmap of 1,250 bytes (bit n, get_bit numbering, set when prefix + n on four digits is
-- listed), or, for at most 624 numbers, their 2-byte codes (0x80 | n >> 7, n & 0x7F), which
-- position() finds only at even offsets. src/domain/calling-rules/dnc-registries.rules.ts.
CREATE TABLE "DncRegistryBlock" (
  "importId" UUID NOT NULL REFERENCES "DncRegistryImport"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "prefix" TEXT NOT NULL,
  "bits" BYTEA NOT NULL,
  PRIMARY KEY ("importId", "prefix")
);

ALTER TABLE "Call" ADD COLUMN "dialingAudit" JSONB;

ALTER TABLE "Enrollment" ADD COLUMN "dialingHold" TEXT;
-- A consent, a registry import or a policy change finds the enrollments set aside by index.
CREATE INDEX "Enrollment_held_idx" ON "Enrollment" ("accountId", "contactId") WHERE "dialingHold" IS NOT NULL AND "active";
