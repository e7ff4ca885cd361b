// The date range of a workflow's results page: two calendar dates (both included) in a time zone,
// as the results operation's instants (from: the first day's midnight; to: the midnight after the
// last day). A page without a range shows the 30 days up to today on the service's clock.
import { addDays, dateKey, type LocalDate, localDate, localToInstant, zoneOf } from '../domain/calls/zoned-time.js';

export interface RangeValues {
  from: string;
  to: string;
  timeZone: string;
}

/** The days a page shows when none are asked for: the last 30, today included. */
export const DEFAULT_DAYS = 30;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD that names a real day, or null. */
export function parseDate(text: string): LocalDate | null {
  const m = DATE.exec(text.trim());
  if (!m) return null;
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  // 2026-02-30 is not a day: addDays(…, 0) normalises it to another one.
  return dateKey(addDays(date, 0)) === text.trim() ? date : null;
}

/** A zone the service can read, or null. */
function knownZone(name: string): Intl.DateTimeFormat | null {
  try {
    return zoneOf(name);
  } catch {
    return null;
  }
}

/** The last DEFAULT_DAYS days up to today in `timeZone` (UTC when it is not a zone). */
export function defaultRange(now: Date, timeZone: string): RangeValues {
  const zoneName = knownZone(timeZone) ? timeZone : 'UTC';
  const today = localDate(zoneOf(zoneName), now.getTime());
  return { from: dateKey(addDays(today, 1 - DEFAULT_DAYS)), to: dateKey(today), timeZone: zoneName };
}

export type Range = { from: string; to: string; days: string[] };

/**
 * The instants of a range, and each of its days, or what is wrong with it by field. How long a
 * range may be is the operation's rule (it says so against `from`).
 */
export function rangeOf(values: RangeValues): { range: Range } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const zone = knownZone(values.timeZone);
  if (!zone) errors.timeZone = `"${values.timeZone}" is not an IANA time zone (such as America/Chicago)`;
  const from = parseDate(values.from);
  const to = parseDate(values.to);
  if (!from) errors.from = 'enter the first day as a date (YYYY-MM-DD)';
  if (!to) errors.to = 'enter the last day as a date (YYYY-MM-DD)';
  if (from && to && dateKey(from) > dateKey(to)) errors.to = 'the last day is before the first';
  if (!zone || !from || !to || Object.keys(errors).length > 0) return { errors };
  const days: string[] = [];
  // At most a few hundred days: the operation refuses longer windows, and the loop stops there too.
  for (let day = from; dateKey(day) <= dateKey(to) && days.length <= 400; day = addDays(day, 1))
    days.push(dateKey(day));
  return {
    range: {
      from: new Date(localToInstant(zone, from, 0)).toISOString(),
      to: new Date(localToInstant(zone, addDays(to, 1), 0)).toISOString(),
      days,
    },
  };
}
