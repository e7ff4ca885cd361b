-- Every service process keeps the API keys it has authenticated in memory (the key lookup is
-- otherwise a database round trip on every request). What can change an answer of that lookup
-- (a key revoked, renamed to another hash or deleted; its Account's contact rules changed, or
-- the Account deleted) notifies the channel `contactline_auth`; each process listens on it and
-- forgets what it kept (src/db/change-notices.ts, src/domain/api-keys/active-keys.cache.ts).
-- A trigger, so that no write path (the operator's SQL included) can forget to tell.
CREATE FUNCTION "contactline_notify_auth"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('contactline_auth', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "ApiKey_notify_auth"
  AFTER UPDATE OF "revokedAt", "secretHash", "accountId", "userId" OR DELETE ON "ApiKey"
  FOR EACH STATEMENT EXECUTE FUNCTION "contactline_notify_auth"();

CREATE TRIGGER "Account_notify_auth"
  AFTER UPDATE OF "defaultLocation", "dedupFields" OR DELETE ON "Account"
  FOR EACH STATEMENT EXECUTE FUNCTION "contactline_notify_auth"();
