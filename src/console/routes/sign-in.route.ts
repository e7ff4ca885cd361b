// Sign-in, sign-out and the invitation link where a new person sets a password. These call the
// domain's session services directly, as REST's auth step calls authenticateApiKey: they run
// before there is a signed-in person to run GraphQL operations for.
import type express from 'express';
import type { VNode } from 'preact';
import type { Router } from 'express';
import { asDomainError } from '../../domain/errors.js';
import { acceptInvitation, INVITATION_PATH, openInvitation } from '../../domain/users/invitations.service.js';
import { signIn, signOut } from '../../domain/users/sessions.service.js';
import { HashingBusy } from '../../domain/users/hashing-lane.js';
import { spendSignInQuota } from '../../http/edge/rate-limit/rate-limits.js';
import { type ConsoleKit, fieldMessage, send } from '../console-kit.js';
import { clearSessionCookie, setSessionCookie } from '../console-session.js';
import { InvitationGonePage, InvitationPage } from '../pages/invitation.js';
import { SignInPage } from '../pages/sign-in.js';

const invitationPrefix = INVITATION_PATH.replace('/console', '');
/**
 * Where to go after signing in: a console page of this service, else nowhere (the contacts). A
 * path only: another site, `//host` or a backslash trick cannot be named.
 */
function returnAddress(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 4000) return undefined;
  if (!value.startsWith('/console/') || value.includes('\\') || value.startsWith('/console//')) return undefined;
  return /^[\x21-\x7e]+$/.test(value) ? value : undefined;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function signInRoutes(
  router: Router,
  { services, withSession }: ConsoleKit,
  form: express.RequestHandler,
): void {
  router.get('/sign-in', (req, res) => {
    send(
      res,
      200,
      SignInPage({
        notice: req.query.done === 'password' ? 'Your password is set: sign in.' : undefined,
        next: returnAddress(req.query.next),
      }),
    );
  });

  router.post('/sign-in', form, async (req, res, next) => {
    try {
      const email = typeof req.body?.email === 'string' ? req.body.email : '';
      const password = typeof req.body?.password === 'string' ? req.body.password : '';
      const returnTo = returnAddress(req.body?.next);
      const result = await withinSignInLimits(
        req,
        res,
        () => signIn(services, { email: email.slice(0, 254), password: password.slice(0, 200) }),
        (error) => SignInPage({ email, error, next: returnTo }),
      );
      if (!result) return;
      if (result.ok) {
        setSessionCookie(req, res, result.token, result.expiresAt);
        res.redirect(303, returnTo ?? '/console/');
        return;
      }
      if (result.reason === 'locked') {
        const minutes = Math.max(
          1,
          Math.ceil((result.lockedUntil.getTime() - services.clock.now().getTime()) / 60_000),
        );
        res.setHeader('Retry-After', String(minutes * 60));
        send(
          res,
          429,
          SignInPage({
            email,
            next: returnTo,
            error: `Too many failed sign-ins: this account is locked for ${minutes} more minutes.`,
          }),
        );
        return;
      }
      await wait(result.waitMs);
      send(res, 401, SignInPage({ email, next: returnTo, error: 'That email and password do not match.' }));
    } catch (error) {
      next(error);
    }
  });

  router.post(
    '/sign-out',
    withSession(async (req, res, signed) => {
      await signOut(services, signed.token);
      clearSessionCookie(req, res);
      res.redirect(303, '/console/sign-in');
    }),
  );

  router.get(`${invitationPrefix}:token`, async (req, res, next) => {
    try {
      const user = await openInvitation(services, String(req.params.token));
      if (!user) return send(res, 404, InvitationGonePage());
      send(res, 200, InvitationPage({ email: user.email, action: req.originalUrl }));
    } catch (error) {
      next(error);
    }
  });

  router.post(`${invitationPrefix}:token`, form, async (req, res, next) => {
    try {
      const password = typeof req.body?.password === 'string' ? req.body.password : '';
      try {
        const accepted = await withinSignInLimits(
          req,
          res,
          () => acceptInvitation(services, { token: String(req.params.token), password }),
          async (error) => {
            const user = await openInvitation(services, String(req.params.token));
            return user ? InvitationPage({ email: user.email, action: req.originalUrl, error }) : InvitationGonePage();
          },
        );
        if (!accepted) return;
      } catch (error) {
        const failure = asDomainError(error);
        // The form again only for a link still usable (its email is read only on this path).
        const user = failure?.code === 'bad_request' ? await openInvitation(services, String(req.params.token)) : null;
        if (failure && user) {
          send(
            res,
            400,
            InvitationPage({ email: user.email, action: req.originalUrl, error: fieldMessage(failure, 'password') }),
          );
          return;
        }
        if (failure?.code === 'bad_request' || failure?.code === 'not_found')
          return send(res, 404, InvitationGonePage());
        throw error;
      }
      res.redirect(303, '/console/sign-in?done=password');
    } catch (error) {
      next(error);
    }
  });
}

/**
 * Runs a password check (it hashes) within the sign-in limits: the client address's sign-in
 * quota first, then the process's hashing lane. Over either, the form is shown again with why
 * (429 over the address's quota, 503 while the lane is full; both with Retry-After), and null
 * comes back.
 */
async function withinSignInLimits<T>(
  req: express.Request,
  res: express.Response,
  check: () => Promise<T>,
  form: (error: string) => VNode | Promise<VNode>,
): Promise<T | null> {
  try {
    await spendSignInQuota(req, res);
    return await check();
  } catch (error) {
    const failure = asDomainError(error);
    if (failure instanceof HashingBusy) res.setHeader('Retry-After', String(failure.retryAfterSeconds));
    else if (failure?.code !== 'rate_limited') throw error;
    send(res, failure.status, await form(failure.message));
    return null;
  }
}
