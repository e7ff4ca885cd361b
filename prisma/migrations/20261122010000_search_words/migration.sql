-- Multi-word searchTerm: no btree can intersect "first or last starts with A" and "first or
-- last starts with B". A GIN index over the name words answers 'a:* & b:*' with a bitmap
-- AND; the exact prefix conditions still recheck every row (see contacts-list.service.ts).
CREATE INDEX "Contact_search_nameWords_idx" ON "Contact"
  USING gin (to_tsvector('simple', coalesce("firstName", '') || ' ' || coalesce("lastName", '')));

-- Name prefixes are skewed (many Marias, few Zbigniews): finer statistics on the lowered
-- names let the planner choose between the prefix indexes and the newest-first scan.
ALTER INDEX "Contact_search_firstName_idx" ALTER COLUMN 2 SET STATISTICS 1000;
ALTER INDEX "Contact_search_lastName_idx" ALTER COLUMN 2 SET STATISTICS 1000;
