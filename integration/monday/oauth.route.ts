// Linking a monday account to a Contactline Account (the board app's install), under
// /integrations/monday/:
//
//   GET  /install          page: sign in with a Contactline API key (keeps an optional backToUrl)
//   POST /install          checks the key, then 302 to monday's OAuth authorize page with a signed state
//   GET  /oauth/callback   checks the state, exchanges the code, reads `me`, stores the link
//                          (token encrypted), then a success page or 302 to backToUrl; a link
//                          started in the console is handed on to it (console-link.ts)
//   GET  /authorize        monday's Authorization URL (sentence builder, ?token=<JWT>): linked →
//                          302 to backToUrl; not linked → the install page
//
// Browser safety: the install pages set one HttpOnly, SameSite=Lax cookie (a random browser
// id). The form carries a token derived from it (a cross-site POST does not send the cookie),
// and the OAuth state is bound to it, so a state minted in one browser cannot link a monday
// account approved in another. The state is a JWT (HS256, key derived from the Signing
// Secret, 10 minutes) binding the Account, the user and key, that browser and the backToUrl.
// Every value shown on a page is HTML-escaped; API keys and tokens are never shown or logged.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import jwt from 'jsonwebtoken';
import type { RequestContext, Services } from '../../src/domain/context.js';
import { authenticateApiKey } from '../../src/domain/api-keys/api-keys.service.js';
import { asDomainError } from '../../src/domain/errors.js';
import { installingActor, isMondayAccountLinked, saveMondayLink } from '../../src/domain/monday/monday-link.service.js';
import { safeEqual } from '../../src/domain/shared/safe-equal.js';
import { boardLogger, errorOf } from './board-logger.js';
import { mondayApi } from './monday-api.js';
import { MondayAuthError, verifyMondayJwt } from './monday-jwt.js';
import { encryptToken } from './token-crypto.js';
import { exchangeCode, type InstallSettings } from './oauth-token.js';
import { CONSOLE_LINK_CALLBACK_PATH, isConsoleLinkState } from './console-link.js';
import { refuseDeclaredOversize } from '../../src/http/edge/body-limits.js';
import type { MondayConfig } from './config.js';

const COOKIE = 'contactline_monday_install';
const COOKIE_MAX_AGE_MS = 60 * 60 * 1000;
const STATE_TTL_SECONDS = 10 * 60;
const STATE_PURPOSE = 'contactline.monday.install';
const DEFAULT_OAUTH_URL = 'https://auth.monday.com';
/** The install form: a key, a form token and a return address. */
const INSTALL_FORM_LIMIT_BYTES = 16 * 1024;

interface InstallState {
  purpose: typeof STATE_PURPOSE;
  accountId: string;
  userId: string;
  keyId: string;
  /** Hash of the browser id cookie of the browser that started the install. */
  browser: string;
  backToUrl?: string;
}

/** The install and OAuth routes; mounted inside mondayRouter (before its JWT-protected routes). */
export function installRouter(services: Services, config: MondayConfig): Router {
  const router = Router();
  const oauthUrl = () => (config.oauthUrl || DEFAULT_OAUTH_URL).replace(/\/+$/, '');
  // Derived, not the Signing Secret itself: our state can never pass for a monday token or back.
  const stateKey = createHmac('sha256', config.signingSecret).update('contactline monday install state v1').digest();
  const formToken = (browserId: string) =>
    createHmac('sha256', stateKey).update(`form:${browserId}`).digest('base64url');
  const browserHash = (browserId: string) => createHash('sha256').update(browserId).digest('base64url');
  const nowSeconds = () => Math.floor(services.clock.now().getTime() / 1000);

  /** What the operator must still set before anyone can install; [] when ready. */
  const missingSettings = () => [
    ...(config.oauthClientId ? [] : ['MONDAY_CLIENT_ID']),
    ...(config.oauthClientSecret ? [] : ['MONDAY_CLIENT_SECRET']),
    ...(config.tokenKey ? [] : ['MONDAY_TOKEN_KEY']),
  ];
  /** The install's settings, or null while one is missing. */
  const installSettings = (): InstallSettings | null =>
    config.oauthClientId && config.oauthClientSecret && config.tokenKey
      ? { clientId: config.oauthClientId, clientSecret: config.oauthClientSecret, tokenKey: config.tokenKey }
      : null;

  function send(res: Response, status: number, title: string, body: Html) {
    res.status(status);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(oauthUrl()).origin}; frame-ancestors 'none'; base-uri 'none'`,
    );
    res.send(layout(title, body).value);
  }

  /** The install's settings, else a 503 (nothing would be stored unencrypted) and null. */
  function readySettings(res: Response): InstallSettings | null {
    const settings = installSettings();
    if (settings) return settings;
    const missing = missingSettings();
    send(
      res,
      503,
      'Install unavailable',
      html`<p>Linking monday is not set up on this Contactline server yet.</p>
      <p>The operator must set ${missing.join(', ')} (see docs/board-app.md) and restart it.</p>`,
    );
    return null;
  }

  /** The browser id from the cookie, minting (and setting) one when absent. */
  function browserIdFor(req: Request, res: Response): string {
    const existing = readCookie(req, COOKIE);
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const id = randomBytes(32).toString('base64url');
    res.cookie(COOKIE, id, {
      httpOnly: true,
      sameSite: 'lax',
      secure: isSecure(req, config),
      path: req.baseUrl || '/',
      maxAge: COOKIE_MAX_AGE_MS,
    });
    return id;
  }

  function installPage(
    req: Request,
    res: Response,
    status: number,
    browserId: string,
    options: { backToUrl?: string | null; error?: string; notice?: string },
  ) {
    send(
      res,
      status,
      'Connect monday to Contactline',
      html`
      <h1>Connect monday to Contactline</h1>
      <p>The Contactline board app enrolls board items into your Contactline workflows and reports call results back to the board.
        To connect your monday account to your Contactline account, sign in with a Contactline API key. Board automations then act as the user that key belongs to.
        Next, monday asks you to authorize the app.</p>
      ${options.notice ? html`<p class="notice">${options.notice}</p>` : ''}
      ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
      <form method="post" action="${`${req.baseUrl}/install`}" autocomplete="off">
        <label for="apiKey">Contactline API key</label>
        <input id="apiKey" name="apiKey" type="password" required placeholder="svc_pk_..." spellcheck="false">
        <input type="hidden" name="form" value="${formToken(browserId)}">
        ${options.backToUrl ? html`<input type="hidden" name="backTo" value="${signBackTo(options.backToUrl)}">` : ''}
        <button type="submit">Continue to monday</button>
      </form>
      <p class="small">Your key is checked once and never stored or shown. The monday access token is stored encrypted.</p>`,
    );
  }

  /** A backToUrl carried through the form, signed so the form cannot be turned into an open redirect. */
  function signBackTo(url: string): string {
    const encoded = Buffer.from(url, 'utf8').toString('base64url');
    return `${encoded}.${createHmac('sha256', stateKey).update(`back:${encoded}`).digest('base64url')}`;
  }
  function verifyBackTo(value: unknown): string | null | 'invalid' {
    if (value === undefined || value === '') return null;
    if (typeof value !== 'string') return 'invalid';
    const [encoded, mac] = value.split('.');
    if (
      !encoded ||
      !mac ||
      !safeEqual(mac, createHmac('sha256', stateKey).update(`back:${encoded}`).digest('base64url'))
    )
      return 'invalid';
    return Buffer.from(encoded, 'base64url').toString('utf8');
  }

  const wrap = (handler: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    try {
      await handler(req, res);
    } catch (error) {
      boardLogger(config).error(`monday install failed (request ${res.locals.requestId})`, { error: errorOf(error) });
      if (!res.headersSent)
        send(res, 500, 'Something went wrong', html`<p>Linking failed on our side. Please try again in a minute.</p>`);
    }
  };

  router.get(
    '/install',
    wrap(async (req, res) => {
      const settings = readySettings(res);
      if (!settings) return;
      const backToUrl = req.query.backToUrl;
      if (backToUrl !== undefined && (typeof backToUrl !== 'string' || !isMondayUrl(backToUrl, oauthUrl()))) {
        send(
          res,
          400,
          'Bad link',
          html`<p>This install link carries a return address that is not a monday.com page. Start the install from monday again.</p>`,
        );
        return;
      }
      installPage(req, res, 200, browserIdFor(req, res), { backToUrl: backToUrl as string | undefined });
    }),
  );

  router.post(
    '/install',
    refuseDeclaredOversize(INSTALL_FORM_LIMIT_BYTES),
    express.urlencoded({ extended: false, limit: INSTALL_FORM_LIMIT_BYTES }),
    wrap(async (req, res) => {
      const settings = readySettings(res);
      if (!settings) return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const hadCookie = !!readCookie(req, COOKIE);
      const browserId = browserIdFor(req, res);
      const backTo = verifyBackTo(body.backTo);
      if (
        !hadCookie ||
        typeof body.form !== 'string' ||
        !safeEqual(body.form, formToken(browserId)) ||
        backTo === 'invalid'
      ) {
        // A cross-site post, cookies off, or an expired page: start over from a fresh form.
        installPage(req, res, 403, browserId, {
          backToUrl: backTo === 'invalid' ? null : backTo,
          error: 'This form expired or was not sent from this page. Enter your API key again.',
        });
        return;
      }
      const apiKey = typeof body.apiKey === 'string' ? body.apiKey.trim() : '';
      let actor: Awaited<ReturnType<typeof authenticateApiKey>>;
      try {
        actor = await authenticateApiKey(services, apiKey);
      } catch (error) {
        if (asDomainError(error)?.code !== 'unauthenticated') throw error;
        installPage(req, res, 401, browserId, {
          backToUrl: backTo,
          error:
            'That API key is not valid: it is unknown, revoked, expired, or from another region. Check it and try again.',
        });
        return;
      }
      if (actor.scopes !== null) {
        // Once linked, the board app acts for the whole Account: a key with fewer rights may not grant it.
        installPage(req, res, 403, browserId, {
          backToUrl: backTo,
          error:
            'That API key has scopes: linking monday.com needs a key with every scope, since the board app then acts for the whole Account.',
        });
        return;
      }
      const claims: InstallState = {
        purpose: STATE_PURPOSE,
        accountId: actor.accountId,
        userId: actor.userId,
        keyId: actor.apiKeyId ?? '',
        browser: browserHash(browserId),
        ...(backTo ? { backToUrl: backTo } : {}),
      };
      const iat = nowSeconds();
      const state = jwt.sign({ ...claims, iat, exp: iat + STATE_TTL_SECONDS }, stateKey, { algorithm: 'HS256' });
      const authorize = new URL(`${oauthUrl()}/oauth2/authorize`);
      authorize.searchParams.set('client_id', settings.clientId);
      authorize.searchParams.set('redirect_uri', callbackUrl(req, config));
      authorize.searchParams.set('state', state);
      if (config.oauthScopes) authorize.searchParams.set('scope', config.oauthScopes);
      res.redirect(302, authorize.toString());
    }),
  );

  router.get(
    '/oauth/callback',
    wrap(async (req, res) => {
      const { code, state, error } = req.query;
      // A link started in the console completes there, where its session cookie is sent.
      if (typeof state === 'string' && isConsoleLinkState(config, state)) {
        res.redirect(302, `${CONSOLE_LINK_CALLBACK_PATH}${new URL(req.originalUrl, 'http://x').search}`);
        return;
      }
      if (typeof error === 'string') {
        const description =
          typeof req.query.error_description === 'string'
            ? req.query.error_description.slice(0, 300)
            : error.slice(0, 100);
        send(
          res,
          400,
          'Not authorized',
          html`<p>monday did not authorize the app (${description}). Nothing was linked. You can start the install again.</p>`,
        );
        return;
      }
      if (typeof code !== 'string' || !code || typeof state !== 'string' || !state) {
        send(
          res,
          400,
          'Bad link',
          html`<p>This address is missing monday's answer (code and state). Start the install again.</p>`,
        );
        return;
      }
      const settings = readySettings(res);
      if (!settings) return;
      let claims: InstallState;
      try {
        claims = jwt.verify(state, stateKey, { algorithms: ['HS256'], clockTimestamp: nowSeconds() }) as InstallState;
        if (claims.purpose !== STATE_PURPOSE) throw new jwt.JsonWebTokenError('wrong purpose');
      } catch (failure) {
        const expired = failure instanceof jwt.TokenExpiredError;
        send(
          res,
          400,
          expired ? 'Install expired' : 'Invalid install state',
          expired
            ? html`<p>This install took too long and expired. Start the install again.</p>`
            : html`<p>This address was not issued by this Contactline server (the state does not verify). Start the install again.</p>`,
        );
        return;
      }
      const browserId = readCookie(req, COOKIE);
      if (!browserId || !safeEqual(browserHash(browserId), claims.browser)) {
        send(
          res,
          400,
          'Different browser',
          html`<p>This install was started in another browser (or its cookie was removed). Start the install again in this browser.</p>`,
        );
        return;
      }
      const installer = await installingActor(services, claims);
      if (!installer) {
        send(
          res,
          401,
          'Key revoked',
          html`<p>The API key used to start this install was revoked meanwhile. Start again with a valid key.</p>`,
        );
        return;
      }

      const token = await exchangeCode(settings, oauthUrl(), code, callbackUrl(req, config));
      if (!token.ok) {
        send(
          res,
          token.status,
          'monday refused',
          token.status === 400
            ? html`<p>monday refused the authorization code: it was already used or has expired. Start the install again.</p>`
            : html`<p>monday could not be reached to complete the install. Try again in a minute.</p>`,
        );
        return;
      }
      // The approving user and their account, read with the new token.
      const me = await mondayApi(config, token.accessToken)
        .me()
        .catch(() => null);
      if (!me) {
        send(
          res,
          502,
          'monday unavailable',
          html`<p>monday did not tell us which account approved the install. Try again in a minute.</p>`,
        );
        return;
      }

      const requestId = res.locals.requestId as string;
      const ctx: RequestContext = { ...services, requestId, isAdmin: false, actor: installer };
      try {
        await saveMondayLink(ctx, {
          mondayAccountId: me.accountId,
          mondayUserId: me.userId,
          accessTokenEncrypted: encryptToken(token.accessToken, settings.tokenKey),
        });
      } catch (failure) {
        if (asDomainError(failure)?.code !== 'conflict') throw failure;
        send(
          res,
          409,
          'Already linked elsewhere',
          html`<p>This monday account (${me.accountId}) is already linked to another Contactline account, so it was not moved.
        Unlink it from that account first (or ask us), then install again.</p>`,
        );
        return;
      }
      res.clearCookie(COOKIE, {
        httpOnly: true,
        sameSite: 'lax',
        secure: isSecure(req, config),
        path: req.baseUrl || '/',
      });
      if (claims.backToUrl) {
        res.redirect(302, claims.backToUrl);
        return;
      }
      send(
        res,
        200,
        'Connected',
        html`<h1>Connected</h1><p>monday account ${me.accountId} is now linked to your Contactline account.
      You can close this page and add the Contactline automations to your boards.</p>`,
      );
    }),
  );

  router.get(
    '/authorize',
    wrap(async (req, res) => {
      let claims: ReturnType<typeof verifyMondayJwt>;
      try {
        // Authorization-URL tokens carry accountId, userId and backToUrl and no aud: only the Signing
        // Secret and exp are checked (docs/decisions/0034-board-app-rules.md).
        claims = verifyMondayJwt(
          typeof req.query.token === 'string' ? req.query.token : undefined,
          config.signingSecret,
          { now: services.clock.now() },
        );
      } catch (failure) {
        if (!(failure instanceof MondayAuthError)) throw failure;
        send(
          res,
          401,
          'Not from monday',
          html`<p>This page must be opened from monday (${failure.message}). Add the recipe from monday again.</p>`,
        );
        return;
      }
      const backToUrl = typeof claims.backToUrl === 'string' && isHttpUrl(claims.backToUrl) ? claims.backToUrl : null;
      if (await isMondayAccountLinked(services, String(claims.accountId))) {
        if (backToUrl) res.redirect(302, backToUrl);
        else
          send(
            res,
            200,
            'Connected',
            html`<p>This monday account is already linked to Contactline. You can close this page.</p>`,
          );
        return;
      }
      const settings = readySettings(res);
      if (!settings) return;
      installPage(req, res, 200, browserIdFor(req, res), {
        backToUrl,
        notice: 'This monday account is not connected to Contactline yet.',
      });
    }),
  );

  return router;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Our callback URL: PUBLIC_BASE_URL when set (it must match the app's Redirect URL), else this request's origin. */
function callbackUrl(req: Request, config: MondayConfig): string {
  const base = config.publicBaseUrl ?? `${req.protocol}://${req.get('host')}`;
  return new URL(`${req.baseUrl}/oauth/callback`, base).toString();
}

function isSecure(req: Request, config: MondayConfig): boolean {
  return config.publicBaseUrl ? config.publicBaseUrl.startsWith('https:') : req.secure;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A return address we accept from a plain link: https on monday.com, or the configured OAuth server's origin. */
function isMondayUrl(value: string, oauthUrl: string): boolean {
  try {
    const url = new URL(value);
    if (url.origin === new URL(oauthUrl).origin) return true;
    return url.protocol === 'https:' && (url.hostname === 'monday.com' || url.hostname.endsWith('.monday.com'));
  } catch {
    return false;
  }
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// HTML: a tagged template that escapes every interpolated value unless it is already Html.

class Html {
  constructor(readonly value: string) {}
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    out += value instanceof Html ? value.value : escapeHtml(String(value ?? ''));
    out += strings[i + 1];
  });
  return new Html(out);
}

function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${title} · Contactline</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}
label{display:block;font-weight:600;margin-top:1rem}input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1.2rem;font:inherit;cursor:pointer}.error{color:#b00020}.notice{color:#6a4c00}.small{font-size:.85rem;color:#555}</style>
</head><body>${body}</body></html>`;
}
