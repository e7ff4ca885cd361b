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

/** A value met by the walk, with how it was reached (its path is built only when it is reported). */
interface Visit {
  value: unknown;
  parent: Visit | null;
  step: string | number | null;
}

/**
 * The first string in `value` (an object's keys included, at any depth) that PostgreSQL cannot
 * store, with its path below `prefix`; null when there is none. Linear in the size of the value
 * whatever its depth: paths are built for the one value reported, not for every value visited.
 */
export function findUnstorableText(value: unknown, prefix = ''): TextProblem | null {
  const stack: Visit[] = [{ value, parent: null, step: null }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const current = visit.value;
    if (typeof current === 'string') {
      const reason = unstorableTextReason(current);
      if (reason) return { path: pathOf(visit, prefix), message: reason };
    } else if (Array.isArray(current)) {
      // Pushed last to first so the first bad item is the one reported.
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], parent: visit, step: i });
    } else if (current !== null && typeof current === 'object' && !(current instanceof Date)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        const keyReason = unstorableTextReason(key);
        if (keyReason)
          return { path: pathOf({ value: item, parent: visit, step: key }, prefix), message: `key ${keyReason}` };
        stack.push({ value: item, parent: visit, step: key });
      }
    }
  }
  return null;
}

function pathOf(visit: Visit, prefix: string): string {
  const steps: Array<string | number> = [];
  for (let at: Visit | null = visit; at && at.step !== null; at = at.parent) steps.push(at.step);
  let path = prefix;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    path = typeof step === 'number' ? `${path}[${step}]` : joinKey(path, step);
  }
  return path;
}

/** Throws the 400 for the first unstorable string in `value` (see findUnstorableText). */
export function assertStorableText(value: unknown, prefix = ''): void {
  const problem = findUnstorableText(value, prefix);
  if (problem)
    throw badRequest(problem.path ? `${problem.path}: ${problem.message}` : problem.message, { issues: [problem] });
}

/** `a.b` for a plain key; `a["x y"]` (JSON-escaped, so a NUL shows as \u0000) for any other. */
export function joinKey(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}
