// One SQL style per purpose (docs/decisions/0006-one-sql-style-per-purpose.md), checked over the source tree:
// - the Prisma client for plain reads and writes by key or simple filter (anywhere);
// - SQL composed as Prisma.sql tagged templates and run through $queryRaw / $executeRaw only in
//   *.store.ts modules (and the driver, src/db/);
// - SQL text run as a string ($queryRawUnsafe, db.sql.query('…'), db.sql.exec('…')) only in
//   src/db/ and the operational probes and maintenance listed below, and never with a value
//   interpolated into it.
// The check reads the source text (comments left out): a statement's text is a string or
// template literal, or a constant in capitals, passed first to query(), exec() or execResults().
// Text the code only passes through (pg-boss's statements, src/jobs/queue.ts; a composed
// statement's text, directSql in contacts.store.ts) is not SQL written here.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The folders checked (integration/ joins once the board app's SQL lives in stores). */
const SCANNED = ['src', 'integration'];
/** Never checked: generated code. */
const SKIPPED = ['src/generated/'];

/** The driver and the migration runner: SQL of any kind. */
const DRIVER = 'src/db/';

/** Where SQL text may be run as a string, besides the driver: each operational probe or maintenance job, and why. */
const RAW_SQL_FILES: Record<string, string> = {
  'src/app.ts': '/healthz: SELECT 1',
  'src/http/readiness.ts': "/readyz: the applied migrations (the migration runner's own statement)",
  'src/service.ts': 'start-up on PostgreSQL: are the tables there',
  'src/cli/operator.ts': 'the operator commands: are the tables there',
  'src/jobs/table-statistics.ts': "the statistics keeper: ANALYZE and the catalog's counters",
  'src/jobs/process-liveness.ts': 'process liveness: advisory locks on a connection of its own',
};

const isStore = (file: string) => file.endsWith('.store.ts');
const isDriver = (file: string) => file.startsWith(DRIVER);

interface Source {
  file: string;
  /** The text without its comments. */
  code: string;
}

function sources(): Source[] {
  const out: Source[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (SKIPPED.some((skipped) => `${file}/`.startsWith(skipped))) continue;
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts'))
        out.push({ file, code: withoutComments(fs.readFileSync(path.join(ROOT, file), 'utf8')) });
    }
  };
  for (const dir of SCANNED) walk(dir);
  return out;
}

/** Block comments, and line comments that start a line or follow a blank (never `https://` inside a string). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** Composed SQL: Prisma's template tag and its helpers, and the methods that run what they compose. */
const COMPOSED_SQL = /\bPrisma\.(sql|raw|join|empty)\b|\$queryRaw\b|\$executeRaw\b/g;

/** SQL text run as a string: Prisma's unsafe methods, or a driver call whose first argument is text. */
interface RawCall {
  file: string;
  line: number;
  /** The statement's text as written: the literal, or the constant's name. */
  text: string;
}

function rawCalls(source: Source): RawCall[] {
  const calls: RawCall[] = [];
  const lineOf = (index: number) => source.code.slice(0, index).split('\n').length;
  for (const match of source.code.matchAll(/\$(queryRawUnsafe|executeRawUnsafe)\b/g)) {
    calls.push({ file: source.file, line: lineOf(match.index), text: match[0] });
  }
  for (const match of source.code.matchAll(/\.\s*(query|exec|execResults)\s*(?=[<(])/g)) {
    // A regular expression's exec (`/…/.exec(text)`) runs no SQL.
    if (source.code[match.index - 1] === '/') continue;
    const text = firstArgument(source.code, match.index + match[0].length);
    if (text !== null) calls.push({ file: source.file, line: lineOf(match.index), text });
  }
  return calls;
}

/** The first argument of the call whose type arguments or `(` start at `at`, when it is SQL text; else null. */
function firstArgument(code: string, at: number): string | null {
  let i = at;
  if (code[i] === '<') {
    for (let depth = 0; i < code.length; i++) {
      if (code[i] === '<') depth++;
      else if (code[i] === '>' && code[i - 1] !== '=' && --depth === 0) break;
    }
    i++;
  }
  while (/\s/.test(code[i])) i++;
  if (code[i] !== '(') return null;
  i++;
  while (/\s/.test(code[i])) i++;
  const quote = code[i];
  if (quote === "'" || quote === '"' || quote === '`') {
    let end = i + 1;
    while (end < code.length && code[end] !== quote) end += code[end] === '\\' ? 2 : 1;
    return code.slice(i, end + 1);
  }
  const constant = /^[A-Z][A-Z0-9_]*\b/.exec(code.slice(i));
  return constant ? constant[0] : null;
}

/** The literal a constant in capitals is defined as (in any scanned file, or the driver), or null. */
function definitionOf(name: string, all: Source[]): string | null {
  for (const source of all) {
    const match = new RegExp(`\\b${name}\\s*=\\s*([\`'"])`).exec(source.code);
    if (!match) continue;
    const start = match.index + match[0].length - 1;
    let end = start + 1;
    while (end < source.code.length && source.code[end] !== match[1]) end += source.code[end] === '\\' ? 2 : 1;
    return source.code.slice(start, end + 1);
  }
  return null;
}

describe('one SQL style per purpose', () => {
  const all = sources();

  it('reads the tree it checks', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((s) => isStore(s.file))).toBe(true);
  });

  it('composes SQL (Prisma.sql, $queryRaw, $executeRaw) only in *.store.ts modules and the driver', () => {
    const outside = all
      .filter((s) => !isStore(s.file) && !isDriver(s.file))
      .flatMap((s) =>
        [...s.code.matchAll(COMPOSED_SQL)].map(
          (m) => `${s.file}:${s.code.slice(0, m.index).split('\n').length}: ${m[0]}`,
        ),
      );
    expect(outside).toEqual([]);
  });

  it('runs SQL text as a string only in the driver and the operational probes and maintenance', () => {
    const allowed = (file: string) => isDriver(file) || file in RAW_SQL_FILES;
    const outside = all.flatMap(rawCalls).filter((call) => !allowed(call.file));
    expect(outside.map((call) => `${call.file}:${call.line}: ${call.text.slice(0, 80)}`)).toEqual([]);
  });

  it('never interpolates a value into SQL text run as a string', () => {
    const interpolated = all
      .filter((s) => !isDriver(s.file))
      .flatMap(rawCalls)
      .map((call) => ({
        ...call,
        literal: /^[A-Z]/.test(call.text) && !call.text.startsWith('$') ? definitionOf(call.text, all) : call.text,
      }))
      .filter((call) => call.literal === null || call.literal.includes('${'));
    expect(interpolated.map((call) => `${call.file}:${call.line}: ${call.text.slice(0, 80)}`)).toEqual([]);
  });

  it('lists only files that exist and run SQL text', () => {
    for (const file of Object.keys(RAW_SQL_FILES)) {
      const source = all.find((s) => s.file === file);
      expect(source, file).toBeDefined();
      expect(rawCalls(source!).length, `${file} runs no SQL text: remove it from the list`).toBeGreaterThan(0);
    }
  });
});
