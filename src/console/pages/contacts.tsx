/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The Account's contacts: the list API's filters as a form (a GET, so a filtered page is a link),
// one page at a time, newest first.
import { CONTACT_STATUSES, SOURCE_KINDS } from '../../domain/contacts/contacts.inputs.js';
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';
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

export interface ContactFilters {
  searchTerm?: string;
  status?: string;
  sourceKind?: string;
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

export function ContactsPage(props: {
  viewer: Viewer;
  filters: ContactFilters;
  contacts: ContactRow[];
  nextPage: string | null;
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
      {props.nextPage && (
        <p>
          <a href={props.nextPage} rel="next">
            Next page
          </a>
        </p>
      )}
    </Layout>
  );
}
