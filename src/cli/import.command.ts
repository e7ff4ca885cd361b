// `contactline import FILE.csv --key svc_pk_...`: reads a CSV (skipping malformed records,
// csv-records.ts), maps its columns to contact fields, and sends chunks of 1000 to
// POST /api/v1/contacts/bulk of a running service (bulk-sender.ts: a row the service refuses
// is dropped and the rest of its chunk sent again). The summary lists each row not imported once.
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import cliProgress from 'cli-progress';
import { CliError, createOutput, EXIT, jsonOption, usageError, type Output } from './output.js';
import {
  buildMapping,
  CsvMappingError,
  describeTarget,
  rowToItem,
  type Target,
} from '../domain/contacts/csv-import/csv-mapping.js';
import { readCsvRecords } from '../domain/contacts/csv-import/csv-records.js';
import { createContactlineClient } from '../client/index.js';
import { sendChunk, type ChunkFailure, type PendingRow, type RowRejection } from './bulk-sender.js';

export const CHUNK_SIZE = 1000;

/**
 * Each row not imported is in `rejected` once, with its reason: `malformed-record` (the CSV
 * record could not be read; skipped), `invalid-priority` (refused here), `invalid-field` (the
 * service's 400 named it; the rest of its chunk was sent again), or the service's own
 * rejection reasons (`invalid-phone`, `missing-dedup-field`, `dedup-key-too-long`). Rows of a
 * chunk that failed as a whole (the service failed, or refused it for no row of its own) are
 * not listed row by row: `failedChunks` gives their range and the answer, once.
 */
export interface ImportSummary {
  ok: boolean;
  file: string;
  url: string;
  sourceKind: string;
  /** Records in the file after the header, malformed ones included. */
  rows: number;
  /** Rows the service answered for (accepted, rejected by it, or in a chunk it refused). */
  sent: number;
  accepted: number;
  rejected: RowRejection[];
  failedChunks: ChunkFailure[];
  /** Rows never sent because the import stopped (unreachable server, bad key). */
  notSent: number;
  aborted: string | null;
  mapping: Record<string, string>;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function importCommand(): Command {
  return new Command('import')
    .description("import contacts from a CSV file through a running service's bulk API")
    .argument('<file>', 'CSV file with a header row')
    .addOption(new Option('--key <key>', 'API key (svc_pk_...)').env('CONTACTLINE_API_KEY').makeOptionMandatory())
    .addOption(new Option('--url <url>', 'service base URL').env('CONTACTLINE_URL').default('http://127.0.0.1:3000'))
    .option(
      '--map <column=field>',
      'map a column: "Column=field", "Column=customFields.key" or "Column=-" to skip (repeatable)',
      collect,
      [],
    )
    .option('--source-kind <kind>', 'sourceKind of the imported contacts', 'csv')
    .option('--no-progress', 'no progress bar')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nColumns are matched by name (first name, last name, full name/name, phone/mobile, location/country/state,\ntimezone, language, status, external id/id, priority); other columns go to customFields.\nRows are reported by data row (first row after the header = row 1) and by file line (header = line 1).',
    )
    .action(
      async (
        file: string,
        opts: { key: string; url: string; map: string[]; sourceKind: string; progress: boolean; json?: boolean },
      ) => {
        const out = createOutput(!!opts.json);
        const summary = await runImport(file, opts, out);
        printSummary(out, summary);
        out.result(summary as unknown as Record<string, unknown>);
        if (!summary.ok) process.exitCode = EXIT.failed;
      },
    );
}

async function runImport(
  file: string,
  opts: { key: string; url: string; map: string[]; sourceKind: string; progress: boolean },
  out: Output,
): Promise<ImportSummary> {
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

  const { headers, rows, malformed } = await readCsvRecords(fs.createReadStream(filePath)).catch((error: Error) => {
    throw new CliError(`Cannot read ${filePath} as CSV: ${error.message}`);
  });
  if (headers.length === 0) throw new CliError(`${filePath} is empty: expected a header row`);
  const mapping = mappingOf(headers, opts.map);
  const mappingOut = Object.fromEntries(headers.map((h, i) => [h, describeTarget(mapping[i])]));
  if (!mapping.some((t) => t.kind === 'field'))
    out.note(`warning: no column maps to a contact field (columns: ${headers.join(', ')}); use --map "Column=field"`);

  const summary: ImportSummary = {
    ok: true,
    file: filePath,
    url: base.origin + base.pathname.replace(/\/$/, ''),
    sourceKind: opts.sourceKind,
    rows: rows.length + malformed.length,
    sent: 0,
    accepted: 0,
    rejected: malformed.map((m) => ({ row: m.row, line: m.line, reason: 'malformed-record', message: m.message })),
    failedChunks: [],
    notSent: 0,
    aborted: null,
    mapping: mappingOut,
  };

  // Rows that cannot be sent as they are (a non-integer priority) are rejected here.
  const sendable: PendingRow[] = [];
  for (const row of rows) {
    const result = rowToItem(row.cells, headers, mapping, opts.sourceKind);
    if (result.ok) sendable.push({ row, item: result.item });
    else summary.rejected.push({ row: row.row, line: row.line, reason: result.reason, message: result.message });
  }

  const bar =
    opts.progress && summary.rows > 0
      ? new cliProgress.SingleBar(
          {
            stream: process.stderr,
            noTTYOutput: true,
            notTTYSchedule: 2000,
            format: 'import [{bar}] {percentage}% | {value}/{total} rows',
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(summary.rows, summary.rows - sendable.length);

  const client = createContactlineClient({ baseUrl: summary.url, apiKey: opts.key });
  const endpoint = `${summary.url}/api/v1/contacts/bulk`;
  try {
    for (let start = 0; start < sendable.length; start += CHUNK_SIZE) {
      const chunk = sendable.slice(start, start + CHUNK_SIZE);
      const result = await sendChunk(client, endpoint, chunk);
      summary.sent += result.sent;
      summary.accepted += result.accepted;
      summary.rejected.push(...result.rejected);
      if (result.failure) summary.failedChunks.push(result.failure);
      if (result.fatal) {
        summary.aborted = result.failure?.message ?? 'the import stopped';
        summary.notSent = sendable.length - start - chunk.length;
        break;
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

/** The columns' targets; a `--map` that cannot be applied is a usage error. */
function mappingOf(headers: string[], specs: string[]): Target[] {
  try {
    return buildMapping(headers, specs);
  } catch (error) {
    if (error instanceof CsvMappingError) throw usageError(error.message);
    throw error;
  }
}

function printSummary(out: Output, s: ImportSummary): void {
  out.line(
    `Imported ${path.basename(s.file)} into ${s.url} (sourceKind ${s.sourceKind}): ${s.rows} row(s), ${s.sent} sent, ${s.accepted} accepted, ${s.rejected.length} rejected.`,
  );
  out.line(`Rows are numbered from the first data row (row 1); "line" counts the header as line 1.`);
  if (s.rejected.length) {
    out.line('Rejected rows:');
    for (const r of s.rejected)
      out.line(`  row ${r.row} (line ${r.line}): ${r.reason}${r.message ? ` — ${r.message}` : ''}`);
  }
  for (const f of s.failedChunks) {
    out.line(
      `Rows ${f.fromRow}-${f.toRow} (${f.rows} row(s)) were not imported: ${f.status ? `HTTP ${f.status} ` : ''}${f.code}: ${f.message}`,
    );
  }
  if (s.aborted) out.line(`Import stopped: ${s.aborted}${s.notSent ? ` (${s.notSent} more row(s) not sent)` : ''}`);
  const notImported = s.rejected.length + s.failedChunks.reduce((n, f) => n + f.rows, 0) + s.notSent;
  if (!out.json && !s.ok) out.note(`import finished with ${notImported} row(s) not imported`);
}
