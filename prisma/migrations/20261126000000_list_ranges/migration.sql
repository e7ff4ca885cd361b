-- The list's filters as ranges in list order (see orderedRanges in contacts-list.service.ts).
-- With its leading columns fixed, each index below holds an Account's contacts newest first
-- ("createdAt" DESC, "id" DESC, the list's order and cursor), so a page of a filter is read
-- from the index and stops after the page, however rare or common the values are. Before,
-- a status or source filter walked the whole list newest first and checked each contact.

-- status + sourceKind; status alone (each of its values with each of the seven source kinds);
-- sourceKind alone (each of its values with each status, and with NULL: below).
CREATE INDEX "Contact_accountId_status_sourceKind_createdAt_id_idx"
  ON "Contact" ("accountId", "status", "sourceKind", "createdAt" DESC, "id" DESC);

-- The contacts without a status, by sourceKind. Under "status" IS NULL the planner does not
-- take the index above for list order (IS NULL fixes no value for it), and an index of every
-- contact by sourceKind would tie with the one above (without statistics both expect a row or
-- so), to be chosen for a status + sourceKind page and read all of the source's contacts.
CREATE INDEX "Contact_accountId_sourceKind_createdAt_id_idx"
  ON "Contact" ("accountId", "sourceKind", "createdAt" DESC, "id" DESC) WHERE "status" IS NULL;

-- assignedWorkflowId, with "id" for the cursor's ties; status and sourceKind after the order,
-- so that a workflow filtered by them checks them on the index entries, not on the rows.
-- Replaces the workflow index without them.
DROP INDEX "Contact_accountId_assignedWorkflowId_createdAt_idx";
CREATE INDEX "Contact_accountId_assignedWorkflowId_createdAt_id_idx"
  ON "Contact" ("accountId", "assignedWorkflowId", "createdAt" DESC, "id" DESC, "status", "sourceKind");

-- No parallel scans of Contact: starting Gather's workers costs a few milliseconds on every
-- such plan, more than the list and search scans it was chosen for (the planner picks it
-- when it overestimates a search index's rows), and they compete with requests for cores.
ALTER TABLE "Contact" SET (parallel_workers = 0);

-- The name-prefix indexes no longer carry the list's columns. A search reads a term's matches
-- through them only when they are few (a common term is found by walking the list in order),
-- so reading them index-only no longer pays; carrying names, createdAt and id let the
-- planner, on a vacuumed table without statistics, read a whole Account from them and sort
-- it rather than walk the list; and the eight columns were rewritten on every change of a
-- contact's status or workflow. Each keeps the name it lowers, so that counting a prefix's
-- matches reads the index alone once the table is vacuumed.
-- Their statistics go back to the default size: no query shape depends on fine prefix
-- estimates any more, and with 1,000 the ANALYZE that now runs by itself
-- (src/jobs/table-statistics.ts) sampled 300,000 rows (19 s at a million contacts, 2 s without).
DROP INDEX "Contact_search_firstName_idx";
DROP INDEX "Contact_search_lastName_idx";
CREATE INDEX "Contact_search_firstName_idx" ON "Contact" ("accountId", (lower("firstName") COLLATE "C")) INCLUDE ("firstName");
CREATE INDEX "Contact_search_lastName_idx" ON "Contact" ("accountId", (lower("lastName") COLLATE "C")) INCLUDE ("lastName");

-- No statistics on the GIN indexes' expressions: gathering them computed every sampled row's
-- name prefixes and phone windows, most of an ANALYZE's time (on PGlite at 100,000 contacts,
-- 5 s of 6, during which the one connection serves nothing else). The search reads those
-- indexes in shapes that do not rely on estimates (it counts the candidates itself).
ALTER INDEX "Contact_search_namePrefixes_idx" ALTER COLUMN 1 SET STATISTICS 0;
ALTER INDEX "Contact_search_phoneGrams_idx" ALTER COLUMN 1 SET STATISTICS 0;
