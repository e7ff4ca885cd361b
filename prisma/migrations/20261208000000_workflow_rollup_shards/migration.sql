-- Each call's end adds itself to its workflow's hourly roll-ups (WorkflowResultHour,
-- WorkflowDurationHour: src/domain/calls/call-events.store.ts). The calls of one workflow and
-- agent ending in the same hour all updated the same row, so each waited, holding its
-- transaction open, until the one before it committed: about 40 ms a call under the calling
-- simulation on PostgreSQL. Each roll-up is now spread over 8 rows (its shard, from the call's
-- id); the reads already sum every row of an hour (src/domain/workflows/workflow-results.store.ts).
ALTER TABLE "WorkflowResultHour" ADD COLUMN "shard" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "WorkflowResultHour" DROP CONSTRAINT "WorkflowResultHour_pkey",
  ADD CONSTRAINT "WorkflowResultHour_pkey" PRIMARY KEY ("workflowId", "hour", "agentId", "result", "shard");

ALTER TABLE "WorkflowDurationHour" ADD COLUMN "shard" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "WorkflowDurationHour" DROP CONSTRAINT "WorkflowDurationHour_pkey",
  ADD CONSTRAINT "WorkflowDurationHour_pkey" PRIMARY KEY ("workflowId", "hour", "agentId", "shard");
