-- A contact's calls are listed in call order (when each call started, then id), not in the
-- order their records were written: reports arrive late and out of order. Every call has a
-- start (the dialer stamps the placing time, an inbound call its reported time), so the
-- column is NOT NULL and keyset pages run on one index.
UPDATE "Call" SET "startedAt" = "createdAt" WHERE "startedAt" IS NULL;
ALTER TABLE "Call" ALTER COLUMN "startedAt" SET NOT NULL;
DROP INDEX "Call_contactId_createdAt_idx";
CREATE INDEX "Call_contactId_startedAt_id_idx" ON "Call" ("contactId", "startedAt", "id");
