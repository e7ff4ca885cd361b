-- What a bulk import or bulk-update did, readable after its 202 (GET /api/v1/imports/{id},
-- /api/v1/bulk-updates/{id}). Each row shares its id with the ImportBatch that carries the
-- work, is inserted by the same statement that stores the batch (so a 202 never names a job
-- that does not exist), and is updated by the transaction that writes the batch (or one chunk
-- of it), so its counts are exactly the committed writes, however many times a run restarts.
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'done');

CREATE TABLE "ImportJob" (
  "id"         UUID NOT NULL,
  "accountId"  UUID NOT NULL,
  "status"     "JobStatus" NOT NULL DEFAULT 'queued',
  "accepted"   INTEGER NOT NULL,
  "created"    INTEGER NOT NULL DEFAULT 0,
  "updated"    INTEGER NOT NULL DEFAULT 0,
  "rejected"   JSONB NOT NULL DEFAULT '[]',
  "createdAt"  TIMESTAMPTZ(3) NOT NULL,
  "startedAt"  TIMESTAMPTZ(3),
  "finishedAt" TIMESTAMPTZ(3),
  CONSTRAINT "ImportJob_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "ImportJob_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The Account's imports, newest first (GET /api/v1/imports).
CREATE INDEX "ImportJob_accountId_createdAt_id_idx" ON "ImportJob" ("accountId", "createdAt" DESC, "id" DESC);

CREATE TABLE "BulkUpdateJob" (
  "id"           UUID NOT NULL,
  "accountId"    UUID NOT NULL,
  "status"       "JobStatus" NOT NULL DEFAULT 'queued',
  "matched"      INTEGER NOT NULL DEFAULT 0,
  "changed"      INTEGER NOT NULL DEFAULT 0,
  "skippedCount" INTEGER NOT NULL DEFAULT 0,
  "skipped"      JSONB NOT NULL DEFAULT '[]',
  "createdAt"    TIMESTAMPTZ(3) NOT NULL,
  "startedAt"    TIMESTAMPTZ(3),
  "finishedAt"   TIMESTAMPTZ(3),
  CONSTRAINT "BulkUpdateJob_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "BulkUpdateJob_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
