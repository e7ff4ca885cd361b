// Languages: reads a contact's language (a tag, a short code, a regional variant or a language
// name) as one of the nine locales the voice agent speaks. Built on Intl (canonical tags,
// display names) and @formatjs/intl-localematcher (nearest locale of the same language).
import { match } from '@formatjs/intl-localematcher';
import { iso31661 } from 'iso-3166';
import { nameKey } from './text.js';

/** The nine locales a contact's language can take: the languages the voice agent speaks. */
export const SUPPORTED_LOCALES = [
  'en-US',
  'en-GB',
  'he-IL',
  'fr-FR',
  'de-DE',
  'es-ES',
  'es-MX',
  'es-US',
  'es-419',
] as const;

export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

const SUPPORTED_LANGUAGES: ReadonlySet<string> = new Set(SUPPORTED_LOCALES.map(baseLanguage));

/** The languages whose names for languages are understood ("anglais", "עברית", "Englisch"). */
const NAME_LANGUAGES = ['en', 'he', 'es', 'fr', 'de'] as const;

/** Looks like a language tag: a 2–3 letter language, then subtags ("EN_us", "es-419"). */
const TAG_SHAPE = /^[a-z]{2,3}(?:[-_][a-z0-9]{1,8})*$/i;

/**
 * Reads a language as a supported locale, or null when unreadable (a write then counts the
 * language as not sent: prepareContactWrite in src/domain/contacts/contacts.rules.ts).
 * Short codes take the main locale (`en` → en-US, `es` → es-ES, `he`/`iw` → he-IL); regional
 * variants the nearest supported locale of the same language (es-AR → es-419, en-AU → en-GB);
 * language names in English, Hebrew, Spanish, French and German are understood ("Hebrew",
 * "עברית", "Español (México)", "anglais"). Underscores and any case are accepted. Never throws.
 */
export function normalizeLanguage(input: string): SupportedLocale | null {
  if (typeof input !== 'string') return null;
  const text = input.trim();
  if (text === '' || text.length > 100) return null;

  // Tag syntax is trusted only with a language we support: "English" and "xx" parse as tags.
  if (TAG_SHAPE.test(text)) {
    const fromTag = localeForTag(text.replace(/_/g, '-'));
    if (fromTag) return fromTag;
  }
  return localeForName(text);
}

function baseLanguage(tag: string): string {
  return tag.split('-')[0].toLowerCase();
}

/** Memo of tag → locale; valid tags of our five languages are a small, bounded set. */
const tagCache = new Map<string, SupportedLocale | null>();
const TAG_CACHE_LIMIT = 5000;

function localeForTag(tag: string): SupportedLocale | null {
  let canonical: string;
  try {
    // Canonicalizes case and legacy codes: iw → he, eng → en, EN-us → en-US.
    canonical = Intl.getCanonicalLocales(tag)[0];
  } catch {
    return null;
  }
  if (!canonical || !SUPPORTED_LANGUAGES.has(baseLanguage(canonical))) return null;
  const cached = tagCache.get(canonical);
  if (cached !== undefined) return cached;

  let locale: SupportedLocale | null = null;
  try {
    const matched = match([canonical], SUPPORTED_LOCALES, 'und', { algorithm: 'best fit' });
    // Best fit can cross languages (Catalan → es-ES); only a locale of the same language counts.
    if (isSupported(matched) && baseLanguage(matched) === baseLanguage(canonical)) locale = matched;
  } catch {
    locale = null;
  }
  if (tagCache.size >= TAG_CACHE_LIMIT) tagCache.clear();
  tagCache.set(canonical, locale);
  return locale;
}

function isSupported(tag: string): tag is SupportedLocale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(tag);
}

/**
 * Regional variants that have a name of their own besides "Language (Region)": CLDR's dialect
 * names ("Mexican Spanish", "español de México", "Canadian French"). These are all the dialect
 * names CLDR has for the five supported languages.
 */
const DIALECT_TAGS = [
  'en-AU',
  'en-CA',
  'en-GB',
  'en-US',
  'es-419',
  'es-ES',
  'es-MX',
  'fr-CA',
  'fr-CH',
  'de-AT',
  'de-CH',
];

type NameTables = {
  /** Name key of a whole name ("mexican spanish", "english") → locale. */
  whole: Map<string, SupportedLocale>;
  /** Name key of a bare language name ("spanish", "espagnol", "ספרדית") → language code. */
  languages: Map<string, string>;
  /** Name key of a region name, long or short, or its code ("mexico", "uk", "us") → region. */
  regions: Map<string, string>;
};

let nameTables: NameTables | undefined;

/** The name tables, built once from Intl.DisplayNames in the five name languages. */
function getNameTables(): NameTables {
  if (nameTables) return nameTables;
  const whole = new Map<string, SupportedLocale>();
  const languages = new Map<string, string>();
  const regions = new Map<string, string>();
  const regionCodes = [...iso31661.map((entry) => entry.alpha2), '419'];

  for (const nameLanguage of NAME_LANGUAGES) {
    for (const languageDisplay of ['dialect', 'standard'] as const) {
      const display = new Intl.DisplayNames([nameLanguage], { type: 'language', languageDisplay });
      for (const tag of [...SUPPORTED_LANGUAGES, ...SUPPORTED_LOCALES, ...DIALECT_TAGS]) {
        const locale = localeForTag(tag);
        const name = displayName(display, tag);
        if (!locale || !name) continue;
        setOnce(whole, nameKey(name), locale);
        if (!tag.includes('-')) setOnce(languages, nameKey(name), tag);
      }
    }
    for (const style of ['long', 'short'] as const) {
      const display = new Intl.DisplayNames([nameLanguage], { type: 'region', style });
      for (const region of regionCodes) {
        const name = displayName(display, region);
        if (name) setOnce(regions, nameKey(name), region);
      }
    }
  }
  for (const region of regionCodes) setOnce(regions, region.toLowerCase(), region);
  nameTables = { whole, languages, regions };
  return nameTables;
}

/**
 * Reads a language name: a whole name ("Hebrew", "Mexican Spanish"), else a language name
 * followed by a region name ("Spanish (Argentina)", "Englisch (Österreich)", "English UK").
 */
function localeForName(text: string): SupportedLocale | null {
  const key = nameKey(text);
  if (key === '') return null;
  const tables = getNameTables();
  const whole = tables.whole.get(key);
  if (whole) return whole;
  for (let space = key.indexOf(' '); space > 0; space = key.indexOf(' ', space + 1)) {
    const language = tables.languages.get(key.slice(0, space));
    const region = tables.regions.get(key.slice(space + 1));
    if (language && region) return localeForTag(`${language}-${region}`);
  }
  return null;
}

function displayName(display: Intl.DisplayNames, code: string): string | undefined {
  try {
    const name = display.of(code);
    // DisplayNames echoes the code back when it has no name for it: that is not a name.
    return name && name.toLowerCase() !== code.toLowerCase() ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The first source of a name wins: the supported locales are named before the variants. */
function setOnce<V>(map: Map<string, V>, key: string, value: V): void {
  if (key !== '' && !map.has(key)) map.set(key, value);
}
