// Name rules: splitting a full name, joining the parts, filling the missing half.
import { describe, expect, it } from 'vitest';
import { fillMissingName, joinFullName, splitFullName } from '../../../src/normalize/names.js';

describe('splitFullName', () => {
  it.each<[string, string | null, string | null]>([
    ['John Smith', 'John', 'Smith'],
    ['  John   Smith  ', 'John', 'Smith'],
    // Titles, middle names and suffixes are dropped.
    ['Dr. John Michael Smith Jr.', 'John', 'Smith'],
    ['Mary Ann Smith', 'Mary', 'Smith'],
    ['John Smith III', 'John', 'Smith'],
    ['John Smith Esq.', 'John', 'Smith'],
    ['Robert Downey Jr.', 'Robert', 'Downey'],
    ['Martin Luther King, Jr.', 'Martin', 'King'],
    ['Prof. Dr. Hans Müller', 'Hans', 'Müller'],
    ['Mr. & Mrs. John Smith', 'John', 'Smith'],
    ['J. R. R. Tolkien', 'J.', 'Tolkien'],
    ['José Luis Rodríguez Zapatero', 'José', 'Zapatero'],
    // Nicknames are dropped.
    ['John "Johnny" Smith', 'John', 'Smith'],
    ['John (Jack) Smith', 'John', 'Smith'],
    // "Last, First".
    ['Smith, John', 'John', 'Smith'],
    ["O'Brien, Patrick", 'Patrick', "O'Brien"],
    ['de la Cruz, Juan', 'Juan', 'de la Cruz'],
    ['della Robbia, Luca', 'Luca', 'della Robbia'],
    // Case is kept as written.
    ['Hans-Peter Müller', 'Hans-Peter', 'Müller'],
    ['hans-peter müller', 'hans-peter', 'müller'],
    ['JOHN SMITH', 'JOHN', 'SMITH'],
    ['Jean-Claude Van Damme', 'Jean-Claude', 'Van Damme'],
    // Particles stay with the last name.
    ['Juan de la Cruz', 'Juan', 'de la Cruz'],
    ['Ana de los Santos', 'Ana', 'de los Santos'],
    ['Oscar de la Hoya', 'Oscar', 'de la Hoya'],
    ['Carlos de las Casas', 'Carlos', 'de las Casas'],
    ['Maria del Carmen Lopez', 'Maria', 'Lopez'], // "del Carmen" is part of her first names
    ['Ludwig van Beethoven', 'Ludwig', 'van Beethoven'],
    ['Johannes van der Waals', 'Johannes', 'van der Waals'],
    ['Anne-Marie van de Velde', 'Anne-Marie', 'van de Velde'],
    ['Otto von Bismarck', 'Otto', 'von Bismarck'],
    ['Ursula von der Leyen', 'Ursula', 'von der Leyen'],
    ['Leonardo da Vinci', 'Leonardo', 'da Vinci'],
    ['Diane di Prima', 'Diane', 'di Prima'],
    ['Mohammed bin Salman', 'Mohammed', 'bin Salman'],
    ['Shimon bar Yochai', 'Shimon', 'bar Yochai'],
    ['Charles de Gaulle', 'Charles', 'de Gaulle'],
    // A first name that is also a particle stays a first name.
    ['Ben Stiller', 'Ben', 'Stiller'],
    ['Bar Refaeli', 'Bar', 'Refaeli'],
    // Hebrew.
    ['ישראל ישראלי', 'ישראל', 'ישראלי'],
    ['משה בן דוד', 'משה', 'בן דוד'],
    ['דוד בן גוריון', 'דוד', 'בן גוריון'],
    ['בן כהן', 'בן', 'כהן'],
    ['ד"ר משה כהן', 'משה', 'כהן'],
    ['ד״ר משה כהן', 'משה', 'כהן'],
    ['פרופ׳ יעל לוי', 'יעל', 'לוי'],
    ['עו"ד דנה כהן', 'דנה', 'כהן'],
    ['הרב יוסף חיים כהן', 'יוסף', 'כהן'],
    // Other scripts.
    ['Ngũgĩ wa Thiong’o', 'Ngũgĩ', 'Thiong’o'],
    // A single word is a first name...
    ['Madonna', 'Madonna', null],
    ['Smith', 'Smith', null],
    ['משה', 'משה', null],
    // ...unless a title or a comma marks it as a last name.
    ['Dr. Smith', null, 'Smith'],
    ['Ms. Jane', null, 'Jane'],
    ['Smith,', null, 'Smith'],
  ])('%j → %j / %j', (input, firstName, lastName) => {
    expect(splitFullName(input)).toEqual({ firstName, lastName });
  });

  it.each(['', '   ', '\t\n', '!!!', '&', '123', '\u0000', '- . ,'])('%j has no name parts', (input) => {
    expect(splitFullName(input)).toEqual({ firstName: null, lastName: null });
  });

  it('keeps a very long single word whole', () => {
    const word = 'x'.repeat(300);
    expect(splitFullName(word)).toEqual({ firstName: word, lastName: null });
  });
});

describe('joinFullName', () => {
  it.each<[string | null, string | null, string | null]>([
    ['John', 'Smith', 'John Smith'],
    [' John ', ' Smith ', 'John Smith'],
    ['John', null, 'John'],
    [null, 'Smith', 'Smith'],
    ['', 'Smith', 'Smith'],
    ['John', '   ', 'John'],
    ['Juan', 'de la Cruz', 'Juan de la Cruz'],
    ['משה', 'בן דוד', 'משה בן דוד'],
    [null, null, null],
    ['', '', null],
    ['  ', '\t', null],
  ])('%j + %j → %j', (firstName, lastName, expected) => {
    expect(joinFullName(firstName, lastName)).toBe(expected);
  });
});

describe('fillMissingName', () => {
  it.each<[string, { firstName?: string | null; lastName?: string | null }, string | null, string | null]>([
    // First name known: the last name is the rest of the full name...
    ['John Smith', { firstName: 'John' }, 'John', 'Smith'],
    ['John Michael Smith', { firstName: 'John' }, 'John', 'Michael Smith'],
    ['john smith', { firstName: 'John' }, 'John', 'smith'],
    ['Mary Ann Smith', { firstName: 'Mary Ann' }, 'Mary Ann', 'Smith'],
    ['Juan de la Cruz', { firstName: 'Juan' }, 'Juan', 'de la Cruz'],
    // ...or, when the full name does not start with it, the split's last name.
    ['Dr. John Smith', { firstName: 'John' }, 'John', 'Smith'],
    ['Johnny Smith', { firstName: 'John' }, 'John', 'Smith'],
    ['Ana de los Santos', { firstName: 'Maria' }, 'Maria', 'de los Santos'],
    ['Smith, John', { firstName: 'John' }, 'John', 'Smith'],
    // Last name known: symmetric.
    ['John Smith', { lastName: 'Smith' }, 'John', 'Smith'],
    ['Mary Ann Smith', { lastName: 'Smith' }, 'Mary Ann', 'Smith'],
    ['Juan de la Cruz', { lastName: 'de la Cruz' }, 'Juan', 'de la Cruz'],
    ['Smith, John', { lastName: 'Smith' }, 'John', 'Smith'],
    ['John Smith Jr.', { lastName: 'Jones' }, 'John', 'Jones'],
    ['משה בן דוד', { lastName: 'בן דוד' }, 'משה', 'בן דוד'],
    // Whitespace-only known parts count as not sent.
    ['John Smith', { firstName: '   ' }, 'John', 'Smith'],
    ['John Smith', { firstName: null, lastName: '' }, 'John', 'Smith'],
    // Both known: kept as sent.
    ['John Smith', { firstName: 'Jane', lastName: 'Doe' }, 'Jane', 'Doe'],
    // A full name with nothing left for the missing part.
    ['John', { firstName: 'John' }, 'John', null],
    ['  ', { firstName: 'John' }, 'John', null],
    ['', { lastName: 'Smith' }, null, 'Smith'],
    // The found part comes back composed (NFC), whichever form the full name was sent in; the
    // known part is kept as sent.
    ['Björn Ström'.normalize('NFD'), { firstName: 'Björn'.normalize('NFD') }, 'Björn'.normalize('NFD'), 'Ström'],
    ['Björn Ström'.normalize('NFD'), { firstName: 'Björn' }, 'Björn', 'Ström'],
    ['Björn Ström', { lastName: 'Ström'.normalize('NFD') }, 'Björn', 'Ström'.normalize('NFD')],
    ['Mr. Björn Smith', { lastName: 'Jones' }, 'Björn', 'Jones'],
  ])('%j with %j → %j / %j', (fullName, known, firstName, lastName) => {
    expect(fillMissingName(fullName, known)).toEqual({ firstName, lastName });
  });
});

// A former bug: "Mr. Björn Smith" was stored as last name "Björn Smith" while "Mr. Bjorn Smith"
// split. parse-full-name's long particle list holds given names and name stems (Björn, Björk,
// Ben, Al, Lund …) and glued them to the next word. Letters outside ASCII, and the composed or
// decomposed way of writing them, must not change how a name splits.
describe('splitFullName: letters outside ASCII split like ASCII ones', () => {
  const TITLES = ['Mr.', 'Mrs.', 'Ms.', 'Dr.', 'Prof.', 'Herr', 'Sir', 'Dr'];
  const GIVEN_NAMES = [
    'Björn',
    'Björk',
    'Bjorn',
    'Émile',
    'Zoë',
    'Ægir',
    'Øystein',
    'Åsa',
    'Ângela',
    'Çağla',
    'Şükrü',
    'Jürgen',
    'Łukasz',
    'Ødegaard',
    'Ñuño',
    'Dŭng',
    'Иван',
    'Пётр',
    'Ζωή',
    'Νίκος',
    'Ðorđe',
    'Jean-Luc',
    'Zoë-Anne',
    "D'Arcy",
    'Ben',
    'Al',
    'Beau',
    'Sten',
    'Bar',
    'Lund',
  ];
  const LAST_NAMES = [
    'Smith',
    'Müller',
    'Ström',
    'Söderberg',
    "O'Brien",
    'Øster',
    'Łęcki',
    'Петров',
    'Παπαδόπουλος',
    'García-Márquez',
    'Ñúñez',
    'Dvořák',
    'Lund',
  ];

  const cases: [string, string, string][] = [];
  for (const title of TITLES) {
    for (const given of GIVEN_NAMES) cases.push([`${title} ${given} Smith`, given, 'Smith']);
    for (const last of LAST_NAMES) cases.push([`${title} Björn ${last}`, 'Björn', last]);
  }
  it.each(cases)('%j → %j / %j', (input, firstName, lastName) => {
    expect(splitFullName(input)).toEqual({ firstName, lastName });
  });

  it.each<[string, string | null, string | null]>([
    // Without a title, and with a middle name or a suffix.
    ['Björn Smith', 'Björn', 'Smith'],
    ['Anna Björk Larsson', 'Anna', 'Larsson'],
    ['John Lund Smith', 'John', 'Smith'],
    ['Mr. Björn Anders Ström Jr.', 'Björn', 'Ström'],
    ['Dr. Ölüm Çelik', 'Ölüm', 'Çelik'],
    ['Prof. Dr. Jürgen Groß', 'Jürgen', 'Groß'],
    ['Mrs. Zoë Ødegaard-Ñúñez', 'Zoë', 'Ødegaard-Ñúñez'],
    ['Mr. Jean-Luc Picard', 'Jean-Luc', 'Picard'],
    ["Mr. Seán O'Brien", 'Seán', "O'Brien"],
    ["Dr. Ève d'Estaing", 'Ève', "d'Estaing"],
    ['Mr. Ben Stiller', 'Ben', 'Stiller'],
    ['Dr. Al Gore', 'Al', 'Gore'],
    // Particles followed by a surname outside ASCII stay with it.
    ['Mr. Jan van Ömmeren', 'Jan', 'van Ömmeren'],
    ['Dr. Ludwig van Éden', 'Ludwig', 'van Éden'],
    ['Herr Otto von Ärnheim', 'Otto', 'von Ärnheim'],
    ['Mrs. Ursula von der Lühe', 'Ursula', 'von der Lühe'],
    ['Mr. Luís de Sá', 'Luís', 'de Sá'],
    ['Prof. Björn de la Cruz', 'Björn', 'de la Cruz'],
    ['Dr. Leonardo da Ñúñez', 'Leonardo', 'da Ñúñez'],
    ['Mme Émilie du Châtelet', 'Émilie', 'du Châtelet'],
    ['Sr. João dos Santos', 'João', 'dos Santos'],
    ['Björn van Ström', 'Björn', 'van Ström'],
    ['Ivan von Петров', 'Ivan', 'von Петров'],
    // "Last, First" and a title before it.
    ['Ström, Björn', 'Björn', 'Ström'],
    ['Dr. Smith, Björn Anders', 'Björn', 'Smith'],
    ['van Ömmeren, Jan', 'Jan', 'van Ömmeren'],
    // A lone name after a title is a last name, whatever its letters.
    ['Mr. Björn', null, 'Björn'],
    ['Dr. Ström', null, 'Ström'],
    // A lower-case particle opening the name starts the last name.
    ['Dr. van Helsing', null, 'van Helsing'],
    ['Mr. de la Cruz', null, 'de la Cruz'],
  ])('%j → %j / %j', (input, firstName, lastName) => {
    expect(splitFullName(input)).toEqual({ firstName, lastName });
  });

  it.each([
    'Mr. Björn Smith',
    'Dr. Zoë Ødegaard',
    'Mrs. Ñuño Dvořák',
    'Prof. Ludwig van Éden',
    'Mr. Пётр Петров',
    'Dr. Νίκος Παπαδόπουλος',
    'Ström, Björn',
  ])('%j splits the same composed (NFC) and decomposed (NFD), into composed parts', (name) => {
    const composed = name.normalize('NFC');
    const decomposed = name.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    const fromComposed = splitFullName(composed);
    expect(fromComposed.firstName ?? fromComposed.lastName).not.toBeNull();
    expect(splitFullName(decomposed)).toEqual(fromComposed);
    expect(fromComposed.firstName?.normalize('NFC')).toBe(fromComposed.firstName ?? undefined);
    expect(fromComposed.lastName?.normalize('NFC')).toBe(fromComposed.lastName ?? undefined);
  });
});
