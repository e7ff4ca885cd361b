// Account settings: default location and dedup fields; the region is shown, not changed.
import type { Response, Router } from 'express';
import { asDomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { type ConsoleKit, formErrors, formField, type Signed, send } from '../console-kit.js';
import { SettingsPage } from '../pages/settings.js';

export function settingsRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
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
    withSession(async (req, res, signed) =>
      settingsPage(res, signed, req.query.done === 'saved' ? { notice: 'Settings saved.' } : {}),
    ),
  );

  router.post(
    '/settings',
    withSession(async (req, res, signed) => {
      const field = (name: string) => formField(req, name);
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
        // Post/redirect/get: reloading the page after saving sends nothing again.
        res.redirect(303, '/console/settings?done=saved');
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request' && failure?.code !== 'conflict') throw error;
        const errors = formErrors(failure, ['dedupFields', 'defaultLocation']);
        await settingsPage(res, signed, { values, errors }, failure.status);
      }
    }),
  );
}
