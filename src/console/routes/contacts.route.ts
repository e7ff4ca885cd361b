// Contacts: search and filter as the list API does, and one contact with its calls and their
// transcripts, whether and when the dialer may call it (the domain's contactDialing) and its
// consents: recorded and revoked with the domain's addContactConsent and revokeContactConsents.
import type { Request, Response, Router } from 'express';
import { localToInstant, zoneOf } from '../../domain/calls/zoned-time.js';
import type { RequestContext } from '../../domain/context.js';
import { asDomainError, type DomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { Operations } from '../../graphql/operations/index.js';
import { contactListVariables } from '../../graphql/operations/variables.js';
import { type ConsoleKit, fieldErrors, formField, type Signed, send } from '../console-kit.js';
import { type CallView, type ContactDetail, ContactPage, type NextCallView } from '../pages/contact.js';
import type { ConsentFormValues, ConsentRow, DialingView } from '../pages/contact-calling.js';
import { type ContactRow, ContactsPage } from '../pages/contacts.js';
import { NotFoundPage } from '../pages/not-found.js';

type CallingExtra = { values?: ConsentFormValues; errors?: Record<string, string>; notice?: string };

export function contactRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
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

  /** A contact's page; null when the Account has no such contact (or the id is not one). */
  async function contactPage(
    res: Response,
    signed: Signed,
    id: string,
    calling: CallingExtra = {},
    status = 200,
  ): Promise<boolean> {
    const viewer = viewerOf(signed);
    const ctx = signed.ctx;
    let contact: ContactDetail;
    try {
      contact = (await runOperation(ctx, Operations.getContact, { id })).contact as ContactDetail;
    } catch (error) {
      const code = asDomainError(error)?.code;
      if (code !== 'not_found' && code !== 'bad_request') throw error;
      send(res, 404, NotFoundPage({ viewer, what: 'No such contact in your Account.', back: '/console/contacts' }));
      return false;
    }
    const [{ contactCalls }, workflows, { accountContactNextCall }, { contactDialing }, { contactConsents }] =
      await Promise.all([
        runOperation(ctx, Operations.listContactCalls, {
          sourceKind: contact.sourceKind,
          externalId: contact.externalId ?? contact.id,
          limit: 100,
        }),
        accountWorkflows(ctx),
        runOperation(ctx, ConsoleOperations.contactNextCall, { contactId: contact.id }),
        runOperation(ctx, Operations.getContactDialing, { contactId: contact.id }),
        runOperation(ctx, Operations.listContactConsents, { contactId: contact.id }),
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
          ? (((await runOperation(ctx, Operations.getCallTranscript, { id: call.id })).callTranscript
              ?.utterances as CallView['utterances']) ?? [])
          : [],
      })),
    );
    const nextCall = (accountContactNextCall as NextCallView | null) ?? null;
    const now = ctx.clock.now();
    const workflowName = contact.assignedWorkflowId
      ? (workflows.find((w) => w.id === contact.assignedWorkflowId)?.name ?? null)
      : null;
    send(
      res,
      status,
      ContactPage({
        viewer,
        contact,
        workflowName,
        nextCall,
        now: now.toISOString(),
        calls,
        calling: {
          dialing: contactDialing as DialingView,
          consents: contactConsents as ConsentRow[],
          workflows,
          values: calling.values ?? blankConsent(now),
          errors: calling.errors,
          notice: calling.notice,
        },
      }),
    );
    return true;
  }

  router.get(
    '/contacts/:id',
    withSession(async (req, res, signed) => {
      const done = req.query.done;
      const revoked = Number(req.query.count);
      const notice =
        done === 'consent'
          ? 'Consent recorded.'
          : done === 'revoked'
            ? Number.isSafeInteger(revoked) && revoked !== 1
              ? `${revoked} consents revoked.`
              : '1 consent revoked.'
            : undefined;
      await contactPage(res, signed, String(req.params.id), { notice });
    }),
  );

  router.post(
    '/contacts/:id/consents',
    withSession(async (req, res, signed) => {
      const id = String(req.params.id);
      const values = consentValuesOf(req);
      const read = consentInputOf(values);
      if ('errors' in read) {
        await contactPage(res, signed, id, { values, errors: read.errors }, 400);
        return;
      }
      try {
        await runOperation(signed.ctx, Operations.addContactConsent, { contactId: id, input: read.input });
        res.redirect(303, `/console/contacts/${encodeURIComponent(id)}?done=consent#calling`);
      } catch (error) {
        const failure = asDomainError(error);
        // A contact that is not there (or an id that is not one) gets the 404 page from contactPage.
        if (failure?.code !== 'bad_request' && failure?.code !== 'not_found') throw error;
        await contactPage(res, signed, id, { values, errors: consentErrors(failure) }, failure.status);
      }
    }),
  );

  router.post(
    '/contacts/:id/consents/revoke',
    withSession(async (req, res, signed) => {
      const id = String(req.params.id);
      const scope = formField(req, 'scope');
      // all: every consent; account: the Account-wide ones; else one workflow's (the domain checks
      // the id). A refusal (only a forged form sends a bad scope) is the console's error page.
      const input = scope === 'all' || scope === '' ? {} : { workflowId: scope === 'account' ? null : scope };
      const { revokeContactConsents } = await runOperation(signed.ctx, Operations.revokeContactConsents, {
        contactId: id,
        input,
      });
      res.redirect(
        303,
        `/console/contacts/${encodeURIComponent(id)}?done=revoked&count=${revokeContactConsents.length}#calling`,
      );
    }),
  );
}

const CONTACTS_PAGE = 50;

const definedOnly = (values: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1])));

/** The Account's workflows (id and name), every page of them, archived ones last. */
async function accountWorkflows(ctx: RequestContext): Promise<Array<{ id: string; name: string; status: string }>> {
  const out: Array<{ id: string; name: string; status: string }> = [];
  let nextToken: string | undefined;
  do {
    const { workflows } = await runOperation(ctx, Operations.listWorkflows, { limit: 100, nextToken });
    out.push(...workflows.data);
    nextToken = workflows.nextToken ?? undefined;
  } while (nextToken);
  return [...out.filter((w) => w.status !== 'archived'), ...out.filter((w) => w.status === 'archived')];
}

/** The consent form as a new consent starts: written consent for every call, obtained now (UTC, to the minute). */
function blankConsent(now: Date): ConsentFormValues {
  return {
    kind: 'express_written',
    scope: '',
    method: 'web_form',
    evidence: '',
    obtainedAt: now.toISOString().slice(0, 16),
    obtainedAtZone: 'UTC',
  };
}

function consentValuesOf(req: Request): ConsentFormValues {
  return {
    kind: formField(req, 'kind'),
    scope: formField(req, 'scope'),
    method: formField(req, 'method'),
    evidence: formField(req, 'evidence'),
    obtainedAt: formField(req, 'obtainedAt'),
    obtainedAtZone: formField(req, 'obtainedAtZone') || 'UTC',
  };
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * The instant a datetime-local value names on the clock of `zone` (ISO 8601, Z), or null when it
 * is no date and time, or the zone is unknown.
 */
function instantOf(local: string, zone: string): string | null {
  const m = LOCAL_TIME.exec(local.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  let at: number;
  try {
    at = localToInstant(zoneOf(zone), { year, month, day }, hour * 60 + minute) + second * 1000;
  } catch {
    return null;
  }
  return Number.isFinite(at) ? new Date(at).toISOString() : null;
}

/** The consent's input (the REST body of POST …/consents), or what the form itself cannot send: no time. */
function consentInputOf(
  values: ConsentFormValues,
): { input: Record<string, unknown> } | { errors: Record<string, string> } {
  const obtainedAt = instantOf(values.obtainedAt, values.obtainedAtZone);
  if (!obtainedAt)
    return {
      errors: {
        obtainedAt: values.obtainedAt.trim()
          ? `"${values.obtainedAt}" is not a date and time on the clock of ${values.obtainedAtZone}`
          : 'enter when the contact gave the consent',
      },
    };
  return {
    input: {
      kind: values.kind,
      workflowId: values.scope === '' ? null : values.scope,
      method: values.method,
      evidence: values.evidence.trim() === '' ? null : values.evidence,
      obtainedAt,
    },
  };
}

/** The domain's refusal of a consent by the form's fields (`workflowId` is the Covers select). */
function consentErrors(failure: DomainError): Record<string, string> {
  const issues = (failure.details.issues ?? []) as Array<{ path?: unknown; message?: unknown }>;
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const path = typeof issue.path === 'string' ? issue.path : '';
    const message = typeof issue.message === 'string' ? issue.message : String(issue.message);
    const field =
      path === 'workflowId' ? 'scope' : ['kind', 'method', 'evidence', 'obtainedAt'].includes(path) ? path : 'form';
    out[field] ??= field === 'form' && path ? `${path}: ${message}` : message;
  }
  if (issues.length === 0) out.form = failure.message;
  return out;
}
