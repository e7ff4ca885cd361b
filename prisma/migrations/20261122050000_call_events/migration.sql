-- CreateTable
CREATE TABLE "ProcessedEvent" (
    "eventId" TEXT NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProcessedEvent_pkey" PRIMARY KEY ("eventId")
);

-- CreateTable
CREATE TABLE "DomainEvent" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DomainEvent_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "DomainEvent_id_key" ON "DomainEvent"("id");

-- CreateIndex
CREATE INDEX "DomainEvent_type_seq_idx" ON "DomainEvent"("type", "seq");


-- The dialer's claim: active enrollments by due time.
CREATE INDEX "Enrollment_due_idx" ON "Enrollment" ("nextAttemptAt") WHERE "active";
