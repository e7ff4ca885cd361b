-- Search keys as 64-bit hashes, and name prefixes of up to eight characters. The GIN keys were
-- text ("<accountId>:<term>", some forty bytes each), and a contact wrote about thirty-four of
-- them: every prefix up to twelve characters of both names, every 4- and 2-digit window of the
-- phone. Each write paid for them (a bulk import of 1,000 contacts took 70% longer than before
-- the Account was in the keys). A key is now a bigint: the term hashed with a seed that is the
-- Account's own hash, so each Account's keys are still its own, compared as integers. A name
-- word longer than eight characters is looked up by its first eight (the exact condition checks
-- the rest); the words of one name, and the rarer of two names when it is rare, are read
-- through the btree name indexes instead (see docs/decisions/0051-search-keys-hashed.md). Two different terms can hash alike only by a
-- 64-bit collision; the exact conditions decide every match regardless.
DROP INDEX "Contact_search_nameKeys_idx";
DROP INDEX "Contact_search_phoneKeys_idx";
DROP FUNCTION contact_name_keys(uuid, text, text);
DROP FUNCTION contact_phone_keys(uuid, text);

-- One search key: the term, hashed with the Account's hash as the seed. The two functions below
-- write the same expression rather than call this one: an index expression is evaluated with
-- only pg_catalog on the search_path (PostgreSQL 17 and later, and PGlite), where this
-- function is not found. The search asks for its keys through this one, so the three must
-- stay the same.
CREATE FUNCTION contact_search_key(account_id uuid, term text) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT hashtextextended(term, hashtextextended(account_id::text, 0)) $$;

-- Every prefix, up to eight characters, of the lowered first and last name.
CREATE FUNCTION contact_name_keys(account_id uuid, first_name text, last_name text) RETURNS bigint[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
  AS $$ SELECT coalesce(array_agg(DISTINCT hashtextextended(substr(n, 1, i), hashtextextended(account_id::text, 0))), '{}')
        FROM unnest(ARRAY[lower(first_name), lower(last_name)]) AS n, generate_series(1, least(length(n), 8)) AS i
        WHERE n <> '' $$;

-- Every 4-digit and every 2-digit window of the phone's digits (a 2-digit key and a 4-digit key
-- hash different terms).
CREATE FUNCTION contact_phone_keys(account_id uuid, digits text) RETURNS bigint[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
  AS $$ SELECT coalesce(array_agg(DISTINCT hashtextextended(substr(digits, i, w), hashtextextended(account_id::text, 0))), '{}')
        FROM (VALUES (2), (4)) AS windows (w), generate_series(1, length(digits) - w + 1) AS i $$;

-- A pending list of 1 MB, not the default 4 MB: new entries wait there, unsorted, until the list
-- is merged into the index by the write that fills it, and every search of the index reads the
-- whole list. Eight-byte keys fit four times as many entries in it as the text keys did, so
-- at 4 MB one bulk import in several paid for a merge of thousands of contacts, and each
-- search read a list of up to 200,000 entries; at 1 MB the merges are smaller and more even.
CREATE INDEX "Contact_search_nameKeys_idx" ON "Contact" USING gin (contact_name_keys("accountId", "firstName", "lastName"))
  WITH (gin_pending_list_limit = 1024);
CREATE INDEX "Contact_search_phoneKeys_idx" ON "Contact" USING gin (contact_phone_keys("accountId", "phoneDigits"))
  WITH (gin_pending_list_limit = 1024);

-- No statistics on the expressions (see 20261126000000_list_ranges): the search counts its
-- candidates itself.
ALTER INDEX "Contact_search_nameKeys_idx" ALTER COLUMN 1 SET STATISTICS 0;
ALTER INDEX "Contact_search_phoneKeys_idx" ALTER COLUMN 1 SET STATISTICS 0;
