// Checks the repository's documents point at things that exist: `npx tsx scripts/check-doc-links.ts [FILE.md…]`
// (default: README.md, ARCHITECTURE.md and every .md under docs/, its subfolders included). Exits 1
// and lists each problem otherwise. `npm run lint:docs` runs it after markdownlint-cli2.
//
// - Every relative Markdown link, `[text](path)` or `[text](path#anchor)` or `[text](#anchor)`,
//   must name a file or folder of the repository, and its anchor a heading of that Markdown file
//   (anchors as GitHub makes them: lower case, punctuation dropped, spaces as hyphens, a repeated
//   heading numbered -1, -2, …) or an `<a id="…">` in it.
// - Every path in backticks that starts with a top-level folder (`src/app.ts`,
//   `integration/monday/`) must exist; a path with a wildcard or a placeholder (`*`, `<module>`)
//   is not checked. Files get moved: this is what notices that a document still names the old place.
// Links and paths inside fenced code blocks are not checked; absolute URLs never are.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOP_LEVEL = ['src', 'integration', 'test', 'bench', 'scripts', 'prisma', 'schema', 'docs', 'bin'];

function defaultFiles(): string[] {
  const docs = path.join(ROOT, 'docs');
  const markdown = fs.existsSync(docs)
    ? fs
        .readdirSync(docs, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .map((f) => path.posix.join('docs', f.split(path.sep).join('/')))
        .sort()
    : [];
  return ['README.md', 'ARCHITECTURE.md', ...markdown];
}

/** The text outside fenced code blocks, line by line (fenced lines become empty, so line numbers hold). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor of a heading's text. */
function slug(heading: string): string {
  return heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached) return cached;
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(fs.readFileSync(file, 'utf8'))) {
    for (const html of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(html[1]);
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const base = slug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

function checkFile(doc: string): string[] {
  const problems: string[] = [];
  const docPath = path.join(ROOT, doc);
  const lines = proseLines(fs.readFileSync(docPath, 'utf8'));
  lines.forEach((line, index) => {
    const where = `${doc}:${index + 1}`;
    for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [filePart, anchor] = target.split('#', 2);
      const file = filePart === '' ? docPath : path.resolve(path.dirname(docPath), decodeURIComponent(filePart));
      if (!fs.existsSync(file)) {
        problems.push(`${where}: link to ${target}: no such file`);
        continue;
      }
      if (anchor !== undefined) {
        if (!file.endsWith('.md'))
          problems.push(`${where}: link to ${target}: an anchor into a file that is not Markdown`);
        else if (!anchorsOf(file).has(anchor))
          problems.push(`${where}: link to ${target}: no heading with that anchor in ${path.relative(ROOT, file)}`);
      }
    }
    for (const match of line.matchAll(/`([^`\s]+)`/g)) {
      const candidate = match[1].replace(/[),.:;]+$/, '');
      const top = candidate.split('/')[0];
      if (!candidate.includes('/') || !TOP_LEVEL.includes(top)) continue;
      if (/[*<>{}$]|\.\.\./.test(candidate)) continue;
      if (!fs.existsSync(path.join(ROOT, candidate)))
        problems.push(`${where}: \`${candidate}\`: no such file or folder`);
    }
  });
  return problems;
}

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : defaultFiles();
const problems = files.flatMap((file) => checkFile(file));
for (const problem of problems) console.log(problem);
console.log(
  problems.length === 0
    ? `${files.length === 1 ? files[0] : `${files.length} documents`}: every link and path resolves`
    : `${problems.length} problem(s)`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
