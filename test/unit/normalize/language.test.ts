// Language rules: tags, short codes, regional variants and language names → nine locales.
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES, normalizeLanguage } from '../../../src/normalize/language.js';

describe('normalizeLanguage', () => {
  it.each(SUPPORTED_LOCALES.map((locale) => [locale]))('keeps the supported locale %s', (locale) => {
    expect(normalizeLanguage(locale)).toBe(locale);
  });

  it.each([
    // Short codes take the main locale.
    ['en', 'en-US'],
    ['es', 'es-ES'],
    ['fr', 'fr-FR'],
    ['de', 'de-DE'],
    ['he', 'he-IL'],
    ['iw', 'he-IL'],
    ['EN', 'en-US'],
    ['DE', 'de-DE'],
    // ISO 639-2/3 codes canonicalize to the short ones.
    ['eng', 'en-US'],
    ['deu', 'de-DE'],
    ['ger', 'de-DE'],
    ['fra', 'fr-FR'],
    ['spa', 'es-ES'],
    ['heb', 'he-IL'],
    // Any case, underscores.
    ['EN_us', 'en-US'],
    ['en_us', 'en-US'],
    ['en_GB', 'en-GB'],
    ['es_419', 'es-419'],
    ['ES-mx', 'es-MX'],
    ['es-es', 'es-ES'],
    ['he-il', 'he-IL'],
    ['iw-IL', 'he-IL'],
    ['  en-US  ', 'en-US'],
    // Regional variants: nearest supported locale of the same language.
    ['es-AR', 'es-419'],
    ['es-CO', 'es-419'],
    ['es-CL', 'es-419'],
    ['es-PR', 'es-419'],
    ['es-GQ', 'es-ES'],
    ['en-AU', 'en-GB'],
    ['en-NZ', 'en-GB'],
    ['en-IE', 'en-GB'],
    ['en-IN', 'en-GB'],
    ['en-IL', 'en-GB'],
    ['en-CA', 'en-US'],
    ['en-PH', 'en-US'],
    ['fr-CA', 'fr-FR'],
    ['fr-BE', 'fr-FR'],
    ['fr-CH', 'fr-FR'],
    ['de-AT', 'de-DE'],
    ['de-CH', 'de-DE'],
    ['de-LI', 'de-DE'],
    ['en-Latn-US', 'en-US'],
    ['en-US-u-ca-gregory', 'en-US'],
  ])('reads the tag %j as %s', (input, expected) => {
    expect(normalizeLanguage(input)).toBe(expected);
  });

  it.each([
    // English names.
    ['English', 'en-US'],
    ['english', 'en-US'],
    ['ENGLISH', 'en-US'],
    ['Hebrew', 'he-IL'],
    ['German', 'de-DE'],
    ['French', 'fr-FR'],
    ['Spanish', 'es-ES'],
    ['American English', 'en-US'],
    ['British English', 'en-GB'],
    ['English (United Kingdom)', 'en-GB'],
    ['English (UK)', 'en-GB'],
    ['English, US', 'en-US'],
    ['English (Australia)', 'en-GB'],
    ['Spanish (Latin America)', 'es-419'],
    ['Latin American Spanish', 'es-419'],
    ['Spanish (Mexico)', 'es-MX'],
    ['Mexican Spanish', 'es-MX'],
    ['Spanish (Argentina)', 'es-419'],
    ['Spanish (Spain)', 'es-ES'],
    ['European Spanish', 'es-ES'],
    ['Spanish (United States)', 'es-US'],
    ['Canadian French', 'fr-FR'],
    ['French (Canada)', 'fr-FR'],
    ['Swiss High German', 'de-DE'],
    ['Austrian German', 'de-DE'],
    ['Hebrew (Israel)', 'he-IL'],
    // Hebrew names.
    ['עברית', 'he-IL'],
    ['אנגלית', 'en-US'],
    ['ספרדית', 'es-ES'],
    ['צרפתית', 'fr-FR'],
    ['גרמנית', 'de-DE'],
    // Spanish names.
    ['Español', 'es-ES'],
    ['español', 'es-ES'],
    ['Español (México)', 'es-MX'],
    ['español (mexico)', 'es-MX'],
    ['Espanol de Mexico', 'es-MX'],
    ['español latinoamericano', 'es-419'],
    ['inglés', 'en-US'],
    ['francés', 'fr-FR'],
    ['alemán', 'de-DE'],
    ['hebreo', 'he-IL'],
    // French names.
    ['anglais', 'en-US'],
    ['Anglais (Canada)', 'en-US'],
    ['Français', 'fr-FR'],
    ['allemand', 'de-DE'],
    ['hébreu', 'he-IL'],
    ['espagnol d’Amérique latine', 'es-419'],
    // German names.
    ['Deutsch', 'de-DE'],
    ['Englisch', 'en-US'],
    ['Französisch', 'fr-FR'],
    ['Hebräisch', 'he-IL'],
    ['Deutsch (Österreich)', 'de-DE'],
    ['Englisch (Vereinigtes Königreich)', 'en-GB'],
  ])('reads the name %j as %s', (input, expected) => {
    expect(normalizeLanguage(input)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'pt-BR',
    'pt',
    'Portuguese',
    'it',
    'Italian',
    'ca', // Catalan: best fit would say es-ES, but it is another language
    'gsw',
    'yi',
    'nb',
    'zh-Hant',
    'xx',
    'xx-US',
    'Klingon',
    'i-klingon',
    'und',
    'x-private',
    'en--US',
    'en-',
    '-en',
    '123',
    'en-US,en;q=0.9',
    'English and French',
    'e',
    '!!!',
    'x'.repeat(500),
  ])('%j is unreadable', (input) => {
    expect(normalizeLanguage(input)).toBeNull();
  });
});
