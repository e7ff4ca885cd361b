-- GET /api/v1/workflows/{id}/results reads a workflow's ended calls placed in a window: one
-- range of this index, each row carrying every column the figures need (an index-only scan:
-- no visit to the Call rows themselves while the visibility map is current).
CREATE INDEX "Call_workflowId_startedAt_idx" ON "Call" ("workflowId", "startedAt")
  INCLUDE ("accountId", "contactId", "agentId", "result", "durationSeconds");
-- The enrollments a workflow started in the window (the `enrolled` figure).
CREATE INDEX "Enrollment_workflowId_createdAt_idx" ON "Enrollment" ("workflowId", "createdAt");
