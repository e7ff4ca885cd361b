/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// Enrolling contacts of the Contacts page in a workflow: the page that chooses the workflow (the
// published ones that are not paused, the only ones that take enrollments) for the contacts
// ticked or all a search matches, and the enrollment job's page: its progress, then how many were
// enrolled and each contact not enrolled with why, as an import's page says it of its rows.
import type { ContactFilters } from '../contact-selection.js';
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';

/** What each reason a contact is not enrolled means (docs/campaigns.md, "Enroll existing contacts"). */
export const NOT_ENROLLED_REASONS: Record<string, string> = {
  not_found: 'no contact of the Account has this id',
  workflow_not_published: 'the workflow was paused, unpublished or archived while the job ran',
  already_enrolled: 'enrolled in this workflow already',
  already_called: 'this workflow called the contact before (tick “Enroll again” to enroll it anyway)',
  blocked: 'its phone is on the Account’s block list, or it is marked do-not-call',
  no_consent: 'the calling rules need a consent it has not given for this workflow',
};

export interface EnrollChoice {
  filters: ContactFilters;
  /** The ids ticked, or null for all the search matches. */
  contactIds: string[] | null;
}

/** The search as words: "“Vaughan”, status new, source api", or "every contact". */
export function searchWords(filters: ContactFilters): string {
  const parts = [
    filters.searchTerm ? `“${filters.searchTerm}”` : null,
    filters.status ? `status ${filters.status}` : null,
    filters.sourceKind ? `source ${filters.sourceKind}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no filter: every contact of the Account';
}

export function EnrollPage(props: {
  viewer: Viewer;
  choice: EnrollChoice;
  workflows: Array<{ id: string; name: string }>;
  values?: { workflowId: string; reEnroll: boolean; enforceCallNow: boolean };
  errors?: Record<string, string>;
}) {
  const { choice } = props;
  const e = props.errors ?? {};
  const back = `/console/contacts?${new URLSearchParams(
    Object.entries(choice.filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  )}`;
  const who =
    choice.contactIds === null
      ? `All the contacts this search matches (${searchWords(choice.filters)})`
      : choice.contactIds.length === 1
        ? 'The contact ticked'
        : `The ${choice.contactIds.length} contacts ticked`;
  return (
    <Layout title="Enroll in a workflow" viewer={props.viewer} current="/console/contacts">
      {/* Without a workflow to choose there is no field to say a workflow's refusal at. */}
      <FormAlert message={e.form ?? (props.workflows.length === 0 ? e.workflowId : undefined)} />
      {props.workflows.length === 0 ? (
        <p class="empty">
          No workflow takes enrollments now: publish one (or resume it) on{' '}
          <a href="/console/workflows">Agents and workflows</a> first.
        </p>
      ) : (
        <form method="post" action="/console/contacts/enroll" class="card narrow">
          <input type="hidden" name="csrf" value={props.viewer.csrf} />
          {(['searchTerm', 'status', 'sourceKind'] as const).map((name) =>
            choice.filters[name] ? <input key={name} type="hidden" name={name} value={choice.filters[name]} /> : null,
          )}
          {choice.contactIds === null ? (
            <input type="hidden" name="scope" value="all" />
          ) : (
            choice.contactIds.map((id) => <input key={id} type="hidden" name="contactId" value={id} />)
          )}
          <p>{who}.</p>
          <label for="enroll-workflow">Workflow</label>
          <select
            id="enroll-workflow"
            name="workflowId"
            required
            aria-invalid={e.workflowId ? 'true' : undefined}
            aria-describedby={e.workflowId ? 'workflowId-error' : 'workflowId-hint'}
          >
            {props.workflows.map((w) => (
              <option key={w.id} value={w.id} selected={props.values?.workflowId === w.id}>
                {w.name}
              </option>
            ))}
          </select>
          <p class="hint" id="workflowId-hint">
            The published workflows that are not paused: the others take no enrollments.
          </p>
          <FieldError id="workflowId-error" message={e.workflowId} />
          <label class="check">
            <input type="checkbox" name="reEnroll" value="true" checked={props.values?.reEnroll} />
            Enroll again the contacts this workflow has called before
          </label>
          <label class="check">
            <input type="checkbox" name="enforceCallNow" value="true" checked={props.values?.enforceCallNow} />
            Place each first call at once, outside the agent’s working hours (never outside the law’s)
          </label>
          <FieldError id="options-error" message={e.options} />
          <div class="actions">
            <button type="submit">Enroll</button>
            <a href={back}>Cancel</a>
          </div>
        </form>
      )}
    </Layout>
  );
}

export interface EnrollmentJobView {
  id: string;
  workflowId: string;
  status: string;
  matched: number;
  enrolled: number;
  notEnrolledCount: number;
  reasons: Array<{ reason: string; count: number }>;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function EnrollmentJobPage(props: {
  viewer: Viewer;
  job: EnrollmentJobView;
  workflowName: string | null;
  /** The first contacts not enrolled, with their names (null: gone). */
  notEnrolled: Array<{ contactId: string; reason: string; name: string | null }>;
}) {
  const { job } = props;
  const workflow = props.workflowName ? `“${props.workflowName}”` : 'the workflow';
  const running = job.status !== 'done';
  return (
    <Layout title="Enrollment" viewer={props.viewer} current="/console/contacts">
      <p>
        Contacts enrolled in <a href={`/console/workflows/${job.workflowId}`}>{workflow}</a>.
      </p>
      {running ? (
        <div data-job-running>
          <p role="status">
            {job.status === 'queued' ? 'Waiting to start' : 'Enrolling'}: {plural(job.matched, 'contact', 'contacts')}{' '}
            selected so far, {job.enrolled} enrolled.
          </p>
          <p>
            <a href={`/console/enrollment-jobs/${job.id}`}>Check again</a> (the page does so by itself with scripts on).
          </p>
        </div>
      ) : (
        <p class="notice ok" role="status">
          {job.enrolled} of {plural(job.matched, 'contact', 'contacts')} enrolled in {workflow}; {job.notEnrolledCount}{' '}
          not enrolled.
        </p>
      )}
      {job.notEnrolledCount > 0 && (
        <section aria-labelledby="not-enrolled-title">
          <h2 id="not-enrolled-title">Contacts not enrolled</h2>
          <ul>
            {job.reasons
              .filter((r) => r.count > 0)
              .map((r) => (
                <li key={r.reason}>
                  <code>{r.reason}</code>: {r.count} ({NOT_ENROLLED_REASONS[r.reason] ?? r.reason})
                </li>
              ))}
          </ul>
          <div class="table-wrap stacked">
            <table class="stacked">
              <caption class="visually-hidden">Contacts not enrolled, with why</caption>
              <thead>
                <tr>
                  <th scope="col">Contact</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {props.notEnrolled.map((c) => (
                  <tr key={c.contactId}>
                    <th scope="row" data-label="Contact">
                      {c.name ? <a href={`/console/contacts/${c.contactId}`}>{c.name}</a> : c.contactId}
                    </th>
                    <td data-label="Reason">
                      <code>{c.reason}</code>
                    </td>
                    <td class="why" data-label="Why">
                      {NOT_ENROLLED_REASONS[c.reason] ?? c.reason}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {job.notEnrolledCount > props.notEnrolled.length && (
            <p>
              And {job.notEnrolledCount - props.notEnrolled.length} more not enrolled (the first{' '}
              {props.notEnrolled.length} are listed).
            </p>
          )}
        </section>
      )}
    </Layout>
  );
}
