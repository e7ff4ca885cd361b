-- An active enrollment's nextAttemptAt is NULL only while a call for it is in flight. The dialer
-- used to store NULL when the agent had no working-hours window, which stranded the enrollment
-- for good (nothing revives a NULL without an open call). Such enrollments become due again,
-- as of when they were created (so they come first among their priority); the dialer now
-- leaves them due and skips them until the agent has hours.
UPDATE "Enrollment" e SET "nextAttemptAt" = e."createdAt"
WHERE e."active" AND e."nextAttemptAt" IS NULL
  AND NOT EXISTS (SELECT 1 FROM "Call" c WHERE c."enrollmentId" = e."id" AND c."status" IN ('queued', 'ringing', 'in_progress'));
