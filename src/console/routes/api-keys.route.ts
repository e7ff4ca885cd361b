// API keys: create (the secret shown once), list, revoke (after a confirmation page). Every change ends with a redirect to the
// list (post/redirect/get), so reloading it changes nothing; the new key's secret reaches the list
// through a one-time flash (console-session.ts), never through the address.
import type { Request, Response, Router } from 'express';
import { asDomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { type ConsoleKit, formErrors, formField, formList, type Signed, send } from '../console-kit.js';
import { setFlash, takeFlash } from '../console-session.js';
import { ApiKeysPage, type KeyRow, RevokeKeyPage } from '../pages/api-keys.js';
import { NotFoundPage } from '../pages/not-found.js';

const KEYS_PAGE = '/console/api-keys';

/** What a finished change says once the list loads (?done=…): fixed sentences, nothing echoed. */
const DONE: Record<string, string> = {
  revoked: 'The key is revoked: the API refuses it from now on.',
};

/** The secret of the key just created, from the flash; anything else there is ignored. */
function createdOf(flash: unknown): { name: string; secret: string } | undefined {
  const created = (flash as { created?: { name?: unknown; secret?: unknown } } | null)?.created;
  return typeof created?.name === 'string' && typeof created.secret === 'string'
    ? { name: created.name, secret: created.secret }
    : undefined;
}

export function apiKeyRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  async function keysPage(
    res: Response,
    signed: Signed,
    extra: Partial<Parameters<typeof ApiKeysPage>[0]> = {},
    status = 200,
  ) {
    const { accountApiKeys } = await runOperation(signed.ctx, ConsoleOperations.apiKeys, {});
    const now = signed.ctx.clock.now().getTime();
    const keys = accountApiKeys.map((key) => ({
      ...key,
      expired: key.expiresAt !== null && new Date(key.expiresAt).getTime() <= now,
    }));
    send(res, status, ApiKeysPage({ viewer: viewerOf(signed), keys, ...extra }));
  }

  router.get(
    '/api-keys',
    withSession(async (req: Request, res, signed) => {
      const created = createdOf(takeFlash(req, res, signed.token, KEYS_PAGE));
      const notice = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
      await keysPage(res, signed, { created, notice });
    }),
  );

  router.post(
    '/api-keys',
    withSession(async (req, res, signed) => {
      const name = formField(req, 'name');
      const scopes = formList(req, 'scopes');
      // A date from the form's date field: the key is refused from 00:00 UTC that day.
      const expires = formField(req, 'expires');
      try {
        const { createAccountApiKey } = await runOperation(signed.ctx, ConsoleOperations.createApiKey, {
          name,
          scopes: scopes.length > 0 ? scopes : null,
          expiresAt: expires ? `${expires}T00:00:00Z` : null,
        });
        setFlash(req, res, signed.token, KEYS_PAGE, {
          created: { name: createAccountApiKey.key.name, secret: createAccountApiKey.secret },
        });
        res.redirect(303, KEYS_PAGE);
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        const errors = formErrors(failure, ['name', 'scopes', 'expiresAt']);
        await keysPage(res, signed, { name, scopes, expires, errors }, 400);
      }
    }),
  );

  // Revoking asks first: this page confirms, its form revokes (a reload of it revokes nothing).
  router.get(
    '/api-keys/:id/revoke',
    withSession(async (req, res, signed) => {
      const { accountApiKeys } = await runOperation(signed.ctx, ConsoleOperations.apiKeys, {});
      const apiKey: KeyRow | undefined = accountApiKeys.find((key) => key.id === String(req.params.id));
      if (!apiKey)
        return send(
          res,
          404,
          NotFoundPage({ viewer: viewerOf(signed), what: 'No such key in your Account.', back: KEYS_PAGE }),
        );
      send(res, 200, RevokeKeyPage({ viewer: viewerOf(signed), apiKey }));
    }),
  );

  router.post(
    '/api-keys/:id/revoke',
    withSession(async (req, res, signed) => {
      try {
        await runOperation(signed.ctx, ConsoleOperations.revokeApiKey, { id: String(req.params.id) });
        res.redirect(303, `${KEYS_PAGE}?done=revoked`);
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'not_found' && failure?.code !== 'bad_request') throw error;
        await keysPage(res, signed, { notice: 'No such key in your Account.' }, 404);
      }
    }),
  );
}
