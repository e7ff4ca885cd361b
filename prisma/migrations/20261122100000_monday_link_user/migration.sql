-- No link can exist yet (the install flow comes with this column), so no default is needed.
-- AlterTable
ALTER TABLE "MondayLink" ADD COLUMN     "userId" UUID NOT NULL;

