// One clock, checked in the source: the service reads the time only through its injected
// Clock. Any other read of the process clock (`new Date()`, `Date.now()`) or of the database's
// (`now()`, CURRENT_TIMESTAMP, a Prisma `@default(now())` or `@updatedAt`) in src/, integration/
// or the Prisma schema fails here, unless it is one of the exceptions below, each with its reason
// (docs/decisions/0012-one-clock.md). test/api/one-clock.test.ts checks the same rule at run time.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const CLOCK_READS: Array<[name: string, pattern: RegExp]> = [
  ['new Date()', /\bnew Date\(\s*\)/],
  ['Date.now()', /\bDate\.now\(\s*\)/],
  // SQL now(), but not a method call (clock.now()) nor the Clock interface's own `now(): Date`.
  ['SQL now()', /(?<![.\w])now\(\s*\)(?!\s*[:{])/i],
  [
    'SQL clock function',
    /\b(CURRENT_TIMESTAMP|LOCALTIMESTAMP|CURRENT_DATE|clock_timestamp|statement_timestamp|transaction_timestamp)\b/i,
  ],
  ['Prisma @updatedAt', /@updatedAt\b/],
];

/** file → the clock reads it may keep, and why. */
const ALLOWED: Record<string, { reads: string[]; why: string }> = {
  'src/domain/shared/clock.ts': {
    reads: ['new Date()'],
    why: 'the system clock itself: the one place the process time is read',
  },
  'src/db/migrate.ts': {
    reads: ['SQL now()'],
    why: "Prisma's migration bookkeeping table records when a migration ran on that database; the service never reads it",
  },
  'src/db/database.ts': {
    reads: ['SQL now()'],
    why: "the read replica's replay delay (/metrics) is the server's clock against the commit times it replayed, both PostgreSQL's: the service's clock would measure the distance between two clocks",
  },
  'src/normalize/timezone.ts': {
    reads: ['new Date()'],
    why: 'which zones behave alike is judged over the tz rules in force from this year on, not a stored or compared timestamp',
  },
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return relative === 'src/generated' ? [] : sourceFiles(relative);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

describe('one clock in the source', () => {
  it('reads the time only through the injected Clock in src/, integration/ and prisma/schema.prisma', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('integration'), 'prisma/schema.prisma'];
    expect(files.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const file of files) {
      const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const [name, pattern] of CLOCK_READS) {
          if (pattern.test(line) && !ALLOWED[file]?.reads.includes(name))
            found.push(`${file}:${index + 1} ${name}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it('keeps each exception in use (a stale exception is removed, not kept)', () => {
    for (const [file, { reads }] of Object.entries(ALLOWED)) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const name of reads)
        expect(CLOCK_READS.find(([n]) => n === name)![1].test(text), `${file} ${name}`).toBe(true);
    }
  });
});
