// The console's results page reads: a date range in a zone as the operation's instants (local
// midnights, a day of 23 or 25 hours across a clock change), the dates it refuses, its default
// (the last 30 days on the given clock, not the machine's), the per-day CSV, and the chart's axis
// and colours.
import { describe, expect, it } from 'vitest';
import { CALL_RESULTS } from '../../src/calls/telephony/telephony.port.js';
import { axisTop, outcomeOf } from '../../src/console/pages/results-charts.js';
import { defaultRange, parseDate, rangeOf } from '../../src/console/results-window.js';
import { resultsPerDayCsv } from '../../src/console/workflow-results-csv.js';

describe('a results date range', () => {
  it('is the local midnights of its first day and of the day after its last, in its zone', () => {
    // New York springs forward on 8 March 2026: that day has 23 hours.
    expect(rangeOf({ from: '2026-03-08', to: '2026-03-08', timeZone: 'America/New_York' })).toEqual({
      range: { from: '2026-03-08T05:00:00.000Z', to: '2026-03-09T04:00:00.000Z', days: ['2026-03-08'] },
    });
    const week = rangeOf({ from: '2026-12-28', to: '2027-01-03', timeZone: 'Asia/Tokyo' });
    expect('range' in week && week.range.days).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
    expect('range' in week && week.range.from).toBe('2026-12-27T15:00:00.000Z');
  });

  it('refuses what is not a day, a last day before the first, and a zone that is not one, by field', () => {
    expect(parseDate('2026-02-30')).toBeNull();
    expect(parseDate('2026-2-3')).toBeNull();
    expect(parseDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(rangeOf({ from: '2026-02-30', to: 'soon', timeZone: 'Mars/Olympus' })).toEqual({
      errors: {
        from: 'enter the first day as a date (YYYY-MM-DD)',
        to: 'enter the last day as a date (YYYY-MM-DD)',
        timeZone: '"Mars/Olympus" is not an IANA time zone (such as America/Chicago)',
      },
    });
    expect(rangeOf({ from: '2026-05-02', to: '2026-05-01', timeZone: 'UTC' })).toEqual({
      errors: { to: 'the last day is before the first' },
    });
  });

  it('defaults to the 30 days up to today on the clock it is given, in the zone (UTC for one that is not)', () => {
    // 03:00 UTC on 1 March is still 28 February in Chicago.
    const now = new Date('2026-03-01T03:00:00.000Z');
    expect(defaultRange(now, 'America/Chicago')).toEqual({
      from: '2026-01-30',
      to: '2026-02-28',
      timeZone: 'America/Chicago',
    });
    expect(defaultRange(now, 'Nowhere/Else')).toEqual({ from: '2026-01-31', to: '2026-03-01', timeZone: 'UTC' });
  });
});

describe('the results page’s CSV and chart', () => {
  it('writes a row per day of the range, days without calls included, and a column per result', () => {
    const csv = resultsPerDayCsv(
      ['2026-05-01', '2026-05-02'],
      [
        {
          date: '2026-05-02',
          calls: 3,
          results: [
            { result: 'no_answer', count: 2 },
            { result: 'converted', count: 1 },
          ],
        },
      ],
    );
    const [header, first, second] = csv.trim().split('\n');
    expect(header).toBe(['date', 'calls', ...CALL_RESULTS].join(','));
    expect(first).toBe(['2026-05-01', 0, ...CALL_RESULTS.map(() => 0)].join(','));
    const counts = Object.fromEntries(CALL_RESULTS.map((r, i) => [r, second.split(',')[i + 2]]));
    expect(counts).toMatchObject({ converted: '1', no_answer: '2', voicemail: '0' });
  });

  it('tops the axis at 1, 2 or 5 times a power of ten, and colours each result by what it did to the contact', () => {
    expect([0, 1, 3, 7, 10, 11, 180, 501].map(axisTop)).toEqual([1, 1, 5, 10, 10, 20, 200, 1000]);
    expect(outcomeOf('converted').status).toBe('converted');
    expect(outcomeOf('not_interested').status).toBe('disqualified');
    expect(outcomeOf('voicemail').status).toBe('not_answered');
    expect(outcomeOf('wrong_number').status).toBe('not_reached');
    expect(outcomeOf('do_not_call').status).toBe('dnc');
  });
});
