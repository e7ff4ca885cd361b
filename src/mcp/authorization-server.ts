// The tool server's OAuth 2.1 endpoints (docs/oauth.md), built from the MCP SDK's own handlers:
//   GET  /.well-known/oauth-protected-resource/api/mcp   RFC 9728: the resource and its server
//   GET  /.well-known/oauth-authorization-server         RFC 8414: this authorization server
//   POST /oauth/register                                 RFC 7591: dynamic client registration
//   GET  /oauth/authorize                                authorization code + PKCE S256 → consent
//   POST /oauth/token                                    code and refresh token exchanges
//   POST /oauth/revoke                                   RFC 7009
// The SDK's handlers parse and answer the protocol (OAuth's error bodies, PKCE verification,
// its CORS: any origin may read these, as browser-based clients need); the domain
// (src/domain/oauth/) decides. The person signs in and consents on the console's page
// (src/console/routes/oauth-consent.route.ts), where /oauth/authorize sends them.
// The issuer is the service's public address (PUBLIC_BASE_URL, else the address it listens
// on); OAuth is served only when that is https or a loopback address, as the SDK requires.
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { CustomOAuthError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Services } from '../domain/context.js';
import { type ServedOAuth, servedOAuth } from '../http/oauth-issuer.js';
import { spendSignInQuota } from '../http/edge/rate-limit/rate-limits.js';
import type { EdgeResponse } from '../http/edge-response.js';
import {
  AuthorizationRefused,
  challengeForCode,
  checkAuthorizationRequest,
  exchangeAuthorizationCode,
  exchangeRefreshToken,
  findClient,
  registerClient,
  revokeToken,
} from '../domain/oauth/oauth.service.js';
import { OAUTH_SCOPES } from '../domain/oauth/oauth.rules.js';

export const OAUTH_PATH = '/oauth';
export const CONSENT_PATH = '/console/oauth/authorize';
/** The paths these endpoints answer under, with CORS rules of their own (the SDK's). */
export const OAUTH_MOUNTS = [
  OAUTH_PATH,
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
];

function provider(services: Services, resource: string): OAuthServerProvider {
  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => findClient(services, clientId),
    registerClient: (client) => registerClient(services, client),
  };
  return {
    clientsStore,
    async authorize(client, params, res) {
      const request = {
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        scopes: params.scopes ?? [],
        resource: params.resource?.href,
        state: params.state,
      };
      try {
        await checkAuthorizationRequest(services, request, resource);
      } catch (error) {
        if (!(error instanceof AuthorizationRefused)) throw error;
        // Not a registered address (the SDK lets a loopback address differ by its port; codes
        // go to exactly what was registered): answered here, never sent there.
        if (!error.redirect) {
          res.status(400).json({ error: error.error, error_description: error.message });
          return;
        }
        throw new CustomOAuthError(error.error, error.message);
      }
      const consent = new URLSearchParams({
        client_id: request.clientId,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        scope: request.scopes.join(' '),
        ...(request.resource ? { resource: request.resource } : {}),
        ...(request.state !== undefined ? { state: request.state } : {}),
      });
      res.redirect(302, `${CONSENT_PATH}?${consent}`);
    },
    challengeForAuthorizationCode: (client, code) => challengeForCode(services, client.client_id, code),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, requested) =>
      exchangeAuthorizationCode(services, client.client_id, code, redirectUri, requested?.href),
    exchangeRefreshToken: (client, refreshToken, scopes, requested) =>
      exchangeRefreshToken(services, client.client_id, refreshToken, scopes, requested?.href),
    // The tool server checks its bearer itself (src/mcp/mcp.route.ts); nothing calls this.
    verifyAccessToken: () => Promise.reject(new InvalidTokenError('Access tokens are checked by the tool server')),
    revokeToken: (client, request) => revokeToken(services, client.client_id, request.token),
  };
}

function metadataOf(issuer: string): OAuthMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PATH}/authorize`,
    token_endpoint: `${issuer}${OAUTH_PATH}/token`,
    registration_endpoint: `${issuer}${OAUTH_PATH}/register`,
    revocation_endpoint: `${issuer}${OAUTH_PATH}/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    // Every client is public: PKCE, not a secret, proves the requester.
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...OAUTH_SCOPES],
    service_documentation: `${issuer}/docs`,
    // RFC 9207: the issuer is named in every authorization response.
    authorization_response_iss_parameter_supported: true,
  } as OAuthMetadata;
}

/** Every OAuth endpoint, built from the SDK's handlers for the issuer (the rate limits are the service's own). */
function endpointsFor(services: Services, { issuer, resource }: ServedOAuth): Router {
  const oauth = provider(services, resource);
  const router = Router();
  router.use(
    mcpAuthMetadataRouter({
      oauthMetadata: metadataOf(issuer),
      resourceServerUrl: new URL(resource),
      scopesSupported: [...OAUTH_SCOPES],
      resourceName: 'Contactline tool server',
      serviceDocumentationUrl: new URL(`${issuer}/docs`),
    }),
  );
  router.use(`${OAUTH_PATH}/authorize`, authorizationHandler({ provider: oauth, rateLimit: false }));
  router.use(`${OAUTH_PATH}/token`, tokenHandler({ provider: oauth, rateLimit: false }));
  router.use(
    `${OAUTH_PATH}/register`,
    // Each registration is a stored row: it counts against the address's sign-in limit, not only
    // the limit every request has.
    (req: Request, res: Response, next: NextFunction) => {
      spendSignInQuota(req, res as EdgeResponse).then(() => next(), next);
    },
    express.json({ limit: '16kb' }),
    clientRegistrationHandler({ clientsStore: oauth.clientsStore, rateLimit: false }),
    // A body the JSON parser refuses is answered in OAuth's error body too, as RFC 7591 §3.2.2 says.
    (error: { type?: string }, _req: Request, res: Response, _next: NextFunction) => {
      const tooLarge = error?.type === 'entity.too.large';
      res.status(tooLarge ? 413 : 400).json({
        error: 'invalid_client_metadata',
        error_description: tooLarge ? 'The registration is larger than 16 KB' : 'The registration is not a JSON object',
      });
    },
  );
  router.use(`${OAUTH_PATH}/revoke`, revocationHandler({ provider: oauth, rateLimit: false }));
  return router;
}

/**
 * The OAuth endpoints, to mount at the root. Built on the first request once the issuer is
 * known (it may be the address the server came to listen on); without a servable issuer every
 * path here is left to the app's 404.
 */
export function authorizationServer(services: Services): (req: Request, res: Response, next: NextFunction) => void {
  let built: { issuer: string; router: Router } | null = null;
  return (req, res, next) => {
    const oauth = servedOAuth(services.oauth);
    if (!oauth) {
      next();
      return;
    }
    if (built?.issuer !== oauth.issuer) built = { issuer: oauth.issuer, router: endpointsFor(services, oauth) };
    built.router(req, res, next);
  };
}
