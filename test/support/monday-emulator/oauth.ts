/**
 * monday's OAuth authorization-code flow, emulated for tests (auth.monday.com):
 *
 *   GET  /oauth2/authorize?client_id&redirect_uri&state[&scope]  records the request; the
 *        configured monday user "approves" at once → 302 redirect_uri?code&state (or
 *        ?error=access_denied&state after `denyNext()`); an unknown client_id → 400, no redirect.
 *   POST /oauth2/token  (form or JSON: client_id, client_secret, code, redirect_uri)
 *        → { access_token, token_type: 'Bearer', scope }. Wrong client → 401 invalid_client;
 *        unknown, used, expired code or another redirect_uri → 400 invalid_grant. A code works once.
 *
 * The access tokens are registered with the GraphQL API (`me`, boards...) as the approving
 * user and never expire, like monday's OAuth tokens (valid until the app is uninstalled).
 */
import { randomBytes } from 'node:crypto';
import express, { type Router } from 'express';
import type { EmulatorState } from './state.js';

export interface MondayOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** Redirect URLs registered for the app; absent: any. */
  redirectUris?: string[];
  /** The monday user who approves authorize requests (change with `approveAs`). */
  user?: { accountId: number; userId: number };
  /** Lifetime of an authorization code (default 600 s). */
  codeTtlSeconds?: number;
}

export interface AuthorizeRequestLog {
  at: number;
  clientId: string | null;
  redirectUri: string | null;
  state: string | null;
  scope: string | null;
  /** What the emulator answered: a code, a denial, or an error page. */
  outcome: 'approved' | 'denied' | 'error';
}

export interface TokenRequestLog {
  at: number;
  clientId: string | null;
  redirectUri: string | null;
  status: number;
  error: string | null;
}

export interface MondayOAuthEmulator {
  /** The monday user (and account) who approves the next authorize requests. */
  approveAs(accountId: number, userId: number): void;
  /** The next `count` authorize requests are denied by the user (redirect with error=access_denied). */
  denyNext(count?: number): void;
  readonly authorizeRequests: AuthorizeRequestLog[];
  readonly tokenRequests: TokenRequestLog[];
  /** Access tokens issued so far, in order. */
  readonly issuedTokens: string[];
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  accountId: number;
  userId: number;
  scope: string;
  expiresAt: number;
  used: boolean;
}

const DEFAULT_SCOPE = 'me:read boards:read boards:write';

export function createMondayOAuth(
  state: EmulatorState,
  options: MondayOAuthOptions,
): { router: Router; oauth: MondayOAuthEmulator } {
  let user = options.user ?? { accountId: 1, userId: 1 };
  let denials = 0;
  const codes = new Map<string, PendingCode>();
  const authorizeRequests: AuthorizeRequestLog[] = [];
  const tokenRequests: TokenRequestLog[] = [];
  const issuedTokens: string[] = [];
  const router = express.Router();

  router.get('/oauth2/authorize', (req, res) => {
    const q = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : null);
    const entry: AuthorizeRequestLog = {
      at: state.now(),
      clientId: q('client_id'),
      redirectUri: q('redirect_uri'),
      state: q('state'),
      scope: q('scope'),
      outcome: 'error',
    };
    authorizeRequests.push(entry);
    if (entry.clientId !== options.clientId) {
      res.status(400).type('text/plain').send('OAuth error: invalid client_id');
      return;
    }
    if (!entry.redirectUri || (options.redirectUris && !options.redirectUris.includes(entry.redirectUri))) {
      res.status(400).type('text/plain').send('OAuth error: redirect_uri is not registered for this app');
      return;
    }
    const target = new URL(entry.redirectUri);
    if (denials > 0) {
      denials -= 1;
      entry.outcome = 'denied';
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user denied the request');
    } else {
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        clientId: entry.clientId,
        redirectUri: entry.redirectUri,
        accountId: user.accountId,
        userId: user.userId,
        scope: entry.scope ?? DEFAULT_SCOPE,
        expiresAt: state.now() + (options.codeTtlSeconds ?? 600) * 1000,
        used: false,
      });
      entry.outcome = 'approved';
      target.searchParams.set('code', code);
    }
    if (entry.state !== null) target.searchParams.set('state', entry.state);
    res.redirect(302, target.toString());
  });

  router.post('/oauth2/token', express.urlencoded({ extended: false }), express.json(), (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : null);
    const entry: TokenRequestLog = {
      at: state.now(),
      clientId: field('client_id'),
      redirectUri: field('redirect_uri'),
      status: 200,
      error: null,
    };
    tokenRequests.push(entry);
    const fail = (status: number, error: string, description: string) => {
      entry.status = status;
      entry.error = error;
      res.status(status).json({ error, error_description: description });
    };
    if (entry.clientId !== options.clientId || field('client_secret') !== options.clientSecret) {
      fail(401, 'invalid_client', 'Client authentication failed');
      return;
    }
    const code = field('code');
    const pending = code ? codes.get(code) : undefined;
    if (!pending || pending.used || pending.expiresAt <= state.now() || pending.clientId !== entry.clientId) {
      fail(400, 'invalid_grant', 'The authorization code is invalid, expired or already used');
      return;
    }
    // A code is spent by its first exchange attempt, successful or not.
    pending.used = true;
    if (entry.redirectUri !== pending.redirectUri) {
      fail(400, 'invalid_grant', 'redirect_uri does not match the authorization request');
      return;
    }
    const accessToken = `emu_oauth_${randomBytes(24).toString('base64url')}`;
    state.tokens.set(accessToken, { accountId: pending.accountId, userId: pending.userId, expiresAt: null });
    if (!state.accounts.has(pending.accountId))
      state.accounts.set(pending.accountId, { id: pending.accountId, name: `Account ${pending.accountId}` });
    issuedTokens.push(accessToken);
    res.json({ access_token: accessToken, token_type: 'Bearer', scope: pending.scope });
  });

  const oauth: MondayOAuthEmulator = {
    approveAs(accountId, userId) {
      user = { accountId, userId };
    },
    denyNext(count = 1) {
      denials += count;
    },
    authorizeRequests,
    tokenRequests,
    issuedTokens,
  };
  return { router, oauth };
}
