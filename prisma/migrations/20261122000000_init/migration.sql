-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Region" AS ENUM ('us', 'eu');

-- CreateEnum
CREATE TYPE "SourceKind" AS ENUM ('hubspot', 'salesforce', 'api', 'csv', 'manual', 'monday', 'oneai');

-- CreateEnum
CREATE TYPE "ContactStatus" AS ENUM ('new', 'invalid', 'paused', 'unanswered', 'unreachable', 'connecting', 'answered', 'contact_verified', 'disqualified', 'qualified', 'converted', 'dont_call', 'dnc_blocked', 'not_assigned', 'assigned', 'not_answered', 'not_reached', 'reached', 'dnc');

-- CreateEnum
CREATE TYPE "WorkflowStatus" AS ENUM ('published', 'draft', 'archived');

-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('pending', 'done');

-- CreateTable
CREATE TABLE "Account" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "region" "Region" NOT NULL DEFAULT 'us',
    "defaultLocation" TEXT,
    "dedupFields" TEXT[] DEFAULT ARRAY['phone']::TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "lastFour" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BlockedPhone" (
    "accountId" UUID NOT NULL,
    "phone" TEXT NOT NULL,
    "reason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BlockedPhone_pkey" PRIMARY KEY ("accountId","phone")
);

-- CreateTable
CREATE TABLE "Workflow" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" "WorkflowStatus" NOT NULL DEFAULT 'draft',
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Workflow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Contact" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "firstName" TEXT,
    "lastName" TEXT,
    "fullName" TEXT,
    "phone" TEXT,
    "location" TEXT,
    "locationDefaulted" BOOLEAN NOT NULL DEFAULT false,
    "timezone" TEXT,
    "timezoneInferred" BOOLEAN NOT NULL DEFAULT false,
    "language" TEXT,
    "status" "ContactStatus",
    "sourceKind" "SourceKind" NOT NULL,
    "externalId" TEXT,
    "customFields" JSONB,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "assignedWorkflowId" UUID,
    "callCount" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER,
    "lastCallAt" TIMESTAMPTZ(3),
    "nextCallAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dedupKey" TEXT NOT NULL,
    "phoneDigits" TEXT,

    CONSTRAINT "Contact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportBatch" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "ImportStatus" NOT NULL DEFAULT 'pending',
    "result" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doneAt" TIMESTAMPTZ(3),

    CONSTRAINT "ImportBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_accountId_email_key" ON "User"("accountId", "email");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_secretHash_key" ON "ApiKey"("secretHash");

-- CreateIndex
CREATE INDEX "ApiKey_accountId_idx" ON "ApiKey"("accountId");

-- CreateIndex
CREATE INDEX "Workflow_accountId_createdAt_id_idx" ON "Workflow"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Contact_accountId_createdAt_id_idx" ON "Contact"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Contact_accountId_sourceKind_externalId_idx" ON "Contact"("accountId", "sourceKind", "externalId");

-- CreateIndex
CREATE INDEX "Contact_accountId_assignedWorkflowId_createdAt_idx" ON "Contact"("accountId", "assignedWorkflowId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Contact_accountId_dedupKey_key" ON "Contact"("accountId", "dedupKey");

-- CreateIndex
CREATE INDEX "ImportBatch_status_createdAt_idx" ON "ImportBatch"("status", "createdAt");

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BlockedPhone" ADD CONSTRAINT "BlockedPhone_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Workflow" ADD CONSTRAINT "Workflow_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Contact" ADD CONSTRAINT "Contact_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Contact" ADD CONSTRAINT "Contact_assignedWorkflowId_fkey" FOREIGN KEY ("assignedWorkflowId") REFERENCES "Workflow"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- Search indexes for searchTerm (hand-written: Prisma cannot express these).
-- Name words match the start of a first or last name, case-insensitively: a btree on the
-- lowered value with text_pattern_ops serves `lower(x) LIKE 'prefix%'`.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Contact_search_firstName_idx" ON "Contact"("accountId", lower("firstName") text_pattern_ops);
CREATE INDEX "Contact_search_lastName_idx" ON "Contact"("accountId", lower("lastName") text_pattern_ops);
-- Digit words match anywhere in the phone's digits: a trigram index serves `LIKE '%123%'`.
CREATE INDEX "Contact_search_phoneDigits_idx" ON "Contact" USING gin ("phoneDigits" gin_trgm_ops);
