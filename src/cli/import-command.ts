// `contactline import FILE.csv --key svc_pk_...`: reads a CSV, maps its columns to contact
// fields, and sends chunks of 1000 to POST /api/v1/contacts/bulk of a running service.
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { parse } from 'csv-parse';
import cliProgress from 'cli-progress';
import { CliError, createOutput, EXIT, jsonOption, usageError, type Output } from './output.js';
import { buildMapping, describeTarget, rowToItem } from './csv-mapping.js';

export const CHUNK_SIZE = 1000;

/**
 * Row numbers: `row` is the 1-based data row (the first row after the header is row 1);
 * `line` is the file line the row starts on (the header is line 1, so usually row + 1).
 */
export interface Rejection {
  row: number;
  line: number;
  reason: string;
  message?: string;
}

export interface ChunkFailure {
  fromRow: number;
  toRow: number;
  status: number | null;
  code: string;
  message: string;
  /** Per-item problems the API named in its 400, by row. */
  issues?: Array<{ row: number; line: number; path: string; message: string }>;
}

export interface ImportSummary {
  ok: boolean;
  file: string;
  url: string;
  sourceKind: string;
  rows: number;
  /** Rows the service received (accepted, rejected by it, or in a chunk it refused). */
  sent: number;
  accepted: number;
  rejected: Rejection[];
  failedChunks: ChunkFailure[];
  /** Rows never sent because the import stopped (unreachable server, bad key). */
  notSent: number;
  aborted: string | null;
  mapping: Record<string, string>;
}

interface Row {
  row: number;
  line: number;
  cells: Record<string, string | undefined>;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function importCommand(): Command {
  return new Command('import')
    .description('import contacts from a CSV file through a running service\'s bulk API')
    .argument('<file>', 'CSV file with a header row')
    .addOption(new Option('--key <key>', 'API key (svc_pk_...)').env('CONTACTLINE_API_KEY').makeOptionMandatory())
    .addOption(new Option('--url <url>', 'service base URL').env('CONTACTLINE_URL').default('http://127.0.0.1:3000'))
    .option('--map <column=field>', 'map a column: "Column=field", "Column=customFields.key" or "Column=-" to skip (repeatable)', collect, [])
    .option('--source-kind <kind>', 'sourceKind of the imported contacts', 'csv')
    .option('--no-progress', 'no progress bar')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nColumns are matched by name (first name, last name, full name/name, phone/mobile, location/country/state,\ntimezone, language, status, external id/id, priority); other columns go to customFields.\nRows are reported by data row (first row after the header = row 1) and by file line (header = line 1).',
    )
    .action(async (file: string, opts: { key: string; url: string; map: string[]; sourceKind: string; progress: boolean; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const summary = await runImport(file, opts, out);
      printSummary(out, summary);
      out.result(summary as unknown as Record<string, unknown>);
      if (!summary.ok) process.exitCode = EXIT.failed;
    });
}

async function runImport(file: string, opts: { key: string; url: string; map: string[]; sourceKind: string; progress: boolean }, out: Output): Promise<ImportSummary> {
  if (!opts.key.startsWith('svc_pk_')) throw usageError('--key must be an API key (svc_pk_...)');
  let base: URL;
  try {
    base = new URL(opts.url);
  } catch {
    throw usageError(`--url "${opts.url}" is not a URL (e.g. http://127.0.0.1:3000)`);
  }
  const { SOURCE_KINDS } = await import('../domain/contacts/contacts.inputs.js');
  if (!(SOURCE_KINDS as readonly string[]).includes(opts.sourceKind)) {
    throw usageError(`--source-kind "${opts.sourceKind}": use one of ${SOURCE_KINDS.join(', ')}`);
  }
  const filePath = path.resolve(file);
  if (!fs.existsSync(filePath) || !fs.statSync(filePath).isFile()) throw new CliError(`No such file: ${filePath}`);

  const { headers, rows } = await readCsv(filePath);
  const mapping = buildMapping(headers, opts.map);
  const mappingOut = Object.fromEntries(headers.map((h, i) => [h, describeTarget(mapping[i])]));
  if (!mapping.some((t) => t.kind === 'field')) out.note(`warning: no column maps to a contact field (columns: ${headers.join(', ')}); use --map "Column=field"`);

  const summary: ImportSummary = {
    ok: true,
    file: filePath,
    url: base.origin + base.pathname.replace(/\/$/, ''),
    sourceKind: opts.sourceKind,
    rows: rows.length,
    sent: 0,
    accepted: 0,
    rejected: [],
    failedChunks: [],
    notSent: 0,
    aborted: null,
    mapping: mappingOut,
  };

  // Rows that cannot be sent as they are (a non-integer priority) are rejected here.
  const sendable: Array<{ row: Row; item: Record<string, unknown> }> = [];
  for (const row of rows) {
    const result = rowToItem(row.cells, headers, mapping, opts.sourceKind);
    if (result.ok) sendable.push({ row, item: result.item });
    else summary.rejected.push({ row: row.row, line: row.line, reason: result.reason, message: result.message });
  }

  const bar = opts.progress && rows.length > 0
    ? new cliProgress.SingleBar(
        { stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000, format: 'import [{bar}] {percentage}% | {value}/{total} rows', hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(rows.length, rows.length - sendable.length);

  const endpoint = `${summary.url}/api/v1/contacts/bulk`;
  try {
    for (let start = 0; start < sendable.length; start += CHUNK_SIZE) {
      const chunk = sendable.slice(start, start + CHUNK_SIZE);
      const outcome = await sendChunk(endpoint, opts.key, chunk);
      if (outcome.kind === 'accepted' || outcome.failure.status !== null) summary.sent += chunk.length;
      if (outcome.kind === 'accepted') {
        summary.accepted += outcome.accepted;
        for (const r of outcome.rejected) {
          const row = chunk[r.index]?.row;
          if (row) summary.rejected.push({ row: row.row, line: row.line, reason: r.reason });
        }
      } else {
        summary.failedChunks.push(outcome.failure);
        for (const { row } of chunk) summary.rejected.push({ row: row.row, line: row.line, reason: 'request-failed', message: outcome.failure.message });
        if (outcome.fatal) {
          summary.aborted = outcome.failure.message;
          summary.notSent = sendable.length - start - chunk.length;
          break;
        }
      }
      bar?.increment(chunk.length);
    }
  } finally {
    bar?.stop();
  }
  summary.rejected.sort((a, b) => a.row - b.row);
  summary.ok = summary.rejected.length === 0 && summary.failedChunks.length === 0 && !summary.aborted;
  return summary;
}

async function readCsv(filePath: string): Promise<{ headers: string[]; rows: Row[] }> {
  let headers: string[] = [];
  const parser = fs.createReadStream(filePath).pipe(
    parse({
      columns: (header: string[]) => {
        // Unique, non-empty keys: a blank header becomes "column N", a repeated one gets a suffix.
        const seen = new Map<string, number>();
        headers = header.map((raw, i) => {
          const name = String(raw ?? '').trim() || `column ${i + 1}`;
          const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
          seen.set(name.toLowerCase(), n);
          return n === 1 ? name : `${name} (${n})`;
        });
        return headers;
      },
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }),
  );
  const rows: Row[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      // info.lines is where the record ends; a quoted cell with line breaks started it earlier.
      const breaks = Object.values(record).reduce((n, v) => n + (typeof v === 'string' ? (v.match(/\n/g)?.length ?? 0) : 0), 0);
      rows.push({ row: rows.length + 1, line: info.lines - breaks, cells: record });
    }
  } catch (error) {
    throw new CliError(`Cannot read ${filePath} as CSV: ${(error as Error).message}`);
  }
  if (headers.length === 0) throw new CliError(`${filePath} is empty: expected a header row`);
  return { headers, rows };
}

type ChunkOutcome =
  | { kind: 'accepted'; accepted: number; rejected: Array<{ index: number; reason: string }> }
  | { kind: 'failed'; fatal: boolean; failure: ChunkFailure };

async function sendChunk(endpoint: string, key: string, chunk: Array<{ row: Row; item: Record<string, unknown> }>): Promise<ChunkOutcome> {
  const fromRow = chunk[0].row.row;
  const toRow = chunk[chunk.length - 1].row.row;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contacts: chunk.map((c) => c.item) }),
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return {
      kind: 'failed',
      fatal: true,
      failure: { fromRow, toRow, status: null, code: 'unreachable', message: `cannot reach ${endpoint} (${cause}); is \`contactline serve\` running there?` },
    };
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { message: text.slice(0, 200) };
  }
  if (response.status === 202 || response.ok) {
    return { kind: 'accepted', accepted: Number(body.accepted ?? 0), rejected: (body.rejected as Array<{ index: number; reason: string }>) ?? [] };
  }
  const message = typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
  const issues = Array.isArray(body.issues)
    ? (body.issues as Array<{ path: string; message: string }>).flatMap((issue) => {
        const match = /^contacts\[(\d+)\]/.exec(issue.path ?? '');
        const row = match ? chunk[Number(match[1])]?.row : undefined;
        return row ? [{ row: row.row, line: row.line, path: issue.path.replace(/^contacts\[\d+\]\.?/, ''), message: issue.message }] : [];
      })
    : undefined;
  // A bad key or wrong URL fails every chunk the same way: stop instead of repeating it.
  const fatal = response.status === 401 || response.status === 403 || response.status === 404;
  return {
    kind: 'failed',
    fatal,
    failure: { fromRow, toRow, status: response.status, code: typeof body.code === 'string' ? body.code : `http_${response.status}`, message, ...(issues?.length ? { issues } : {}) },
  };
}

function printSummary(out: Output, s: ImportSummary): void {
  out.line(`Imported ${path.basename(s.file)} into ${s.url} (sourceKind ${s.sourceKind}): ${s.rows} row(s), ${s.sent} sent, ${s.accepted} accepted, ${s.rejected.length} rejected.`);
  out.line(`Rows are numbered from the first data row (row 1); "line" counts the header as line 1.`);
  const perRow = s.rejected.filter((r) => r.reason !== 'request-failed');
  if (perRow.length) {
    out.line('Rejected rows:');
    for (const r of perRow) out.line(`  row ${r.row} (line ${r.line}): ${r.reason}${r.message ? ` — ${r.message}` : ''}`);
  }
  for (const f of s.failedChunks) {
    out.line(`Rows ${f.fromRow}-${f.toRow} were not imported: ${f.status ? `HTTP ${f.status} ` : ''}${f.code}: ${f.message}`);
    for (const i of f.issues ?? []) out.line(`  row ${i.row} (line ${i.line}): ${i.path ? `${i.path}: ` : ''}${i.message}`);
  }
  if (s.aborted) out.line(`Import stopped: ${s.aborted}${s.notSent ? ` (${s.notSent} more row(s) not sent)` : ''}`);
  if (!out.json && !s.ok) out.note(`import finished with ${s.rejected.length + s.notSent} row(s) not imported`);
}
