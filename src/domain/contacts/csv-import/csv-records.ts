// Reads an import's CSV (the CLI's file, the console's upload) into numbered records, skipping the malformed ones instead of
// failing the file: a record with more fields than the header, a quote never closed (which
// swallows the rest of the file into one record: on the last line, only that line), a quote
// in the middle of a field. Each skipped record is reported with its row and line.
// Numbers: `row` is the record's position after the header (the first is row 1, a skipped
// record keeps its number, so row N is always the file's Nth record); `line` is the file line
// the record starts on (the header is line 1; a quoted cell may span lines).
import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';

export interface CsvRow {
  row: number;
  line: number;
  cells: Record<string, string | undefined>;
}

export interface MalformedRecord {
  row: number;
  line: number;
  message: string;
}

export interface CsvRecords {
  /** The header's names, each unique: a blank one is "column N", a repeated one gets " (2)". */
  headers: string[];
  /** Names the header holds more than once (case ignored), as first written. */
  repeatedHeaders: string[];
  rows: CsvRow[];
  malformed: MalformedRecord[];
}

/** The line a record starts on: where it ends, less the line breaks inside it (its raw text). */
function startLine(endLine: number, raw: string | undefined): number {
  if (!raw) return endLine;
  // The raw text holds the blank lines skipped before the record and its own line break.
  const body = raw.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\r?\n$/, '');
  return endLine - (body.match(/\n/g)?.length ?? 0);
}

function describeProblem(error: CsvError, line: number, headerCount: number): string {
  const { code } = error;
  const fields = (error as unknown as { record?: unknown[] }).record?.length;
  const lastLine = (error as unknown as { lines?: number }).lines ?? line;
  if (code === 'CSV_RECORD_INCONSISTENT_COLUMNS' && fields !== undefined)
    return `the record has ${fields} fields; the header has ${headerCount}`;
  if (code === 'CSV_QUOTE_NOT_CLOSED') {
    return lastLine > line
      ? `a quote opened on this line is never closed; lines ${line}-${lastLine} were skipped`
      : 'a quote opened on this line is never closed';
  }
  return error.message.replace(/^[A-Za-z ]+:\s*/, '');
}

/** Reads the records of a CSV: a stream of its bytes (a file) or its text. */
export async function readCsvRecords(source: Readable | string): Promise<CsvRecords> {
  let headers: string[] = [];
  const repeatedHeaders: string[] = [];
  let count = 0;
  const malformed: MalformedRecord[] = [];
  let lastSkipped: MalformedRecord | null = null;
  const input = typeof source === 'string' ? Readable.from([source]) : source;
  const parser = input.pipe(
    parse({
      columns: (header: string[]) => {
        // Unique, non-empty keys: a blank header becomes "column N", a repeated one gets a suffix.
        const seen = new Map<string, number>();
        headers = header.map((raw, i) => {
          const name = String(raw ?? '').trim() || `column ${i + 1}`;
          const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
          seen.set(name.toLowerCase(), n);
          if (n === 2) repeatedHeaders.push(name);
          return n === 1 ? name : `${name} (${n})`;
        });
        return headers;
      },
      bom: true,
      raw: true,
      trim: true,
      skip_empty_lines: true,
      // Fewer fields than the header: the missing trailing cells are empty (spreadsheets drop
      // them). More: the cells no longer line up with the header (an unquoted comma), skipped.
      relax_column_count_less: true,
      skip_records_with_error: true,
      // on_record and on_skip are called in file order, as the parser meets each record, so
      // one counter numbers good and skipped records alike.
      // (With `raw`, a record comes as { record, raw }.)
      on_record: (entry: { record: Record<string, string>; raw: string }, context: { lines: number }) => {
        lastSkipped = null;
        return { row: ++count, line: startLine(context.lines, entry.raw), cells: entry.record } satisfies CsvRow;
      },
      on_skip: (error: CsvError | undefined, raw: string | undefined) => {
        if (!error) return;
        const line = startLine((error as unknown as { lines: number }).lines, raw);
        // One record can fail twice (a stray quote, then its field count): reported once.
        if (lastSkipped && lastSkipped.line === line) return;
        lastSkipped = { row: ++count, line, message: describeProblem(error, line, headers.length) };
        malformed.push(lastSkipped);
      },
    }),
  );
  const rows: CsvRow[] = [];
  for await (const row of parser as AsyncIterable<CsvRow>) rows.push(row);
  return { headers, repeatedHeaders, rows, malformed };
}
