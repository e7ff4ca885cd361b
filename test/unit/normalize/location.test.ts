// Location rules: codes and names (countries and subdivisions, many languages) → ISO 3166.
import { describe, expect, it } from 'vitest';
import { countryOf, normalizeLocation } from '../../../src/normalize/location.js';

describe('normalizeLocation: codes', () => {
  it.each([
    ['US', 'US'],
    ['us', 'US'],
    [' de ', 'DE'],
    ['IL', 'IL'],
    ['GB', 'GB'],
    ['USA', 'US'],
    ['usa', 'US'],
    ['DEU', 'DE'],
    ['ISR', 'IL'],
    ['GBR', 'GB'],
    ['XKX', 'XK'],
    ['US-CA', 'US-CA'],
    ['us-ca', 'US-CA'],
    ['Us-Ny', 'US-NY'],
    ['US - CA', 'US-CA'],
    ['DE-BY', 'DE-BY'],
    ['ca-on', 'CA-ON'],
    ['GB-ENG', 'GB-ENG'],
    ['IL-TA', 'IL-TA'],
    ['FR-75C', 'FR-75C'],
    ['AT-9', 'AT-9'],
    // A two-letter code is a country, never a state.
    ['CA', 'CA'],
    ['GA', 'GA'],
    ['IL', 'IL'],
    ['IN', 'IN'],
    ['PA', 'PA'],
    // Not an assigned code, but a common short form.
    ['UK', 'GB'],
    // Stray punctuation around a country code is tolerated.
    ['U.S.', 'US'],
    ['US-', 'US'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeLocation(input)).toBe(expected);
  });

  it.each([
    'US-XX', // unknown subdivision of a known country
    'US-ZZZ',
    'DE-CA',
    'XX-CA', // unknown country
    'ZZ',
    'QQ',
    'XXX',
    'ABC',
  ])('%j is unreadable', (input) => {
    expect(normalizeLocation(input)).toBeNull();
  });
});

describe('normalizeLocation: country names', () => {
  it.each([
    ['United States', 'US'],
    ['United States of America', 'US'],
    ['U.S.A.', 'US'],
    ['america', 'US'],
    ['Germany', 'DE'],
    ['germany ', 'DE'],
    ['GERMANY', 'DE'],
    ['Deutschland', 'DE'],
    ['Alemania', 'DE'],
    ['Allemagne', 'DE'],
    ['Israel', 'IL'],
    ['ישראל', 'IL'],
    ['Israël', 'IL'],
    ['France', 'FR'],
    ['Frankreich', 'FR'],
    ['España', 'ES'],
    ['espana', 'ES'],
    ['Spanien', 'ES'],
    ['Mexico', 'MX'],
    ['México', 'MX'],
    ['United Kingdom', 'GB'],
    ['Great Britain', 'GB'],
    ['Royaume-Uni', 'GB'],
    ['Côte d’Ivoire', 'CI'],
    ["Cote d'Ivoire", 'CI'],
    ['cote d ivoire', 'CI'],
    ['Ivory Coast', 'CI'],
    ['Myanmar', 'MM'],
    ['Burma', 'MM'],
    ['Kosovo', 'XK'],
    ['Congo', 'CG'],
    ['South Korea', 'KR'],
    ['Russia', 'RU'],
    ['Россия', 'RU'],
    ['日本', 'JP'],
    ['The Netherlands', 'NL'],
    // country-to-iso's fallback forms.
    ['England', 'GB'],
    ['Scotland', 'GB'],
    ['Holland', 'NL'],
    // Names that are also subdivisions: the country wins.
    ['Georgia', 'GE'],
    ['Jersey', 'JE'],
    ['Puerto Rico', 'PR'],
    ['Guam', 'GU'],
    ['Luxembourg', 'LU'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeLocation(input)).toBe(expected);
  });
});

describe('normalizeLocation: subdivision names', () => {
  it.each([
    ['California', 'US-CA'],
    ['california', 'US-CA'],
    ['  CALIFORNIA  ', 'US-CA'],
    ['New   York', 'US-NY'],
    ['New York', 'US-NY'],
    ['New Jersey', 'US-NJ'],
    ['Texas', 'US-TX'],
    ['Washington', 'US-WA'],
    ['Washington DC', 'US-DC'],
    ['Washington, D.C.', 'US-DC'],
    ['District of Columbia', 'US-DC'],
    ['Bavaria', 'DE-BY'],
    ['Bayern', 'DE-BY'],
    ['Baden-Württemberg', 'DE-BW'],
    ['baden wurttemberg', 'DE-BW'],
    ['Nordrhein-Westfalen', 'DE-NW'],
    ['North Rhine-Westphalia', 'DE-NW'],
    ['Hessen', 'DE-HE'],
    ['Hesse', 'DE-HE'],
    ['Saxony', 'DE-SN'],
    ['Ontario', 'CA-ON'],
    ['Quebec', 'CA-QC'],
    ['Québec', 'CA-QC'],
    ['British Columbia', 'CA-BC'],
    ['New South Wales', 'AU-NSW'],
    ['Catalonia', 'ES-CT'],
    ['Île-de-France', 'FR-IDF'],
    ['ile de france', 'FR-IDF'],
    ['Tel Aviv', 'IL-TA'],
    ['Zürich', 'CH-ZH'],
    ['Zurich', 'CH-ZH'],
    ['Vienna', 'AT-9'],
    ['Wien', 'AT-9'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeLocation(input)).toBe(expected);
  });

  it.each<[string, string | null | undefined, string | null]>([
    // Shared by India and Pakistan: the default country breaks the tie.
    ['Punjab', null, null],
    ['Punjab', undefined, null],
    ['Punjab', 'IN', 'IN-PB'],
    ['Punjab', 'in', 'IN-PB'],
    ['Punjab', 'PK', 'PK-PB'],
    ['Punjab', 'US', null],
    // Victoria: an Australian state and a Maltese locality.
    ['Victoria', null, null],
    ['Victoria', 'AU', 'AU-VIC'],
    // Jerusalem: an Israeli district and a Palestinian governorate.
    ['Jerusalem', null, null],
    ['Jerusalem', 'IL', 'IL-JM'],
    // The default country never overrides an unambiguous name.
    ['California', 'DE', 'US-CA'],
    ['Bavaria', 'US', 'DE-BY'],
    // Nor a country name or code.
    ['Georgia', 'US', 'GE'],
    ['CA', 'US', 'CA'],
  ])('%j with default %j → %s', (input, defaultCountry, expected) => {
    expect(normalizeLocation(input, defaultCountry)).toBe(expected);
  });
});

describe('normalizeLocation: unreadable', () => {
  it.each([
    '',
    '   ',
    '\n\t',
    '123',
    '!!!',
    '-',
    'Klingon',
    'Mars',
    'Atlantis',
    'Springfield',
    'Mexico City', // a city, not a subdivision name the data knows
    'California, USA', // compound values are not split
    'x'.repeat(1000),
  ])('%j → null', (input) => {
    expect(normalizeLocation(input)).toBeNull();
  });
});

describe('countryOf', () => {
  it.each([
    ['US-CA', 'US'],
    ['US', 'US'],
    ['FR-75C', 'FR'],
    ['AT-9', 'AT'],
    ['gb-eng', 'GB'],
  ])('%j → %s', (input, expected) => {
    expect(countryOf(input)).toBe(expected);
  });
});
