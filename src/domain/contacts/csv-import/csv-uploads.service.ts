// The console's CSV import, in steps a page can show: the person uploads a file (read and
// checked here, with the CLI's reader), sees its first rows and the suggested mapping
// (the CLI's rules), changes the mapping, and imports it one chunk of rows per call, each sent
// to importContacts as the bulk API sends it. An upload is kept for an hour after its last
// step, for the person who made it.
//
// At least once, counted once: a step sends its chunk, then records it only if no other step
// recorded one since (a second tab, a double click). A step lost to a crash between the two is
// sent again by the next one: contacts are upserted by the Account's dedup key, so sending a
// row twice writes it once; what the page said was accepted was queued durably already.
import type { RequestContext } from '../../context.js';
import { requireConsoleUser } from '../../context.js';
import { asDomainError, badRequest, notFound } from '../../errors.js';
import { importContacts } from '../contacts-import.service.js';
import { buildMapping, choiceOf, mappingOfChoices, rowToItem, type TargetChoice } from './csv-mapping.js';
import { readCsvRecords } from './csv-records.js';
import { itemProblems } from './item-problems.js';
import {
  deleteExpiredUploads,
  findUpload,
  insertUpload,
  type Owner,
  type RowRejection,
  recordStep,
  type StoredRow,
  startUpload,
  type UploadRecord,
  uploadRows,
} from './csv-uploads.store.js';

export const UPLOAD_TTL_MS = 60 * 60 * 1000;
export const PREVIEW_ROWS = 5;
/** importContacts takes at most 1000 items a call. */
export const STEP_ROWS = 1000;
/** More columns than this is not a contact list. */
export const MAX_COLUMNS = 200;
const SOURCE_KIND = 'csv';
/** Each resend of a chunk drops at least one row named by a 400 (at most 20 a time). */
const MAX_SENDS_PER_STEP = 100;

const REASON_MESSAGES: Record<string, string> = {
  'invalid-phone': 'the phone is not a possible number for its country',
  'missing-dedup-field': "the row has none of the Account's dedup fields (Settings)",
  'dedup-key-too-long': 'the dedup key is too long',
};

export type UploadStatus = 'preview' | 'importing' | 'done';

export interface CsvUploadView extends UploadRecord {
  status: UploadStatus;
  suggestedMapping: TargetChoice[];
  /** Records handled so far (sent, or refused before sending), out of rowCount. */
  rowsDone: number;
}

const ownerOf = (ctx: RequestContext): Owner => {
  const { accountId, userId } = requireConsoleUser(ctx);
  return { accountId, userId };
};

function viewOf(upload: UploadRecord): CsvUploadView {
  const status: UploadStatus = !upload.startedAt ? 'preview' : upload.finishedAt ? 'done' : 'importing';
  return {
    ...upload,
    status,
    suggestedMapping: buildMapping(upload.headers, []).map(choiceOf),
    rowsDone: upload.startedAt ? upload.rowCount - upload.readable + upload.nextIndex : 0,
  };
}

/** A refused file, said about the `file` the person chose. */
const refusedFile = (message: string) => badRequest(message, { issues: [{ path: 'file', message }] });

/** A first line whose cell is a phone number or a plain number names no column: it is a row. */
const looksLikeData = (cell: string) => /^\+?[\d\s().-]{6,}$/.test(cell);

export async function createCsvUpload(
  ctx: RequestContext,
  input: { fileName: string; csv: string },
): Promise<CsvUploadView> {
  const owner = ownerOf(ctx);
  const fileName = input.fileName.trim().slice(0, 255) || 'upload.csv';
  if (input.csv.trim() === '')
    throw refusedFile('The file is empty: choose a CSV file whose first line names the columns.');
  const read = await readCsvRecords(input.csv).catch((error: Error) => {
    throw refusedFile(`The file cannot be read as CSV: ${error.message}`);
  });
  const { headers, repeatedHeaders, rows, malformed } = read;
  if (headers.length === 0 || headers.every((header, i) => header === `column ${i + 1}`))
    throw refusedFile('The first line names no columns: add a header line (e.g. "First name,Phone") and upload again.');
  const dataLike = headers.find(looksLikeData);
  if (dataLike)
    throw refusedFile(
      `The first line looks like a row, not column names ("${dataLike}"): add a header line (e.g. "First name,Phone") and upload again.`,
    );
  if (repeatedHeaders.length > 0)
    throw refusedFile(
      `More than one column is named "${repeatedHeaders[0]}": give each column its own name and upload again.`,
    );
  if (headers.length > MAX_COLUMNS)
    throw refusedFile(`The file has ${headers.length} columns; at most ${MAX_COLUMNS} can be imported.`);
  if (rows.length + malformed.length === 0)
    throw refusedFile('The file has a header line but no rows under it: add the contacts and upload again.');

  await deleteExpiredUploads(ctx);
  const now = ctx.clock.now();
  const stored: StoredRow[] = rows.map((r) => ({
    row: r.row,
    line: r.line,
    cells: headers.map((h) => r.cells[h] ?? ''),
  }));
  const upload = await insertUpload(ctx, owner, {
    fileName,
    headers,
    rows: stored,
    preview: stored.slice(0, PREVIEW_ROWS),
    rowCount: rows.length + malformed.length,
    readable: rows.length,
    rejected: malformed.map((m) => ({ row: m.row, line: m.line, reason: 'malformed-record', message: m.message })),
    createdAt: now,
    expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
  });
  return viewOf(upload);
}

export async function csvUpload(ctx: RequestContext, id: string): Promise<CsvUploadView> {
  return viewOf(await uploadOf(ctx, id));
}

async function uploadOf(ctx: RequestContext, id: string): Promise<UploadRecord> {
  const upload = await findUpload(ctx, ownerOf(ctx), id);
  if (!upload)
    throw notFound('No such upload: it was made by someone else, or more than an hour ago. Upload the file again.');
  return upload;
}

/**
 * Imports the upload's next rows (at most STEP_ROWS). The first step records the mapping (one
 * word per column); later steps keep it, whatever they send.
 */
export async function importCsvUpload(
  ctx: RequestContext,
  input: { id: string; mapping: string[] },
): Promise<CsvUploadView> {
  let upload = await uploadOf(ctx, input.id);
  if (!upload.startedAt) {
    const chosen = mappingOfChoices(upload.headers, input.mapping);
    if (!chosen.ok) {
      const path = `mapping[${chosen.column}]`;
      throw badRequest(`${path}: ${chosen.message}`, { issues: [{ path, message: chosen.message }] });
    }
    await startUpload(ctx, upload.id, input.mapping, ctx.clock.now());
    upload = await uploadOf(ctx, input.id);
  }
  if (upload.finishedAt) return viewOf(upload);

  const { mapping } = mappingOfChoices(upload.headers, upload.mapping) as {
    ok: true;
    mapping: ReturnType<typeof buildMapping>;
  };
  const rows = await uploadRows(ctx, upload.id, upload.nextIndex, STEP_ROWS);
  const rejected: RowRejection[] = [];
  const pending: Array<{ row: StoredRow; item: Record<string, unknown> }> = [];
  for (const row of rows) {
    const cells = Object.fromEntries(upload.headers.map((h, i) => [h, row.cells[i]]));
    const result = rowToItem(cells, upload.headers, mapping, SOURCE_KIND);
    if (result.ok) pending.push({ row, item: result.item });
    else rejected.push({ row: row.row, line: row.line, reason: result.reason, message: result.message });
  }
  const sent = await sendRows(ctx, pending);
  rejected.push(...sent.rejected);

  const now = ctx.clock.now();
  const toIndex = upload.nextIndex + rows.length;
  await recordStep(ctx, upload.id, {
    fromIndex: upload.nextIndex,
    toIndex,
    accepted: sent.accepted,
    rejected: [...upload.rejected, ...rejected].sort((a, b) => a.row - b.row),
    finishedAt: toIndex >= upload.readable ? now : null,
    expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
  });
  return viewOf(await uploadOf(ctx, input.id));
}

/**
 * Sends rows to importContacts as the bulk API gets them: its answer names the rows it rejects;
 * a 400 names the items it refuses (`contacts[12].phone`), which are dropped and the rest sent again.
 */
async function sendRows(
  ctx: RequestContext,
  rows: Array<{ row: StoredRow; item: Record<string, unknown> }>,
): Promise<{ accepted: number; rejected: RowRejection[] }> {
  const rejected: RowRejection[] = [];
  let pending = rows;
  for (let sends = 0; pending.length > 0 && sends < MAX_SENDS_PER_STEP; sends++) {
    try {
      const result = await importContacts(ctx, { contacts: pending.map((p) => p.item) });
      for (const r of result.rejected) {
        const { row } = pending[r.index];
        rejected.push({ row: row.row, line: row.line, reason: r.reason, message: REASON_MESSAGES[r.reason] ?? '' });
      }
      return { accepted: result.accepted, rejected };
    } catch (error) {
      const failure = asDomainError(error);
      const named = failure?.code === 'bad_request' ? itemProblems(failure.details.issues, pending.length) : new Map();
      if (named.size === 0) throw error;
      for (const [index, problems] of named) {
        const { row } = pending[index];
        rejected.push({ row: row.row, line: row.line, reason: 'invalid-field', message: problems.join('; ') });
      }
      pending = pending.filter((_, index) => !named.has(index));
    }
  }
  // Only if every send named a row yet rows remain (never, with 20 named a send): said, not lost silently.
  for (const { row } of pending)
    rejected.push({ row: row.row, line: row.line, reason: 'not-sent', message: 'too many refusals in its chunk' });
  return { accepted: 0, rejected };
}
