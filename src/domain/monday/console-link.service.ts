// Linking the Account to monday from the console: the signed-in person starts monday's OAuth
// (no API key: their session already says who they are and which Account), and completes it
// when monday sends them back. The state monday carries is signed by the board app and binds
// the Account, the person and a hash of their console session: a link started in one session
// cannot be completed in another (a stranger's callback link cannot attach their monday
// account to this Account). This module decides; the board app only signs, verifies and
// exchanges (the MondayAuthorization port).
import { createHash } from 'node:crypto';
import { type MondayAuthorization, type RequestContext, requireConsoleUser } from '../context.js';
import { badRequest, DomainError } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { z } from 'zod';
import { type MondayLinkRecord, saveMondayLink } from './monday-link.service.js';

/** The session as a state carries it: a hash, so monday never sees even the session's id. */
const sessionBinding = (sessionId: string) =>
  createHash('sha256').update(`contactline console link:${sessionId}`).digest('base64url');

function authorizationOf(ctx: RequestContext): MondayAuthorization {
  if (!ctx.mondayAuthorization)
    throw new DomainError(
      'unavailable',
      'The monday board app is not configured on this service (set MONDAY_SIGNING_SECRET, then MONDAY_CLIENT_ID, MONDAY_CLIENT_SECRET and MONDAY_TOKEN_KEY)',
    );
  return ctx.mondayAuthorization;
}

/** monday's authorize page for the signed-in person's Account. */
export function startMondayLink(ctx: RequestContext): { authorizeUrl: string } {
  const person = requireConsoleUser(ctx);
  const authorizeUrl = authorizationOf(ctx).authorizeUrl({
    accountId: person.accountId,
    userId: person.userId,
    session: sessionBinding(person.sessionId),
  });
  return { authorizeUrl };
}

const CompleteSchema = z.strictObject({
  code: z.string().min(1, 'monday sent no authorization code').max(2000),
  state: z.string().min(1, 'monday sent no state').max(4000),
});

/**
 * Completes a link monday approved: the state must be one this service signed for this very
 * session, person and Account; then the code is exchanged and the link stored as every install
 * stores it (saveMondayLink: a monday account linked elsewhere is a conflict).
 */
export async function completeMondayLink(ctx: RequestContext, input: unknown): Promise<MondayLinkRecord> {
  const person = requireConsoleUser(ctx);
  const { code, state } = parseInput(CompleteSchema, input);
  const authorization = authorizationOf(ctx);
  const claims = authorization.verifyState(state);
  if (
    claims.accountId !== person.accountId ||
    claims.userId !== person.userId ||
    claims.session !== sessionBinding(person.sessionId)
  ) {
    throw badRequest(
      'state: this link was started in another console session (or by another person); start it again from this page',
    );
  }
  return saveMondayLink(ctx, await authorization.exchange(code));
}
