// Calling hours: window membership and the next window start across zones, DST and the date
// line, plus the WorkingHours schema.
import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_WORKING_HOURS,
  WEEKDAYS,
  WorkingHoursSchema,
  isWithinWorkingHours,
  nextWindowStart,
  type WorkingHours,
} from '../../../src/domain/calls/calling-hours.rules.js';

const at = (iso: string) => new Date(iso);
const next = (hours: WorkingHours, zone: string, from: string) =>
  nextWindowStart(hours, zone, at(from))?.toISOString() ?? null;

const SPLIT_MONDAY: WorkingHours = {
  mon: [
    { start: '13:00', end: '17:00' },
    { start: '09:00', end: '12:00' },
  ],
};
const LATE_SATURDAY: WorkingHours = { sat: [{ start: '22:00', end: '24:00' }] };
const ALL_DAY_SUNDAY: WorkingHours = { sun: [{ start: '00:00', end: '24:00' }] };

// 2026: Mon Jan 5, Fri Jan 9, Mon Jan 12. New York springs forward Sun Mar 8 (02:00 → 03:00) and
// falls back Sun Nov 1 (02:00 → 01:00). Lord Howe falls back Sun Apr 5 (02:00 → 01:30, +11 → +10:30)
// and springs forward Sun Oct 4 (02:00 → 02:30). Santiago falls back Sat Apr 4 24:00 → 23:00 and
// springs forward Sun Sep 6 00:00 → 01:00.

describe('nextWindowStart', () => {
  it.each<[string, WorkingHours, string, string, string | null]>([
    // name, hours, zone, from, expected
    [
      'inside a window returns from',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-01-05T15:00:00.123Z',
      '2026-01-05T15:00:00.123Z',
    ],
    [
      'exactly at a start returns from',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-01-05T14:00:00.000Z',
      '2026-01-05T14:00:00.000Z',
    ],
    [
      'before the window opens the same day',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-01-05T12:00:00.000Z',
      '2026-01-05T14:00:00.000Z',
    ],
    [
      'at the end (exclusive) moves to the next day',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-01-05T22:00:00.000Z',
      '2026-01-06T14:00:00.000Z',
    ],
    [
      'Friday evening → Monday morning (New York)',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-01-09T23:30:00.000Z',
      '2026-01-12T14:00:00.000Z',
    ],
    [
      'Friday evening → Monday morning (Los Angeles, UTC Saturday)',
      DEFAULT_WORKING_HOURS,
      'America/Los_Angeles',
      '2026-01-10T02:00:00.000Z',
      '2026-01-12T17:00:00.000Z',
    ],
    [
      'Saturday → Monday (Berlin)',
      DEFAULT_WORKING_HOURS,
      'Europe/Berlin',
      '2026-01-10T12:00:00.000Z',
      '2026-01-12T08:00:00.000Z',
    ],
    [
      'Friday evening → Monday across spring-forward',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-03-06T23:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ],
    [
      'Friday evening → Monday across fall-back',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-10-30T22:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
    ],
    ['UTC', DEFAULT_WORKING_HOURS, 'UTC', '2026-01-09T17:00:00.000Z', '2026-01-12T09:00:00.000Z'],

    // Non-hour offsets.
    [
      'Kolkata +05:30 before opening',
      DEFAULT_WORKING_HOURS,
      'Asia/Kolkata',
      '2026-01-05T00:00:00.000Z',
      '2026-01-05T03:30:00.000Z',
    ],
    [
      'Kolkata +05:30 Friday evening',
      DEFAULT_WORKING_HOURS,
      'Asia/Kolkata',
      '2026-01-09T11:30:00.000Z',
      '2026-01-12T03:30:00.000Z',
    ],
    [
      'Kathmandu +05:45 before opening',
      DEFAULT_WORKING_HOURS,
      'Asia/Kathmandu',
      '2026-01-05T00:00:00.000Z',
      '2026-01-05T03:15:00.000Z',
    ],
    [
      'Kathmandu +05:45 Friday at closing',
      DEFAULT_WORKING_HOURS,
      'Asia/Kathmandu',
      '2026-01-09T11:15:00.000Z',
      '2026-01-12T03:15:00.000Z',
    ],
    [
      'Lord Howe summer +11',
      DEFAULT_WORKING_HOURS,
      'Australia/Lord_Howe',
      '2026-01-04T12:00:00.000Z',
      '2026-01-04T22:00:00.000Z',
    ],
    [
      'Lord Howe winter +10:30',
      DEFAULT_WORKING_HOURS,
      'Australia/Lord_Howe',
      '2026-07-05T12:00:00.000Z',
      '2026-07-05T22:30:00.000Z',
    ],
    [
      'Lord Howe: 02:15 skipped on spring-forward → 02:30 (+11)',
      { sun: [{ start: '02:15', end: '03:00' }] },
      'Australia/Lord_Howe',
      '2026-10-03T12:00:00.000Z',
      '2026-10-03T15:30:00.000Z',
    ],
    [
      'Lord Howe: repeated 01:45 on fall-back → first (+11)',
      { sun: [{ start: '01:45', end: '03:00' }] },
      'Australia/Lord_Howe',
      '2026-04-04T12:00:00.000Z',
      '2026-04-04T14:45:00.000Z',
    ],
    [
      'Lord Howe: from in the second 01:45 → still inside',
      { sun: [{ start: '01:45', end: '03:00' }] },
      'Australia/Lord_Howe',
      '2026-04-04T15:15:00.000Z',
      '2026-04-04T15:15:00.000Z',
    ],

    // Across the date line.
    [
      'Kiritimati +14: UTC Sunday is local Monday',
      DEFAULT_WORKING_HOURS,
      'Pacific/Kiritimati',
      '2026-01-04T12:00:00.000Z',
      '2026-01-04T19:00:00.000Z',
    ],
    [
      'Kiritimati +14: Friday evening → Monday',
      DEFAULT_WORKING_HOURS,
      'Pacific/Kiritimati',
      '2026-01-09T03:30:00.000Z',
      '2026-01-11T19:00:00.000Z',
    ],
    [
      'Pago Pago -11: UTC Monday is local Sunday',
      DEFAULT_WORKING_HOURS,
      'Pacific/Pago_Pago',
      '2026-01-05T05:00:00.000Z',
      '2026-01-05T20:00:00.000Z',
    ],
    [
      'Pago Pago -11: UTC Saturday is local Friday, inside',
      DEFAULT_WORKING_HOURS,
      'Pacific/Pago_Pago',
      '2026-01-10T03:00:00.000Z',
      '2026-01-10T03:00:00.000Z',
    ],
    [
      'Pago Pago -11: Friday evening → Monday',
      DEFAULT_WORKING_HOURS,
      'Pacific/Pago_Pago',
      '2026-01-10T05:00:00.000Z',
      '2026-01-12T20:00:00.000Z',
    ],
    [
      'Apia skipped Fri 2011-12-30 → the next Friday',
      { fri: [{ start: '09:00', end: '10:00' }] },
      'Pacific/Apia',
      '2011-12-29T20:00:00.000Z',
      '2012-01-05T19:00:00.000Z',
    ],

    // New York DST.
    [
      'spring-forward: 02:30 starts at 03:00 EDT',
      { sun: [{ start: '02:30', end: '04:00' }] },
      'America/New_York',
      '2026-03-08T00:00:00.000Z',
      '2026-03-08T07:00:00.000Z',
    ],
    [
      'spring-forward: window before the gap keeps EST',
      { sun: [{ start: '01:15', end: '01:45' }] },
      'America/New_York',
      '2026-03-08T00:00:00.000Z',
      '2026-03-08T06:15:00.000Z',
    ],
    [
      'spring-forward: window inside the gap is empty → next Sunday',
      { sun: [{ start: '02:00', end: '02:45' }] },
      'America/New_York',
      '2026-03-07T12:00:00.000Z',
      '2026-03-15T06:00:00.000Z',
    ],
    [
      'spring-forward: window ending in the gap ends at 03:00 EDT',
      { sun: [{ start: '01:30', end: '02:30' }] },
      'America/New_York',
      '2026-03-08T06:59:00.000Z',
      '2026-03-08T06:59:00.000Z',
    ],
    [
      'spring-forward: ...and not after it',
      { sun: [{ start: '01:30', end: '02:30' }] },
      'America/New_York',
      '2026-03-08T07:00:00.000Z',
      '2026-03-15T05:30:00.000Z',
    ],
    [
      'fall-back: repeated 01:30 → first occurrence (EDT)',
      { sun: [{ start: '01:30', end: '03:00' }] },
      'America/New_York',
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T05:30:00.000Z',
    ],
    [
      'fall-back: from in the second 01:15 is inside 01:00–03:00',
      { sun: [{ start: '01:00', end: '03:00' }] },
      'America/New_York',
      '2026-11-01T06:15:00.000Z',
      '2026-11-01T06:15:00.000Z',
    ],
    [
      'fall-back: 01:00–01:30 ends at the first 01:30',
      { sun: [{ start: '01:00', end: '01:30' }] },
      'America/New_York',
      '2026-11-01T05:30:00.000Z',
      '2026-11-08T06:00:00.000Z',
    ],

    // Windows ending at 24:00.
    [
      '24:00 end: inside just before midnight',
      LATE_SATURDAY,
      'Europe/Berlin',
      '2026-01-10T22:59:59.999Z',
      '2026-01-10T22:59:59.999Z',
    ],
    [
      '24:00 end: midnight is outside → next Saturday',
      LATE_SATURDAY,
      'Europe/Berlin',
      '2026-01-10T23:00:00.000Z',
      '2026-01-17T21:00:00.000Z',
    ],
    [
      '24:00 end: whole day window',
      ALL_DAY_SUNDAY,
      'Asia/Kathmandu',
      '2026-01-05T00:00:00.000Z',
      '2026-01-10T18:15:00.000Z',
    ],
    [
      '24:00 end falling in a gap (Santiago) ends at 01:00 -03',
      LATE_SATURDAY,
      'America/Santiago',
      '2026-09-06T03:59:00.000Z',
      '2026-09-06T03:59:00.000Z',
    ],
    [
      'Santiago: Sunday 00:00 skipped → 01:00 -03',
      ALL_DAY_SUNDAY,
      'America/Santiago',
      '2026-09-05T12:00:00.000Z',
      '2026-09-06T04:00:00.000Z',
    ],
    [
      'Santiago: repeated Saturday 23:30 → first (-03)',
      { sat: [{ start: '23:30', end: '24:00' }] },
      'America/Santiago',
      '2026-04-04T12:00:00.000Z',
      '2026-04-05T02:30:00.000Z',
    ],

    // Two windows on one day (given out of order).
    [
      'split day: before the first window',
      SPLIT_MONDAY,
      'Europe/London',
      '2026-01-05T08:00:00.000Z',
      '2026-01-05T09:00:00.000Z',
    ],
    [
      'split day: inside the first',
      SPLIT_MONDAY,
      'Europe/London',
      '2026-01-05T11:59:00.000Z',
      '2026-01-05T11:59:00.000Z',
    ],
    [
      'split day: in the lunch gap → second window',
      SPLIT_MONDAY,
      'Europe/London',
      '2026-01-05T12:00:00.000Z',
      '2026-01-05T13:00:00.000Z',
    ],
    [
      'split day: inside the second',
      SPLIT_MONDAY,
      'Europe/London',
      '2026-01-05T16:59:59.999Z',
      '2026-01-05T16:59:59.999Z',
    ],
    [
      'split day: after both → next Monday',
      SPLIT_MONDAY,
      'Europe/London',
      '2026-01-05T17:00:00.000Z',
      '2026-01-12T09:00:00.000Z',
    ],
    [
      'split day in Kolkata: lunch gap',
      SPLIT_MONDAY,
      'Asia/Kolkata',
      '2026-01-05T06:45:00.000Z',
      '2026-01-05T07:30:00.000Z',
    ],

    // No windows.
    ['no days', {}, 'America/New_York', '2026-01-05T12:00:00.000Z', null],
    ['only empty days', { mon: [], fri: [] }, 'America/New_York', '2026-01-05T12:00:00.000Z', null],
    [
      'exactly 7 days ahead',
      { mon: [{ start: '09:00', end: '10:00' }] },
      'UTC',
      '2026-01-05T10:00:00.000Z',
      '2026-01-12T09:00:00.000Z',
    ],
  ])('%s', (_name, hours, zone, from, expected) => {
    expect(next(hours, zone, from)).toBe(expected);
  });

  it('returns a new Date equal to `from` when inside, never `from` itself', () => {
    const from = at('2026-01-05T15:00:00.000Z');
    const result = nextWindowStart(DEFAULT_WORKING_HOURS, 'America/New_York', from);
    expect(result).not.toBe(from);
    expect(result?.getTime()).toBe(from.getTime());
  });
});

describe('isWithinWorkingHours', () => {
  it.each<[string, WorkingHours, string, string, boolean]>([
    ['New York Monday 09:00 EST', DEFAULT_WORKING_HOURS, 'America/New_York', '2026-01-05T14:00:00.000Z', true],
    ['New York Monday 08:59 EST', DEFAULT_WORKING_HOURS, 'America/New_York', '2026-01-05T13:59:59.999Z', false],
    [
      'New York Monday 17:00 EST (end exclusive)',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-01-05T22:00:00.000Z',
      false,
    ],
    ['New York Friday 16:59 EST', DEFAULT_WORKING_HOURS, 'America/New_York', '2026-01-09T21:59:00.000Z', true],
    ['New York Saturday noon', DEFAULT_WORKING_HOURS, 'America/New_York', '2026-01-10T17:00:00.000Z', false],
    ['New York 09:00 EDT in summer', DEFAULT_WORKING_HOURS, 'America/New_York', '2026-07-06T13:00:00.000Z', true],
    [
      'New York 08:00 EDT in summer (09:00 EST would be inside)',
      DEFAULT_WORKING_HOURS,
      'America/New_York',
      '2026-07-06T12:00:00.000Z',
      false,
    ],
    ['Kolkata 09:00 IST', DEFAULT_WORKING_HOURS, 'Asia/Kolkata', '2026-01-05T03:30:00.000Z', true],
    ['Kolkata 08:59 IST', DEFAULT_WORKING_HOURS, 'Asia/Kolkata', '2026-01-05T03:29:00.000Z', false],
    ['Kolkata 16:59 IST', DEFAULT_WORKING_HOURS, 'Asia/Kolkata', '2026-01-05T11:29:00.000Z', true],
    ['Kolkata 17:00 IST', DEFAULT_WORKING_HOURS, 'Asia/Kolkata', '2026-01-05T11:30:00.000Z', false],
    ['Kathmandu 09:00 NPT', DEFAULT_WORKING_HOURS, 'Asia/Kathmandu', '2026-01-05T03:15:00.000Z', true],
    ['Kathmandu 08:59 NPT', DEFAULT_WORKING_HOURS, 'Asia/Kathmandu', '2026-01-05T03:14:00.000Z', false],
    ['Lord Howe 09:00 +11 (summer)', DEFAULT_WORKING_HOURS, 'Australia/Lord_Howe', '2026-01-04T22:00:00.000Z', true],
    ['Lord Howe 08:30 +11 (summer)', DEFAULT_WORKING_HOURS, 'Australia/Lord_Howe', '2026-01-04T21:30:00.000Z', false],
    ['Lord Howe 09:00 +10:30 (winter)', DEFAULT_WORKING_HOURS, 'Australia/Lord_Howe', '2026-07-05T22:30:00.000Z', true],
    [
      'Lord Howe 08:30 +10:30 (winter)',
      DEFAULT_WORKING_HOURS,
      'Australia/Lord_Howe',
      '2026-07-05T22:00:00.000Z',
      false,
    ],
    [
      'Kiritimati: UTC Sunday 20:00 is Monday 10:00',
      DEFAULT_WORKING_HOURS,
      'Pacific/Kiritimati',
      '2026-01-04T20:00:00.000Z',
      true,
    ],
    [
      'Kiritimati: UTC Friday 20:00 is Saturday 10:00',
      DEFAULT_WORKING_HOURS,
      'Pacific/Kiritimati',
      '2026-01-09T20:00:00.000Z',
      false,
    ],
    [
      'Pago Pago: UTC Monday 10:00 is Sunday 23:00',
      DEFAULT_WORKING_HOURS,
      'Pacific/Pago_Pago',
      '2026-01-05T10:00:00.000Z',
      false,
    ],
    [
      'Pago Pago: UTC Saturday 03:00 is Friday 16:00',
      DEFAULT_WORKING_HOURS,
      'Pacific/Pago_Pago',
      '2026-01-10T03:00:00.000Z',
      true,
    ],
    ['split day: morning', SPLIT_MONDAY, 'Europe/London', '2026-01-05T10:00:00.000Z', true],
    ['split day: 12:00 (end exclusive)', SPLIT_MONDAY, 'Europe/London', '2026-01-05T12:00:00.000Z', false],
    ['split day: 12:59', SPLIT_MONDAY, 'Europe/London', '2026-01-05T12:59:59.999Z', false],
    ['split day: 13:00', SPLIT_MONDAY, 'Europe/London', '2026-01-05T13:00:00.000Z', true],
    ['split day: Tuesday', SPLIT_MONDAY, 'Europe/London', '2026-01-06T10:00:00.000Z', false],
    ['24:00 end: 23:59:59.999', LATE_SATURDAY, 'Europe/Berlin', '2026-01-10T22:59:59.999Z', true],
    ['24:00 end: Sunday 00:00', LATE_SATURDAY, 'Europe/Berlin', '2026-01-10T23:00:00.000Z', false],
    ['00:00–24:00: midnight starting the day', ALL_DAY_SUNDAY, 'UTC', '2026-01-11T00:00:00.000Z', true],
    ['00:00–24:00: midnight ending the day', ALL_DAY_SUNDAY, 'UTC', '2026-01-12T00:00:00.000Z', false],
    [
      'spring-forward: 03:00 EDT inside 02:30–04:00',
      { sun: [{ start: '02:30', end: '04:00' }] },
      'America/New_York',
      '2026-03-08T07:00:00.000Z',
      true,
    ],
    [
      'spring-forward: 01:59 EST outside 02:30–04:00',
      { sun: [{ start: '02:30', end: '04:00' }] },
      'America/New_York',
      '2026-03-08T06:59:00.000Z',
      false,
    ],
    [
      'fall-back: first 01:15 inside 01:00–01:30',
      { sun: [{ start: '01:00', end: '01:30' }] },
      'America/New_York',
      '2026-11-01T05:15:00.000Z',
      true,
    ],
    [
      'fall-back: second 01:15 outside 01:00–01:30 (window ends at the first 01:30)',
      { sun: [{ start: '01:00', end: '01:30' }] },
      'America/New_York',
      '2026-11-01T06:15:00.000Z',
      false,
    ],
    [
      'fall-back: second 01:15 inside 01:00–03:00',
      { sun: [{ start: '01:00', end: '03:00' }] },
      'America/New_York',
      '2026-11-01T06:15:00.000Z',
      true,
    ],
    [
      'Santiago: second Saturday 23:30 inside 22:00–24:00',
      LATE_SATURDAY,
      'America/Santiago',
      '2026-04-05T03:30:00.000Z',
      true,
    ],
    ['no windows', {}, 'UTC', '2026-01-05T10:00:00.000Z', false],
  ])('%s', (_name, hours, zone, instant, expected) => {
    expect(isWithinWorkingHours(hours, zone, at(instant))).toBe(expected);
  });
});

describe('agreement with an independent wall-clock oracle', () => {
  // Outside DST transitions, membership is just "local weekday + HH:MM falls in a window".
  const formats = new Map<string, Intl.DateTimeFormat>();
  const oracle = (hours: WorkingHours, zone: string, t: Date) => {
    if (!formats.has(zone))
      formats.set(
        zone,
        new Intl.DateTimeFormat('en-US', {
          timeZone: zone,
          weekday: 'short',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }),
      );
    const parts = formats.get(zone)!.formatToParts(t);
    const get = (type: string) => parts.find((p) => p.type === type)!.value;
    const weekday = WEEKDAYS.find((d) => d === get('weekday').toLowerCase())!;
    const hhmm = `${get('hour')}:${get('minute')}`;
    return (hours[weekday] ?? []).some((w) => w.start <= hhmm && hhmm < w.end);
  };
  const hours: WorkingHours = {
    ...SPLIT_MONDAY,
    tue: [
      { start: '00:00', end: '00:30' },
      { start: '08:15', end: '17:45' },
    ],
    thu: [{ start: '09:00', end: '17:00' }],
    sat: [{ start: '22:00', end: '24:00' }],
  };
  const zones = [
    'America/New_York',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'Pacific/Kiritimati',
    'Pacific/Pago_Pago',
    'Europe/London',
  ];

  it.each(zones)('%s: a January week in 15-minute steps', (zone) => {
    for (let t = Date.parse('2026-01-04T00:00:00Z'); t < Date.parse('2026-01-12T00:00:00Z'); t += 15 * 60_000) {
      const date = new Date(t);
      const inside = oracle(hours, zone, date);
      expect(isWithinWorkingHours(hours, zone, date), date.toISOString()).toBe(inside);
      expect(nextWindowStart(hours, zone, date)?.getTime() === t, date.toISOString()).toBe(inside);
    }
  });
});

describe('consistency across DST weeks', () => {
  // nextWindowStart(t) = n means [t, n) is outside and n is inside; isWithin(t) ⇔ n = t.
  const hours: WorkingHours = {
    ...DEFAULT_WORKING_HOURS,
    sat: [{ start: '22:00', end: '24:00' }],
    sun: [
      { start: '00:00', end: '01:30' },
      { start: '01:45', end: '02:45' },
    ],
  };
  const cases: Array<[string, string]> = [
    ['America/New_York', '2026-03-06T00:00:00Z'],
    ['America/New_York', '2026-10-30T00:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-02T00:00:00Z'],
    ['Australia/Lord_Howe', '2026-10-01T00:00:00Z'],
    ['America/Santiago', '2026-04-02T00:00:00Z'],
    ['America/Santiago', '2026-09-04T00:00:00Z'],
  ];

  it.each(cases)('%s from %s', (zone, fromIso) => {
    const start = Date.parse(fromIso);
    for (let t = start; t < start + 4 * 86_400_000; t += 7 * 60_000) {
      const n = nextWindowStart(hours, zone, new Date(t))!.getTime();
      expect(n).toBeGreaterThanOrEqual(t);
      expect(isWithinWorkingHours(hours, zone, new Date(t))).toBe(n === t);
      expect(isWithinWorkingHours(hours, zone, new Date(n))).toBe(true);
      if (n > t) expect(isWithinWorkingHours(hours, zone, new Date(n - 1))).toBe(false);
    }
  });
});

describe('formatter reuse', () => {
  it('constructs one Intl.DateTimeFormat per zone, not per call', () => {
    // A zone no other suite asks about: a test worker's files share this module and its cache.
    const Original = Intl.DateTimeFormat;
    const spy = vi
      .spyOn(Intl, 'DateTimeFormat')
      .mockImplementation(
        ((...args: ConstructorParameters<typeof Original>) => new Original(...args)) as unknown as typeof Original,
      );
    try {
      for (let i = 0; i < 50; i++) {
        const t = new Date(Date.parse('2026-01-05T00:00:00Z') + i * 3_600_000);
        isWithinWorkingHours(DEFAULT_WORKING_HOURS, 'Antarctica/Troll', t);
        nextWindowStart(DEFAULT_WORKING_HOURS, 'Antarctica/Troll', t);
      }
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('invalid input', () => {
  it.each(['Mars/Olympus', 'America/NewYork', ''])('throws a clear Error for the time zone %j', (zone) => {
    expect(() => isWithinWorkingHours(DEFAULT_WORKING_HOURS, zone, at('2026-01-05T12:00:00Z'))).toThrow(
      /^Unknown time zone/,
    );
    expect(() => nextWindowStart(DEFAULT_WORKING_HOURS, zone, at('2026-01-05T12:00:00Z'))).toThrow(
      /^Unknown time zone/,
    );
  });

  it('throws on an unknown zone even when there are no windows', () => {
    expect(() => nextWindowStart({}, 'Nowhere/Town', at('2026-01-05T12:00:00Z'))).toThrow(Error);
  });

  it('throws on an invalid Date', () => {
    expect(() => isWithinWorkingHours(DEFAULT_WORKING_HOURS, 'UTC', new Date(Number.NaN))).toThrow(/Invalid Date/);
    expect(() => nextWindowStart(DEFAULT_WORKING_HOURS, 'UTC', new Date(Number.NaN))).toThrow(/Invalid Date/);
  });
});

describe('WorkingHoursSchema', () => {
  it.each<[string, unknown]>([
    ['the default', DEFAULT_WORKING_HOURS],
    ['no days', {}],
    ['an empty day', { mon: [] }],
    ['two windows', SPLIT_MONDAY],
    [
      'touching windows',
      {
        tue: [
          { start: '09:00', end: '12:00' },
          { start: '12:00', end: '17:00' },
        ],
      },
    ],
    ['whole day with 24:00', { sun: [{ start: '00:00', end: '24:00' }] }],
    ['23:59 start', { sun: [{ start: '23:59', end: '24:00' }] }],
    ['all seven days', Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '08:00', end: '20:00' }]]))],
  ])('accepts %s', (_name, value) => {
    expect(WorkingHoursSchema.safeParse(value).success).toBe(true);
  });

  it.each<[string, unknown, string, RegExp]>([
    ['one-digit hour', { mon: [{ start: '9:00', end: '17:00' }] }, 'mon.0.start', /HH:MM/],
    ['one-digit minute', { mon: [{ start: '09:0', end: '17:00' }] }, 'mon.0.start', /HH:MM/],
    ['seconds', { mon: [{ start: '09:00:00', end: '17:00' }] }, 'mon.0.start', /HH:MM/],
    ['hour 25', { mon: [{ start: '09:00', end: '25:00' }] }, 'mon.0.end', /HH:MM/],
    ['minute 60', { mon: [{ start: '09:60', end: '17:00' }] }, 'mon.0.start', /HH:MM/],
    ['24:00 as a start', { mon: [{ start: '24:00', end: '24:00' }] }, 'mon.0.start', /00:00 and 23:59/],
    ['24:01 end', { mon: [{ start: '09:00', end: '24:01' }] }, 'mon.0.end', /24:00/],
    ['12-hour clock', { mon: [{ start: '9am', end: '5pm' }] }, 'mon.0.start', /HH:MM/],
    ['a number', { mon: [{ start: 900, end: '17:00' }] }, 'mon.0.start', /string/],
    ['missing end', { mon: [{ start: '09:00' }] }, 'mon.0.end', /.+/],
    [
      'start equal to end',
      { mon: [{ start: '09:00', end: '09:00' }] },
      'mon.0',
      /start 09:00 must be before end 09:00/,
    ],
    ['start after end', { wed: [{ start: '17:00', end: '09:00' }] }, 'wed.0', /start 17:00 must be before end 09:00/],
    [
      'overlapping windows',
      {
        tue: [
          { start: '09:00', end: '12:00' },
          { start: '11:00', end: '14:00' },
        ],
      },
      'tue.1',
      /11:00–14:00 overlaps window 09:00–12:00/,
    ],
    [
      'a contained window, listed first',
      {
        fri: [
          { start: '10:00', end: '11:00' },
          { start: '09:00', end: '17:00' },
        ],
      },
      'fri.0',
      /10:00–11:00 overlaps window 09:00–17:00/,
    ],
    [
      'duplicate windows',
      {
        sat: [
          { start: '09:00', end: '10:00' },
          { start: '09:00', end: '10:00' },
        ],
      },
      'sat.1',
      /overlaps/,
    ],
    [
      'unknown weekday key',
      { monday: [{ start: '09:00', end: '17:00' }] },
      '',
      /unknown weekday 'monday'; expected mon, tue, wed, thu, fri, sat, sun/,
    ],
    ['capitalised weekday key', { Mon: [] }, '', /unknown weekday 'Mon'/],
    ['extra window field', { mon: [{ start: '09:00', end: '17:00', tz: 'UTC' }] }, 'mon.0', /.+/],
    ['a day that is not a list', { mon: { start: '09:00', end: '17:00' } }, 'mon', /array/],
    ['null day', { mon: null }, 'mon', /.+/],
    ['not an object', 'mon-fri 9-5', '', /object/],
  ])('rejects %s', (_name, value, path, message) => {
    const result = WorkingHoursSchema.safeParse(value);
    expect(result.success).toBe(false);
    const issue = result.error!.issues.find((i) => i.path.join('.') === path);
    expect(issue, JSON.stringify(result.error!.issues)).toBeDefined();
    expect(issue!.message).toMatch(message);
  });

  it('reports every overlap and bad window in one pass', () => {
    const result = WorkingHoursSchema.safeParse({
      mon: [
        { start: '09:00', end: '12:00' },
        { start: '10:00', end: '11:00' },
        { start: '11:30', end: '13:00' },
        { start: '18:00', end: '17:00' },
      ],
    });
    expect(result.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['mon.1', 'mon.2', 'mon.3']);
  });

  it('DEFAULT_WORKING_HOURS is Monday–Friday 09:00–17:00', () => {
    expect(DEFAULT_WORKING_HOURS).toEqual(
      Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '09:00', end: '17:00' }]])),
    );
  });
});
