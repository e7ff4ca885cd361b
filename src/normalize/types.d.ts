// Type declarations for libraries that ship none.

declare module 'parse-full-name' {
  /** The parts parse-full-name returns; a part it did not find is an empty string. */
  export interface ParsedFullName {
    title: string;
    first: string;
    middle: string;
    last: string;
    nick: string;
    suffix: string;
    error: string[];
  }

  /**
   * Parses a full name. `partToReturn` 'all' returns every part; `fixCase` -1 = only when the
   * input is all upper or all lower case, 0 = never, 1 = always; `stopOnError` 1 throws on a
   * problem (0 lists it in `error`); `useLongLists` 1 uses the long title/suffix/particle lists.
   */
  export function parseFullName(
    nameToParse: string,
    partToReturn?: 'all',
    fixCase?: -1 | 0 | 1 | boolean,
    stopOnError?: 0 | 1 | boolean,
    useLongLists?: 0 | 1 | boolean,
  ): ParsedFullName;
}
