// Writes bench/data/census-names.tsv, the name frequencies the benchmark's seed samples from:
// the 1990 US Census name tables as published in github.com/treyhunner/names (MIT licence;
// the Census Bureau's tables themselves are public domain). Each table line is
// NAME, frequency (% of the population), cumulative %, rank.
//
//   npx tsx scripts/census-names.ts <dir>     <dir> holds dist.male.first, dist.female.first
//                                              and dist.all.last (the repository's names/ folder)
//
// Keeps the top FIRST_NAMES male and female first names and the top LAST_NAMES last names,
// proper-cased ("MCDONALD" → "McDonald"), with their frequency as published.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIRST_NAMES = 1000;
const LAST_NAMES = 5000;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, '..', 'bench', 'data', 'census-names.tsv');

interface Row {
  name: string;
  frequency: number;
}

function readTable(file: string, keep: number): Row[] {
  const rows = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => cells.length === 4)
    .map(([name, frequency, , rank]) => ({ name: properCase(name), frequency: Number(frequency), rank: Number(rank) }));
  rows.sort((a, b) => a.rank - b.rank);
  if (rows.length < keep) throw new Error(`${file}: ${rows.length} names, ${keep} wanted`);
  return rows.slice(0, keep).map(({ name, frequency }) => ({ name, frequency }));
}

/** "JOHN" → "John", "MCDONALD" → "McDonald". */
export function properCase(upper: string): string {
  const lower = upper.toLowerCase();
  const cased = lower.charAt(0).toUpperCase() + lower.slice(1);
  return /^Mc[a-z]/.test(cased) && cased.length > 3 ? `Mc${cased.charAt(2).toUpperCase()}${cased.slice(3)}` : cased;
}

function main() {
  const dir = process.argv[2];
  if (!dir)
    throw new Error(
      'usage: npx tsx scripts/census-names.ts <dir with dist.male.first, dist.female.first, dist.all.last>',
    );
  const tables: Array<[string, Row[]]> = [
    ['male', readTable(path.join(dir, 'dist.male.first'), FIRST_NAMES)],
    ['female', readTable(path.join(dir, 'dist.female.first'), FIRST_NAMES)],
    ['last', readTable(path.join(dir, 'dist.all.last'), LAST_NAMES)],
  ];
  const lines = ['pool\tname\tfrequency'];
  for (const [pool, rows] of tables) for (const row of rows) lines.push(`${pool}\t${row.name}\t${row.frequency}`);
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${lines.join('\n')}\n`);
  console.log(
    `wrote ${path.relative(process.cwd(), OUT)}: ${tables.map(([pool, rows]) => `${rows.length} ${pool}`).join(', ')}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
