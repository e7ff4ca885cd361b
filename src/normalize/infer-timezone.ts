// A contact's time zone when none is given: two rules, each in its own module, in order.
import { timezoneForPhone } from './phone-timezone.js';
import { timezoneForLocation } from './timezone.js';

/**
 * A contact's time zone when none is given: from the location (its subdivision, then its
 * country when that has one zone), else from the phone number (see phone-timezone.ts: only a
 * zone that is certain); null when neither gives a single zone.
 */
export function inferTimezone(location: string | null, e164: string | null): string | null {
  const fromLocation = location ? timezoneForLocation(location) : null;
  if (fromLocation) return fromLocation;
  return e164 ? timezoneForPhone(e164) : null;
}
