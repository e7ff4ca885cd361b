-- Phone-digit search. Trigrams of a 4+ digit word match rows holding those trigrams anywhere,
-- not adjacent (a 4-digit word gave ~20x more candidates than matches, each a heap fetch).
-- Indexing every 4-digit window of the phone makes a 4-digit word an exact lookup and a
-- longer word an intersection of its windows; the LIKE condition still decides.
CREATE FUNCTION contact_phone_grams(digits text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT substr(digits, i, 4)), '{}') FROM generate_series(1, length(digits) - 3) AS i $$;

CREATE INDEX "Contact_search_phoneGrams_idx" ON "Contact" USING gin (contact_phone_grams("phoneDigits"));

-- The trigram index served only 3-digit words now; such a word matches ~1% of phones, which
-- the newest-first scan finds quickly. One fewer GIN index to maintain on every write.
DROP INDEX "Contact_search_phoneDigits_idx";
