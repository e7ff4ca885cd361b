// Public holidays, from date-holidays (a maintained library of the world's holidays): the local
// dates on which a jurisdiction's "no calls on public holidays" rule forbids calls.
//
// Only holidays of type "public" count (days off by law); bank, school and optional days and
// observances do not. A holiday that starts the evening before (Israel's holidays begin at
// sunset) blocks that eve's whole date too, and a holiday longer than a day blocks every date it
// touches: whole local dates, the stricter reading of a holiday that begins at a given hour.
// A country's rule for a contact in no known region of it counts the holidays of every region
// (a French number may belong to someone in Moselle, where Good Friday is a public holiday).
import Holidays from 'date-holidays';

const DAY = 86_400_000;

/**
 * Regions date-holidays lists under a country that have a calling code of their own, so a number
 * of the country is never theirs: France's overseas departments and collectivities (+262, +590,
 * +594, +596), whose holidays (the abolition of slavery's days) are not metropolitan France's.
 */
const REGIONS_WITH_OWN_NUMBERS: Readonly<Record<string, readonly string[]>> = {
  FR: ['YT', 'MQ', 'GP', 'GF', 'RE', 'MF', 'BL'],
};
const byKey = new Map<string, ReadonlySet<string>>();

/**
 * The local dates (YYYY-MM-DD) of `year` that are public holidays for a rule of `jurisdiction`
 * (`FR`, `US-AL`), for a contact whose jurisdictions are `contactJurisdictions`: the country's
 * own holidays, plus those of its region when the contact is known to be in one (`ES-MD`), else
 * plus those of every region.
 */
export function publicHolidayDates(
  jurisdiction: string,
  contactJurisdictions: readonly string[],
  year: number,
): ReadonlySet<string> {
  const [country, ruleRegion] = jurisdiction.split('-');
  const regions = ruleRegion
    ? [ruleRegion]
    : contactJurisdictions.filter((j) => j.startsWith(`${country}-`)).map((j) => j.slice(country.length + 1));
  const key = `${country}:${[...regions].sort().join(',')}:${year}`;
  let dates = byKey.get(key);
  if (!dates) {
    const own = REGIONS_WITH_OWN_NUMBERS[country] ?? [];
    const known = Object.keys(new Holidays().getStates(country) ?? {}).filter((r) => !own.includes(r));
    const chosen = regions.filter((r) => known.includes(r));
    const all = new Set<string>(holidayDates(country, undefined, year));
    for (const region of chosen.length > 0 ? chosen : ruleRegion ? [] : known) {
      for (const date of holidayDates(country, region, year)) all.add(date);
    }
    dates = all;
    byKey.set(key, dates);
  }
  return dates;
}

function holidayDates(country: string, region: string | undefined, year: number): string[] {
  const calendar = region ? new Holidays(country, region) : new Holidays(country);
  const dates: string[] = [];
  // The year before and after too: a holiday on January 1 may begin on December 31's evening.
  for (const y of [year - 1, year, year + 1]) {
    for (const holiday of calendar.getHolidays(y) ?? []) {
      if (holiday.type !== 'public') continue;
      // `date` is the local "YYYY-MM-DD hh:mm:ss" of its start, with an offset when it starts
      // on the day before ("2026-04-02 00:00:00 -0600": the evening of April 1).
      const nominal = Date.UTC(
        Number(holiday.date.slice(0, 4)),
        Number(holiday.date.slice(5, 7)) - 1,
        Number(holiday.date.slice(8, 10)),
      );
      const startsEve = / -\d{4}$/.test(holiday.date);
      const days = Math.max(1, Math.ceil((holiday.end.getTime() - holiday.start.getTime()) / DAY));
      for (let d = startsEve ? -1 : 0; d < days; d++) {
        const date = new Date(nominal + d * DAY).toISOString().slice(0, 10);
        if (date.startsWith(String(year))) dates.push(date);
      }
    }
  }
  return dates;
}
