-- CreateTable
CREATE TABLE "MondayLink" (
    "accountId" UUID NOT NULL,
    "mondayAccountId" TEXT NOT NULL,
    "mondayUserId" TEXT NOT NULL,
    "accessTokenEncrypted" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MondayLink_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "BoardMapping" (
    "accountId" UUID NOT NULL,
    "boardId" TEXT NOT NULL,
    "firstNameColumnId" TEXT,
    "lastNameColumnId" TEXT,
    "itemNameIsFullName" BOOLEAN NOT NULL DEFAULT false,
    "phoneColumnId" TEXT NOT NULL,
    "timezoneColumnId" TEXT,
    "timezoneColumnType" TEXT,
    "extraFields" JSONB NOT NULL DEFAULT '[]',
    "statusLabels" JSONB,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BoardMapping_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "MondayActionRun" (
    "actionUuid" TEXT NOT NULL,
    "accountId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MondayActionRun_pkey" PRIMARY KEY ("actionUuid")
);

-- CreateTable
CREATE TABLE "MondayTriggerSubscription" (
    "webhookId" TEXT NOT NULL,
    "accountId" UUID NOT NULL,
    "mondayAccountId" TEXT NOT NULL,
    "webhookUrl" TEXT NOT NULL,
    "boardId" TEXT,
    "agentId" UUID,
    "recipeId" TEXT,
    "integrationId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "MondayTriggerSubscription_pkey" PRIMARY KEY ("webhookId")
);

-- CreateTable
CREATE TABLE "MondayTriggerDelivery" (
    "id" UUID NOT NULL,
    "webhookId" TEXT NOT NULL,
    "callId" UUID NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MondayTriggerDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "MondayLink_mondayAccountId_key" ON "MondayLink"("mondayAccountId");

-- CreateIndex
CREATE INDEX "MondayTriggerSubscription_accountId_idx" ON "MondayTriggerSubscription"("accountId");

-- CreateIndex
CREATE INDEX "MondayTriggerDelivery_status_nextAttemptAt_idx" ON "MondayTriggerDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "MondayTriggerDelivery_webhookId_callId_key" ON "MondayTriggerDelivery"("webhookId", "callId");

