-- Erasure deletes the telephony events applied to an erased contact's calls: their ids carry
-- the call's id and their times are the call's. Each row now names its call, so an erasure
-- finds them by index whatever id the sender chose.
ALTER TABLE "ProcessedEvent" ADD COLUMN "callId" TEXT;

-- Rows written before: the simulator's and the voice adapters' event ids are `<call id>:<kind>`.
UPDATE "ProcessedEvent" SET "callId" = split_part("eventId", ':', 1)
 WHERE "eventId" ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:';

CREATE INDEX "ProcessedEvent_callId_idx" ON "ProcessedEvent" ("callId");
