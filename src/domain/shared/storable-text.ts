// The one rule for text the database must store: PostgreSQL's text and jsonb cannot hold the
// NUL character (U+0000), and a string with a lone UTF-16 surrogate (`"\ud800"` in JSON, which
// JSON.parse accepts) is not Unicode text at all: the driver turns it into U+FFFD or the
// database refuses it. Both are the client's mistake, so they are a 400 naming the field,
// before anything is stored, on every surface (the GraphQL argument guard, the telephony
// events), rather than a 500 or a silently changed value.
//
// The walk is iterative (an explicit stack, no recursion), so a value nested thousands of
// levels deep is checked like any other and never overflows the call stack.
import { badRequest } from '../errors.js';

export interface TextProblem {
  /** Where the text is, as REST names fields: `firstName`, `contacts[12].customFields.plan`. */
  path: string;
  message: string;
}

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const SURROGATE_MESSAGE = 'must be well-formed Unicode text (it holds a lone surrogate such as \\ud800)';

// In a `u` regex a surrogate pair is one code point, so only a lone surrogate matches: the
// same test as String.prototype.isWellFormed (Node 20+), which the ES2023 typings lack.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why PostgreSQL cannot store this string, or null when it can. */
export function unstorableTextReason(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}

/**
 * The first string in `value` (an object's keys included, at any depth) that PostgreSQL cannot
 * store, with its path below `prefix`; null when there is none.
 */
export function findUnstorableText(value: unknown, prefix = ''): TextProblem | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: prefix }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unstorableTextReason(current);
      if (reason) return { path, message: reason };
    } else if (Array.isArray(current)) {
      // Pushed last to first so the first bad item is the one reported.
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: `${path}[${i}]` });
    } else if (current !== null && typeof current === 'object' && !(current instanceof Date)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        const keyReason = unstorableTextReason(key);
        const keyPath = joinKey(path, key);
        if (keyReason) return { path: keyPath, message: `key ${keyReason}` };
        stack.push({ value: item, path: keyPath });
      }
    }
  }
  return null;
}

/** Throws the 400 for the first unstorable string in `value` (see findUnstorableText). */
export function assertStorableText(value: unknown, prefix = ''): void {
  const problem = findUnstorableText(value, prefix);
  if (problem) throw badRequest(problem.path ? `${problem.path}: ${problem.message}` : problem.message, { issues: [problem] });
}

/** `a.b` for a plain key; `a["x y"]` (JSON-escaped, so a NUL shows as \u0000) for any other. */
export function joinKey(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}
