/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// Imports: upload a CSV, see its first rows and choose what each column becomes (preselected by
// the CLI's rules), import it, and read which rows were not imported and why, by file line.
// Without a script the import runs in the request (a Continue button picks up a long one); with
// console.js it runs one step of 1000 rows per request and moves the progress bar.
import { WRITE_FIELDS, type WriteField } from '../../domain/contacts/csv-import/csv-mapping.js';
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';
import { Time } from './time.js';

const FIELD_NAMES: Record<WriteField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  fullName: 'Full name',
  phone: 'Phone',
  location: 'Location',
  timezone: 'Time zone',
  language: 'Language',
  status: 'Status',
  externalId: 'External ID',
  priority: 'Priority',
};

export interface UploadView {
  id: string;
  fileName: string;
  headers: string[];
  rowCount: number;
  suggestedMapping: string[];
  mapping: string[];
  status: string;
  rowsDone: number;
  accepted: number;
  rejectedCount: number;
  createdAt: string;
  expiresAt: string;
  preview: Array<{ row: number; line: number; cells: string[] }>;
  rejected: Array<{ row: number; line: number; reason: string; message: string }>;
}

/** Rejections listed on the page at most; the rest are counted. */
const REJECTIONS_SHOWN = 1000;

export function ImportsPage(props: { viewer: Viewer; fileError?: string; maxMegabytes: number }) {
  const error = props.fileError;
  return (
    <Layout title="Imports" viewer={props.viewer} current="/console/imports">
      <form method="post" action="/console/imports" enctype="multipart/form-data" class="card narrow">
        {/* Before the file: the server checks the token before it reads the file. */}
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <label for="file">CSV file</label>
        <input
          id="file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          required
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'file-hint file-error' : 'file-hint'}
        />
        <p class="hint" id="file-hint">
          Up to {props.maxMegabytes} MB, UTF-8. The first line names the columns (e.g. First name, Phone); each line
          after it is a contact. You see the first rows and choose what each column becomes before anything is imported.
        </p>
        <FieldError id="file-error" message={error} />
        <button type="submit">Upload and preview</button>
      </form>
    </Layout>
  );
}

export function ImportPage(props: {
  viewer: Viewer;
  upload: UploadView;
  /** The choices sent, after a refusal. */
  choices?: string[];
  /** Errors by column index, or -1 for the form. */
  errors?: Map<number, string>;
}) {
  const { upload } = props;
  const title = `Import of ${upload.fileName}`;
  return (
    <Layout title={title} viewer={props.viewer} current="/console/imports">
      {upload.status === 'preview' ? (
        <Preview {...props} />
      ) : upload.status === 'importing' ? (
        <Importing {...props} />
      ) : (
        <Done upload={upload} />
      )}
      <p>
        <a href="/console/imports">Upload another file</a>
      </p>
    </Layout>
  );
}

function Preview(props: { viewer: Viewer; upload: UploadView; choices?: string[]; errors?: Map<number, string> }) {
  const { upload } = props;
  const errors = props.errors ?? new Map<number, string>();
  const choices = props.choices ?? upload.suggestedMapping;
  const malformed = upload.rejected.filter((r) => r.reason === 'malformed-record');
  const readable = upload.rowCount - malformed.length;
  return (
    <>
      <p>
        {upload.rowCount} {upload.rowCount === 1 ? 'row' : 'rows'} under the header line. Kept for you until{' '}
        <Time at={upload.expiresAt} />; nothing is imported until you choose Import.
      </p>
      <FormAlert message={errors.get(-1)} />
      <section aria-labelledby="preview-title">
        <h2 id="preview-title">First rows</h2>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">
              The first {upload.preview.length} rows of {upload.fileName}
            </caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                {upload.headers.map((header) => (
                  <th scope="col" key={header}>
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {upload.preview.map((row) => (
                <tr key={row.line}>
                  <th scope="row">{row.line}</th>
                  {row.cells.map((cell, i) => (
                    <td key={upload.headers[i]}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {malformed.length > 0 && <Rejections title="Lines that cannot be read (they are skipped)" rows={malformed} />}
      <form
        method="post"
        action={`/console/imports/${upload.id}/import`}
        class="card mapping"
        data-import-steps
        data-done={`/console/imports/${upload.id}`}
      >
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <h2>What each column becomes</h2>
        <p class="hint">
          Preselected by the column names. A custom field keeps the value under the column's name; a skipped column is
          not imported.
        </p>
        <div class="mapping-grid">
          {upload.headers.map((header, i) => (
            <ColumnChoice
              key={header}
              index={i}
              header={header}
              choice={choices[i] ?? 'custom'}
              sample={upload.preview[0]?.cells[i]}
              error={errors.get(i)}
            />
          ))}
        </div>
        <ImportProgress upload={upload} hidden />
        <button type="submit">
          Import {readable} {readable === 1 ? 'row' : 'rows'}
        </button>
      </form>
    </>
  );
}

function ColumnChoice(props: { index: number; header: string; choice: string; sample?: string; error?: string }) {
  const id = `map-${props.index}`;
  const hint = props.sample ? `${id}-hint` : '';
  const described = [hint, props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>Column {props.header}</label>
      <select id={id} name="mapping" aria-invalid={props.error ? 'true' : undefined} aria-describedby={described}>
        {WRITE_FIELDS.map((field) => (
          <option key={field} value={field} selected={props.choice === field}>
            {FIELD_NAMES[field]}
          </option>
        ))}
        <option value="custom" selected={props.choice === 'custom'}>
          custom field ({props.header})
        </option>
        <option value="skip" selected={props.choice === 'skip'}>
          skip
        </option>
      </select>
      {props.sample && (
        <p class="hint" id={hint}>
          e.g. {props.sample}
        </p>
      )}
      <FieldError id={`${id}-error`} message={props.error} />
    </div>
  );
}

/** The import's progress: rows sent (or refused) of the file's rows; console.js moves it step by step. */
function ImportProgress(props: { upload: UploadView; hidden?: boolean }) {
  const { upload } = props;
  return (
    <div class="import-progress" id="import-progress-box" hidden={props.hidden}>
      <label for="import-progress">Import progress</label>
      <progress id="import-progress" max={upload.rowCount} value={upload.rowsDone}>
        {upload.rowsDone} of {upload.rowCount}
      </progress>
      <p id="import-status" role="status">
        {props.hidden ? '' : `${upload.rowsDone} of ${upload.rowCount} rows sent, ${upload.accepted} accepted so far.`}
      </p>
    </div>
  );
}

function Importing(props: { viewer: Viewer; upload: UploadView }) {
  const { upload } = props;
  return (
    <>
      <ImportProgress upload={upload} />
      <p>
        The import stopped part-way (it runs in steps of 1000 rows). Rows already sent are imported; continue to send
        the rest with the same mapping.
      </p>
      <form
        method="post"
        action={`/console/imports/${upload.id}/import`}
        data-import-steps
        data-done={`/console/imports/${upload.id}`}
      >
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        {upload.mapping.map((choice, i) => (
          <input key={upload.headers[i]} type="hidden" name="mapping" value={choice} />
        ))}
        <button type="submit">Continue import</button>
      </form>
    </>
  );
}

function Done(props: { upload: UploadView }) {
  const { upload } = props;
  return (
    <>
      <p class="notice ok" role="status">
        {upload.accepted} of {upload.rowCount} {upload.rowCount === 1 ? 'row' : 'rows'} accepted; {upload.rejectedCount}{' '}
        not imported. Accepted rows are written to <a href="/console/contacts">Contacts</a> within seconds.
      </p>
      {upload.rejected.length === 0 ? (
        <p class="empty">Every row was accepted.</p>
      ) : (
        <Rejections title="Rows not imported" rows={upload.rejected} />
      )}
    </>
  );
}

function Rejections(props: { title: string; rows: UploadView['rejected'] }) {
  const shown = props.rows.slice(0, REJECTIONS_SHOWN);
  return (
    <section aria-labelledby="rejections-title">
      <h2 id="rejections-title">{props.title}</h2>
      <p class="hint">Lines count the header as line 1, as a spreadsheet or text editor numbers them.</p>
      <div class="table-wrap stacked">
        <table class="stacked">
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Reason</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.row}>
                <th scope="row" data-label="Line">
                  {r.line}
                </th>
                <td data-label="Reason">
                  <code>{r.reason}</code>
                </td>
                <td class="why" data-label="Why">
                  {r.message}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {props.rows.length > shown.length && (
        <p>
          And {props.rows.length - shown.length} more rows not imported (the first {REJECTIONS_SHOWN} are listed).
        </p>
      )}
    </section>
  );
}
