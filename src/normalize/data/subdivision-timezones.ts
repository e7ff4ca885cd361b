// Time zone of each US state, district and territory and each Canadian province and territory:
// no package has this. A subdivision gets a zone only when the whole of it keeps one clock;
// null marks a subdivision split between clocks (its contacts fall back to the phone's area
// code, which is finer grained).
//
// Sources, checked November 2026:
// - US: the federal time zone boundaries (49 CFR Part 71) and the IANA tz database's zone.tab
//   comments (for example America/Phoenix "MST - AZ (except Navajo)", America/Boise
//   "Mountain - ID (south); OR (east)", America/Menominee "Central - MI (Wisconsin border)").
//   Local habits without legal force (Phenix City, AL on Eastern; Kenton, OK on Mountain) do
//   not split a state.
// - Canada: provincial time laws and zone.tab (America/Edmonton "MST/MDT - AB; BC(E); NT(E);
//   SK(W)", America/Winnipeg "Central - ON (west); Manitoba").
//
// Values are @vvo/tzdb group names, the one name this service uses for zones that currently
// behave the same (New Brunswick's America/Moncton is America/Halifax), so a zone read from a
// location equals the zone read from a phone number.

/**
 * ISO 3166-2 code → IANA time zone, or null when the subdivision is split between clocks.
 * A code not listed here falls back to its country's rule.
 */
export const SUBDIVISION_TIMEZONES: Readonly<Record<string, string | null>> = {
  // United States: states and the District of Columbia.
  'US-AL': 'America/Chicago',
  'US-AK': null, // Alaska time, but the western Aleutians (America/Adak) are on Hawaii-Aleutian time.
  'US-AZ': null, // No DST, but the Navajo Nation observes it (Mountain time with DST).
  'US-AR': 'America/Chicago',
  'US-CA': 'America/Los_Angeles',
  'US-CO': 'America/Denver',
  'US-CT': 'America/New_York',
  'US-DE': 'America/New_York',
  'US-DC': 'America/New_York',
  'US-FL': null, // The western panhandle is on Central time.
  'US-GA': 'America/New_York',
  'US-HI': 'Pacific/Honolulu',
  'US-ID': null, // The north is on Pacific time, the south on Mountain.
  'US-IL': 'America/Chicago',
  'US-IN': null, // Eastern, with counties near Chicago and Evansville on Central.
  'US-IA': 'America/Chicago',
  'US-KS': null, // Four western counties are on Mountain time.
  'US-KY': null, // The east is on Eastern time, the west on Central.
  'US-LA': 'America/Chicago',
  'US-ME': 'America/New_York',
  'US-MD': 'America/New_York',
  'US-MA': 'America/New_York',
  'US-MI': null, // Four Upper Peninsula counties on the Wisconsin border are on Central time.
  'US-MN': 'America/Chicago',
  'US-MS': 'America/Chicago',
  'US-MO': 'America/Chicago',
  'US-MT': 'America/Denver',
  'US-NE': null, // The western panhandle is on Mountain time.
  'US-NV': null, // Pacific, but West Wendover has been on Mountain time by federal rule since 1999.
  'US-NH': 'America/New_York',
  'US-NJ': 'America/New_York',
  'US-NM': 'America/Denver',
  'US-NY': 'America/New_York',
  'US-NC': 'America/New_York',
  'US-ND': null, // The southwest is on Mountain time.
  'US-OH': 'America/New_York',
  'US-OK': 'America/Chicago',
  'US-OR': null, // Most of Malheur County is on Mountain time.
  'US-PA': 'America/New_York',
  'US-RI': 'America/New_York',
  'US-SC': 'America/New_York',
  'US-SD': null, // The west is on Mountain time.
  'US-TN': null, // East Tennessee is on Eastern time, the rest on Central.
  'US-TX': null, // El Paso and Hudspeth counties are on Mountain time.
  'US-UT': 'America/Denver',
  'US-VT': 'America/New_York',
  'US-VA': 'America/New_York',
  'US-WA': 'America/Los_Angeles',
  'US-WV': 'America/New_York',
  'US-WI': 'America/Chicago',
  'US-WY': 'America/Denver',

  // United States: territories (the same zones as their own country codes AS, GU, MP, PR, VI).
  'US-AS': 'Pacific/Pago_Pago',
  'US-GU': 'Pacific/Guam',
  'US-MP': 'Pacific/Saipan',
  'US-PR': 'America/Puerto_Rico',
  'US-VI': 'America/St_Thomas',
  'US-UM': null, // Scattered islands from Midway (UTC-11) to Wake (UTC+12).

  // Canada: provinces and territories.
  'CA-AB': 'America/Edmonton',
  'CA-BC': null, // Pacific, but the Peace River area keeps MST all year and the East Kootenays are on Mountain time.
  'CA-MB': 'America/Winnipeg',
  'CA-NB': 'America/Halifax', // IANA's America/Moncton, which behaves the same.
  'CA-NL': null, // Newfoundland time on the island and southeast Labrador, Atlantic time in the rest of Labrador.
  'CA-NS': 'America/Halifax',
  'CA-NT': 'America/Edmonton', // All Mountain time with DST (IANA merged Yellowknife into Edmonton).
  'CA-NU': null, // Spans Eastern, Central and Mountain time.
  'CA-ON': null, // Eastern, but the northwest (Kenora, Rainy River) is on Central time and Atikokan keeps EST.
  'CA-PE': 'America/Halifax',
  'CA-QC': null, // Eastern, but the Lower North Shore east of 63°W keeps Atlantic Standard Time.
  'CA-SK': null, // CST all year, but Lloydminster keeps Alberta's Mountain time with DST.
  'CA-YT': 'America/Whitehorse', // MST all year since 2020.
};
