-- Enrolling a workflow's existing contacts (POST /api/v1/workflows/{id}/enrollments) is a job:
-- the request is stored as an ImportBatch of kind 'enrollment' with this row, answered 202, and
-- applied in chunks, each chunk's counts committed with the chunk
-- (src/domain/enrollment/enrollment-jobs.service.ts). GET /api/v1/enrollment-jobs/{id} reads it.
CREATE TABLE "EnrollmentJob" (
  "id"               UUID NOT NULL,
  "accountId"        UUID NOT NULL,
  "workflowId"       UUID NOT NULL,
  "status"           "JobStatus" NOT NULL DEFAULT 'queued',
  "reEnroll"         BOOLEAN NOT NULL,
  "enforceCallNow"   BOOLEAN NOT NULL,
  "matched"          INTEGER NOT NULL DEFAULT 0,
  "enrolled"         INTEGER NOT NULL DEFAULT 0,
  "notEnrolledCount" INTEGER NOT NULL DEFAULT 0,
  "reasonCounts"     JSONB NOT NULL DEFAULT '{}',
  "notEnrolled"      JSONB NOT NULL DEFAULT '[]',
  "createdAt"        TIMESTAMPTZ(3) NOT NULL,
  "startedAt"        TIMESTAMPTZ(3),
  "finishedAt"       TIMESTAMPTZ(3),
  CONSTRAINT "EnrollmentJob_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "EnrollmentJob_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "EnrollmentJob_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
