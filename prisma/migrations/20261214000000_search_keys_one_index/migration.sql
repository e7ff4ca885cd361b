-- One GIN index of search keys instead of two, and the list's filters in it. A search with a
-- status, sourceKind or assignedWorkflowId filter found its term's candidates in the name or
-- phone keys and then read every candidate's row to check the filter, or walked the filter's
-- rows newest first to check the term: at ten million contacts, a name prefix with a status
-- of 1% of the Account read some hundred thousand rows either way. With the filter's values
-- among the keys, the index intersects the term with the filter before any row is read, and
-- with one index for names, phone windows and filters it intersects them all in one scan
-- (see docs/decisions/0052-search-keys-one-index.md).
DROP INDEX "Contact_search_nameKeys_idx";
DROP INDEX "Contact_search_phoneKeys_idx";
DROP FUNCTION contact_name_keys(uuid, text, text);
DROP FUNCTION contact_phone_keys(uuid, text);

-- A contact's search keys, each a term hashed as contact_search_key hashes it (the same
-- expression, written out: an index expression is evaluated with only pg_catalog on the
-- search_path, where contact_search_key is not found). A term is tagged with what it is, so
-- that a name that is all digits and a phone window, or a status and a name, never share a key:
--   n<prefix>   every prefix of one to eight characters of the lowered first and last name;
--   p<digits>   every 4-digit and every 2-digit window of the phone's digits;
--   s<status>   the status (none without one);
--   k<kind>     the sourceKind;
--   w<uuid>     the assigned workflow (none without one).
CREATE FUNCTION contact_search_keys(account_id uuid, first_name text, last_name text, digits text,
    status "ContactStatus", source_kind "SourceKind", workflow_id uuid) RETURNS bigint[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
  AS $$ SELECT coalesce(array_agg(DISTINCT hashtextextended(term, hashtextextended(account_id::text, 0))), '{}')
        FROM (
          SELECT 'n' || substr(n, 1, i)
            FROM unnest(ARRAY[lower(first_name), lower(last_name)]) AS n, generate_series(1, least(length(n), 8)) AS i
            WHERE n <> ''
          UNION ALL
          SELECT 'p' || substr(digits, i, w)
            FROM (VALUES (2), (4)) AS windows (w), generate_series(1, length(digits) - w + 1) AS i
          UNION ALL
          SELECT 's' || status::text
          UNION ALL
          SELECT 'k' || source_kind::text
          UNION ALL
          SELECT 'w' || workflow_id::text
        ) AS terms (term)
        WHERE term IS NOT NULL $$;

-- A pending list of 1 MB, not the default 4 MB: every search reads the whole list (see
-- 20261213000000_search_keys_hashed).
CREATE INDEX "Contact_search_keys_idx" ON "Contact" USING gin (
    contact_search_keys("accountId", "firstName", "lastName", "phoneDigits", "status", "sourceKind", "assignedWorkflowId"))
  WITH (gin_pending_list_limit = 1024);

-- No statistics on the expression (see 20261126000000_list_ranges): the search counts its
-- candidates itself.
ALTER INDEX "Contact_search_keys_idx" ALTER COLUMN 1 SET STATISTICS 0;
