/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// An agent's calling week drawn per weekday: the bar of a day's windows (the agents list, and
// each day of the agent form), and the week as a table of them.
import {
  END_TIME_PATTERN,
  TIME_PATTERN,
  timeToMinutes,
  WEEKDAYS,
  type Weekday,
} from '../../domain/calls/calling-hours.inputs.js';

export const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export type Windows = Array<{ start: string; end: string }>;

/** The day's windows on a 24-hour bar; a window that is not one yet (being typed, refused) is left out. */
export function DayBar(props: { windows: Windows; id?: string }) {
  const drawn = props.windows.flatMap((w) => {
    if (!TIME_PATTERN.test(w.start) || !END_TIME_PATTERN.test(w.end)) return [];
    const from = timeToMinutes(w.start);
    const to = timeToMinutes(w.end);
    return to > from ? [{ from, to }] : [];
  });
  return (
    <span class="day-bar" aria-hidden="true" id={props.id}>
      {drawn.map(({ from, to }) => (
        <span
          key={`${from}-${to}`}
          class="window"
          style={{ left: `${(from / 1440) * 100}%`, width: `${((to - from) / 1440) * 100}%` }}
        />
      ))}
    </span>
  );
}

/**
 * The agent's calling week: one row per weekday. The dialer applies the windows in each contact's
 * time zone, and in the agent's only for a contact without one (callingTimeZone): the caption says so.
 */
export function WeekGrid(props: { agent: { name: string; timezone: string; workingHours: unknown } }) {
  const hours = (props.agent.workingHours ?? {}) as Partial<Record<Weekday, Windows>>;
  return (
    <table class="week">
      <caption>
        Calling hours of {props.agent.name}, in each contact's time zone ({props.agent.timezone} for a contact without
        one)
      </caption>
      <tbody>
        {WEEKDAYS.map((day) => {
          const windows = hours[day] ?? [];
          return (
            <tr key={day}>
              <th scope="row">{DAY_NAMES[day]}</th>
              <td>
                <DayBar windows={windows} />
                <span>{windows.length ? windows.map((w) => `${w.start}–${w.end}`).join(', ') : 'no calls'}</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
