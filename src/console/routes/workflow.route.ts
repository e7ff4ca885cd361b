// One workflow's page (/console/workflows/<id>): its results over a date range, read with the
// domain's workflowResults, its enrollments (workflowEnrollments) and a Stop button for each
// active one (stopWorkflowEnrollments), and its results per day as CSV. A stop ends with a
// redirect to the page (post/redirect/get).
import type { Request, Response, Router } from 'express';
import type { RequestContext } from '../../domain/context.js';
import { asDomainError, badRequestFor } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { Operations } from '../../graphql/operations/index.js';
import { accountWorkflows, type WorkflowSummary } from '../account-workflows.js';
import { contactName } from '../contact-names.js';
import { type ConsoleKit, formErrors, formField, type Signed, send } from '../console-kit.js';
import { NotFoundPage } from '../pages/not-found.js';
import { type EnrollmentRow, type ResultsView, WorkflowPage } from '../pages/workflow.js';
import { defaultRange, type Range, type RangeValues, rangeOf } from '../results-window.js';
import { resultsPerDayCsv } from '../workflow-results-csv.js';

/** Enrollments a page lists. */
const ENROLLMENTS_PAGE = 25;

const queryText = (req: Request, name: string) =>
  typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined;

/** The workflow and its agent, or null when the Account has no workflow of this id. */
async function workflowOf(ctx: RequestContext, id: string) {
  const workflow = (await accountWorkflows(ctx)).find((w) => w.id === id);
  if (!workflow) return null;
  const agent = workflow.agentId
    ? (await runOperation(ctx, ConsoleOperations.agentOfWorkflow, { id: workflow.agentId })).accountAgent
    : null;
  return { workflow, agent };
}

/** The range the address asks for, each part not given taken from the default (the agent's zone, the last 30 days). */
function rangeValuesOf(req: Request, now: Date, agentZone: string | undefined): RangeValues {
  const fallback = defaultRange(now, agentZone ?? 'UTC');
  return {
    from: queryText(req, 'from') ?? fallback.from,
    to: queryText(req, 'to') ?? fallback.to,
    timeZone: queryText(req, 'timeZone') ?? fallback.timeZone,
  };
}

/** The results over the range, or what is wrong with it by field (the operation's refusal too). */
async function resultsOf(
  ctx: RequestContext,
  workflowId: string,
  values: RangeValues,
): Promise<{ range: Range; results: ResultsView } | { errors: Record<string, string> }> {
  const read = rangeOf(values);
  if ('errors' in read) return read;
  try {
    const { workflowResults } = await runOperation(ctx, Operations.getWorkflowResults, {
      id: workflowId,
      from: read.range.from,
      to: read.range.to,
      groupBy: 'day',
      timeZone: values.timeZone,
    });
    // The schema's ResultFigures has a nullable `enrolled` (an agent's figures count none); the
    // totals always count it, as the domain's type says.
    return { range: read.range, results: workflowResults as ResultsView };
  } catch (error) {
    const failure = asDomainError(error);
    if (failure?.code !== 'bad_request') throw error;
    return { errors: formErrors(failure, ['from', 'to', 'timeZone']) };
  }
}

/** A page of the workflow's enrollments, each with its contact's name (null when it is gone). */
async function enrollmentsOf(ctx: RequestContext, workflowId: string, state: string, nextToken: string | undefined) {
  const { workflowEnrollments } = await runOperation(ctx, Operations.listWorkflowEnrollments, {
    workflowId,
    state: state || undefined,
    limit: ENROLLMENTS_PAGE,
    nextToken,
  });
  const rows: EnrollmentRow[] = await Promise.all(
    workflowEnrollments.data.map(async (e) => ({
      id: e.id,
      contactId: e.contactId,
      // An erased contact's enrollment stays, without its contact.
      name: e.contactId ? await contactName(ctx, e.contactId) : null,
      state: e.state,
      startedAt: e.startedAt as string,
      endedAt: (e.endedAt as string | null) ?? null,
      endReason: e.endReason ?? null,
      finalResult: e.finalResult ?? null,
      attempts: e.attempts,
      nextCallAt: (e.nextCallAt as string | null) ?? null,
    })),
  );
  return { rows, nextToken: workflowEnrollments.nextToken ?? null };
}

export function workflowPageRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  function notFound(res: Response, signed: Signed) {
    send(
      res,
      404,
      NotFoundPage({ viewer: viewerOf(signed), what: 'No such workflow in your Account.', back: '/console/workflows' }),
    );
  }

  /** What a stop says once the page loads (?done=stopped&stopped=<n>&contact=<id>), by the contact's name. */
  async function stopNotice(req: Request, ctx: RequestContext): Promise<string | undefined> {
    const contactId = queryText(req, 'contact');
    if (queryText(req, 'done') !== 'stopped' || !contactId) return undefined;
    const name = (await contactName(ctx, contactId)) ?? 'The contact';
    return queryText(req, 'stopped') === '1'
      ? `${name} is no longer called for this workflow.`
      : `${name} was not being called for this workflow: nothing to stop.`;
  }

  router.get(
    '/workflows/:id',
    withSession(async (req, res, signed) => {
      const ctx = signed.ctx;
      const found = await workflowOf(ctx, String(req.params.id));
      if (!found) return notFound(res, signed);
      const { workflow, agent } = found;
      const range = rangeValuesOf(req, ctx.clock.now(), agent?.timezone);
      const state = queryText(req, 'state') ?? 'active';
      const [read, enrollments, notice] = await Promise.all([
        resultsOf(ctx, workflow.id, range),
        enrollmentsOf(ctx, workflow.id, state, queryText(req, 'nextToken')),
        stopNotice(req, ctx),
      ]);
      const base = `/console/workflows/${workflow.id}`;
      const rangeQuery = { from: range.from, to: range.to, timeZone: range.timeZone };
      const link = (extra: Record<string, string>, hash = '') =>
        `${base}?${new URLSearchParams({ ...rangeQuery, ...extra })}${hash}`;
      const ok = 'range' in read;
      send(
        res,
        ok ? 200 : 400,
        WorkflowPage({
          viewer: viewerOf(signed),
          workflow,
          agentName: agent?.name ?? null,
          range,
          rangeErrors: ok ? undefined : read.errors,
          days: ok ? read.range.days : null,
          results: ok ? read.results : null,
          csvHref: ok ? `${base}/results.csv?${new URLSearchParams(rangeQuery)}` : null,
          enrollments: enrollments.rows,
          enrollmentState: state,
          stateLinks: Object.fromEntries(['active', 'ended', ''].map((s) => [s, link({ state: s }, '#enrollments')])),
          nextPage: enrollments.nextToken ? link({ state, nextToken: enrollments.nextToken }, '#enrollments') : null,
          notice,
        }),
      );
    }),
  );

  router.get(
    '/workflows/:id/results.csv',
    withSession(async (req, res, signed) => {
      const ctx = signed.ctx;
      const found = await workflowOf(ctx, String(req.params.id));
      if (!found) return notFound(res, signed);
      const range = rangeValuesOf(req, ctx.clock.now(), found.agent?.timezone);
      const read = await resultsOf(ctx, found.workflow.id, range);
      // A refused range is said on the console's error page (the link came from a page that showed it).
      if ('errors' in read)
        throw badRequestFor(Object.entries(read.errors).map(([path, message]) => ({ path, message })));
      res
        .status(200)
        .set({
          'content-type': 'text/csv; charset=utf-8',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'content-disposition': `attachment; filename="${csvName(found.workflow, range)}"`,
        })
        .send(resultsPerDayCsv(read.range.days, read.results.days));
    }),
  );

  router.post(
    '/workflows/:id/enrollments/stop',
    withSession(async (req, res, signed) => {
      const id = String(req.params.id);
      const contactId = formField(req, 'contactId');
      // An unknown workflow, or a contact id that is not one (a forged form), is the operation's
      // 404 or 400, shown on the console's error page.
      const { stopWorkflowEnrollments } = await runOperation(signed.ctx, Operations.stopWorkflowEnrollments, {
        workflowId: id,
        input: { contactIds: [contactId] },
      });
      const done = { done: 'stopped', stopped: String(stopWorkflowEnrollments.stopped), contact: contactId };
      res.redirect(303, `/console/workflows/${encodeURIComponent(id)}?${new URLSearchParams(done)}#enrollments`);
    }),
  );
}

/** workflow-<name>-<from>-to-<to>.csv, the name reduced to letters, digits and dashes. */
function csvName(workflow: WorkflowSummary, range: RangeValues): string {
  const name =
    workflow.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'workflow';
  return `${name}-results-${range.from}-to-${range.to}.csv`;
}
