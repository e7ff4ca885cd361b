/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The Account's contacts: the list API's filters as a form (a GET, so a filtered page is a link),
// one page at a time, newest first; the search exported as CSV, and the bulk actions on the rows
// ticked or on every contact the search matches (Stop calling), with what each did.
import { CONTACT_STATUSES, SOURCE_KINDS } from '../../domain/contacts/contacts.inputs.js';
import type { ContactFilters } from '../contact-selection.js';
import { FieldError, FormAlert, Layout, NextPageLink, type Viewer } from './layout.js';
import { Time } from './time.js';

export interface ContactRow {
  id: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  phone: string | null;
  status: string | null;
  sourceKind: string;
  externalId: string | null;
  createdAt: string;
}

export type { ContactFilters } from '../contact-selection.js';

/** What a stop did: contacts stopped, and those that were not being called, with their names. */
export interface StopResultView {
  stopped: number;
  /** null: every workflow of the Account. */
  workflowName: string | null;
  notStoppedCount: number;
  notStopped: Array<{ id: string; name: string | null }>;
}

export const nameOf = (c: Pick<ContactRow, 'fullName' | 'firstName' | 'lastName'>) =>
  c.fullName || [c.firstName, c.lastName].filter(Boolean).join(' ') || '(no name)';

function Select(props: { name: string; label: string; options: readonly string[]; value?: string; error?: string }) {
  return (
    <div class="field">
      <label for={props.name}>{props.label}</label>
      <select
        id={props.name}
        name={props.name}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? `${props.name}-error` : undefined}
      >
        <option value="">any</option>
        {props.options.map((option) => (
          <option key={option} value={option} selected={props.value === option}>
            {option}
          </option>
        ))}
      </select>
      <FieldError id={`${props.name}-error`} message={props.error} />
    </div>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a stop did, as the import page says what an import did: the count, then who was not stopped and why. */
function StopResult(props: { result: StopResultView }) {
  const r = props.result;
  const where = r.workflowName ? `for “${r.workflowName}”` : 'for any workflow';
  return (
    <section aria-labelledby="bulk-result-title" id="bulk-result">
      <h2 id="bulk-result-title">Stop calling: done</h2>
      <p class="notice ok" role="status">
        {plural(r.stopped, 'contact is', 'contacts are')} no longer called {where}
        {r.notStoppedCount > 0
          ? `; ${plural(r.notStoppedCount, 'contact was', 'contacts were')} not being called.`
          : '.'}
      </p>
      {r.notStopped.length > 0 && (
        <div class="table-wrap stacked">
          <table class="stacked">
            <caption class="visually-hidden">Contacts not stopped, with why</caption>
            <thead>
              <tr>
                <th scope="col">Contact</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {r.notStopped.map((c) => (
                <tr key={c.id}>
                  <th scope="row" data-label="Contact">
                    {c.name ? <a href={`/console/contacts/${c.id}`}>{c.name}</a> : c.id}
                  </th>
                  <td class="why" data-label="Reason">
                    not_active: no active enrollment {where}, so nothing to stop
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * The bulk actions: for the rows ticked (their checkboxes belong to this form through `form=`) or
 * every contact the search matches; the search travels in hidden fields.
 */
function BulkActions(props: {
  viewer: Viewer;
  filters: ContactFilters;
  workflows: Array<{ id: string; name: string; status: string }>;
  matching: number | null;
  filtered: boolean;
  action?: { errors: Record<string, string>; workflowId: string };
}) {
  const errors = props.action?.errors ?? {};
  const all = props.filtered ? 'matching this search' : 'of the Account';
  const allLabel =
    props.matching === null ? `All contacts ${all} (more than one page)` : `All ${props.matching} contacts ${all}`;
  return (
    <form id="bulk-actions" method="post" action="/console/contacts/stop" class="card bulk">
      <h2>Act on contacts</h2>
      <input type="hidden" name="csrf" value={props.viewer.csrf} />
      {(['searchTerm', 'status', 'sourceKind'] as const).map((name) =>
        props.filters[name] ? <input key={name} type="hidden" name={name} value={props.filters[name]} /> : null,
      )}
      <fieldset aria-describedby={errors.contactId ? 'contactId-error' : undefined}>
        <legend>Which contacts</legend>
        <label class="check">
          <input type="radio" name="scope" value="ticked" checked />
          The contacts ticked below
        </label>
        <label class="check">
          <input type="radio" name="scope" value="all" />
          {allLabel}
        </label>
      </fieldset>
      <FieldError id="contactId-error" message={errors.contactId} />
      <div class="actions">
        <button type="submit" formaction="/console/contacts/enroll/choose">
          Enroll in workflow…
        </button>
      </div>
      <label for="bulk-workflow">Stop calling in workflow</label>
      <select
        id="bulk-workflow"
        name="workflowId"
        aria-invalid={errors.workflowId ? 'true' : undefined}
        aria-describedby={errors.workflowId ? 'workflowId-error' : undefined}
      >
        <option value="">every workflow</option>
        {props.workflows.map((w) => (
          <option key={w.id} value={w.id} selected={props.action?.workflowId === w.id}>
            {w.status === 'archived' ? `${w.name} (archived)` : w.name}
          </option>
        ))}
      </select>
      <FieldError id="workflowId-error" message={errors.workflowId} />
      <div class="actions">
        <button type="submit" class="danger">
          Stop calling
        </button>
      </div>
    </form>
  );
}

/** The search as a CSV file: a plain link (every page in one answer); console.js adds the progress. */
function ExportCsv(props: { href: string }) {
  return (
    <div class="export">
      <a href={props.href} class="button secondary" download="contacts.csv" data-csv-export>
        Export CSV
      </a>
      <div id="export-progress-box" hidden>
        <label for="export-progress">Export progress</label>
        <progress id="export-progress" />
        <p id="export-status" role="status" />
      </div>
    </div>
  );
}

export function ContactsPage(props: {
  viewer: Viewer;
  filters: ContactFilters;
  contacts: ContactRow[];
  nextPage: string | null;
  workflows: Array<{ id: string; name: string; status: string }>;
  exportHref: string;
  /** How many contacts the search matches, when they fit one page; null when more. */
  matching: number | null;
  stopResult?: StopResultView;
  action?: { errors: Record<string, string>; workflowId: string };
  errors?: Record<string, string>;
  error?: string;
}) {
  const errors = props.errors ?? {};
  const filtered = Boolean(props.filters.searchTerm || props.filters.status || props.filters.sourceKind);
  return (
    <Layout title="Contacts" viewer={props.viewer} current="/console/contacts">
      <search>
        <form method="get" action="/console/contacts" class="card filters">
          <div class="field grow">
            <label for="searchTerm">Search</label>
            <input
              id="searchTerm"
              name="searchTerm"
              type="search"
              maxLength={200}
              placeholder="name or phone digits"
              value={props.filters.searchTerm ?? ''}
              aria-invalid={errors.searchTerm ? 'true' : undefined}
              aria-describedby={errors.searchTerm ? 'searchTerm-error' : undefined}
            />
            <FieldError id="searchTerm-error" message={errors.searchTerm} />
          </div>
          <Select
            name="status"
            label="Status"
            options={CONTACT_STATUSES}
            value={props.filters.status}
            error={errors.status}
          />
          <Select
            name="sourceKind"
            label="Source"
            options={SOURCE_KINDS}
            value={props.filters.sourceKind}
            error={errors.sourceKind}
          />
          <button type="submit">Search</button>
        </form>
      </search>
      <FormAlert message={props.error} />
      {props.stopResult && <StopResult result={props.stopResult} />}
      {props.action && <FormAlert message={`Nothing was stopped: ${Object.values(props.action.errors).join('; ')}.`} />}
      {props.contacts.length > 0 && <ExportCsv href={props.exportHref} />}
      {(props.contacts.length > 0 || props.action) && (
        <BulkActions
          viewer={props.viewer}
          filters={props.filters}
          workflows={props.workflows}
          matching={props.matching}
          filtered={filtered}
          action={props.action}
        />
      )}
      {props.contacts.length === 0 ? (
        <p class="empty">
          {filtered
            ? 'No contact matches these filters. Clear one, or search for fewer letters.'
            : 'No contacts yet. Send them with the API (PUT /api/v1/contacts/upsert or POST /api/v1/contacts/bulk) or import a CSV with contactline import.'}
        </p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Contacts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span class="visually-hidden">Tick</span>
                </th>
                <th scope="col">Name</th>
                <th scope="col">Phone</th>
                <th scope="col">Status</th>
                <th scope="col">Source</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {props.contacts.map((contact) => (
                <tr key={contact.id}>
                  <td>
                    <input
                      type="checkbox"
                      name="contactId"
                      value={contact.id}
                      form="bulk-actions"
                      aria-label={`Tick ${nameOf(contact)}`}
                    />
                  </td>
                  <th scope="row">
                    <a href={`/console/contacts/${contact.id}`}>{nameOf(contact)}</a>
                  </th>
                  <td>{contact.phone ?? '—'}</td>
                  <td>{contact.status ?? '—'}</td>
                  <td>{contact.sourceKind}</td>
                  <td>
                    <Time at={contact.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NextPageLink href={props.nextPage}>Next page</NextPageLink>
    </Layout>
  );
}
