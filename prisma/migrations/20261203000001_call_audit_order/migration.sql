-- GET /api/v1/calls/audit.csv pages an Account's calls oldest first, by (startedAt, id).
CREATE INDEX "Call_accountId_startedAt_id_idx" ON "Call" ("accountId", "startedAt", "id");
