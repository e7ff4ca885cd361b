-- Search keys by Account. The two GIN indexes of search (name prefixes, phone-digit windows)
-- held bare terms, so a term's posting list spanned every Account: counting a term's
-- candidates in a small Account counted (and read the rows of) every other Account's matches,
-- and a small Account's search paid for the big one beside it. Each key now starts with the
-- contact's Account ("<accountId>:<term>"), so a search reads its own Account's entries only.
-- The keys' length costs little: a GIN stores each distinct key once.
DROP INDEX "Contact_search_namePrefixes_idx";
DROP INDEX "Contact_search_phoneGrams_idx";
DROP FUNCTION contact_name_prefixes(text, text);
DROP FUNCTION contact_phone_grams(text);

-- Every prefix (up to 12 characters) of the lowered first and last name.
CREATE FUNCTION contact_name_keys(account_id uuid, first_name text, last_name text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
  AS $$ SELECT coalesce(array_agg(DISTINCT account_id::text || ':' || substr(n, 1, i)), '{}')
        FROM unnest(ARRAY[lower(first_name), lower(last_name)]) AS n, generate_series(1, least(length(n), 12)) AS i
        WHERE n <> '' $$;

-- Every 4-digit and every 2-digit window of the phone's digits. The 2-digit windows serve a
-- term whose digit words are all shorter than four digits (a number written in short groups,
-- `+33 7 68 44 13 23`): each group of two or three digits holds its 2-digit windows, and
-- their intersection leaves a few candidates, where before the search walked the whole
-- Account (seconds at ten million contacts). A 2-digit key and a 4-digit key cannot be
-- confused: their lengths differ.
CREATE FUNCTION contact_phone_keys(account_id uuid, digits text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
  AS $$ SELECT coalesce(array_agg(DISTINCT account_id::text || ':' || substr(digits, i, w)), '{}')
        FROM (VALUES (2), (4)) AS windows (w), generate_series(1, length(digits) - w + 1) AS i $$;

CREATE INDEX "Contact_search_nameKeys_idx" ON "Contact" USING gin (contact_name_keys("accountId", "firstName", "lastName"));
CREATE INDEX "Contact_search_phoneKeys_idx" ON "Contact" USING gin (contact_phone_keys("accountId", "phoneDigits"));

-- No statistics on the expressions (see 20261126000000_list_ranges): the search counts its
-- candidates itself.
ALTER INDEX "Contact_search_nameKeys_idx" ALTER COLUMN 1 SET STATISTICS 0;
ALTER INDEX "Contact_search_phoneKeys_idx" ALTER COLUMN 1 SET STATISTICS 0;
