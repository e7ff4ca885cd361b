/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The board app's set-up: the Account's monday link (link through monday's OAuth, or unlink),
// the board to map (a GET form: choosing reloads the page with its columns), pickers of its
// columns (each offers only the columns the domain says may feed the field: MondayColumn's
// mappableAs), and call result → status label pickers fed by a status column's own labels.
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';
import { Time } from './time.js';

export interface LinkView {
  mondayAccountId: string;
  mondayUserId: string;
  linkedByEmail: string | null;
  createdAt: string;
}

export interface MappingView {
  boardId: string;
  firstNameColumnId: string | null;
  lastNameColumnId: string | null;
  itemNameIsFullName: boolean;
  phoneColumnId: string;
  timezoneColumnId: string | null;
  statusLabels: Record<string, string | null>;
  statusLabelsCustomized: boolean;
}

export interface ColumnView {
  id: string;
  title: string;
  type: string;
  mappableAs: string[];
  labels: string[] | null;
}

export interface BoardView {
  id: string;
  name: string;
  columns: ColumnView[];
}

export interface BoardList {
  data: Array<{ id: string; name: string }>;
  page: number;
  nextPage: number | null;
}

/** The mapping form's values, as sent or as stored. */
export interface MappingValues {
  phoneColumnId: string;
  firstNameColumnId: string;
  lastNameColumnId: string;
  timezoneColumnId: string;
  itemNameIsFullName: boolean;
}

export interface BoardPageProps {
  viewer: Viewer;
  /** The board app is configured on this service (MONDAY_SIGNING_SECRET set). */
  boardAppOn: boolean;
  link: LinkView | null;
  mapping: MappingView | null;
  boards: BoardList | null;
  board: BoardView | null;
  /** The board the pickers are for (?boardId=, else the mapped one). */
  chosenBoardId: string | null;
  /** The status column whose labels the label pickers offer. */
  statusColumnId: string | null;
  values?: MappingValues;
  labelValues?: Record<string, string>;
  errors?: Record<string, string>;
  alert?: string;
  notice?: string;
}

const MAPPING_FIELDS: Array<{ field: keyof Omit<MappingValues, 'itemNameIsFullName'>; label: string; hint: string }> = [
  { field: 'phoneColumnId', label: 'Phone', hint: 'Required. Phone columns only.' },
  { field: 'firstNameColumnId', label: 'First name', hint: 'Optional.' },
  { field: 'lastNameColumnId', label: 'Last name', hint: 'Optional.' },
  { field: 'timezoneColumnId', label: 'Timezone', hint: 'Optional. World Clock or text columns.' },
];

/** The attributes of a field that may carry an error (aria-invalid, and where its message is). */
const invalid = (errors: Record<string, string>, field: string) =>
  errors[field] ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${field}-error` } : {};

function LinkSection(props: BoardPageProps) {
  const csrf = props.viewer.csrf;
  if (!props.boardAppOn) {
    return (
      <section class="card" aria-labelledby="link-title">
        <h2 id="link-title">monday account</h2>
        <p>
          The board app is off on this server. The operator turns it on by setting <code>MONDAY_SIGNING_SECRET</code>{' '}
          (and, to link from here, <code>MONDAY_CLIENT_ID</code>, <code>MONDAY_CLIENT_SECRET</code>,{' '}
          <code>MONDAY_TOKEN_KEY</code> and <code>PUBLIC_BASE_URL</code>), then restarting it; docs/board-app.md lists
          the steps.
        </p>
      </section>
    );
  }
  if (!props.link) {
    return (
      <section class="card" aria-labelledby="link-title">
        <h2 id="link-title">monday account</h2>
        <p>
          Not linked. Link your monday account: monday asks you to approve the Contactline app, then brings you back.
        </p>
        <form method="post" action="/console/board/link">
          <input type="hidden" name="csrf" value={csrf} />
          <button type="submit">Link monday account</button>
        </form>
      </section>
    );
  }
  const link = props.link;
  return (
    <section class="card" aria-labelledby="link-title">
      <h2 id="link-title">monday account</h2>
      <dl class="fields">
        <dt>monday account</dt>
        <dd>{link.mondayAccountId}</dd>
        <dt>Linked by</dt>
        <dd>{link.linkedByEmail ?? 'a removed user'}</dd>
        <dt>Linked</dt>
        <dd>
          <Time at={link.createdAt} />
        </dd>
      </dl>
      <form method="post" action="/console/board/unlink">
        <input type="hidden" name="csrf" value={csrf} />
        <button type="submit" class="danger">
          Unlink monday account
        </button>
      </form>
      <p class="empty">Unlinking stops the board's automations from reaching Contactline; the mapping is kept.</p>
    </section>
  );
}

function BoardChoice(props: BoardPageProps) {
  const boards = props.boards;
  if (!boards) return null;
  const options = [...boards.data];
  if (props.chosenBoardId && !options.some((b) => b.id === props.chosenBoardId))
    options.unshift({ id: props.chosenBoardId, name: `Board ${props.chosenBoardId}` });
  const mappedId = props.mapping?.boardId;
  return (
    <section class="card" aria-labelledby="board-title">
      <h2 id="board-title">Board</h2>
      {options.length === 0 ? (
        <p class="empty">
          The linked monday user sees no boards. Create a board in monday (or share one with them), then reload.
        </p>
      ) : (
        <form method="get" action="/console/board" class="inline">
          <label for="boardId">Board</label>
          <select id="boardId" name="boardId">
            {!props.chosenBoardId && <option value="">Choose a board</option>}
            {options.map((b) => (
              <option key={b.id} value={b.id} selected={b.id === props.chosenBoardId}>
                {b.id === mappedId ? `${b.name} (mapped)` : b.name}
              </option>
            ))}
          </select>
          {boards.page > 1 && <input type="hidden" name="boardPage" value={String(boards.page)} />}
          <button type="submit">Show columns</button>
        </form>
      )}
      {(boards.page > 1 || boards.nextPage) && (
        <p>
          {boards.page > 1 && <a href={`/console/board?boardPage=${boards.page - 1}`}>Previous boards</a>}{' '}
          {boards.nextPage && <a href={`/console/board?boardPage=${boards.nextPage}`}>More boards</a>}
        </p>
      )}
    </section>
  );
}

function MappingForm(props: BoardPageProps & { board: BoardView }) {
  const errors = props.errors ?? {};
  const mapping = props.mapping?.boardId === props.board.id ? props.mapping : null;
  const values: MappingValues = props.values ?? {
    phoneColumnId: mapping?.phoneColumnId ?? '',
    firstNameColumnId: mapping?.firstNameColumnId ?? '',
    lastNameColumnId: mapping?.lastNameColumnId ?? '',
    timezoneColumnId: mapping?.timezoneColumnId ?? '',
    itemNameIsFullName: mapping?.itemNameIsFullName ?? false,
  };
  const byId = new Map(props.board.columns.map((c) => [c.id, c]));
  return (
    <section class="card" aria-labelledby="columns-title">
      <h2 id="columns-title">Columns of “{props.board.name}”</h2>
      {props.mapping && !mapping && (
        <p class="notice">
          Saving maps this board instead of board {props.mapping.boardId}; its status labels go back to the defaults.
        </p>
      )}
      <form method="post" action="/console/board/mapping">
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <input type="hidden" name="boardId" value={props.board.id} />
        {MAPPING_FIELDS.map(({ field, label, hint }) => {
          const fits = props.board.columns.filter((c) => c.mappableAs.includes(field));
          const sent = values[field];
          // A value the pickers do not offer (sent by hand, or a column whose type changed) stays visible.
          const stray = sent && !fits.some((c) => c.id === sent) ? (byId.get(sent) ?? null) : null;
          return (
            <div class="field" key={field}>
              <label for={field}>{label}</label>
              <select id={field} name={field} required={field === 'phoneColumnId'} {...invalid(errors, field)}>
                <option value="">{field === 'phoneColumnId' ? 'Choose the phone column' : 'Not mapped'}</option>
                {stray && (
                  <option value={stray.id} selected>
                    {`${stray.title} (${stray.type}, not allowed here)`}
                  </option>
                )}
                {sent && !stray && !byId.has(sent) && (
                  <option value={sent} selected>
                    {`${sent} (not on the board)`}
                  </option>
                )}
                {fits.map((c) => (
                  <option key={c.id} value={c.id} selected={c.id === sent}>
                    {`${c.title} (${c.type})`}
                  </option>
                ))}
              </select>
              <small>{fits.length === 0 ? `${hint} This board has none.` : hint}</small>
              <FieldError id={`${field}-error`} message={errors[field]} />
            </div>
          );
        })}
        <div class="field check">
          <input
            type="checkbox"
            id="itemNameIsFullName"
            name="itemNameIsFullName"
            value="true"
            checked={values.itemNameIsFullName}
            {...invalid(errors, 'itemNameIsFullName')}
          />{' '}
          <label for="itemNameIsFullName">The item name is the contact's full name</label>
          <FieldError id="itemNameIsFullName-error" message={errors.itemNameIsFullName} />
        </div>
        <FieldError id="boardId-error" message={errors.boardId} />
        <button type="submit">Save mapping</button>
      </form>
    </section>
  );
}

function StatusLabels(props: BoardPageProps & { board: BoardView; mapping: MappingView }) {
  const errors = props.errors ?? {};
  const statusColumns = props.board.columns.filter((c) => c.type === 'status');
  const column = statusColumns.find((c) => c.id === props.statusColumnId) ?? statusColumns[0];
  const labels = column?.labels ?? [];
  const results = Object.keys(props.mapping.statusLabels);
  return (
    <section class="card" aria-labelledby="labels-title">
      <h2 id="labels-title">Status labels</h2>
      <p>
        When a call ends, the “set status” automation writes the label of its result to the status column it names.
        {props.mapping.statusLabelsCustomized ? '' : ' The defaults apply until you save.'}
      </p>
      {statusColumns.length === 0 ? (
        <p class="empty">This board has no status column. Add one in monday (for the call outcome), then reload.</p>
      ) : (
        <>
          <form method="get" action="/console/board" class="inline">
            <input type="hidden" name="boardId" value={props.board.id} />
            <label for="statusColumnId">Status column</label>
            <select id="statusColumnId" name="statusColumnId">
              {statusColumns.map((c) => (
                <option key={c.id} value={c.id} selected={c.id === column?.id}>
                  {c.title}
                </option>
              ))}
            </select>
            <button type="submit">Show its labels</button>
          </form>
          <form method="post" action="/console/board/status-labels">
            <input type="hidden" name="csrf" value={props.viewer.csrf} />
            <input type="hidden" name="boardId" value={props.board.id} />
            <input type="hidden" name="statusColumnId" value={column?.id ?? ''} />
            <FieldError id="mapping-error" message={errors.mapping} />
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Call result</th>
                    <th scope="col">Status label</th>
                  </tr>
                </thead>
                <tbody>
                  {results.map((result) => {
                    const field = `label_${result}`;
                    const current = props.labelValues?.[result] ?? props.mapping.statusLabels[result] ?? '';
                    const missing = current && !labels.includes(current);
                    return (
                      <tr key={result}>
                        <th scope="row">
                          <label for={field}>{result.replaceAll('_', ' ')}</label>
                        </th>
                        <td>
                          <select id={field} name={field} {...invalid(errors, field)}>
                            <option value="">Leave the status unchanged</option>
                            {missing && (
                              <option value={current} selected>
                                {`${current} (not a label of this column)`}
                              </option>
                            )}
                            {labels.map((label) => (
                              <option key={label} value={label} selected={label === current}>
                                {label}
                              </option>
                            ))}
                          </select>
                          <FieldError id={`${field}-error`} message={errors[field]} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <div class="actions">
              <button type="submit">Save status labels</button>
              <button type="submit" name="reset" value="true" class="link">
                Restore the default labels
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}

export function BoardPage(props: BoardPageProps) {
  const board = props.board;
  const mapping = props.mapping;
  return (
    <Layout title="Board app" viewer={props.viewer} current="/console/board">
      <FormAlert message={props.alert} tone="error" />
      <FormAlert message={props.notice} tone="ok" />
      <LinkSection {...props} />
      {props.boardAppOn && props.link && <BoardChoice {...props} />}
      {props.boardAppOn && props.link && !board && (
        <p class="empty">Choose the board whose items Contactline calls, then map its columns.</p>
      )}
      {board && <MappingForm {...props} board={board} />}
      {board && mapping?.boardId === board.id && <StatusLabels {...props} board={board} mapping={mapping} />}
      {board && mapping?.boardId !== board.id && (
        <p class="empty">Save the mapping of this board first; then map call results to its status labels here.</p>
      )}
    </Layout>
  );
}
