// Person names: splits a full name into first and last (dropping titles, middle names and
// suffixes), joins them back, and fills the missing half when only one is sent. Built on
// parse-full-name, plus the two things it gets wrong: particles and single words.
import { parseFullName } from 'parse-full-name';

const MAX_PARSED_LENGTH = 1000;

export type NameParts = { firstName: string | null; lastName: string | null };

/**
 * Words that belong to the last name when they come right before it ("Ana de los Santos",
 * "van der Berg", "bin Salman", "בן דוד"). parse-full-name keeps some of them but drops others
 * into the middle name.
 */
const PARTICLES: ReadonlySet<string> = new Set([
  'de', 'del', 'la', 'los', 'las', 'van', 'der', 'von', 'ben', 'bar', 'bin', 'da', 'di', 'בן',
]);

/**
 * Hebrew titles parse-full-name does not know. Several are written with a quote mark (ד"ר),
 * which it would otherwise read as the start of a nickname.
 */
const HEBREW_TITLE = /^(?:ד["״']?ר|דר'|פרופ['׳]?|פרופסור|עו["״]ד|רו["״]ח|מר|גב['׳]|גברת|הרב|הרבנית)(?=\s)/u;

/**
 * Splits a full name into first and last name, dropping titles, middle names, nicknames and
 * suffixes ("Dr. John Michael Smith Jr." → John / Smith; "Smith, John" → John / Smith). Particles
 * stay with the last name ("Ana de los Santos" → Ana / de los Santos). A single word is a first
 * name, unless it follows a title ("Dr. Smith" → last name Smith). Case is kept as written.
 * Empty or unreadable input gives nulls. Never throws.
 */
export function splitFullName(full: string): NameParts {
  const text = clean(full);
  if (!text) return { firstName: null, lastName: null };
  // Far beyond any real name (the API caps fullName at 256): parse-full-name's regexes can take
  // seconds on such input, so only the cheap word split applies.
  if (text.length > MAX_PARSED_LENGTH) return splitOnSpaces(text);
  const withoutHebrewTitles = stripHebrewTitles(text);
  if (!withoutHebrewTitles) return { firstName: null, lastName: null };

  let parsed: ReturnType<typeof parseFullName>;
  try {
    // Arguments: all parts; fixCase 0 = never change case (its automatic mode, -1, recases
    // all-caps or all-lowercase input and turns "hans-peter" into "Hans-peter"); stopOnError 0
    // = report problems in `error` instead of throwing; useLongLists 1 = its long lists of
    // titles, suffixes and particles.
    parsed = parseFullName(withoutHebrewTitles, 'all', 0, 0, 1);
  } catch {
    return splitOnSpaces(withoutHebrewTitles);
  }

  let first = clean(parsed.first);
  let middle = clean(parsed.middle);
  let last = clean(parsed.last);
  const hadTitle = clean(parsed.title) !== null || withoutHebrewTitles !== text;

  // A first "name" with no letters is a leftover such as the "&" of "Mr. & Mrs. John Smith".
  if (first && !hasLetter(first)) {
    const words = middle ? middle.split(' ') : [];
    first = words.shift() ?? null;
    middle = words.length > 0 ? words.join(' ') : null;
  }

  // Particles at the end of the middle name belong to the last name.
  if (middle && last) {
    const words = middle.split(' ');
    while (words.length > 0 && PARTICLES.has(words[words.length - 1].toLocaleLowerCase())) {
      last = `${words.pop()} ${last}`;
    }
  }

  // With no first name found, parse-full-name has put everything in the last name: a lone
  // word (a first name unless a title came before it), or a name that starts with a word it
  // takes for a particle ("Ben Stiller", "Bar Refaeli"), whose first word is the first name.
  if (!first && last && !hadTitle && !withoutHebrewTitles.includes(',')) {
    const words = last.split(' ');
    first = words.shift() ?? null;
    last = words.length > 0 ? words.join(' ') : null;
  }
  first = first && hasLetter(first) ? first : null;
  last = last && hasLetter(last) ? last : null;
  if (!first && !last) return splitOnSpaces(withoutHebrewTitles);
  return { firstName: first, lastName: last };
}

/** Joins first and last name with one space; null when both are empty. */
export function joinFullName(firstName: string | null, lastName: string | null): string | null {
  const parts = [clean(firstName), clean(lastName)].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * The spec's "fullName sent with only one of firstName and lastName fills the other". The known
 * part is kept as sent; the other comes from the full name: the rest of it when it starts (or,
 * for a last name, ends) with the known part, else the matching half of its split.
 */
export function fillMissingName(
  fullName: string,
  known: { firstName?: string | null; lastName?: string | null },
): NameParts {
  let firstName = clean(known.firstName);
  let lastName = clean(known.lastName);
  const full = clean(fullName);
  if (!full || (firstName && lastName) || (!firstName && !lastName)) {
    if (full && !firstName && !lastName) return splitFullName(full);
    return { firstName, lastName };
  }
  if (firstName) {
    lastName = restAfter(full, firstName) ?? splitFullName(full).lastName;
  } else if (lastName) {
    firstName = restBefore(full, lastName) ?? splitFullName(full).firstName;
  }
  return { firstName, lastName };
}

/** Drops control characters, trims and collapses whitespace; empty or non-string gives null. */
function clean(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const text = value.replace(/\p{Cc}/gu, ' ').replace(/\s+/gu, ' ').trim();
  return text === '' ? null : text;
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
