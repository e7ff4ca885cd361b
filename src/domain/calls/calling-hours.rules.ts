// Calling hours: whether an instant falls inside an agent's working hours, and when the next
// window opens, evaluated in an IANA time zone (the contact's, else the agent's). Pure; the only
// time-zone source is the built-in Intl.
//
// A window [start, end) on a local date is the instant interval between the instants of its two
// local times. A local time skipped by a DST jump maps to the first instant after the jump
// (02:30 on New York's spring-forward day → 03:00 EDT); a repeated local time maps to its first
// occurrence (both are "the first instant whose clock reads at or past it", which keeps windows
// in order). isWithinWorkingHours(h, z, t) holds exactly when nextWindowStart(h, z, t) is t.
import { WEEKDAYS, timeToMinutes, type WorkingHours } from './calling-hours.inputs.js';
import { addDays, instantOf, localDate, localToInstant, zoneOf, type LocalDate } from './zoned-time.js';

export {
  DEFAULT_WORKING_HOURS,
  WEEKDAYS,
  WorkingHoursSchema,
  type Weekday,
  type WorkingHours,
} from './calling-hours.inputs.js';

/** Days after `from`'s local date that nextWindowStart examines (a full week plus one spare). */
const LOOKAHEAD_DAYS = 8;

/** True when `at` falls inside a window of `hours` in zone `timeZone`. Throws on an unknown zone. */
export function isWithinWorkingHours(hours: WorkingHours, timeZone: string, at: Date): boolean {
  const t = instantOf(at);
  // A window containing t lies on t's local date, or on the next one if a fall-back ever carried
  // the clock back across midnight (no current zone does; checked so both functions agree exactly).
  const window = firstWindowEndingAfter(hours, zoneOf(timeZone), t, 1);
  return window !== null && window[0] <= t;
}

/**
 * The earliest instant >= `from` inside a window (a copy of `from` when it is inside one); null
 * when `hours` has no windows at all, or none opens within 8 days of `from`'s local date.
 * Throws on an unknown zone.
 */
export function nextWindowStart(hours: WorkingHours, timeZone: string, from: Date): Date | null {
  const t = instantOf(from);
  const window = firstWindowEndingAfter(hours, zoneOf(timeZone), t, LOOKAHEAD_DAYS);
  return window && new Date(Math.max(window[0], t));
}

/** Whether the week has any window at all (an agent without one is never called in its hours). */
export function hasWorkingHours(hours: WorkingHours): boolean {
  return WEEKDAYS.some((day) => (hours[day]?.length ?? 0) > 0);
}

/**
 * The zone an agent's working hours are applied in when it calls a contact: the contact's own
 * zone, and the agent's only when the contact has none. The dialer's rule, and what the console
 * says it is.
 */
export function callingTimeZone(contactTimeZone: string | null, agentTimeZone: string): string {
  return contactTimeZone ?? agentTimeZone;
}

/**
 * When the dialer places an attempt that is due at `dueAt`, seen at `now`: once due, at once when
 * it is a first attempt called immediately (enforceCallNow, or the agent's option), else at the
 * first instant inside the working hours in `timeZone` (callingTimeZone) at or after the due time.
 * null when no window opens within the lookahead. The dialer asks this at the time an attempt is
 * due; the console asks it ahead, to say when the next call will be.
 */
export function plannedCallTime(args: {
  hours: WorkingHours;
  timeZone: string;
  dueAt: Date;
  now: Date;
  immediate: boolean;
}): Date | null {
  const from = new Date(Math.max(args.dueAt.getTime(), args.now.getTime()));
  return args.immediate ? from : nextWindowStart(args.hours, args.timeZone, from);
}

// --- windows as instants ---------------------------------------------------------------------

/**
 * The first window, as a [start, end) instant pair, that ends after `t`, looking at the windows of
 * `t`'s local date and up to `lastDay` days after it. Local → instant conversion is monotone, so
 * windows come out in instant order.
 */
function firstWindowEndingAfter(
  hours: WorkingHours,
  zone: Intl.DateTimeFormat,
  t: number,
  lastDay: number,
): [number, number] | null {
  if (!hasWorkingHours(hours)) return null;
  const today = localDate(zone, t);
  for (let offset = 0; offset <= lastDay; offset++) {
    const found = windowsOn(hours, zone, addDays(today, offset)).find(([, end]) => t < end);
    if (found) return found;
  }
  return null;
}

/** The non-empty [start, end) instant intervals of the date's windows, in order. */
function windowsOn(hours: WorkingHours, zone: Intl.DateTimeFormat, date: LocalDate): Array<[number, number]> {
  const weekday = WEEKDAYS[(new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7];
  return (hours[weekday] ?? [])
    .map((w) => [timeToMinutes(w.start), timeToMinutes(w.end)] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([start, end]): [number, number] => [localToInstant(zone, date, start), localToInstant(zone, date, end)])
    .filter(([start, end]) => start < end); // a window wholly inside a DST gap (or a skipped day) is empty
}
