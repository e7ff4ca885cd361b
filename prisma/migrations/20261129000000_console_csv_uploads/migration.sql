-- The console's CSV uploads: a file kept between its preview and its import, for the person who
-- uploaded it, an hour after its last step (the rows it sends go through the durable import
-- batches; this row only remembers what was read, the mapping, and the progress shown).
CREATE TABLE "CsvUpload" (
  "id"         UUID NOT NULL,
  "accountId"  UUID NOT NULL,
  "userId"     UUID NOT NULL,
  "fileName"   TEXT NOT NULL,
  "headers"    TEXT[],
  "rows"       JSONB NOT NULL,
  "preview"    JSONB NOT NULL,
  "rowCount"   INTEGER NOT NULL,
  "readable"   INTEGER NOT NULL,
  "mapping"    TEXT[] DEFAULT ARRAY[]::TEXT[],
  "nextIndex"  INTEGER NOT NULL DEFAULT 0,
  "accepted"   INTEGER NOT NULL DEFAULT 0,
  "rejected"   JSONB NOT NULL,
  "createdAt"  TIMESTAMPTZ(3) NOT NULL,
  "startedAt"  TIMESTAMPTZ(3),
  "finishedAt" TIMESTAMPTZ(3),
  "expiresAt"  TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "CsvUpload_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "CsvUpload_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "CsvUpload_userId_idx" ON "CsvUpload"("userId");
CREATE INDEX "CsvUpload_expiresAt_idx" ON "CsvUpload"("expiresAt");
