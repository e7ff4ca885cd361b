-- REST writes' Idempotency-Key (src/http/idempotency.ts): one row per Account and key, claimed
-- (INSERT … ON CONFLICT) before the write runs, then holding its answer for 24 hours. A claim
-- without an answer is the request still running; one older than the lease was abandoned.
CREATE TABLE "IdempotencyKey" (
  "accountId"   UUID NOT NULL,
  "key"         TEXT NOT NULL,
  "requestHash" TEXT NOT NULL,
  "owner"       UUID NOT NULL,
  "claimedAt"   TIMESTAMPTZ(3) NOT NULL,
  "expiresAt"   TIMESTAMPTZ(3) NOT NULL,
  "status"      INTEGER,
  "headers"     JSONB,
  "body"        TEXT,
  CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("accountId", "key"),
  CONSTRAINT "IdempotencyKey_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The sweep of expired keys.
CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey" ("expiresAt");
