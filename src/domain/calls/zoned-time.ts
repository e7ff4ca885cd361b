// Wall-clock time in IANA zones, with the built-in Intl as the only time-zone source: the local
// date of an instant, and the instant at which a zone's clock reads a local time. Pure. Used by
// the agents' working hours (calling-hours.rules.ts) and the calling rules' windows.
//
// A local time skipped by a DST jump maps to the first instant after the jump (02:30 on New
// York's spring-forward day -> 03:00 EDT); a repeated local time maps to its first occurrence.

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A calendar date in the zone. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

// --- Intl-based zone math --------------------------------------------------------------------

// Constructing an Intl.DateTimeFormat is far costlier than using one: one per zone name, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

export function zoneOf(timeZone: string): Intl.DateTimeFormat {
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

export function instantOf(date: Date): number {
  const t = date.getTime();
  if (Number.isNaN(t)) throw new Error('Invalid Date passed to calling-hours');
  return t;
}

/** The zone's wall-clock reading at instant `t`, as milliseconds of a UTC-based timeline (whole seconds). */
export function wallClock(zone: Intl.DateTimeFormat, t: number): number {
  return Math.floor(t / 1000) * 1000 + offsetAt(zone, t);
}

/** Intl's own reading of the wall clock (formatToParts: microseconds a call, hence the cache below). */
function readWallClock(zone: Intl.DateTimeFormat, t: number): number {
  const p: Record<string, number> = {};
  for (const part of zone.formatToParts(t)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

const QUARTER_HOUR = 15 * MINUTE;
/** Offsets by zone and UTC quarter hour: the dialer reads the same few zones on the same few days. */
const offsets = new WeakMap<Intl.DateTimeFormat, Map<number, number>>();
const OFFSETS_KEPT = 50_000;

/**
 * The zone's UTC offset at instant `t`, in milliseconds. Offsets change on quarter hours of UTC in
 * every current zone; a quarter hour whose two ends agree is kept, one with a change inside it (an
 * old local mean time) is read from Intl at each call.
 */
export function offsetAt(zone: Intl.DateTimeFormat, t: number): number {
  const bucket = Math.floor(t / QUARTER_HOUR);
  let byBucket = offsets.get(zone);
  if (!byBucket) {
    byBucket = new Map();
    offsets.set(zone, byBucket);
  }
  const kept = byBucket.get(bucket);
  if (kept !== undefined) return kept;
  const start = bucket * QUARTER_HOUR;
  const offset = readWallClock(zone, start) - start;
  const end = start + QUARTER_HOUR - 1000;
  if (readWallClock(zone, end) - end !== offset) return readWallClock(zone, t) - Math.floor(t / 1000) * 1000;
  if (byBucket.size >= OFFSETS_KEPT) byBucket.clear();
  byBucket.set(bucket, offset);
  return offset;
}

export function localDate(zone: Intl.DateTimeFormat, t: number): LocalDate {
  const d = new Date(wallClock(zone, t));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * The instant at which the zone's clock reads `minutes` after midnight of `date` (1440 = next
 * midnight). Repeated local time → first occurrence; skipped local time → first instant after the gap.
 */
export function localToInstant(zone: Intl.DateTimeFormat, date: LocalDate, minutes: number): number {
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

/** The ISO weekday index of a local date: 0 Monday … 6 Sunday. */
export function weekdayIndex(date: LocalDate): number {
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
}

/** A local date as YYYY-MM-DD. */
export function dateKey(date: LocalDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}
