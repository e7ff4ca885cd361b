// Enrolling contacts of the Contacts page in a workflow (the domain's enrollWorkflowContacts):
// "Enroll in workflow…" opens a page that chooses the workflow for the contacts ticked or all the
// search matches (it changes nothing); its form starts the enrollment job and redirects
// to the job's page (post/redirect/get), which shows its progress and then, as an import's page
// does, how many were enrolled and each contact not enrolled with why.
import type { Request, Response, Router } from 'express';
import type { RequestContext } from '../../domain/context.js';
import { asDomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { Operations } from '../../graphql/operations/index.js';
import { accountWorkflows } from '../account-workflows.js';
import { contactName } from '../contact-names.js';
import { filterOf, filtersOfForm, selectionOfForm } from '../contact-selection.js';
import { type ConsoleKit, formField, type Signed, send } from '../console-kit.js';
import { type EnrollChoice, type EnrollmentJobView, EnrollmentJobPage, EnrollPage } from '../pages/enroll.js';
import { NotFoundPage } from '../pages/not-found.js';

/** The contacts not enrolled a job's page names (the others are counted). */
const NOT_ENROLLED_SHOWN = 100;

/** The workflows that take enrollments now: published and not paused. */
async function enrollableWorkflows(ctx: RequestContext) {
  return (await accountWorkflows(ctx)).filter((w) => w.status === 'published' && !w.paused);
}

/** The Contacts page's choice as its bulk form sent it: the search, and the ids ticked or "all". */
function choiceOfForm(req: Request): EnrollChoice {
  const filters = filtersOfForm(req);
  const selection = selectionOfForm(req, filters);
  return { filters, contactIds: selection && 'contactIds' in selection ? selection.contactIds : selection ? null : [] };
}

export function enrollRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  // The bulk form's "Enroll in workflow…" posts here (the ticked ids and the form's token are not
  // for an address): the page that chooses the workflow. It changes nothing.
  router.post(
    '/contacts/enroll/choose',
    withSession(async (req, res, signed) => {
      const choice = choiceOfForm(req);
      const workflows = await enrollableWorkflows(signed.ctx);
      const nothing = choice.contactIds !== null && choice.contactIds.length === 0;
      send(
        res,
        nothing ? 400 : 200,
        EnrollPage({
          viewer: viewerOf(signed),
          choice,
          workflows,
          errors: nothing
            ? { form: 'No contact is ticked: go back, tick the contacts to enroll, or choose all matching.' }
            : undefined,
        }),
      );
    }),
  );

  router.post(
    '/contacts/enroll',
    withSession(async (req, res, signed) => {
      const filters = filtersOfForm(req);
      const selection = selectionOfForm(req, filters);
      const choice = choiceOfForm(req);
      const values = {
        workflowId: formField(req, 'workflowId'),
        reEnroll: formField(req, 'reEnroll') === 'true',
        enforceCallNow: formField(req, 'enforceCallNow') === 'true',
      };
      const refuse = async (errors: Record<string, string>) =>
        send(
          res,
          400,
          EnrollPage({
            viewer: viewerOf(signed),
            choice,
            workflows: await enrollableWorkflows(signed.ctx),
            values,
            errors,
          }),
        );
      if (!selection) return refuse({ form: 'No contact is ticked: go back, tick the contacts to enroll.' });
      // The options are the import's, sent together or not at all: a box ticked sends both.
      const options =
        values.reEnroll || values.enforceCallNow
          ? { reEnroll: values.reEnroll, enforceCallNow: values.enforceCallNow }
          : {};
      try {
        const { enrollWorkflowContacts: job } = await runOperation(signed.ctx, Operations.enrollWorkflowContacts, {
          workflowId: values.workflowId,
          input: { ...('filter' in selection ? { filter: filterOf(filters) } : selection), ...options },
        });
        res.redirect(303, `/console/enrollment-jobs/${job.id}`);
      } catch (error) {
        const failure = asDomainError(error);
        // Not published, paused, another Account's or no workflow at all: said at the workflow's field.
        if (failure?.code === 'not_found') return refuse({ workflowId: 'choose one of the workflows listed' });
        if (failure?.code !== 'bad_request') throw error;
        const about = failure.message.startsWith('workflowId') || /workflow/i.test(failure.message);
        return refuse(about ? { workflowId: failure.message } : { form: failure.message });
      }
    }),
  );

  router.get(
    '/enrollment-jobs/:id',
    withSession(async (req, res, signed) => {
      const ctx = signed.ctx;
      let job: EnrollmentJobView & { notEnrolled: Array<{ contactId: string; reason: string }> };
      try {
        job = (await runOperation(ctx, Operations.getEnrollmentJob, { id: String(req.params.id) })).enrollmentJob;
      } catch (error) {
        const code = asDomainError(error)?.code;
        if (code !== 'not_found' && code !== 'bad_request') throw error;
        return notFound(res, signed);
      }
      const workflow = (await accountWorkflows(ctx)).find((w) => w.id === job.workflowId);
      const notEnrolled = await Promise.all(
        job.notEnrolled
          .slice(0, NOT_ENROLLED_SHOWN)
          .map(async (c) => ({ ...c, name: await contactName(ctx, c.contactId) })),
      );
      send(
        res,
        200,
        EnrollmentJobPage({ viewer: viewerOf(signed), job, workflowName: workflow?.name ?? null, notEnrolled }),
      );
    }),
  );

  function notFound(res: Response, signed: Signed) {
    send(
      res,
      404,
      NotFoundPage({
        viewer: viewerOf(signed),
        what: 'No such enrollment in your Account.',
        back: '/console/contacts',
      }),
    );
  }
}
