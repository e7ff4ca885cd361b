-- Rate-limit windows shared by every service process on one PostgreSQL (the embedded database
-- counts in its one process's memory). One row per partition ("key:<api key id>",
-- "address:<client address>"): when its window opened, how much of it processes have leased,
-- and the last lease's grant (src/http/edge/rate-limit/postgres-quota-store.ts). Rows of ended
-- windows are deleted as processes go; a lost row only reopens a window.
CREATE TABLE "RateLimitQuota" (
  "partition"   TEXT NOT NULL,
  "windowStart" TIMESTAMPTZ(3) NOT NULL,
  "used"        INTEGER NOT NULL,
  "granted"     INTEGER NOT NULL,
  CONSTRAINT "RateLimitQuota_pkey" PRIMARY KEY ("partition")
);
