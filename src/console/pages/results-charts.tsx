/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// A workflow's results drawn on the server: calls per day stacked by result, and the funnel from
// enrolled to converted. The SVG holds only the bars (it stretches to any width, so a phone shows
// every day); every number is text beside it, and each chart has a table or list that says the
// same for a screen reader. No script, no client bundle.
import { RESULT_STATUS } from '../../domain/calls/call-outcome.rules.js';
import type { CallResult } from '../../calls/telephony/telephony.port.js';
import type { ResultCount, WorkflowResults } from '../../domain/workflows/workflow-results.service.js';

/** One day's calls by result, as the domain's workflowResults counts them. */
export type DayResults = WorkflowResults['days'][number];

/**
 * What a result did to the contact, the colour its calls are drawn in: the status it moves the
 * contact to (call-outcome.rules.ts), in the order the bars stack, best at the bottom.
 */
export const OUTCOMES = [
  { status: 'converted', label: 'Converted' },
  { status: 'qualified', label: 'Qualified' },
  { status: 'reached', label: 'Talked, no decision' },
  { status: 'disqualified', label: 'Disqualified or not interested' },
  { status: 'dnc', label: 'Asked not to be called' },
  { status: 'not_reached', label: 'Bad or blocked number' },
  { status: 'not_answered', label: 'Not answered' },
] as const;

/** The outcome a result belongs to (unknown results with the unanswered calls). */
export function outcomeOf(result: string): (typeof OUTCOMES)[number] {
  const status = RESULT_STATUS[result as CallResult] ?? 'not_answered';
  return OUTCOMES.find((o) => o.status === status) ?? OUTCOMES[OUTCOMES.length - 1];
}

/** A result as words: `no_answer` → "no answer". */
export const resultLabel = (result: string) => result.replaceAll('_', ' ');

const outcomeRank = (result: string) => OUTCOMES.indexOf(outcomeOf(result));

/** A day's results in stacking order: by outcome, best first, then as the operation lists them. */
function stacked(results: ResultCount[]): ResultCount[] {
  return results
    .filter((r) => r.count > 0)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => outcomeRank(a.r.result) - outcomeRank(b.r.result) || a.i - b.i)
    .map(({ r }) => r);
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above n: the top of the axis. */
export function axisTop(n: number): number {
  if (n <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  return [1, 2, 5, 10].map((m) => m * power).find((top) => top >= n) ?? n;
}

const COLUMN = 10;
const HEIGHT = 100;

/** Calls per day of the range, each day's bar stacked by result and coloured by outcome. */
export function CallsPerDayChart(props: { days: string[]; results: DayResults[]; timeZone: string }) {
  const byDate = new Map(props.results.map((d) => [d.date, d]));
  const total = props.results.reduce((sum, d) => sum + d.calls, 0);
  const busiest = props.results.reduce<DayResults | null>((top, d) => (!top || d.calls > top.calls ? d : top), null);
  const top = axisTop(busiest?.calls ?? 0);
  const first = props.days[0];
  const last = props.days[props.days.length - 1];
  const summary =
    total === 0
      ? `No calls from ${first} to ${last}.`
      : `${total} ${total === 1 ? 'call' : 'calls'} from ${first} to ${last} (${props.timeZone}); the busiest day, ${busiest?.date}, had ${busiest?.calls}.`;
  const shown = new Set(props.results.flatMap((d) => d.results.filter((r) => r.count > 0).map((r) => r.result)));
  return (
    <figure class="chart" aria-labelledby="per-day-title">
      <figcaption id="per-day-title">
        <strong>Calls per day</strong>, by result <span class="hint">({props.timeZone})</span>
      </figcaption>
      <p class="chart-summary" id="per-day-summary">
        {summary}
      </p>
      <div class="chart-frame">
        <div class="y-axis" aria-hidden="true">
          <span>{top}</span>
          <span>{top / 2}</span>
          <span>0</span>
        </div>
        <svg
          class="bars"
          viewBox={`0 0 ${props.days.length * COLUMN} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby="per-day-summary"
        >
          <title>{summary}</title>
          <line class="grid" x1="0" x2={props.days.length * COLUMN} y1={HEIGHT / 2} y2={HEIGHT / 2} />
          {props.days.map((date, i) => {
            const day = byDate.get(date);
            if (!day) return null;
            let y = HEIGHT;
            return (
              <g key={date}>
                {stacked(day.results).map((r) => {
                  const h = (r.count / top) * HEIGHT;
                  y -= h;
                  return (
                    <rect
                      key={r.result}
                      class={`outcome-${outcomeOf(r.result).status}`}
                      x={i * COLUMN + 1}
                      y={y}
                      width={COLUMN - 2}
                      height={h}
                    >
                      <title>{`${date}: ${r.count} ${resultLabel(r.result)}`}</title>
                    </rect>
                  );
                })}
              </g>
            );
          })}
        </svg>
        <div class="x-axis" aria-hidden="true">
          <span>{first}</span>
          {props.days.length > 1 && <span>{last}</span>}
        </div>
      </div>
      <ul class="legend" aria-label="Colours">
        {OUTCOMES.map((o) => {
          const results = [...shown].filter((r) => outcomeOf(r).status === o.status);
          if (results.length === 0) return null;
          return (
            <li key={o.status}>
              <span class={`swatch outcome-${o.status}`} aria-hidden="true" />
              {o.label}: {results.map(resultLabel).join(', ')}
            </li>
          );
        })}
      </ul>
      {props.results.length > 0 && (
        <details>
          <summary>Calls per day as a table</summary>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Calls per day, by result</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Calls</th>
                  <th scope="col">Results</th>
                </tr>
              </thead>
              <tbody>
                {props.results.map((d) => (
                  <tr key={d.date}>
                    <th scope="row">{d.date}</th>
                    <td>{d.calls}</td>
                    <td>
                      {stacked(d.results)
                        .map((r) => `${r.count} ${resultLabel(r.result)}`)
                        .join(', ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}

export interface FunnelFigures {
  enrolled: number;
  attempted: number;
  reached: number;
  converted: number;
}

const percent = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`;

/**
 * Enrolled → attempted → reached → converted, each a bar as long as its count against the largest.
 * Over a window a step can exceed the one before it (a contact enrolled before the window and
 * called in it), so each share is said of the step before, not assumed below 100%.
 */
export function Funnel(props: { figures: FunnelFigures }) {
  const f = props.figures;
  const steps = [
    { key: 'enrolled', label: 'Enrolled', count: f.enrolled },
    { key: 'attempted', label: 'Attempted', count: f.attempted },
    { key: 'reached', label: 'Reached', count: f.reached },
    { key: 'converted', label: 'Converted', count: f.converted },
  ];
  const widest = Math.max(1, ...steps.map((s) => s.count));
  return (
    <figure class="chart" aria-labelledby="funnel-title">
      <figcaption id="funnel-title">
        <strong>Funnel</strong>: contacts at each step
      </figcaption>
      <ol class="funnel">
        {steps.map((step, i) => {
          const before = steps[i - 1];
          return (
            <li key={step.key} data-step={step.key}>
              <span class="step">{step.label}</span>
              <span class="count">{step.count}</span>
              <svg class="funnel-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                <rect class={`funnel-${step.key}`} width={(step.count / widest) * 100} height="10" />
              </svg>
              <span class="share">
                {before
                  ? before.count > 0
                    ? `${percent(step.count, before.count)} of ${before.label.toLowerCase()}`
                    : ''
                  : ''}
              </span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}
