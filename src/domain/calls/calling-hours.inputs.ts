// Input schema for an agent's working hours: per ISO weekday, non-overlapping [start, end)
// windows of local "HH:MM" times. The single source of the format rules; calling-hours.rules.ts
// re-exports everything here.
import { z } from 'zod';

/** Weekday keys, ISO order. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Per weekday a list of [start, end) windows as "HH:MM" local times; a missing or empty day = no calling. "24:00" allowed as an end. Windows may not overlap; start < end. */
export type WorkingHours = Partial<Record<Weekday, Array<{ start: string; end: string }>>>;

/** Monday to Friday, 09:00–17:00. */
export const DEFAULT_WORKING_HOURS: WorkingHours = {
  mon: [{ start: '09:00', end: '17:00' }],
  tue: [{ start: '09:00', end: '17:00' }],
  wed: [{ start: '09:00', end: '17:00' }],
  thu: [{ start: '09:00', end: '17:00' }],
  fri: [{ start: '09:00', end: '17:00' }],
};

export const TIME_PATTERN = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
export const END_TIME_PATTERN = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** "HH:MM" → minutes after local midnight ("24:00" → 1440). Throws on anything else. */
export function timeToMinutes(time: string): number {
  if (!END_TIME_PATTERN.test(time)) throw new Error(`Invalid working-hours time "${time}": expected HH:MM`);
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

const windowSchema = z.strictObject({
  start: z.string().regex(TIME_PATTERN, 'must be a time HH:MM between 00:00 and 23:59'),
  end: z.string().regex(END_TIME_PATTERN, 'must be a time HH:MM between 00:01 and 24:00'),
});

const day = z.array(windowSchema).superRefine((windows, ctx) => {
  // Format errors are reported by `window`; ordering and overlap are checked on well-formed windows only.
  const wellFormed: Array<{ i: number; start: number; end: number; label: string }> = [];
  windows.forEach((w, i) => {
    if (!TIME_PATTERN.test(w.start) || !END_TIME_PATTERN.test(w.end)) return;
    const start = timeToMinutes(w.start);
    const end = timeToMinutes(w.end);
    if (start >= end)
      ctx.addIssue({ code: 'custom', path: [i], message: `start ${w.start} must be before end ${w.end}` });
    else wellFormed.push({ i, start, end, label: `${w.start}–${w.end}` });
  });
  // Sorted by start, each window must begin at or after the latest end so far; touching
  // windows ([09:00, 12:00) then [12:00, 17:00)) do not overlap.
  wellFormed.sort((a, b) => a.start - b.start);
  let latest = wellFormed[0];
  for (const cur of wellFormed.slice(1)) {
    if (cur.start < latest.end)
      ctx.addIssue({ code: 'custom', path: [cur.i], message: `window ${cur.label} overlaps window ${latest.label}` });
    if (cur.end > latest.end) latest = cur;
  }
});

/** Validates WorkingHours: known weekday keys only, HH:MM times, start < end, no overlaps within a day. */
export const WorkingHoursSchema: z.ZodType<WorkingHours> = z.strictObject(
  {
    mon: day.optional(),
    tue: day.optional(),
    wed: day.optional(),
    thu: day.optional(),
    fri: day.optional(),
    sat: day.optional(),
    sun: day.optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown weekday ${issue.keys.map((k) => `'${k}'`).join(', ')}; expected ${WEEKDAYS.join(', ')}`
        : undefined,
  },
);
