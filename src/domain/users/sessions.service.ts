// Console sessions: signing in with email and password, the session behind a cookie, signing
// out. Sessions are rows (only the cookie token's SHA-256 is stored), so signing out, a new
// password or an expiry ends a session for every browser that holds its cookie.
import type { Actor, Services } from '../context.js';
import { DomainError } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { randomToken, sha256Hex } from '../shared/tokens.js';
import { decoyHash, verifyPassword } from './password-hash.js';
import { assertHashingRoom } from './hashing-lane.js';
import { delayAfterFailure, isLocked, lockAfterFailure } from './sign-in.rules.js';
import { SignInSchema } from './users.inputs.js';

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 8 * 3600_000;
/** …and in any case this long after sign-in. */
export const SESSION_MAX_MS = 7 * 24 * 3600_000;
/** lastSeenAt is written at most this often, so a page view stays one read. */
const SEEN_RESOLUTION_MS = 60_000;

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date; userId: string }
  /** `waitMs`: how long the surface waits before answering (repeated failures are slowed). */
  | { ok: false; reason: 'wrong_credentials'; waitMs: number }
  | { ok: false; reason: 'locked'; lockedUntil: Date };

/**
 * Checks an email and password. Wrong credentials and an unknown email answer alike (the
 * password is checked against a decoy hash, so they take as long). HashingBusy (503) while the
 * process's hashing lane is full, for every email alike. Failures in a row are
 * counted per user: slowed after FREE_FAILURES, locked for a while after LOCK_AFTER_FAILURES.
 */
export async function signIn(services: Services, input: unknown): Promise<SignInResult> {
  const data = parseInput(SignInSchema, input);
  // While the hashing lane is full, refused before the email is looked up: cheap, and alike for all.
  assertHashingRoom();
  const user = await services.db.prisma.user.findFirst({
    where: { email: { equals: data.email, mode: 'insensitive' }, passwordHash: { not: null } },
  });
  if (!user?.passwordHash) {
    await verifyPassword(data.password, await decoyHash());
    return { ok: false, reason: 'wrong_credentials', waitMs: 0 };
  }
  const now = services.clock.now();
  if (user.lockedUntil && isLocked(user.lockedUntil, now))
    return { ok: false, reason: 'locked', lockedUntil: user.lockedUntil };
  if (!(await verifyPassword(data.password, user.passwordHash))) {
    // An increment in the database, so concurrent failures each count.
    const { failedSignIns } = await services.db.prisma.user.update({
      where: { id: user.id },
      data: { failedSignIns: { increment: 1 } },
      select: { failedSignIns: true },
    });
    const lockedUntil = lockAfterFailure(failedSignIns, now);
    if (!lockedUntil) return { ok: false, reason: 'wrong_credentials', waitMs: delayAfterFailure(failedSignIns) };
    // Locked: the count starts again, so the lock's end brings the free attempts back.
    await services.db.prisma.user.update({ where: { id: user.id }, data: { lockedUntil, failedSignIns: 0 } });
    return { ok: false, reason: 'locked', lockedUntil };
  }
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_MAX_MS);
  await services.db.prisma.$transaction([
    services.db.prisma.user.update({ where: { id: user.id }, data: { failedSignIns: 0, lockedUntil: null } }),
    services.db.prisma.consoleSession.create({
      data: { userId: user.id, tokenHash: sha256Hex(token), createdAt: now, lastSeenAt: now, expiresAt },
    }),
  ]);
  return { ok: true, token, expiresAt, userId: user.id };
}

/** The signed-in user behind a session cookie, as an actor of their Account; 401 when none. */
export async function authenticateSession(
  services: Services,
  token: string | undefined,
): Promise<Actor & { sessionId: string; email: string }> {
  if (!token) throw new DomainError('unauthenticated', 'Sign in to the console');
  const session = await services.db.prisma.consoleSession.findUnique({
    where: { tokenHash: sha256Hex(token) },
    include: { user: { include: { account: true } } },
  });
  const now = services.clock.now();
  const idleSince = now.getTime() - SESSION_IDLE_MS;
  if (!session || session.expiresAt.getTime() <= now.getTime() || session.lastSeenAt.getTime() <= idleSince) {
    if (session) await services.db.prisma.consoleSession.deleteMany({ where: { id: session.id } });
    throw new DomainError('unauthenticated', 'Your console session ended: sign in again');
  }
  if (now.getTime() - session.lastSeenAt.getTime() > SEEN_RESOLUTION_MS) {
    await services.db.prisma.consoleSession.updateMany({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  const { user } = session;
  return {
    accountId: user.accountId,
    userId: user.id,
    apiKeyId: null,
    scopes: null,
    account: {
      id: user.accountId,
      defaultLocation: user.account.defaultLocation,
      dedupFields: user.account.dedupFields,
    },
    sessionId: session.id,
    email: user.email,
  };
}

/** Ends the session (every browser holding its cookie is signed out). Unknown tokens are ignored. */
export async function signOut(services: Services, token: string | undefined): Promise<void> {
  if (!token) return;
  await services.db.prisma.consoleSession.deleteMany({ where: { tokenHash: sha256Hex(token) } });
}
