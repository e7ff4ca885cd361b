-- Erasure (DELETE /api/v1/contacts/{id}): an erased contact's calls are deleted, their results
-- kept as anonymous counts here, per Account, workflow, agent and result. Nothing else is
-- kept: no contact, no call, no time (a time would tie a count to the erasure's contact.deleted
-- event). The id is only the row's key; a count is found by its unique expression below.
CREATE TABLE "AnonymousCallTally" (
  "id"         UUID NOT NULL,
  "accountId"  UUID NOT NULL,
  "workflowId" UUID,
  "agentId"    UUID,
  "result"     TEXT NOT NULL,
  "count"      INTEGER NOT NULL,
  CONSTRAINT "AnonymousCallTally_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "AnonymousCallTally_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- One row per (Account, workflow, agent, result), a missing workflow or agent counting as one
-- value (NULLS NOT DISTINCT would need PostgreSQL 15): erasures add to it with ON CONFLICT.
CREATE UNIQUE INDEX "AnonymousCallTally_key" ON "AnonymousCallTally" (
  "accountId",
  COALESCE("workflowId", '00000000-0000-0000-0000-000000000000'::uuid),
  COALESCE("agentId", '00000000-0000-0000-0000-000000000000'::uuid),
  "result"
);
-- A workflow's counts (Workflow.callResults).
CREATE INDEX "AnonymousCallTally_accountId_workflowId_idx" ON "AnonymousCallTally" ("accountId", "workflowId");
