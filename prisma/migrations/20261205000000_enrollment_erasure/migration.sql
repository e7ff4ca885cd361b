-- An erased contact's enrollments stay, anonymous, for their workflow's history and counts
-- (docs/decisions/0024-erasure.md): the erasure ends an active one with endReason
-- 'contact_erased' (contacts-erase.store.ts), then deleting the contact clears "contactId", so
-- no enrollment row links to the erased person. Active enrollments always have a contact.
ALTER TABLE "Enrollment" DROP CONSTRAINT "Enrollment_contactId_fkey";
ALTER TABLE "Enrollment" ALTER COLUMN "contactId" DROP NOT NULL;
ALTER TABLE "Enrollment" ADD CONSTRAINT "Enrollment_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE SET NULL ON UPDATE CASCADE;
