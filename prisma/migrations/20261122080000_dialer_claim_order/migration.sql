-- AlterTable
ALTER TABLE "Enrollment" ADD COLUMN     "priority" INTEGER NOT NULL DEFAULT 0;


-- The dialer claims due work highest priority first, then longest due: this index yields it
-- in that order, so a claim reads ~100 entries instead of sorting every enrollment.
UPDATE "Enrollment" e SET "priority" = c."priority" FROM "Contact" c WHERE c."id" = e."contactId";
DROP INDEX "Enrollment_due_idx";
CREATE INDEX "Enrollment_claim_idx" ON "Enrollment" ("priority" DESC, "nextAttemptAt") WHERE "active";
