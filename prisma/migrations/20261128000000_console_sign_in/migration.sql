-- Console sign-in: a user's password (scrypt) and failed-attempt state, one-time invitations
-- (only their token's hash), and server-side sessions (only their token's hash). An email signs
-- in to one Account: the lower-cased email of a user with a password is unique.
ALTER TABLE "User" ADD COLUMN "passwordHash" TEXT;
ALTER TABLE "User" ADD COLUMN "passwordSetAt" TIMESTAMPTZ(3);
ALTER TABLE "User" ADD COLUMN "failedSignIns" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "User" ADD COLUMN "lockedUntil" TIMESTAMPTZ(3);
CREATE UNIQUE INDEX "User_signInEmail_key" ON "User" (lower("email")) WHERE "passwordHash" IS NOT NULL;

CREATE TABLE "UserInvitation" (
  "id"        UUID NOT NULL,
  "userId"    UUID NOT NULL,
  "tokenHash" TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL,
  "expiresAt" TIMESTAMPTZ(3) NOT NULL,
  "usedAt"    TIMESTAMPTZ(3),
  CONSTRAINT "UserInvitation_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "UserInvitation_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "UserInvitation_tokenHash_key" ON "UserInvitation"("tokenHash");
CREATE INDEX "UserInvitation_userId_idx" ON "UserInvitation"("userId");

CREATE TABLE "ConsoleSession" (
  "id"         UUID NOT NULL,
  "userId"     UUID NOT NULL,
  "tokenHash"  TEXT NOT NULL,
  "createdAt"  TIMESTAMPTZ(3) NOT NULL,
  "lastSeenAt" TIMESTAMPTZ(3) NOT NULL,
  "expiresAt"  TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "ConsoleSession_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "ConsoleSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ConsoleSession_tokenHash_key" ON "ConsoleSession"("tokenHash");
CREATE INDEX "ConsoleSession_userId_idx" ON "ConsoleSession"("userId");
