-- CreateEnum
CREATE TYPE "AgentStatus" AS ENUM ('live', 'paused', 'draft');

-- CreateEnum
CREATE TYPE "CallDirection" AS ENUM ('outbound', 'inbound');

-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "agentId" UUID;

-- CreateTable
CREATE TABLE "Agent" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" "AgentStatus" NOT NULL DEFAULT 'draft',
    "timezone" TEXT NOT NULL,
    "defaultLanguage" TEXT NOT NULL,
    "attemptLimit" INTEGER NOT NULL,
    "workingHours" JSONB NOT NULL,
    "retryDelayMinutes" INTEGER NOT NULL,
    "callNewContactsImmediately" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Agent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Enrollment" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "contactId" UUID NOT NULL,
    "workflowId" UUID NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "reEnroll" BOOLEAN NOT NULL DEFAULT false,
    "enforceCallNow" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMPTZ(3),
    "endReason" TEXT,

    CONSTRAINT "Enrollment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Call" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "contactId" UUID NOT NULL,
    "workflowId" UUID,
    "agentId" UUID,
    "enrollmentId" UUID,
    "direction" "CallDirection" NOT NULL DEFAULT 'outbound',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "result" TEXT,
    "endReason" TEXT,
    "startedAt" TIMESTAMPTZ(3),
    "endedAt" TIMESTAMPTZ(3),
    "durationSeconds" INTEGER,
    "language" TEXT,
    "lastCall" BOOLEAN NOT NULL DEFAULT false,
    "nextCallAt" TIMESTAMPTZ(3),
    "reportReady" BOOLEAN NOT NULL DEFAULT false,
    "transferred" BOOLEAN NOT NULL DEFAULT false,
    "testCall" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Call_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CallUtterance" (
    "callId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "speaker" TEXT,
    "content" TEXT,
    "timestamp" TIMESTAMPTZ(3),

    CONSTRAINT "CallUtterance_pkey" PRIMARY KEY ("callId","seq")
);

-- CreateIndex
CREATE INDEX "Agent_accountId_createdAt_idx" ON "Agent"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "Enrollment_contactId_workflowId_idx" ON "Enrollment"("contactId", "workflowId");

-- CreateIndex
CREATE INDEX "Call_contactId_createdAt_idx" ON "Call"("contactId", "createdAt");

-- CreateIndex
CREATE INDEX "Call_workflowId_contactId_idx" ON "Call"("workflowId", "contactId");

-- AddForeignKey
ALTER TABLE "Agent" ADD CONSTRAINT "Agent_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Workflow" ADD CONSTRAINT "Workflow_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Enrollment" ADD CONSTRAINT "Enrollment_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Enrollment" ADD CONSTRAINT "Enrollment_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Call" ADD CONSTRAINT "Call_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CallUtterance" ADD CONSTRAINT "CallUtterance_callId_fkey" FOREIGN KEY ("callId") REFERENCES "Call"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- At most one active enrollment per contact: enrolling elsewhere ends the previous one.
CREATE UNIQUE INDEX "Enrollment_one_active_per_contact" ON "Enrollment" ("contactId") WHERE "active";
