// monday's OAuth for a link started in the console (the domain's MondayAuthorization port;
// src/domain/monday/console-link.service.ts decides whether a link may complete). The state is
// a JWT (HS256, 10 minutes) under a key derived from the Signing Secret for this purpose only,
// so it can pass neither for a monday token nor for an install page's state. monday sends the
// browser back to the app's one registered Redirect URL (/integrations/monday/oauth/callback);
// that route hands a console state on to the console's callback, where the session cookie
// (path /console) is sent and the domain checks the state was minted for that very session.
import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { ConsoleLinkClaims, MondayAuthorization } from '../../src/domain/context.js';
import { DomainError } from '../../src/domain/errors.js';
import type { Clock } from '../../src/domain/shared/clock.js';
import type { MondayConfig } from './config.js';
import { mondayApi } from './monday-api.js';
import { exchangeCode } from './oauth-token.js';
import { encryptToken } from './token-crypto.js';

const PURPOSE = 'contactline.monday.console-link';
const STATE_TTL_SECONDS = 10 * 60;
const DEFAULT_OAUTH_URL = 'https://auth.monday.com';
/** Where the console completes a link (src/console/routes/board.route.ts). */
export const CONSOLE_LINK_CALLBACK_PATH = '/console/board/oauth/callback';
/** The app's Redirect URL, as registered in the Developer Center (the install flow's too). */
const CALLBACK_PATH = '/integrations/monday/oauth/callback';

const stateKeyOf = (config: MondayConfig) =>
  createHmac('sha256', config.signingSecret).update('contactline monday console link state v1').digest();

/** Whether `state` is a console link's, signed by this service (expired or not: the console says so). */
export function isConsoleLinkState(config: MondayConfig, state: string): boolean {
  try {
    const claims = jwt.verify(state, stateKeyOf(config), { algorithms: ['HS256'], ignoreExpiration: true });
    return typeof claims === 'object' && claims.purpose === PURPOSE;
  } catch {
    return false;
  }
}

export function mondayConsoleAuthorization(config: MondayConfig, clock: Clock): MondayAuthorization {
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  const oauthUrl = () => (config.oauthUrl || DEFAULT_OAUTH_URL).replace(/\/+$/, '');
  /** The settings a link needs, or which ones the operator must still set. */
  const settings = () => {
    const missing = [
      ...(config.oauthClientId ? [] : ['MONDAY_CLIENT_ID']),
      ...(config.oauthClientSecret ? [] : ['MONDAY_CLIENT_SECRET']),
      ...(config.tokenKey ? [] : ['MONDAY_TOKEN_KEY']),
      ...(config.publicBaseUrl ? [] : ['PUBLIC_BASE_URL']),
    ];
    if (missing.length > 0 || !config.oauthClientId || !config.oauthClientSecret || !config.tokenKey)
      throw new DomainError(
        'unavailable',
        `Linking monday is not set up on this service yet: the operator must set ${missing.join(', ')} (docs/board-app.md)`,
      );
    return { clientId: config.oauthClientId, clientSecret: config.oauthClientSecret, tokenKey: config.tokenKey };
  };
  const redirectUri = () => new URL(CALLBACK_PATH, config.publicBaseUrl ?? undefined).toString();

  return {
    get authorizeOrigin() {
      return new URL(oauthUrl()).origin;
    },
    authorizeUrl(claims) {
      const { clientId } = settings();
      const iat = nowSeconds();
      const state = jwt.sign({ purpose: PURPOSE, ...claims, iat, exp: iat + STATE_TTL_SECONDS }, stateKeyOf(config), {
        algorithm: 'HS256',
      });
      const authorize = new URL(`${oauthUrl()}/oauth2/authorize`);
      authorize.searchParams.set('client_id', clientId);
      authorize.searchParams.set('redirect_uri', redirectUri());
      authorize.searchParams.set('state', state);
      if (config.oauthScopes) authorize.searchParams.set('scope', config.oauthScopes);
      return authorize.toString();
    },
    verifyState(state) {
      let claims: jwt.JwtPayload | string;
      try {
        claims = jwt.verify(state, stateKeyOf(config), { algorithms: ['HS256'], clockTimestamp: nowSeconds() });
      } catch (error) {
        throw new DomainError(
          'bad_request',
          error instanceof jwt.TokenExpiredError
            ? 'state: this link took more than 10 minutes and expired; start it again'
            : 'state: this link was not started by this Contactline service; start it again from this page',
        );
      }
      if (typeof claims !== 'object' || claims.purpose !== PURPOSE)
        throw new DomainError('bad_request', 'state: this is not a console link; start it again from this page');
      return {
        accountId: String(claims.accountId),
        userId: String(claims.userId),
        session: String(claims.session),
      } satisfies ConsoleLinkClaims;
    },
    async exchange(code) {
      const ready = settings();
      const token = await exchangeCode(ready, oauthUrl(), code, redirectUri());
      if (!token.ok)
        throw token.status === 400
          ? new DomainError(
              'bad_request',
              'code: monday refused the authorization code (already used or expired); start the link again',
            )
          : new DomainError('unavailable', 'monday could not be reached to complete the link; try again in a minute');
      const me = await mondayApi(config, token.accessToken)
        .me()
        .catch(() => null);
      if (!me)
        throw new DomainError(
          'unavailable',
          'monday did not say which account approved the link; try again in a minute',
        );
      return {
        mondayAccountId: me.accountId,
        mondayUserId: me.userId,
        accessTokenEncrypted: encryptToken(token.accessToken, ready.tokenKey),
      };
    },
  };
}
