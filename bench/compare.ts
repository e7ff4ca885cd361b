// Two benchmark runs side by side: every figure the two results files share, per database,
// with each run's p50 and p95, and the figures whose p95 grew by more than a quarter and more
// than 2 ms marked. For a change's before-and-after (the same command on two commits, on one
// machine).
//
//   npx tsx bench/compare.ts <before results.json> <after results.json> [title]
import fs from 'node:fs';
import { type DatabaseResult, fmt } from './run.js';

const [beforePath, afterPath, title] = process.argv.slice(2);
if (!beforePath || !afterPath) {
  console.error('usage: compare.ts <before results.json> <after results.json> [title]');
  process.exit(2);
}

const read = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as { databases: DatabaseResult[] }).databases;
/** A p95 that grew by more than a quarter and by more than 2 ms. */
const worse = (before: number, after: number) => after > before * 1.25 && after - before > 2;

const before = read(beforePath);
for (const db of read(afterPath)) {
  const then = before.find((b) => b.kind === db.kind && b.contacts === db.contacts);
  if (!then) continue;
  const shared = db.figures.filter((f) => then.figures.some((g) => g.id === f.id));
  if (shared.length === 0) continue;
  const name = db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  console.log(`\n### ${title ? `${title}: ` : ''}${name}, ${db.contacts.toLocaleString('en-US')} contacts\n`);
  console.log('| Figure | Before p50 | Before p95 | After p50 | After p95 | |');
  console.log('|---|---:|---:|---:|---:|---|');
  let marked = 0;
  for (const f of shared) {
    const g = then.figures.find((x) => x.id === f.id)!;
    const mark = worse(g.service.p95, f.service.p95) ? 'p95 worse' : '';
    if (mark) marked++;
    console.log(
      `| ${f.name.replace(/\|/g, '\\|')} | ${fmt(g.service.p50)} | ${fmt(g.service.p95)} | ${fmt(f.service.p50)} | ${fmt(f.service.p95)} | ${mark} |`,
    );
  }
  console.log(`\n${shared.length} figures; ${marked} with a p95 more than a quarter and 2 ms above the run before.`);
}
