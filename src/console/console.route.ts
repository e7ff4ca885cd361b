// The console at /console: server-rendered pages for the people who run an Account. Sign-in,
// invitations and sign-out call the domain's session services (as REST's auth step calls
// authenticateApiKey); everything a signed-in page shows or changes is a GraphQL operation of
// the domain schema run in-process with the person's context, as every surface does. Each page's
// routes are in routes/; this file holds what guards them all.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { RequestContext, Services } from '../domain/context.js';
import { asDomainError, DomainError } from '../domain/errors.js';
import { authenticateSession } from '../domain/users/sessions.service.js';
import { noteRequestAccount } from '../http/access-log.js';
import { failureOf, type LogError } from '../http/error-body.js';
import { type ConsoleKit, type SessionHandler, type Signed, send } from './console-kit.js';
import { clearSessionCookie, csrfTokenMatches, csrfTokenOf, isSameOrigin, sessionTokenOf } from './console-session.js';
import { ErrorPage } from './pages/error.js';
import { ForbiddenPage } from './pages/forbidden.js';
import type { Viewer } from './pages/layout.js';
import { NotFoundPage } from './pages/not-found.js';
import { agentRoutes } from './routes/agents.route.js';
import { apiKeyRoutes } from './routes/api-keys.route.js';
import { boardRoutes } from './routes/board.route.js';
import { contactRoutes } from './routes/contacts.route.js';
import { enrollRoutes } from './routes/enroll.route.js';
import { importRoutes } from './routes/imports.route.js';
import { oauthRoutes } from './routes/oauth.route.js';
import { settingsRoutes } from './routes/settings.route.js';
import { signInRoutes } from './routes/sign-in.route.js';
import { workflowPageRoutes } from './routes/workflow.route.js';
import { workflowRoutes } from './routes/workflows.route.js';

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
/** A console form is a few fields: more is not a person typing. */
const FORM_LIMIT = '16kb';
/** The most fields a console form has: an agent's, with a dozen fields and two times per window of its week. */
const FORM_FIELDS_LIMIT = 200;

/**
 * A form parser's own refusal (too large, too many fields, unreadable) is the person's: a 4xx
 * said on the page; so is an asset that is not there. Anything else not a DomainError is the
 * service's (500, logged).
 */
function fromHttpError(error: unknown): DomainError | undefined {
  const e = error as { type?: string; status?: number };
  if (e?.status === 404) return new DomainError('not_found', 'There is no console page at this address.');
  if (e?.type === 'entity.too.large' || e?.type === 'parameters.too.many')
    return new DomainError('payload_too_large', 'The form sent more than a console form holds.');
  if (e?.status && e.status >= 400 && e.status < 500)
    return new DomainError('bad_request', 'The form could not be read: reload the page and send it again.');
  return undefined;
}

export function consoleRouter(services: Services, options: { logError?: LogError } = {}): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: FORM_FIELDS_LIMIT });
  const ctxFor = (res: Response) => ({
    ...services,
    requestId: res.locals.requestId as string,
    isAdmin: false,
    actor: null,
  });

  router.use('/assets', express.static(ASSETS, { index: false, fallthrough: false, maxAge: '1h' }));

  /** A change must come from a page of this service: refused before its body is read. */
  function sameOriginOnly(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== 'POST' || isSameOrigin(req)) {
      next();
      return;
    }
    send(res, 403, ForbiddenPage({ reason: 'This form was not sent from a Contactline console page.' }));
  }
  router.use(sameOriginOnly);

  /** The signed-in person, or null (no session, or one that ended: its cookie is cleared). */
  async function sessionOf(req: Request, res: Response): Promise<Signed | null> {
    const token = sessionTokenOf(req);
    try {
      // The access line names the Account a signed-in page acts for, as an API key's does.
      const actor = noteRequestAccount(req, await authenticateSession(services, token));
      const { sessionId, email, ...rest } = actor;
      const ctx: RequestContext = { ...ctxFor(res), actor: rest, console: { sessionId, email } };
      return { ctx, token: token as string, email };
    } catch (error) {
      if (asDomainError(error)?.code !== 'unauthenticated') throw error;
      if (token) clearSessionCookie(req, res);
      return null;
    }
  }

  /** The signed-in person, or a redirect to the sign-in page. Checked before a body is read. */
  async function signedIn(req: Request, res: Response): Promise<Signed | null> {
    const signed = await sessionOf(req, res);
    // A page asked for by address comes back after sign-in (an application's consent page, a link).
    if (!signed)
      res.redirect(
        303,
        req.method === 'GET' ? `/console/sign-in?next=${encodeURIComponent(req.originalUrl)}` : '/console/sign-in',
      );
    return signed;
  }

  /** Signed in, and the form's CSRF token is this session's. */
  const withSession = (handler: SessionHandler) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      const signed = await signedIn(req, res);
      if (!signed) return;
      if (req.method === 'POST') {
        await new Promise<void>((resolve, reject) =>
          form(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
        );
        if (!csrfTokenMatches(signed.token, req.body?.csrf)) {
          send(
            res,
            403,
            ForbiddenPage({
              reason: 'This form expired or was not sent from this console. Reload the page and try again.',
            }),
          );
          return;
        }
      }
      await handler(req, res, signed);
    } catch (error) {
      next(error);
    }
  };

  const viewerOf = (signed: Signed) => ({ email: signed.email, csrf: csrfTokenOf(signed.token) });
  const kit: ConsoleKit = { services, withSession, signedIn, viewerOf };

  router.get('/', (_req, res) => res.redirect(303, '/console/contacts'));
  signInRoutes(router, kit, form);
  enrollRoutes(router, kit);
  contactRoutes(router, kit);
  workflowRoutes(router, kit);
  workflowPageRoutes(router, kit);
  agentRoutes(router, kit);
  apiKeyRoutes(router, kit);
  importRoutes(router, kit);
  settingsRoutes(router, kit);
  boardRoutes(router, kit);
  oauthRoutes(router, kit);

  /** The navigation of a signed-in person on a page any visitor may see (a 404, an error). */
  async function viewerIfSignedIn(req: Request, res: Response): Promise<Viewer | undefined> {
    const signed = await sessionOf(req, res).catch(() => null);
    return signed ? viewerOf(signed) : undefined;
  }

  // Any other address under /console, whatever the method: the console's 404 page, not the API's JSON.
  router.use(async (req, res, next) => {
    try {
      const viewer = await viewerIfSignedIn(req, res);
      send(res, 404, NotFoundPage({ viewer, what: 'There is no console page at this address.', back: '/console/' }));
    } catch (error) {
      next(error);
    }
  });

  // A console request that fails is answered with a console page too (the API's error body is JSON).
  router.use(async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = res.locals.requestId as string;
    const failure = failureOf(error, requestId, options.logError, asDomainError(error) ?? fromHttpError(error));
    if (res.headersSent) return;
    const viewer = failure.status < 500 ? await viewerIfSignedIn(req, res) : undefined;
    const title = failure.status === 404 ? 'Not found' : failure.status < 500 ? 'Not sent' : 'Something went wrong';
    const message =
      failure.status < 500 ? failure.message : 'The service failed to handle this page. Try again in a moment.';
    send(res, failure.status, ErrorPage({ viewer, title, message, requestId }));
  });
  return router;
}
