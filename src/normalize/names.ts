// Person names: splits a full name into first and last (dropping titles, middle names and
// suffixes), joins them back, and fills the missing half when only one is sent. parse-full-name
// finds the titles, suffixes, nicknames and the "Last, First" comma; which words make the first
// and the last name is decided here, because its own particle list is wrong for that (below).
import { parseFullName } from 'parse-full-name';

const MAX_PARSED_LENGTH = 1000;

export type NameParts = { firstName: string | null; lastName: string | null };

/**
 * Words that belong to the last name when they come right before it ("Ana de los Santos",
 * "van der Berg", "João dos Santos", "bin Salman", "בן דוד"). parse-full-name's long list of
 * "prefixes" cannot be used for this: besides particles it holds given names and name stems
 * (Björn, Björk, Ben, Al, Beau, Sten, Lund, Holm …) that it glues to the next word, so
 * "Mr. Björn Smith" came out as the last name "Björn Smith".
 */
const PARTICLES: ReadonlySet<string> = new Set([
  'de',
  'del',
  'della',
  'delle',
  'degli',
  'dei',
  'dal',
  'dalla',
  'la',
  'los',
  'las',
  'le',
  'du',
  'do',
  'dos',
  'das',
  'da',
  'di',
  'van',
  'der',
  'den',
  'ter',
  'ten',
  'te',
  'von',
  'zu',
  'af',
  'av',
  'ben',
  'bar',
  'bin',
  'bint',
  'ibn',
  'abu',
  'al',
  'el',
  'בן',
]);

/** Words that join two surnames into one ("García y Pérez", "Cruz e Silva", "Puig i Cadafalch"). */
const SURNAME_JOINERS: ReadonlySet<string> = new Set(['y', 'e', 'i']);

/**
 * Hebrew titles parse-full-name does not know. Several are written with a quote mark (ד"ר),
 * which it would otherwise read as the start of a nickname.
 */
const HEBREW_TITLE = /^(?:ד["״']?ר|דר'|פרופ['׳]?|פרופסור|עו["״]ד|רו["״]ח|מר|גב['׳]|גברת|הרב|הרבנית)(?=\s)/u;

/**
 * Splits a full name into first and last name, dropping titles, middle names, nicknames and
 * suffixes ("Dr. John Michael Smith Jr." → John / Smith; "Smith, John" → John / Smith). Particles
 * stay with the last name ("Ana de los Santos" → Ana / de los Santos), and a name that opens
 * with a lower-case particle is all last name ("Dr. van Helsing"). A single word is a first
 * name, unless it follows a title ("Dr. Smith" → last name Smith). Case is kept as written; the
 * parts come back composed (NFC), so a name typed with combining accents splits, and is stored,
 * like the same name typed with precomposed letters. Empty or unreadable input gives nulls.
 * Never throws.
 */
export function splitFullName(full: string): NameParts {
  const text = clean(full)?.normalize('NFC') ?? null;
  if (!text) return { firstName: null, lastName: null };
  // Far beyond any real name (the API caps fullName at 256): parse-full-name's regexes can take
  // seconds on such input, so only the cheap word split applies.
  if (text.length > MAX_PARSED_LENGTH) return splitOnSpaces(text);
  const withoutHebrewTitles = stripHebrewTitles(text);
  if (!withoutHebrewTitles) return { firstName: null, lastName: null };

  const parsed = parse(withoutHebrewTitles);
  if (!parsed) return splitOnSpaces(withoutHebrewTitles);
  const byComma = splitAtComma(withoutHebrewTitles, parsed.suffix);
  if (byComma) return byComma;

  // The words left once titles, suffixes and nicknames are gone, in their order. A word with
  // no letters is a leftover such as the "&" of "Mr. & Mrs. John Smith".
  const names = nameWords(parsed);
  if (names.length === 0) return splitOnSpaces(withoutHebrewTitles);
  // A lone word is a first name, unless a title comes before it or a comma after it ("Smith,").
  const hadTitle = clean(parsed.title) !== null || withoutHebrewTitles !== text;
  const loneIsLastName = hadTitle || withoutHebrewTitles.includes(',');
  return splitNameWords(names, loneIsLastName);
}

/** Joins first and last name with one space; null when both are empty. */
export function joinFullName(firstName: string | null, lastName: string | null): string | null {
  const parts = [clean(firstName), clean(lastName)].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * A fullName sent with only one of firstName and lastName fills the other one. The known
 * part is kept as sent; the other comes from the full name: the rest of it when it starts (or,
 * for a last name, ends) with the known part, else the matching half of its split.
 */
export function fillMissingName(
  fullName: string,
  known: { firstName?: string | null; lastName?: string | null },
): NameParts {
  let firstName = clean(known.firstName);
  let lastName = clean(known.lastName);
  // Compared composed (NFC), as splitFullName returns its parts, whichever form each was sent in.
  const full = clean(fullName)?.normalize('NFC') ?? null;
  if (!full || (firstName && lastName) || (!firstName && !lastName)) {
    if (full && !firstName && !lastName) return splitFullName(full);
    return { firstName, lastName };
  }
  if (firstName) {
    lastName = restAfter(full, firstName.normalize('NFC')) ?? splitFullName(full).lastName;
  } else if (lastName) {
    firstName = restBefore(full, lastName.normalize('NFC')) ?? splitFullName(full).firstName;
  }
  return { firstName, lastName };
}

/** Drops control characters, trims and collapses whitespace; empty or non-string gives null. */
function clean(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const text = value
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return text === '' ? null : text;
}

/**
 * First name and last name from a name's words: the last word, with the particles and joined
 * surnames before it, is the last name; the first word is the first name; words between are
 * middle names and dropped. The first word is never taken for a particle ("Ben Stiller",
 * "Bar Refaeli") unless it is written in lower case in a name that is not ("van Helsing").
 */
function splitNameWords(names: readonly string[], loneIsLastName: boolean): NameParts {
  if (names.length === 1) {
    return loneIsLastName ? { firstName: null, lastName: names[0] } : { firstName: names[0], lastName: null };
  }
  let start = names.length - 1;
  for (;;) {
    if (start > 1 && isParticle(names[start - 1])) start -= 1;
    else if (start > 2 && SURNAME_JOINERS.has(names[start - 1])) start -= 2;
    else break;
  }
  if (start === 1 && opensLastName(names[0], names[names.length - 1])) start = 0;
  return { firstName: start > 0 ? names[0] : null, lastName: names.slice(start).join(' ') };
}

function isParticle(word: string): boolean {
  return PARTICLES.has(word.toLocaleLowerCase());
}

/** A lower-case particle opening a name that has capitals ("van Helsing", not "ben cohen"). */
function opensLastName(word: string, lastWord: string): boolean {
  const lowerCase = (text: string): boolean => text === text.toLocaleLowerCase() && text !== text.toLocaleUpperCase();
  return isParticle(word) && lowerCase(word) && !lowerCase(lastWord);
}

/**
 * "Last, First": the comma, not the words, says where the last name ends ("de la Cruz, Juan",
 * "Dr. Smith, John Michael"). Null when there is no comma, or only suffixes follow it
 * ("Martin Luther King, Jr."). parse-full-name also reads this form, but its particle list
 * glues words across the comma ("Ström, Björn" came out as the last name "Ström Björn").
 */
function splitAtComma(text: string, suffix: string): NameParts | null {
  const at = text.indexOf(',');
  if (at < 0) return null;
  const suffixes = new Set(words(suffix.replace(/,/gu, ' ')));
  const after = words(text.slice(at + 1).replace(/,/gu, ' ')).filter(hasLetter);
  if (after.every((word) => suffixes.has(word))) return null;
  const given = parse(text.slice(at + 1));
  const family = parse(text.slice(0, at));
  const lastName = family ? nameWords(family).join(' ') : '';
  return {
    firstName: given ? (nameWords(given)[0] ?? null) : null,
    lastName: lastName === '' ? null : lastName,
  };
}

/** parse-full-name's reading of a name, or null when it throws. */
function parse(text: string): ReturnType<typeof parseFullName> | null {
  try {
    // Arguments: all parts; fixCase 0 = never change case (its automatic mode, -1, recases
    // all-caps or all-lowercase input and turns "hans-peter" into "Hans-peter"); stopOnError 0
    // = report problems in `error` instead of throwing; useLongLists 1 = its long lists of
    // titles and suffixes.
    return parseFullName(text, 'all', 0, 0, 1);
  } catch {
    return null;
  }
}

/** The name words of a parse, in their order, without titles, suffixes and nicknames. */
function nameWords(parsed: ReturnType<typeof parseFullName>): string[] {
  return [parsed.first, parsed.middle, parsed.last].flatMap((part) => words(clean(part))).filter(hasLetter);
}

function words(text: string | null): string[] {
  return text ? text.split(' ').filter((word) => word !== '') : [];
}

function hasLetter(text: string): boolean {
  return /\p{L}/u.test(text);
}

function stripHebrewTitles(text: string): string {
  let rest = text;
  for (let match = HEBREW_TITLE.exec(rest); match; match = HEBREW_TITLE.exec(rest)) {
    rest = rest.slice(match[0].length).trim();
  }
  return rest;
}

/** Last resort when the parser finds nothing: first word / last word. */
function splitOnSpaces(text: string): NameParts {
  const words = text.split(' ').filter(hasLetter);
  if (words.length === 0) return { firstName: null, lastName: null };
  if (words.length === 1) return { firstName: words[0], lastName: null };
  return { firstName: words[0], lastName: words[words.length - 1] };
}

/** "John Smith" after "John" → "Smith" (case-insensitive, on a word boundary); else null. */
function restAfter(full: string, prefix: string): string | null {
  if (full.length <= prefix.length) return null;
  if (full.slice(0, prefix.length).toLocaleLowerCase() !== prefix.toLocaleLowerCase()) return null;
  if (full[prefix.length] !== ' ' && full[prefix.length] !== ',') return null;
  return clean(full.slice(prefix.length).replace(/^[\s,]+/u, ''));
}

/** "John Smith" before "Smith" → "John" (case-insensitive, on a word boundary); else null. */
function restBefore(full: string, suffix: string): string | null {
  if (full.length <= suffix.length) return null;
  const start = full.length - suffix.length;
  if (full.slice(start).toLocaleLowerCase() !== suffix.toLocaleLowerCase()) return null;
  if (full[start - 1] !== ' ') return null;
  return clean(full.slice(0, start));
}
