// The console at /console: server-rendered pages for the people who run an Account. Sign-in,
// invitations and sign-out call the domain's session services (as REST's auth step calls
// authenticateApiKey); everything a signed-in page shows or changes is a GraphQL operation of
// the domain schema run in-process with the person's context, as every surface does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { RequestContext, Services } from '../domain/context.js';
import { asDomainError, type DomainError } from '../domain/errors.js';
import { runOperation } from '../graphql/execute.js';
import { ConsoleOperations } from '../graphql/operations/console.js';
import { Operations } from '../graphql/operations/index.js';
import { contactListVariables } from '../graphql/operations/variables.js';
import { ContactsPage, type ContactRow } from './pages/contacts.js';
import { ContactPage, type CallView, type ContactDetail } from './pages/contact.js';
import { NotFoundPage } from './pages/not-found.js';
import { SettingsPage } from './pages/settings.js';
import { WorkflowsPage, type AgentRow, type WorkflowRow } from './pages/workflows.js';
import { acceptInvitation, INVITATION_PATH, openInvitation } from '../domain/users/invitations.service.js';
import { authenticateSession, signIn, signOut } from '../domain/users/sessions.service.js';
import {
  clearSessionCookie,
  csrfTokenMatches,
  csrfTokenOf,
  isSameOrigin,
  sessionTokenOf,
  setSessionCookie,
} from './console-session.js';
import { ApiKeysPage, type KeyRow } from './pages/api-keys.js';
import { InvitationGonePage, InvitationPage } from './pages/invitation.js';
import { SignInPage } from './pages/sign-in.js';
import { ForbiddenPage } from './pages/forbidden.js';

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
/** A console form is a few fields: more is not a person typing. */
const FORM_LIMIT = '16kb';
const invitationPrefix = INVITATION_PATH.replace('/console', '');

type Signed = { ctx: RequestContext; token: string; email: string };

function send(res: Response, status: number, page: VNode): void {
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self'; media-src https:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    })
    .send(`<!doctype html>${renderToString(page)}`);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function consoleRouter(services: Services): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 20 });
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
      const actor = await authenticateSession(services, token);
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
  const withSession =
    (handler: (req: Request, res: Response, signed: Signed) => Promise<void>) =>
    async (req: Request, res: Response, next: NextFunction) => {
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

  router.get('/', (_req, res) => res.redirect(303, '/console/contacts'));

  router.get('/sign-in', (req, res) => {
    send(
      res,
      200,
      SignInPage({ notice: req.query.done === 'password' ? 'Your password is set: sign in.' : undefined }),
    );
  });

  router.post('/sign-in', form, async (req, res, next) => {
    try {
      const email = typeof req.body?.email === 'string' ? req.body.email : '';
      const password = typeof req.body?.password === 'string' ? req.body.password : '';
      const result = await signIn(services, { email: email.slice(0, 254), password: password.slice(0, 200) });
      if (result.ok) {
        setSessionCookie(req, res, result.token, result.expiresAt);
        res.redirect(303, '/console/');
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
          SignInPage({ email, error: `Too many failed sign-ins: this account is locked for ${minutes} more minutes.` }),
        );
        return;
      }
      await wait(result.waitMs);
      send(res, 401, SignInPage({ email, error: 'That email and password do not match.' }));
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
      const user = await openInvitation(services, req.params.token);
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
        await acceptInvitation(services, { token: req.params.token, password });
      } catch (error) {
        const failure = asDomainError(error);
        // The form again only for a link still usable (its email is read only on this path).
        const user = failure?.code === 'bad_request' ? await openInvitation(services, req.params.token) : null;
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

  async function keysPage(
    res: Response,
    signed: Signed,
    extra: Partial<Parameters<typeof ApiKeysPage>[0]> = {},
    status = 200,
  ) {
    const { accountApiKeys } = await runOperation(signed.ctx, ConsoleOperations.apiKeys, {});
    send(res, status, ApiKeysPage({ viewer: viewerOf(signed), keys: accountApiKeys as KeyRow[], ...extra }));
  }

  router.get(
    '/api-keys',
    withSession(async (_req, res, signed) => keysPage(res, signed)),
  );

  router.post(
    '/api-keys',
    withSession(async (req, res, signed) => {
      const name = typeof req.body?.name === 'string' ? req.body.name : '';
      try {
        const { createAccountApiKey } = await runOperation(signed.ctx, ConsoleOperations.createApiKey, { name });
        await keysPage(
          res,
          signed,
          { created: { name: createAccountApiKey.key.name, secret: createAccountApiKey.secret } },
          201,
        );
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        await keysPage(res, signed, { name, nameError: fieldMessage(failure, 'name') }, 400);
      }
    }),
  );

  router.post(
    '/api-keys/:id/revoke',
    withSession(async (req, res, signed) => {
      try {
        await runOperation(signed.ctx, ConsoleOperations.revokeApiKey, { id: String(req.params.id) });
        await keysPage(res, signed, { notice: 'The key is revoked: the API refuses it from now on.' });
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'not_found' && failure?.code !== 'bad_request') throw error;
        await keysPage(res, signed, { notice: 'No such key in your Account.' }, 404);
      }
    }),
  );

  router.get(
    '/contacts',
    withSession(async (req, res, signed) => {
      const query = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
      const filters = { searchTerm: query('searchTerm'), status: query('status'), sourceKind: query('sourceKind') };
      const values = {
        ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value)),
        nextToken: query('nextToken'),
        limit: CONTACTS_PAGE,
      };
      const viewer = viewerOf(signed);
      try {
        const { contacts } = await runOperation(signed.ctx, Operations.listContacts, contactListVariables(values));
        const next = contacts.nextToken
          ? `/console/contacts?${new URLSearchParams({ ...definedOnly(filters), nextToken: contacts.nextToken })}`
          : null;
        send(res, 200, ContactsPage({ viewer, filters, contacts: contacts.data as ContactRow[], nextPage: next }));
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        const errors = fieldErrors(failure);
        const general = Object.keys(errors).length === 0 ? failure.message : undefined;
        send(res, 400, ContactsPage({ viewer, filters, contacts: [], nextPage: null, errors, error: general }));
      }
    }),
  );

  router.get(
    '/contacts/:id',
    withSession(async (req, res, signed) => {
      const viewer = viewerOf(signed);
      let contact: ContactDetail;
      try {
        contact = (await runOperation(signed.ctx, Operations.getContact, { id: String(req.params.id) }))
          .contact as ContactDetail;
      } catch (error) {
        const code = asDomainError(error)?.code;
        if (code !== 'not_found' && code !== 'bad_request') throw error;
        send(res, 404, NotFoundPage({ viewer, what: 'No such contact in your Account.', back: '/console/contacts' }));
        return;
      }
      const [{ contactCalls }, workflowName] = await Promise.all([
        runOperation(signed.ctx, Operations.listContactCalls, {
          sourceKind: contact.sourceKind,
          externalId: contact.externalId ?? contact.id,
          limit: 100,
        }),
        contact.assignedWorkflowId ? workflowNameOf(signed.ctx, contact.assignedWorkflowId) : Promise.resolve(null),
      ]);
      const calls: CallView[] = await Promise.all(
        contactCalls.data.map(async (call) => ({
          id: call.id,
          status: call.status,
          result: call.result ?? null,
          startedAt: (call.startedAt as string | null) ?? null,
          durationSeconds: call.durationSeconds ?? null,
          recordingUrl: call.recordingUrl ?? null,
          utterances: call.transcriptAvailable
            ? (((await runOperation(signed.ctx, Operations.getCallTranscript, { id: call.id })).callTranscript
                ?.utterances as CallView['utterances']) ?? [])
            : [],
        })),
      );
      send(res, 200, ContactPage({ viewer, contact, workflowName, calls }));
    }),
  );

  async function settingsPage(
    res: Response,
    signed: Signed,
    extra: Omit<Parameters<typeof SettingsPage>[0], 'viewer' | 'account'> = {},
    status = 200,
  ) {
    const { accountSettings } = await runOperation(signed.ctx, ConsoleOperations.settings, {});
    send(res, status, SettingsPage({ viewer: viewerOf(signed), account: accountSettings, ...extra }));
  }

  router.get(
    '/settings',
    withSession(async (_req, res, signed) => settingsPage(res, signed)),
  );

  router.post(
    '/settings',
    withSession(async (req, res, signed) => {
      const field = (name: string) => (typeof req.body?.[name] === 'string' ? (req.body[name] as string) : '');
      const values = { defaultLocation: field('defaultLocation'), dedupFields: field('dedupFields') };
      const dedupFields = values.dedupFields
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const location = values.defaultLocation.trim();
      try {
        await runOperation(signed.ctx, ConsoleOperations.updateSettings, {
          ...(location ? { defaultLocation: location } : { clearDefaultLocation: true }),
          dedupFields,
        });
        await settingsPage(res, signed, { notice: 'Settings saved.' });
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request' && failure?.code !== 'conflict') throw error;
        const errors = fieldErrors(failure);
        if (Object.keys(errors).length === 0) {
          const named = /^(defaultLocation|dedupFields)/.exec(failure.message)?.[1] ?? 'dedupFields';
          errors[named] = fieldMessage(failure, named);
        }
        await settingsPage(res, signed, { values, errors }, failure.status);
      }
    }),
  );

  async function workflowsPage(
    res: Response,
    signed: Signed,
    extra: Omit<Parameters<typeof WorkflowsPage>[0], 'viewer' | 'agents' | 'workflows'> = {},
    status = 200,
  ) {
    const data = await runOperation(signed.ctx, ConsoleOperations.agentsAndWorkflows, {});
    send(
      res,
      status,
      WorkflowsPage({
        viewer: viewerOf(signed),
        agents: data.accountAgents as AgentRow[],
        workflows: data.workflows.data as WorkflowRow[],
        ...extra,
      }),
    );
  }

  router.get(
    '/workflows',
    withSession(async (_req, res, signed) => workflowsPage(res, signed)),
  );

  router.post(
    '/workflows',
    withSession(async (req, res, signed) => {
      const field = (name: string) => (typeof req.body?.[name] === 'string' ? (req.body[name] as string) : '');
      const values = { name: field('name'), agentId: field('agentId') };
      try {
        await runOperation(signed.ctx, ConsoleOperations.createWorkflow, {
          name: values.name,
          agentId: values.agentId || undefined,
        });
        await workflowsPage(res, signed, { notice: `Workflow “${values.name.trim()}” created as a draft.` }, 201);
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        const errors = fieldErrors(failure);
        if (Object.keys(errors).length === 0) {
          const named = /^(name|agentId)/.exec(failure.message)?.[1] ?? 'name';
          errors[named] = fieldMessage(failure, named);
        }
        await workflowsPage(res, signed, { values, errors }, 400);
      }
    }),
  );

  router.post(
    '/workflows/:id',
    withSession(async (req, res, signed) => {
      const status = req.body?.status;
      const paused = req.body?.paused;
      const change = {
        ...(status === 'published' || status === 'archived' ? { status } : {}),
        ...(paused === 'true' || paused === 'false' ? { paused: paused === 'true' } : {}),
      };
      try {
        const { changeAccountWorkflow: changed } = await runOperation(signed.ctx, ConsoleOperations.changeWorkflow, {
          id: String(req.params.id),
          ...change,
        });
        const what = changed.status === 'published' && changed.paused ? 'paused' : changed.status;
        await workflowsPage(res, signed, { notice: `The workflow is ${what}.` });
      } catch (error) {
        const code = asDomainError(error)?.code;
        if (code !== 'not_found' && code !== 'bad_request') throw error;
        await workflowsPage(res, signed, { notice: undefined }, 404);
      }
    }),
  );

  return router;
}

const CONTACTS_PAGE = 50;

const definedOnly = (values: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1])));

/** The workflow's name, from the Account's workflows (null when gone). */
async function workflowNameOf(ctx: RequestContext, id: string): Promise<string | null> {
  let nextToken: string | undefined;
  do {
    const { workflows } = await runOperation(ctx, Operations.listWorkflows, { limit: 100, nextToken });
    const found = workflows.data.find((workflow) => workflow.id === id);
    if (found) return found.name;
    nextToken = workflows.nextToken ?? undefined;
  } while (nextToken);
  return null;
}

/** A 400's messages by the field they name (the first segment of each issue's path). */
function fieldErrors(error: DomainError): Record<string, string> {
  const issues = (error.details.issues ?? []) as Array<{ path?: unknown; message?: unknown }>;
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = typeof issue.path === 'string' ? issue.path.split(/[.[]/)[0] : '';
    if (field && typeof issue.message === 'string' && !out[field]) out[field] = issue.message;
  }
  return out;
}

/** A validation message without the field's path prefix ("name: …" → "…"). */
function fieldMessage(error: DomainError, field: string): string {
  return error.message.replace(new RegExp(`^${field}:\\s*`), '');
}
