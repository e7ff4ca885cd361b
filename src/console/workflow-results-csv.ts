// A workflow's results per day as CSV, for a spreadsheet: a row per day of the range (days
// without calls included, so the series has no gaps), its calls, then one column per result in
// the contract's order.
import { stringify } from 'csv-stringify/sync';
import { CALL_RESULTS } from '../calls/telephony/telephony.port.js';

export interface DayRow {
  date: string;
  calls: number;
  results: Array<{ result: string; count: number }>;
}

export function resultsPerDayCsv(days: string[], results: DayRow[]): string {
  const byDate = new Map(results.map((d) => [d.date, d]));
  const rows = days.map((date) => {
    const day = byDate.get(date);
    const counts = new Map(day?.results.map((r) => [r.result, r.count]) ?? []);
    return [date, day?.calls ?? 0, ...CALL_RESULTS.map((result) => counts.get(result) ?? 0)];
  });
  return stringify(rows, { header: true, columns: ['date', 'calls', ...CALL_RESULTS] });
}
