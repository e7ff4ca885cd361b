-- Name search at a million contacts (see contacts-list.service.ts for how each is used).

-- 1. Name prefixes under the "C" collation: LIKE 'abc%' becomes a plain btree range, and the
--    statistics are gathered in the same order, so prefix estimates are right (under the
--    database's own collation they fell back to a fixed guess ~100x too low). INCLUDE makes
--    a search with one name word an index-only scan: the candidates' names, phone digits,
--    filtered fields and createdAt come from the index; only the page's rows are read.
DROP INDEX "Contact_search_firstName_idx";
DROP INDEX "Contact_search_lastName_idx";
CREATE INDEX "Contact_search_firstName_idx" ON "Contact" ("accountId", (lower("firstName") COLLATE "C"))
  INCLUDE ("firstName", "lastName", "phoneDigits", "createdAt", "id", "status", "sourceKind", "assignedWorkflowId");
CREATE INDEX "Contact_search_lastName_idx" ON "Contact" ("accountId", (lower("lastName") COLLATE "C"))
  INCLUDE ("firstName", "lastName", "phoneDigits", "createdAt", "id", "status", "sourceKind", "assignedWorkflowId");
ALTER INDEX "Contact_search_firstName_idx" ALTER COLUMN 2 SET STATISTICS 1000;
ALTER INDEX "Contact_search_lastName_idx" ALTER COLUMN 2 SET STATISTICS 1000;

-- 2. Several name words: every prefix (up to 12 characters) of the lowered first and last
--    name, in one GIN index. 'ma ga' is then an exact intersection (@> ARRAY['ma','ga']),
--    with good estimates from the array statistics. Replaces the tsvector index, whose word
--    splitting matched more than the rule and whose estimates misled the planner.
DROP INDEX "Contact_search_nameWords_idx";
CREATE FUNCTION contact_name_prefixes(first_name text, last_name text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
  AS $$ SELECT coalesce(array_agg(DISTINCT substr(n, 1, i)), '{}')
        FROM unnest(ARRAY[lower(first_name), lower(last_name)]) AS n, generate_series(1, least(length(n), 12)) AS i
        WHERE n <> '' $$;
CREATE INDEX "Contact_search_namePrefixes_idx" ON "Contact" USING gin (contact_name_prefixes("firstName", "lastName"));

-- The phone-windows function is as expensive per row: say so, so that the planner never
-- evaluates it row by row along the newest-first index.
ALTER FUNCTION contact_phone_grams(text) COST 1000;
