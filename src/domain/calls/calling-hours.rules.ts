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

export {
  DEFAULT_WORKING_HOURS,
  WEEKDAYS,
  WorkingHoursSchema,
  type Weekday,
  type WorkingHours,
} from './calling-hours.inputs.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
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

/** A calendar date in the zone. */
interface LocalDate {
  year: number;
  month: number;
  day: number;
}

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

function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

// --- Intl-based zone math --------------------------------------------------------------------

// Constructing an Intl.DateTimeFormat is far costlier than using one: one per zone name, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

function zoneOf(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (format) return format;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch (cause) {
    throw new Error(`Unknown time zone "${timeZone}": expected an IANA name such as "America/New_York"`, { cause });
  }
  formatters.set(timeZone, format);
  return format;
}

function instantOf(date: Date): number {
  const t = date.getTime();
  if (Number.isNaN(t)) throw new Error('Invalid Date passed to calling-hours');
  return t;
}

/** The zone's wall-clock reading at instant `t`, as milliseconds of a UTC-based timeline (whole seconds). */
function wallClock(zone: Intl.DateTimeFormat, t: number): number {
  const p: Record<string, number> = {};
  for (const part of zone.formatToParts(t)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** The zone's UTC offset at instant `t`, in milliseconds. */
function offsetAt(zone: Intl.DateTimeFormat, t: number): number {
  return wallClock(zone, t) - Math.floor(t / 1000) * 1000;
}

function localDate(zone: Intl.DateTimeFormat, t: number): LocalDate {
  const d = new Date(wallClock(zone, t));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * The instant at which the zone's clock reads `minutes` after midnight of `date` (1440 = next
 * midnight). Repeated local time → first occurrence; skipped local time → first instant after the gap.
 */
function localToInstant(zone: Intl.DateTimeFormat, date: LocalDate, minutes: number): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minutes * MINUTE;
  // The offsets a day either side bracket any transition near `wall`; try the earlier instant first.
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  for (const t of [wall - Math.max(before, after), wall - Math.min(before, after)]) {
    if (wallClock(zone, t) === wall) return t;
  }
  // In a gap (its bounds are the two offsets): binary-search, in whole seconds, the first instant
  // whose clock reads at or past `wall`.
  let lo = (wall - Math.max(before, after)) / 1000; // clock reads before `wall`
  let hi = (wall - Math.min(before, after)) / 1000; // clock reads past `wall`
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClock(zone, mid * 1000) >= wall) hi = mid;
    else lo = mid;
  }
  return hi * 1000;
}
