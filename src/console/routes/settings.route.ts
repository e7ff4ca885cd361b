// Account settings: default location and dedup fields; the region is shown, not changed; the
// calling policy (the domain's callingPolicy and setCallingPolicy, as REST's PUT /calling-policy)
// with its history (callingPolicyChanges).
import type { Request, Response, Router } from 'express';
import { asDomainError, type DomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { Operations } from '../../graphql/operations/index.js';
import { type ConsoleKit, formErrors, formField, type Signed, send } from '../console-kit.js';
import type { CallingPolicyView, PolicyFormValues } from '../pages/calling-policy.js';
import { actorWords, changeLines } from '../pages/calling-words.js';
import { SettingsPage } from '../pages/settings.js';

type SettingsExtra = Omit<Parameters<typeof SettingsPage>[0], 'viewer' | 'account' | 'calling'>;
type CallingExtra = { values?: PolicyFormValues; errors?: Record<string, string>; notice?: string };

/** How many of the policy's changes the page lists, newest first. */
const HISTORY_ROWS = 50;

/** A form field sent once or several times (checkboxes of one name), as a list. */
function formList(req: Request, name: string): string[] {
  const value = req.body?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The policy form as typed. */
function policyValuesOf(req: Request): PolicyFormValues {
  return {
    purpose: formField(req, 'purpose'),
    requireWrittenConsent: formField(req, 'requireWrittenConsent') !== '',
    attemptCapMax: formField(req, 'attemptCapMax'),
    attemptCapPeriodHours: formField(req, 'attemptCapPeriodHours'),
    disabledJurisdictions: formList(req, 'disabledJurisdictions'),
  };
}

/** GraphQL's Int: a number past it is sent as its bound, for the domain to say it is too big. */
const INT_BOUND = 2 ** 31 - 1;

/**
 * The policy's input (the REST body of PUT /calling-policy), or what the form itself cannot send:
 * a cap that is not a whole number, or half a cap. The domain checks the rest (its bounds, the
 * purpose, the jurisdictions).
 */
function policyInputOf(
  values: PolicyFormValues,
): { input: Record<string, unknown> } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const max = values.attemptCapMax.trim();
  const period = values.attemptCapPeriodHours.trim();
  const whole = (name: 'attemptCapMax' | 'attemptCapPeriodHours', text: string) => {
    if (/^[-+]?\d+$/.test(text)) return Math.max(-INT_BOUND, Math.min(INT_BOUND, Number(text)));
    errors[name] =
      text === '' ? 'enter a whole number, or leave both empty for no cap' : `"${text}" is not a whole number`;
    return 0;
  };
  const attemptCap =
    max === '' && period === ''
      ? null
      : { max: whole('attemptCapMax', max), periodHours: whole('attemptCapPeriodHours', period) };
  if (Object.keys(errors).length) return { errors };
  return {
    input: {
      ...(values.purpose ? { purpose: values.purpose } : {}),
      requireWrittenConsent: values.requireWrittenConsent,
      attemptCap,
      disabledJurisdictions: values.disabledJurisdictions,
    },
  };
}

/** The domain's refusal by the form's fields (an issue's path: `attemptCap.max` is the max's input). */
function policyErrors(failure: DomainError): Record<string, string> {
  const issues = (failure.details.issues ?? []) as Array<{ path?: unknown; message?: unknown }>;
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const path = typeof issue.path === 'string' ? issue.path : '';
    const message = typeof issue.message === 'string' ? issue.message : String(issue.message);
    const field =
      path === 'attemptCap.periodHours'
        ? 'attemptCapPeriodHours'
        : path.startsWith('attemptCap')
          ? 'attemptCapMax'
          : path.startsWith('disabledJurisdictions')
            ? 'disabledJurisdictions'
            : ['purpose', 'requireWrittenConsent'].includes(path)
              ? path
              : 'form';
    out[field] ??= field === 'form' && path ? `${path}: ${message}` : message;
  }
  if (issues.length === 0) out.form = failure.message;
  return out;
}

export function settingsRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  async function settingsPage(
    res: Response,
    signed: Signed,
    extra: SettingsExtra = {},
    calling: CallingExtra = {},
    status = 200,
  ) {
    const ctx = signed.ctx;
    const [{ accountSettings }, { callingPolicy }, { callingPolicyChanges }, { accountApiKeys }] = await Promise.all([
      runOperation(ctx, ConsoleOperations.settings, {}),
      runOperation(ctx, Operations.getCallingPolicy, {}),
      runOperation(ctx, Operations.listCallingPolicyChanges, { limit: HISTORY_ROWS }),
      runOperation(ctx, ConsoleOperations.apiKeys, {}),
    ]);
    const known = {
      userId: ctx.actor?.userId ?? '',
      email: signed.email,
      keyNames: new Map(accountApiKeys.map((key) => [key.id, key.name])),
    };
    const policy = callingPolicy as CallingPolicyView;
    send(
      res,
      status,
      SettingsPage({
        viewer: viewerOf(signed),
        account: accountSettings,
        ...extra,
        calling: {
          policy,
          history: callingPolicyChanges.map((change) => ({
            at: change.at as string,
            who: actorWords(change.actor, known),
            lines: changeLines(change.change),
          })),
          disabledBy: Object.fromEntries(
            policy.disabledJurisdictions.map((d) => [d.jurisdiction, actorWords(d.disabledBy, known)]),
          ),
          ...calling,
        },
      }),
    );
  }

  router.get(
    '/settings',
    withSession(async (req, res, signed) =>
      settingsPage(
        res,
        signed,
        req.query.done === 'saved' ? { notice: 'Settings saved.' } : {},
        req.query.done === 'policy' ? { notice: 'Calling policy updated.' } : {},
      ),
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
        await settingsPage(res, signed, { values, errors }, {}, failure.status);
      }
    }),
  );

  router.post(
    '/settings/calling-policy',
    withSession(async (req, res, signed) => {
      const values = policyValuesOf(req);
      const read = policyInputOf(values);
      if ('errors' in read) {
        await settingsPage(res, signed, {}, { values, errors: read.errors }, 400);
        return;
      }
      try {
        await runOperation(signed.ctx, Operations.setCallingPolicy, { input: read.input });
        res.redirect(303, '/console/settings?done=policy#calling-policy');
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        await settingsPage(res, signed, {}, { values, errors: policyErrors(failure) }, failure.status);
      }
    }),
  );
}
