/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The board view monday shows inside a board (read-only): the linked Account's mapping, its
// status labels and the recent calls of the board's items; or why there is nothing to show.
// The script (monday's SDK, then board-view.js) only follows monday's theme, notes a view opened
// on another board than the mapped one, and refreshes the sessionToken.
import type { ComponentChildren } from 'preact';

export interface ViewMapping {
  boardId: string;
  firstNameColumnId: string | null;
  lastNameColumnId: string | null;
  itemNameIsFullName: boolean;
  phoneColumnId: string;
  timezoneColumnId: string | null;
  extraFields: unknown;
  statusLabels: Record<string, string | null>;
  statusLabelsCustomized: boolean;
  recentCalls: Array<{
    callId: string;
    itemId: string;
    contactName: string | null;
    status: string;
    result: string | null;
    startedAt: string;
    durationSeconds: number | null;
  }>;
}

const ASSETS = '/integrations/monday/views/assets';

function Shell(props: { title: string; sessionToken?: string; mappedBoardId?: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Contactline`}</title>
        <link rel="stylesheet" href={`${ASSETS}/board-view.css`} />
        <script src={`${ASSETS}/monday-sdk.js`} defer />
        <script src={`${ASSETS}/board-view.js`} defer />
      </head>
      <body data-mapped-board={props.mappedBoardId}>
        <main>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** 401 / 403 / 503: a sentence, never data. */
export function ViewRefusal(props: { title: string; message: string; retry?: boolean }) {
  return (
    <Shell title={props.title}>
      <p class="notice" role="alert" data-retry={props.retry ? 'true' : undefined}>
        {props.message}
      </p>
    </Shell>
  );
}

const sentenceCase = (result: string) => result.replaceAll('_', ' ');

export function BoardViewPage(props: {
  mondayAccountId: string;
  mapping: ViewMapping | null;
  boardName: string | null;
  columns: Map<string, { title: string; type: string }>;
  sessionToken: string;
}) {
  const m = props.mapping;
  const column = (id: string | null) => {
    if (!id) return 'not mapped';
    const c = props.columns.get(id);
    return c ? `${c.title} (${c.type})` : id;
  };
  return (
    <Shell title="Contactline" mappedBoardId={m?.boardId}>
      <p>
        monday account {props.mondayAccountId} is linked to Contactline.{' '}
        <a id="refresh" href={`?sessionToken=${encodeURIComponent(props.sessionToken)}`}>
          Refresh
        </a>
      </p>
      <p class="notice" id="other-board" hidden>
        This view shows the board Contactline maps (board {m?.boardId}); this board is not mapped.
      </p>
      {!m ? (
        <p class="empty">
          No board is mapped yet. Map this board in the Contactline console (Board app page), then refresh.
        </p>
      ) : (
        <>
          <section aria-labelledby="mapping-title">
            <h2 id="mapping-title">Mapping of {props.boardName ?? `board ${m.boardId}`}</h2>
            <table>
              <tbody>
                <tr>
                  <th scope="row">Phone</th>
                  <td>{column(m.phoneColumnId)}</td>
                </tr>
                {m.itemNameIsFullName ? (
                  <tr>
                    <th scope="row">Full name</th>
                    <td>the item name</td>
                  </tr>
                ) : (
                  <>
                    <tr>
                      <th scope="row">First name</th>
                      <td>{column(m.firstNameColumnId)}</td>
                    </tr>
                    <tr>
                      <th scope="row">Last name</th>
                      <td>{column(m.lastNameColumnId)}</td>
                    </tr>
                  </>
                )}
                <tr>
                  <th scope="row">Timezone</th>
                  <td>{column(m.timezoneColumnId)}</td>
                </tr>
              </tbody>
            </table>
          </section>
          <section aria-labelledby="labels-title">
            <h2 id="labels-title">Status labels{m.statusLabelsCustomized ? '' : ' (defaults)'}</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Call result</th>
                  <th scope="col">Status label</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(m.statusLabels).map(([result, label]) => (
                  <tr key={result}>
                    <th scope="row">{sentenceCase(result)}</th>
                    <td>{label ?? 'unchanged'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="calls-title">
            <h2 id="calls-title">Recent calls</h2>
            {m.recentCalls.length === 0 ? (
              <p class="empty">
                No calls yet. Items enrolled by the Contactline automation show here once their contact is called.
              </p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">Contact</th>
                    <th scope="col">Result</th>
                    <th scope="col">Started (UTC)</th>
                    <th scope="col">Duration</th>
                  </tr>
                </thead>
                <tbody>
                  {m.recentCalls.map((call) => (
                    <tr key={call.callId}>
                      <td>{call.itemId}</td>
                      <td>{call.contactName ?? '—'}</td>
                      <td>{call.result ? sentenceCase(call.result) : call.status}</td>
                      <td>
                        <time datetime={call.startedAt}>{call.startedAt.slice(0, 16).replace('T', ' ')}</time>
                      </td>
                      <td>{call.durationSeconds === null ? '—' : `${call.durationSeconds} s`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </Shell>
  );
}
