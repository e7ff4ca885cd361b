// Contacts: search and filter as the list API does; stop calling the contacts ticked or all a
// search matches (stopWorkflowEnrollments, in one workflow or each one); the search as CSV (the
// list operation, every page); and one contact with its calls and their transcripts, whether and
// when the dialer may call it (the domain's contactDialing) and its consents: recorded and
// revoked with the domain's addContactConsent and revokeContactConsents. Enrolling the contacts
// ticked is enroll.route.ts.
import type { Request, Response, Router } from 'express';
import { localToInstant, zoneOf } from '../../domain/calls/zoned-time.js';
import type { RequestContext } from '../../domain/context.js';
import { asDomainError, type DomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { Operations } from '../../graphql/operations/index.js';
import { contactListVariables } from '../../graphql/operations/variables.js';
import { accountWorkflows } from '../account-workflows.js';
import { type ConsoleKit, fieldErrors, formField, type Signed, send } from '../console-kit.js';
import { type CallView, type ContactDetail, ContactPage, type NextCallView } from '../pages/contact.js';
import type { ConsentFormValues, ConsentRow, DialingView } from '../pages/contact-calling.js';
import { type ContactRow, ContactsPage, type StopResultView } from '../pages/contacts.js';
import { contactName } from '../contact-names.js';
import { type ContactFilters, filtersOfForm, selectionOfForm } from '../contact-selection.js';
import { contactsToCsv } from '../../graphql/operations/csv.js';
import { NotFoundPage } from '../pages/not-found.js';

type CallingExtra = { values?: ConsentFormValues; errors?: Record<string, string>; notice?: string };

export function contactRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  /** The Contacts page for a search, with what a bulk action did or why it was refused. */
  async function contactsPage(
    res: Response,
    signed: Signed,
    filters: ContactFilters,
    nextToken: string | undefined,
    extra: ContactsExtra = {},
    status = 200,
  ) {
    const viewer = viewerOf(signed);
    const ctx = signed.ctx;
    const values = { ...definedOnly({ ...filters }), nextToken, limit: CONTACTS_PAGE };
    const workflows = await accountWorkflows(ctx);
    const exportHref = `/console/contacts/export.csv?${new URLSearchParams(definedOnly({ ...filters }))}`;
    const common = { viewer, filters, workflows, exportHref, ...extra };
    try {
      const { contacts } = await runOperation(ctx, Operations.listContacts, contactListVariables(values));
      const next = contacts.nextToken
        ? `/console/contacts?${new URLSearchParams({ ...definedOnly({ ...filters }), nextToken: contacts.nextToken })}`
        : null;
      // "All N matching": N is known when the search fits one page (from its first page).
      const matching = !nextToken && !next ? contacts.data.length : null;
      send(res, status, ContactsPage({ ...common, contacts: contacts.data as ContactRow[], nextPage: next, matching }));
    } catch (error) {
      const failure = asDomainError(error);
      if (failure?.code !== 'bad_request') throw error;
      const errors = fieldErrors(failure);
      const general = Object.keys(errors).length === 0 ? failure.message : undefined;
      send(res, 400, ContactsPage({ ...common, contacts: [], nextPage: null, matching: null, errors, error: general }));
    }
  }

  router.get(
    '/contacts',
    withSession(async (req, res, signed) => {
      const filters = filtersOfQuery(req);
      const stopResult = await stopResultOf(req, signed.ctx);
      await contactsPage(res, signed, filters, queryText(req, 'nextToken'), { stopResult });
    }),
  );

  // Stop calling the contacts ticked, or all the search matches, in one workflow or in every one.
  router.post(
    '/contacts/stop',
    withSession(async (req, res, signed) => {
      const ctx = signed.ctx;
      const filters = filtersOfForm(req);
      const workflowId = formField(req, 'workflowId');
      const refuse = (errors: Record<string, string>) =>
        contactsPage(res, signed, filters, undefined, { action: { errors, workflowId } }, 400);
      const selection = selectionOfForm(req, filters);
      if (!selection) return refuse({ contactId: 'tick the contacts to stop calling, or choose all matching' });
      const workflows = await accountWorkflows(ctx);
      const targets = workflowId ? workflows.filter((w) => w.id === workflowId) : workflows;
      if (workflowId && targets.length === 0) return refuse({ workflowId: 'choose one of the Account’s workflows' });
      let stopped = 0;
      // Contacts not being called in any of the workflows: not active in each one.
      let notActive = 'contactIds' in selection ? new Set(selection.contactIds) : new Set<string>();
      try {
        for (const workflow of targets) {
          const { stopWorkflowEnrollments: result } = await runOperation(ctx, Operations.stopWorkflowEnrollments, {
            workflowId: workflow.id,
            input: selection,
          });
          stopped += result.stopped;
          const here = new Set(result.notActive);
          notActive = new Set([...notActive].filter((id) => here.has(id)));
        }
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        return refuse({ contactId: failure.message });
      }
      const done = {
        ...definedOnly({ ...filters }),
        done: 'stopped',
        workflow: workflowId,
        stopped: String(stopped),
        notActive: [...notActive].slice(0, NOT_STOPPED_SHOWN).join(','),
        notActiveCount: String(notActive.size),
      };
      res.redirect(303, `/console/contacts?${new URLSearchParams(done)}#bulk-result`);
    }),
  );

  // The search as CSV through the list operation: every page in one answer (a plain link works
  // without script), or one page per request with `step=1` (the script's progress, x-next-token).
  router.get(
    '/contacts/export.csv',
    withSession(async (req, res, signed) => {
      const filters = filtersOfQuery(req);
      const pageOf = async (nextToken: string | undefined) =>
        (
          await runOperation(
            signed.ctx,
            Operations.listContacts,
            contactListVariables({ ...definedOnly({ ...filters }), nextToken, limit: EXPORT_PAGE }),
          )
        ).contacts;
      // The first page before any byte is sent: a bad filter is the console's 400 page, not half a file.
      let page = await pageOf(queryText(req, 'nextToken'));
      const step = req.query.step === '1';
      res.status(200).set({
        'content-type': 'text/csv; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'content-disposition': 'attachment; filename="contacts.csv"',
        'x-page-contacts': String(page.data.length),
        ...(step && page.nextToken ? { 'x-next-token': page.nextToken } : {}),
      });
      if (step) {
        res.send(contactsToCsv(page.data));
        return;
      }
      res.write(contactsToCsv(page.data));
      try {
        while (page.nextToken) {
          page = await pageOf(page.nextToken);
          res.write(contactsToCsv(page.data, { header: false }));
        }
        res.end();
      } catch (error) {
        // Half a file must not look whole: the connection is cut, so the browser reports the
        // download failed (the status line was sent; no error page can follow it).
        res.destroy(error as Error);
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
/** The list operation's largest page: an export reads the search in pages of this many. */
const EXPORT_PAGE = 100;
/** The contacts a stop result names (the others are counted). */
const NOT_STOPPED_SHOWN = 50;

type ContactsExtra = Pick<Parameters<typeof ContactsPage>[0], 'stopResult' | 'action'>;

const queryText = (req: Request, name: string) =>
  typeof req.query[name] === 'string' && req.query[name] ? (req.query[name] as string) : undefined;

/** The search the address names. */
const filtersOfQuery = (req: Request): ContactFilters => ({
  searchTerm: queryText(req, 'searchTerm'),
  status: queryText(req, 'status'),
  sourceKind: queryText(req, 'sourceKind'),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a stop did, from the address it redirected to (?done=stopped&…), with names; else undefined. */
async function stopResultOf(req: Request, ctx: RequestContext): Promise<StopResultView | undefined> {
  if (queryText(req, 'done') !== 'stopped') return undefined;
  const workflowId = queryText(req, 'workflow');
  const workflow = workflowId ? (await accountWorkflows(ctx)).find((w) => w.id === workflowId) : undefined;
  const ids = (queryText(req, 'notActive') ?? '')
    .split(',')
    .filter((id) => UUID.test(id))
    .slice(0, NOT_STOPPED_SHOWN);
  const count = (name: string) => {
    const n = Number(queryText(req, name) ?? 0);
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  };
  return {
    stopped: count('stopped'),
    workflowName: workflow?.name ?? null,
    notStoppedCount: Math.max(count('notActiveCount'), ids.length),
    notStopped: await Promise.all(ids.map(async (id) => ({ id, name: await contactName(ctx, id) }))),
  };
}

const definedOnly = (values: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1])));

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
