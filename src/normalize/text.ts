// Text keys shared by the name lookups (locations, languages): what counts as "the same name".

/**
 * A comparison key for names: case, accents, Hebrew points, apostrophes, dots, other
 * punctuation and spacing do not count ("Côte d’Ivoire" = "cote divoire", "Español (México)"
 * = "espanol mexico", "Washington, D.C." = "washington dc"). Only Latin/Greek/Cyrillic
 * combining accents and Hebrew points are dropped: the vowel signs of Indic and other scripts
 * are part of the letters.
 */
export function nameKey(text: string): string {
  return (
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f\u0591-\u05c7]/g, '')
      .toLowerCase()
      // Apostrophes and dots join ("d’Ivoire" → "divoire", "D.C." → "dc"); the rest separates.
      .replace(/['’‘ʼ`´.]/g, '')
      .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
      .trim()
  );
}
