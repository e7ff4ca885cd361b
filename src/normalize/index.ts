// The contact normalization rules, in one import: pure functions, data loaded once.
export { PHONE_WRITE_PATTERN, normalizePhone, phoneDigits, type PhoneNormalization } from './phone.js';
export { normalizeLocation, countryOf } from './location.js';
export { canonicalTimezone, countryTimezones, timezoneForLocation } from './timezone.js';
export {
  phoneZones,
  timezonesForPhone,
  timezoneForPhone,
  type PhoneZones,
  type PhoneZoneSource,
} from './phone-timezone.js';
export { inferTimezone } from './infer-timezone.js';
export { SUPPORTED_LOCALES, normalizeLanguage, type SupportedLocale } from './language.js';
export { splitFullName, joinFullName, fillMissingName, type NameParts } from './names.js';
