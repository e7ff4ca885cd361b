-- API keys may carry scopes (src/domain/api-keys/key-scopes.ts) and an expiry. An empty list of
-- scopes is a key with every scope, as every key was before: existing keys keep working as they
-- did. A key past its expiry is refused like a revoked one.
ALTER TABLE "ApiKey" ADD COLUMN "scopes" TEXT[] NOT NULL DEFAULT '{}', ADD COLUMN "expiresAt" TIMESTAMPTZ(3);

-- Each process keeps the keys it has seen in memory and forgets one when this trigger says it
-- changed (20261207000000_auth_change_notices): a change of its scopes or expiry is one too.
DROP TRIGGER "ApiKey_notify_auth" ON "ApiKey";
CREATE TRIGGER "ApiKey_notify_auth"
  AFTER UPDATE OF "revokedAt", "secretHash", "accountId", "userId", "scopes", "expiresAt" OR DELETE ON "ApiKey"
  FOR EACH STATEMENT EXECUTE FUNCTION "contactline_notify_auth"();
