// Where a contact may be, for the calling rules: the jurisdictions whose rules bind a call to it,
// and every time zone the person may be in.
//
// Jurisdictions come from the phone (its country, and for a +1 number its area code's state or
// province: Florida presumes a Florida area code means a Florida resident) and from the
// contact's own location when it names a region (`US-CA`); when they differ, both apply. A
// location that names only a country, or the Account's default location, is used only when the
// phone places the person nowhere. A +1 number whose area code
// names no state (toll free, or an area code the data does not place) could be anyone's in the
// country: every subdivision's rules apply, unless the location names one.
//
// Zones are the union of the phone's zones (its area code's, or its country's), the location's
// and the contact's own zone: the allowed window is the intersection over all of them, so a
// call is never placed at 7:00 anywhere the person might be.
import { areaCodesOf, phoneRegion } from '../../normalize/phone-region.js';
import { phoneZones } from '../../normalize/phone-timezone.js';
import { countryTimezones } from '../../normalize/timezone.js';
import { SUBDIVISION_TIMEZONES } from '../../normalize/data/subdivision-timezones.js';

export interface ContactPlace {
  phone: string | null;
  /** The stored (normalized) location: `US-CA`, `FR`. */
  location: string | null;
  /** True when the location is the Account's default, not the contact's own. */
  locationDefaulted?: boolean;
  timezone: string | null;
}

export interface Whereabouts {
  /** Countries and subdivisions (ISO 3166), sorted. */
  jurisdictions: string[];
  /** Countries where the contact's region is unknown: every region's rules apply there. */
  regionUnknownIn: string[];
  /** Every zone the person may be in, sorted; empty when none is known. */
  zones: string[];
}

/** Countries whose subdivisions have rules of their own, read from the area code. */
const REGION_FROM_AREA_CODE = new Set(['US', 'CA']);

export function whereabouts(contact: ContactPlace): Whereabouts {
  const jurisdictions = new Set<string>();
  const zones = new Set<string>();
  if (contact.phone) {
    const place = phonePlace(contact.phone);
    if (place.country) jurisdictions.add(place.country);
    for (const s of place.subdivisions) jurisdictions.add(s);
    for (const z of place.zones) zones.add(z);
  }
  if (contact.location) {
    const location = contact.location.toUpperCase();
    const country = location.split('-')[0];
    // A location says where the person is only when it is the contact's own and names a region:
    // a country alone (or the Account's default location) adds nothing to what the phone says,
    // and is used only when the phone places the person nowhere.
    const placesThePerson = !contact.locationDefaulted && location !== country;
    if (placesThePerson || zones.size === 0) {
      jurisdictions.add(country);
      if (location !== country) jurisdictions.add(location);
      for (const z of locationZones(location)) zones.add(z);
    }
  }
  if (contact.timezone) zones.add(contact.timezone);
  const countries = [...jurisdictions].filter((j) => !j.includes('-'));
  const regionUnknownIn = countries.filter(
    (c) => REGION_FROM_AREA_CODE.has(c) && ![...jurisdictions].some((j) => j.startsWith(`${c}-`)),
  );
  if (zones.size === 0) for (const c of countries) for (const z of countryTimezones(c)) zones.add(z);
  return {
    jurisdictions: [...jurisdictions].sort(),
    regionUnknownIn: regionUnknownIn.sort(),
    zones: [...zones].sort(),
  };
}

/**
 * A stored number's country, subdivisions and zones, kept by its leading digits: parsing a number
 * costs a fraction of a millisecond, and the dialer decides for a hundred contacts a pass. A +1
 * number's place is its area code's (each area code is all geographic, or all toll free or
 * personal); elsewhere the calling code and the next five digits name the country (the longest
 * leading-digits pattern libphonenumber uses to tell apart the countries of one calling code is
 * shorter). Stored numbers are valid (normalized on write), so a key never mixes valid and not.
 */
const places = new Map<string, { country: string | null; subdivisions: string[]; zones: string[] }>();
const PLACES_KEPT = 20_000;

function phonePlace(e164: string) {
  const key = e164.startsWith('+1') ? e164.slice(0, 5) : e164.slice(0, 8);
  let place = places.get(key);
  if (!place) {
    const region = phoneRegion(e164);
    place = { country: region.country, subdivisions: region.subdivisions, zones: phoneZones(e164).zones };
    if (places.size >= PLACES_KEPT) places.clear();
    places.set(key, place);
  }
  return place;
}

/** The zones of a location: a subdivision's one zone, or a split one's area codes' zones; a country's zones. */
function locationZones(location: string): string[] {
  if (Object.hasOwn(SUBDIVISION_TIMEZONES, location)) {
    const zone = SUBDIVISION_TIMEZONES[location];
    if (zone) return [zone];
    const areaCodes = areaCodesOf(location);
    // One number of each of the subdivision's area codes gives the area code's zones.
    const zones = areaCodes.flatMap((areaCode) => phoneZones(`+1${areaCode}2000000`).zones);
    if (zones.length > 0) return [...new Set(zones)];
  }
  return countryTimezones(location.split('-')[0]);
}
