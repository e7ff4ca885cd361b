-- Every timestamp the service writes comes from its injected clock, never from the database's
-- own now(): a column default would silently mix the two clocks (a row stamped by the database
-- and compared against the service clock). Without defaults, an insert that forgets a
-- timestamp fails loudly on NOT NULL instead.
ALTER TABLE "Account" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "Agent" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "Agent" ALTER COLUMN "updatedAt" DROP DEFAULT;
ALTER TABLE "ApiKey" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "BlockedPhone" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "BoardMapping" ALTER COLUMN "updatedAt" DROP DEFAULT;
ALTER TABLE "Call" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "Contact" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "Contact" ALTER COLUMN "updatedAt" DROP DEFAULT;
ALTER TABLE "DomainEvent" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "Enrollment" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "ImportBatch" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "MondayActionRun" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "MondayItemLink" ALTER COLUMN "updatedAt" DROP DEFAULT;
ALTER TABLE "MondayLink" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "MondayLink" ALTER COLUMN "updatedAt" DROP DEFAULT;
ALTER TABLE "MondayTriggerDelivery" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "MondayTriggerDelivery" ALTER COLUMN "nextAttemptAt" DROP DEFAULT;
ALTER TABLE "MondayTriggerSubscription" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "ProcessedEvent" ALTER COLUMN "receivedAt" DROP DEFAULT;
ALTER TABLE "User" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "Workflow" ALTER COLUMN "createdAt" DROP DEFAULT;
ALTER TABLE "Workflow" ALTER COLUMN "updatedAt" DROP DEFAULT;
