// OAuth in the console (docs/oauth.md): the consent page an application's authorization request
// leads to (the person signs in first if they must, and comes back), and the list of connected
// applications with Revoke. Consent calls the domain's code issue directly (as sign-in calls the
// session service): it is the authorization server's step, not an Account operation.
import type { Request, Response, Router } from 'express';
import { asDomainError } from '../../domain/errors.js';
import {
  type AuthorizationRequest,
  AuthorizationRefused,
  checkAuthorizationRequest,
  issueAuthorizationCode,
} from '../../domain/oauth/oauth.service.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { servedOAuth } from '../../http/oauth-issuer.js';
import { CONSOLE_CSP, type ConsoleKit, type Signed, send } from '../console-kit.js';
import { NotFoundPage } from '../pages/not-found.js';
import { type ConsentFields, ConnectedAppsPage, ConsentPage, ConsentRefusedPage } from '../pages/oauth.js';

const APPS_PAGE = '/console/connected-apps';
const FIELDS = ['client_id', 'redirect_uri', 'code_challenge', 'scope', 'resource', 'state'] as const;

/** The request's fields, from the address (GET) or the form (POST); a field sent twice or not text is absent. */
function fieldsOf(source: Record<string, unknown> | undefined): ConsentFields {
  const text = (name: string) => {
    const value = source?.[name];
    return typeof value === 'string' ? value.slice(0, 2000) : undefined;
  };
  const fields: Partial<ConsentFields> = {};
  for (const name of FIELDS) {
    const value = text(name);
    if (value !== undefined) fields[name] = value;
  }
  return { client_id: '', redirect_uri: '', code_challenge: '', scope: '', ...fields };
}

const requestOf = (fields: ConsentFields): AuthorizationRequest => ({
  clientId: fields.client_id,
  redirectUri: fields.redirect_uri,
  codeChallenge: fields.code_challenge,
  scopes: fields.scope.split(' ').filter(Boolean),
  resource: fields.resource,
  state: fields.state,
});

/** The application's redirect address with the answer's parameters, and the issuer (RFC 9207). */
function answerAt(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return url.href;
}

export function oauthRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  /**
   * The checked request, or null once answered: a request whose redirect address is not good is
   * refused on the page; any other fault goes back to the application, as OAuth says.
   */
  async function checked(res: Response, signed: Signed, fields: ConsentFields) {
    const oauth = servedOAuth(signed.ctx.oauth);
    if (!oauth) {
      send(res, 404, NotFoundPage({ viewer: viewerOf(signed), what: 'OAuth is not served here.', back: '/console/' }));
      return null;
    }
    const { issuer, resource } = oauth;
    try {
      const request = requestOf(fields);
      return { issuer, request, ...(await checkAuthorizationRequest(signed.ctx, request, resource)) };
    } catch (error) {
      if (!(error instanceof AuthorizationRefused)) throw error;
      if (!error.redirect) send(res, 400, ConsentRefusedPage({ viewer: viewerOf(signed), reason: error.message }));
      else
        res.redirect(
          303,
          answerAt(fields.redirect_uri, issuer, {
            error: error.error,
            error_description: error.message,
            state: fields.state,
          }),
        );
      return null;
    }
  }

  router.get(
    '/oauth/authorize',
    withSession(async (req: Request, res, signed) => {
      const fields = fieldsOf(req.query as Record<string, unknown>);
      const request = await checked(res, signed, fields);
      if (!request) return;
      const redirect = new URL(request.request.redirectUri);
      // The form's answer is a redirect to the application: the page must allow it as a form-action.
      send(
        res,
        200,
        ConsentPage({
          viewer: viewerOf(signed),
          clientName: request.client.client_name?.slice(0, 200) ?? null,
          redirectHost: redirect.host,
          scopes: request.scopes,
          fields: { ...fields, scope: request.scopes.join(' ') },
        }),
        {
          'content-security-policy': CONSOLE_CSP.replace("form-action 'self'", `form-action 'self' ${redirect.origin}`),
        },
      );
    }),
  );

  router.post(
    '/oauth/authorize',
    withSession(async (req, res, signed) => {
      const fields = fieldsOf(req.body as Record<string, unknown>);
      const request = await checked(res, signed, fields);
      if (!request) return;
      if (req.body?.decision !== 'allow') {
        res.redirect(
          303,
          answerAt(fields.redirect_uri, request.issuer, { error: 'access_denied', state: fields.state }),
        );
        return;
      }
      const code = await issueAuthorizationCode(signed.ctx, request.request, request.resource);
      res.redirect(303, answerAt(fields.redirect_uri, request.issuer, { code, state: fields.state }));
    }),
  );

  router.get(
    '/connected-apps',
    withSession(async (req, res, signed) => {
      const { connectedApplications } = await runOperation(signed.ctx, ConsoleOperations.connectedApplications, {});
      const notice =
        req.query.done === 'revoked'
          ? 'The application is revoked: the tool server refuses its tokens from now on.'
          : undefined;
      send(res, 200, ConnectedAppsPage({ viewer: viewerOf(signed), apps: connectedApplications, notice }));
    }),
  );

  router.post(
    '/connected-apps/:id/revoke',
    withSession(async (req, res, signed) => {
      try {
        await runOperation(signed.ctx, ConsoleOperations.revokeConnectedApplication, { id: String(req.params.id) });
      } catch (error) {
        const code = asDomainError(error)?.code;
        if (code !== 'not_found' && code !== 'bad_request') throw error;
        send(
          res,
          404,
          NotFoundPage({ viewer: viewerOf(signed), what: 'There is no such connected application.', back: APPS_PAGE }),
        );
        return;
      }
      res.redirect(303, `${APPS_PAGE}?done=revoked`);
    }),
  );
}
