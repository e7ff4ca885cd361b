// The console's cookie and its CSRF token. The cookie holds the session token (the database
// keeps only its hash: src/domain/users/sessions.service.ts): HttpOnly, SameSite=Lax, path
// /console, Secure when the request came over https. Every form of a signed-in page carries a
// token derived from the session (HMAC), so a page of another site cannot post one; every POST
// must also come from this origin (Origin header), the sign-in form included.
import { createHmac } from 'node:crypto';
import { parse as parseCookies, serialize } from 'cookie';
import type { Request, Response } from 'express';
import { safeEqual } from '../domain/shared/safe-equal.js';

export const SESSION_COOKIE = 'contactline_console';
export const CONSOLE_PATH = '/console';

export const sessionTokenOf = (req: Request): string | undefined => {
  const header = req.headers.cookie;
  return header ? parseCookies(header)[SESSION_COOKIE] : undefined;
};

/** https as the client sees it: the connection, or the proxy's X-Forwarded-Proto when the app trusts it. */
const isHttps = (req: Request) => req.secure;

export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  res.append(
    'Set-Cookie',
    serialize(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: isHttps(req),
      path: CONSOLE_PATH,
      expires: expiresAt,
    }),
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append(
    'Set-Cookie',
    serialize(SESSION_COOKIE, '', {
      httpOnly: true,
      sameSite: 'lax',
      secure: isHttps(req),
      path: CONSOLE_PATH,
      maxAge: 0,
    }),
  );
}

/** The CSRF token of a session: derived, so nothing more is stored, and useless without the cookie. */
export const csrfTokenOf = (sessionToken: string) =>
  createHmac('sha256', sessionToken).update('contactline console csrf v1').digest('base64url');

export const csrfTokenMatches = (sessionToken: string, sent: unknown) =>
  typeof sent === 'string' && safeEqual(sent, csrfTokenOf(sessionToken));

/** True when a POST comes from a page of this service (the browser's Origin header names it). */
export function isSameOrigin(req: Request): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return false;
  const host = req.headers.host;
  return origin === `${isHttps(req) ? 'https' : 'http'}://${host}`;
}
