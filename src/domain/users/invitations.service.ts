// Invitations: an operator creates (or re-invites) a console user and gets a one-time link; the
// user opens it and sets a password. A link works once, for INVITATION_TTL_MS; a new invitation
// of the same user voids the earlier links. Only the token's SHA-256 is stored.
import type { User } from '../../generated/prisma/client.js';
import type { RequestContext, Services } from '../context.js';
import { requireAdmin } from '../context.js';
import { DomainError, notFound } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { randomToken, sha256Hex } from '../shared/tokens.js';
import { hashPassword } from './password-hash.js';
import { AcceptInvitationSchema, InviteUserSchema } from './users.inputs.js';

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
/** Where the console serves an invitation: the link is this path plus the token. */
export const INVITATION_PATH = '/console/invitation/';

export interface Invitation {
  /** The user as stored (the GraphQL User type shows only its public fields). */
  user: User;
  /** The path of the one-time link (INVITATION_PATH + token); shown once, never stored. */
  path: string;
  expiresAt: Date;
}

/** Operator: the user of this email in the Account (created when new) and a fresh link. */
export async function inviteUser(ctx: RequestContext, input: unknown): Promise<Invitation> {
  requireAdmin(ctx);
  const data = parseInput(InviteUserSchema, input);
  const now = ctx.clock.now();
  const token = randomToken();
  return ctx.db.prisma.$transaction(async (tx) => {
    const account = await tx.account.findUnique({ where: { id: data.accountId } });
    if (!account) throw notFound(`No account ${data.accountId}`);
    // Emails are compared lower-cased: the console's sign-in finds a user by email alone.
    const existing = await tx.user.findFirst({
      where: { accountId: data.accountId, email: { equals: data.email, mode: 'insensitive' } },
    });
    const elsewhere = await tx.user.findFirst({
      where: {
        accountId: { not: data.accountId },
        email: { equals: data.email, mode: 'insensitive' },
        passwordHash: { not: null },
      },
    });
    if (elsewhere)
      throw new DomainError(
        'conflict',
        `email: ${data.email} already signs in to another Account (an email signs in to one Account)`,
      );
    const user =
      existing ??
      (await tx.user.create({
        data: { accountId: data.accountId, email: data.email, name: data.name ?? null, createdAt: now },
      }));
    await tx.userInvitation.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    await tx.userInvitation.create({
      data: { userId: user.id, tokenHash: sha256Hex(token), createdAt: now, expiresAt },
    });
    return {
      user,
      path: INVITATION_PATH + token,
      expiresAt,
    };
  });
}

/** The invitation's user while its link is usable, else null (unknown, used, voided or expired). */
export async function openInvitation(services: Services, token: string) {
  const invitation = await services.db.prisma.userInvitation.findUnique({
    where: { tokenHash: sha256Hex(token) },
    include: { user: { select: { id: true, email: true, name: true, accountId: true } } },
  });
  if (!invitation || invitation.usedAt || invitation.expiresAt.getTime() <= services.clock.now().getTime()) return null;
  return invitation.user;
}

/**
 * Sets the invited user's password and uses up the link (in one transaction, so a link sets a
 * password once even when submitted twice at the same moment). Ends the user's sessions: a new
 * password signs out every browser that had the old one.
 */
export async function acceptInvitation(services: Services, input: unknown): Promise<{ userId: string }> {
  const data = parseInput(AcceptInvitationSchema, input);
  const now = services.clock.now();
  const passwordHash = await hashPassword(data.password);
  const tokenHash = sha256Hex(data.token);
  const accepted = services.db.prisma.$transaction(async (tx) => {
    const used = await tx.userInvitation.updateMany({
      where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (used.count !== 1)
      throw new DomainError('not_found', 'This invitation link was used, replaced or has expired: ask for a new one');
    const invitation = await tx.userInvitation.findUniqueOrThrow({ where: { tokenHash } });
    await tx.user.update({
      where: { id: invitation.userId },
      data: { passwordHash, passwordSetAt: now, failedSignIns: 0, lockedUntil: null, removedAt: null },
    });
    await tx.consoleSession.deleteMany({ where: { userId: invitation.userId } });
    return { userId: invitation.userId };
  });
  return accepted.catch((error: unknown) => {
    // Two Accounts' invitations of one email, both accepted: the second meets the unique sign-in email.
    if ((error as { code?: unknown }).code === 'P2002')
      throw new DomainError('conflict', 'This email already signs in to another Account');
    throw error;
  });
}
