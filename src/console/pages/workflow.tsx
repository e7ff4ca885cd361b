/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// One workflow: its results over a date range (key figures, the funnel, calls per day by result,
// the outcome table, a CSV of the days), and its enrollments with a Stop button for each active
// one. The range is a GET form, so a range is a link.
import { CALL_RESULTS } from '../../calls/telephony/telephony.port.js';
import type { RangeValues } from '../results-window.js';
import { FieldError, FormAlert, Layout, NextPageLink, type Viewer } from './layout.js';
import type { ResultCount, WorkflowResults } from '../../domain/workflows/workflow-results.service.js';
import { CallsPerDayChart, Funnel, outcomeOf, resultLabel } from './results-charts.js';
import { Time } from './time.js';

export interface WorkflowView {
  id: string;
  name: string;
  status: string;
  paused: boolean;
}

/** What the page draws of the domain's workflowResults. */
export type ResultsView = Pick<WorkflowResults, 'timeZone' | 'totals' | 'days'>;

export interface EnrollmentRow {
  id: string;
  /** null once the contact is erased. */
  contactId: string | null;
  /** The contact's name, or null when it is gone. */
  name: string | null;
  state: string;
  startedAt: string;
  endedAt: string | null;
  endReason: string | null;
  finalResult: string | null;
  attempts: number;
  nextCallAt: string | null;
}

const ENROLLMENT_STATES = [
  { value: 'active', label: 'Active' },
  { value: 'ended', label: 'Ended' },
  { value: '', label: 'All' },
] as const;

const rate = (value: number | null) => (value === null ? '—' : `${Math.round(value * 1000) / 10}%`);
const seconds = (value: number | null) =>
  value === null ? '—' : value < 60 ? `${value} s` : `${Math.floor(value / 60)} min ${value % 60} s`;

function RangeForm(props: { workflowId: string; values: RangeValues; errors: Record<string, string> }) {
  const e = props.errors;
  const attrs = (name: keyof RangeValues) => ({
    id: name,
    name,
    value: props.values[name],
    required: true,
    'aria-invalid': e[name] ? ('true' as const) : undefined,
    'aria-describedby': e[name] ? `${name}-error` : undefined,
  });
  return (
    <form method="get" action={`/console/workflows/${props.workflowId}`} class="card filters">
      <div class="field">
        <label for="from">From</label>
        <input type="date" {...attrs('from')} />
        <FieldError id="from-error" message={e.from} />
      </div>
      <div class="field">
        <label for="to">To (included)</label>
        <input type="date" {...attrs('to')} />
        <FieldError id="to-error" message={e.to} />
      </div>
      <div class="field">
        <label for="timeZone">Days in time zone</label>
        <input type="text" {...attrs('timeZone')} />
        <FieldError id="timeZone-error" message={e.timeZone} />
      </div>
      <button type="submit">Show</button>
    </form>
  );
}

function KeyFigures(props: { totals: ResultsView['totals'] }) {
  const t = props.totals;
  return (
    <dl class="fields card">
      <dt>Calls</dt>
      <dd>{t.calls}</dd>
      <dt>Connected</dt>
      <dd>
        {t.connected} ({rate(t.connectRate)} of calls)
      </dd>
      <dt>Conversion rate</dt>
      <dd>{rate(t.conversionRate)} of contacts attempted</dd>
      <dt>Conversation length</dt>
      <dd>
        median {seconds(t.durationMedianSeconds)}, 9 in 10 within {seconds(t.durationP90Seconds)}
      </dd>
      <dt>Calls per conversion</dt>
      <dd>{t.attemptsPerConversion === null ? '—' : Math.round(t.attemptsPerConversion * 10) / 10}</dd>
    </dl>
  );
}

function OutcomeTable(props: { totals: ResultsView['totals'] }) {
  const rows = props.totals.results.filter((r) => r.count > 0);
  if (rows.length === 0) return <p class="empty">No call of this workflow ended in this range.</p>;
  // The operation's order is the contract's; the table reads best most frequent first.
  const order = (r: ResultCount) => CALL_RESULTS.indexOf(r.result as (typeof CALL_RESULTS)[number]);
  rows.sort((a, b) => b.count - a.count || order(a) - order(b));
  return (
    <div class="table-wrap stacked">
      <table class="stacked">
        <caption class="visually-hidden">Calls by result</caption>
        <thead>
          <tr>
            <th scope="col">Result</th>
            <th scope="col">Outcome</th>
            <th scope="col">Calls</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.result}>
              <th scope="row" data-label="Result">
                {resultLabel(r.result)}
              </th>
              <td data-label="Outcome">
                <span class={`swatch outcome-${outcomeOf(r.result).status}`} aria-hidden="true" />
                {outcomeOf(r.result).label}
              </td>
              <td data-label="Calls">{r.count}</td>
              <td data-label="Share">{rate(r.count / props.totals.calls)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Why an enrollment ended, as words. */
function endedWhy(row: EnrollmentRow): string {
  if (row.endReason === 'final_result') return `ended by a call: ${resultLabel(row.finalResult ?? 'unknown')}`;
  if (row.endReason === 'attempt_limit') return 'attempts used up';
  if (row.endReason === 'stopped') return 'stopped';
  if (row.endReason === 're_enrolled') return 're-enrolled';
  if (row.endReason === 'contact_erased') return 'the contact was erased';
  return 'ended';
}

function Enrollments(props: {
  workflow: WorkflowView;
  rows: EnrollmentRow[];
  state: string;
  stateLinks: Record<string, string>;
  nextPage: string | null;
  csrf: string;
}) {
  return (
    <section aria-labelledby="enrollments-title" id="enrollments">
      <h2 id="enrollments-title">Enrollments</h2>
      <nav aria-label="Which enrollments" class="actions">
        {ENROLLMENT_STATES.map((s) => (
          <a key={s.value} href={props.stateLinks[s.value]} aria-current={props.state === s.value ? 'page' : undefined}>
            {s.label}
          </a>
        ))}
      </nav>
      {props.rows.length === 0 ? (
        <p class="empty">
          {props.state === 'active'
            ? 'No contact is being called for this workflow.'
            : props.state === 'ended'
              ? 'No enrollment has ended yet.'
              : 'No contact was enrolled in this workflow yet.'}
        </p>
      ) : (
        <div class="table-wrap stacked">
          <table class="stacked">
            <caption class="visually-hidden">Enrollments, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Contact</th>
                <th scope="col">State</th>
                <th scope="col">Enrolled</th>
                <th scope="col">Attempts</th>
                <th scope="col">Next call or end</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => {
                const name = row.name ?? '(erased)';
                return (
                  <tr key={row.id}>
                    <th scope="row" data-label="Contact">
                      {row.name && row.contactId ? <a href={`/console/contacts/${row.contactId}`}>{name}</a> : name}
                    </th>
                    <td data-label="State">{row.state}</td>
                    <td data-label="Enrolled">
                      <Time at={row.startedAt} />
                    </td>
                    <td data-label="Attempts">{row.attempts}</td>
                    <td data-label="Next call or end">
                      {row.state === 'active' ? (
                        row.nextCallAt ? (
                          <Time at={row.nextCallAt} />
                        ) : (
                          'a call is in progress'
                        )
                      ) : (
                        <>
                          {endedWhy(row)}
                          {row.endedAt && (
                            <>
                              , <Time at={row.endedAt} />
                            </>
                          )}
                        </>
                      )}
                    </td>
                    <td data-label="Change">
                      {row.state === 'active' && row.contactId ? (
                        <form method="post" action={`/console/workflows/${props.workflow.id}/enrollments/stop`}>
                          <input type="hidden" name="csrf" value={props.csrf} />
                          <input type="hidden" name="contactId" value={row.contactId} />
                          <button type="submit" class="danger" aria-label={`Stop calling ${name}`}>
                            Stop calling
                          </button>
                        </form>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <NextPageLink href={props.nextPage}>Next page of enrollments</NextPageLink>
    </section>
  );
}

export function WorkflowPage(props: {
  viewer: Viewer;
  workflow: WorkflowView;
  agentName: string | null;
  range: RangeValues;
  rangeErrors?: Record<string, string>;
  /** The range's days, oldest first; null when the range was refused. */
  days: string[] | null;
  results: ResultsView | null;
  csvHref: string | null;
  enrollments: EnrollmentRow[];
  enrollmentState: string;
  stateLinks: Record<string, string>;
  nextPage: string | null;
  notice?: string;
}) {
  const w = props.workflow;
  const status = w.status === 'published' && w.paused ? 'published, paused' : w.status;
  return (
    <Layout title={`Workflow “${w.name}”`} viewer={props.viewer} current="/console/workflows">
      <p>
        <a href="/console/workflows">All workflows</a>
      </p>
      <FormAlert message={props.notice} tone="ok" />
      <p>
        {status}; called by {props.agentName ? `“${props.agentName}”` : 'no agent yet'}.
      </p>
      <section aria-labelledby="results-title">
        <h2 id="results-title">Results</h2>
        <RangeForm workflowId={w.id} values={props.range} errors={props.rangeErrors ?? {}} />
        {props.results && props.days && (
          <>
            <KeyFigures totals={props.results.totals} />
            <div class="charts">
              <Funnel figures={props.results.totals} />
              <CallsPerDayChart days={props.days} results={props.results.days} timeZone={props.results.timeZone} />
            </div>
            <h3>Calls by result</h3>
            <OutcomeTable totals={props.results.totals} />
            {props.csvHref && (
              <p>
                <a href={props.csvHref} download>
                  Download the results per day (CSV)
                </a>
              </p>
            )}
          </>
        )}
      </section>
      <Enrollments
        workflow={w}
        rows={props.enrollments}
        state={props.enrollmentState}
        stateLinks={props.stateLinks}
        nextPage={props.nextPage}
        csrf={props.viewer.csrf}
      />
    </Layout>
  );
}
