// Rewrites bench/results*.md from their results*.json (the markdown layout changes more often than
// the figures), then prints the list tables of docs/performance-lists.md (pasted between its
// list-tables markers): every list, CSV and tool figure, one table per database and size, each
// row linked to its plan in the results file (as a link relative to docs/).
//
//   npx tsx bench/tables.ts > /tmp/tables.md
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DatabaseResult, fmt, markdown, planAnchor } from './run.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// The default run first, then the other sizes; PostgreSQL before PGlite.
const files = fs
  .readdirSync(HERE)
  .filter((f) => /^results(-\d+)?\.json$/.test(f))
  .sort((a, b) => (a === 'results.json' ? -1 : b === 'results.json' ? 1 : a.localeCompare(b)));
for (const file of files) {
  const { databases, ...meta } = JSON.parse(fs.readFileSync(path.join(HERE, file), 'utf8')) as Record<
    string,
    unknown
  > & { databases: DatabaseResult[] };
  const md = file.replace(/\.json$/, '.md');
  fs.writeFileSync(path.join(HERE, md), markdown(databases, meta));
  for (const r of [...databases].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'postgres' ? -1 : 1))) {
    const lists = r.figures.filter((f) => f.extra?.listCase);
    if (!lists.length) continue;
    const name = r.kind === 'postgres' ? `PostgreSQL ${r.serverVersion.split(' ')[0]}` : `PGlite ${r.serverVersion}`;
    console.log(`\n### ${name}, ${r.contacts.toLocaleString('en-US')} contacts (${lists[0].target})\n`);
    console.log('| Case | Request | p50 | p95 | Raw p50 | × p50 | | Plan |');
    console.log('|---|---|---:|---:|---:|---:|---|---|');
    for (const f of lists) {
      const verdict = f.pass === true ? 'PASS' : f.pass === false ? '**MISS**' : 'n/a';
      console.log(
        `| \`${f.id}\` | ${f.name.replace(/\|/g, '\\|')} | ${fmt(f.service.p50)} | ${fmt(f.service.p95)} | ${fmt(f.raw.p50)} | ${fmt(f.ratioP50)} | ${verdict} | [plan](../bench/${md}#${planAnchor(r.kind, f.id)}) |`,
      );
    }
  }
}
