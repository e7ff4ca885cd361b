-- The board app's call-ended fan-out marks each event once it has queued its trigger deliveries.
ALTER TABLE "DomainEvent" ADD COLUMN     "dispatchedAt" TIMESTAMPTZ(3);

-- The events still to fan out, read oldest first.
CREATE INDEX "DomainEvent_undispatched_idx" ON "DomainEvent" ("seq") WHERE "dispatchedAt" IS NULL AND "type" = 'call.ended';

-- CreateTable
CREATE TABLE "MondayItemLink" (
    "contactId" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "boardId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MondayItemLink_pkey" PRIMARY KEY ("contactId")
);
