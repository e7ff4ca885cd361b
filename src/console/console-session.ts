// The console's cookie and its CSRF token. The cookie holds the session token (the database
// keeps only its hash: src/domain/users/sessions.service.ts): HttpOnly, SameSite=Lax, path
// /console, Secure when the request came over https. Every form of a signed-in page carries a
// token derived from the session (HMAC), so a page of another site cannot post one; every POST
// must also come from this origin (Origin header), the sign-in form included.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
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

/**
 * A one-time message from a form post to the page it redirects to (post/redirect/get), for what
 * must not go in the address: a new API key's secret. A cookie of its own, scoped to the page that
 * shows it and living two minutes, encrypted (AES-256-GCM) with a key derived from the session
 * token, so it is unreadable and useless without that session; the page clears it as it reads it.
 */
export const FLASH_COOKIE = 'contactline_console_flash';
const FLASH_SECONDS = 120;
const flashKeyOf = (sessionToken: string) =>
  createHmac('sha256', sessionToken).update('contactline console flash v1').digest();

export function setFlash(req: Request, res: Response, sessionToken: string, pagePath: string, value: unknown): void {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', flashKeyOf(sessionToken), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const payload = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  res.append(
    'Set-Cookie',
    serialize(FLASH_COOKIE, payload, {
      httpOnly: true,
      sameSite: 'strict',
      secure: isHttps(req),
      path: pagePath,
      maxAge: FLASH_SECONDS,
    }),
  );
}

/** The flash the page at `pagePath` was sent, once: the cookie is cleared as it is read. null: none, or not this session's. */
export function takeFlash(req: Request, res: Response, sessionToken: string, pagePath: string): unknown {
  const header = req.headers.cookie;
  const payload = header ? parseCookies(header)[FLASH_COOKIE] : undefined;
  if (!payload) return null;
  res.append(
    'Set-Cookie',
    serialize(FLASH_COOKIE, '', {
      httpOnly: true,
      sameSite: 'strict',
      secure: isHttps(req),
      path: pagePath,
      maxAge: 0,
    }),
  );
  try {
    const bytes = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', flashKeyOf(sessionToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
