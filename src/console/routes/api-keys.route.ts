// API keys: create (the secret shown once), list, revoke.
import type { Response, Router } from 'express';
import { asDomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { type ConsoleKit, fieldMessage, formField, type Signed, send } from '../console-kit.js';
import { ApiKeysPage, type KeyRow } from '../pages/api-keys.js';

export function apiKeyRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
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
      const name = formField(req, 'name');
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
}
