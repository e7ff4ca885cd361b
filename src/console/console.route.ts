// The console at /console: server-rendered pages for the people who run an Account. Sign-in,
// invitations and sign-out call the domain's session services (as REST's auth step calls
// authenticateApiKey); everything a signed-in page shows or changes is a GraphQL operation of
// the domain schema run in-process with the person's context, as every surface does. Each page's
// routes are in routes/; this file holds what guards them all.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { RequestContext, Services } from '../domain/context.js';
import { asDomainError } from '../domain/errors.js';
import { authenticateSession } from '../domain/users/sessions.service.js';
import { noteRequestAccount } from '../http/access-log.js';
import { type ConsoleKit, type SessionHandler, type Signed, send } from './console-kit.js';
import { clearSessionCookie, csrfTokenMatches, csrfTokenOf, isSameOrigin, sessionTokenOf } from './console-session.js';
import { ForbiddenPage } from './pages/forbidden.js';
import { agentRoutes } from './routes/agents.route.js';
import { apiKeyRoutes } from './routes/api-keys.route.js';
import { boardRoutes } from './routes/board.route.js';
import { contactRoutes } from './routes/contacts.route.js';
import { importRoutes } from './routes/imports.route.js';
import { settingsRoutes } from './routes/settings.route.js';
import { signInRoutes } from './routes/sign-in.route.js';
import { workflowRoutes } from './routes/workflows.route.js';

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
/** A console form is a few fields: more is not a person typing. */
const FORM_LIMIT = '16kb';
/** The most fields a console form has: an agent's, with a dozen fields and two times per window of its week. */
const FORM_FIELDS_LIMIT = 200;

export function consoleRouter(services: Services): Router {
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

  /** The signed-in person, or a redirect to the sign-in page. Checked before a body is read. */
  async function signedIn(req: Request, res: Response): Promise<Signed | null> {
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
      res.redirect(303, '/console/sign-in');
      return null;
    }
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
  contactRoutes(router, kit);
  workflowRoutes(router, kit);
  agentRoutes(router, kit);
  apiKeyRoutes(router, kit);
  importRoutes(router, kit);
  settingsRoutes(router, kit);
  boardRoutes(router, kit);
  return router;
}
