// Sends one chunk of an import to POST /api/v1/contacts/bulk and keeps the good rows of it.
// The service's answer is the judge of every row: a 202 names the rows it rejected (bad phone,
// no dedup field); a 400 names the items it refused by path (`contacts[12].phone`, at most 20
// per answer), and those rows are dropped and the rest sent again, until the chunk is accepted
// or an answer names no item (then the chunk fails as a whole, reported once). Each resend
// drops at least one row, and there are at most MAX_SENDS_PER_CHUNK of them. A 429 or 503 is
// sent again after its Retry-After (at most MAX_WAITS times).
import type { CsvRow } from '../domain/contacts/csv-import/csv-records.js';
import { itemProblems } from '../domain/contacts/csv-import/item-problems.js';

export const MAX_SENDS_PER_CHUNK = 100;
const MAX_WAITS = 5;
const MAX_WAIT_MS = 60_000;

export interface RowRejection {
  row: number;
  line: number;
  reason: string;
  message?: string;
}

export interface ChunkFailure {
  fromRow: number;
  toRow: number;
  /** How many rows of the chunk were not imported because of this failure. */
  rows: number;
  status: number | null;
  code: string;
  message: string;
}

export interface ChunkResult {
  accepted: number;
  /** Rows the service received in a request it answered. */
  sent: number;
  rejected: RowRejection[];
  failure: ChunkFailure | null;
  /** The failure will repeat for every chunk (no server, a bad key): stop the import. */
  fatal: boolean;
}

export interface PendingRow {
  row: CsvRow;
  item: Record<string, unknown>;
}

type Answer =
  | { kind: 'unreachable'; message: string }
  | { kind: 'answered'; status: number; body: Record<string, unknown>; retryAfterMs: number | null };

export async function sendChunk(
  endpoint: string,
  key: string,
  chunk: PendingRow[],
  wait = sleep,
): Promise<ChunkResult> {
  let pending = chunk;
  const rejected: RowRejection[] = [];
  let waits = 0;
  for (let sends = 1; ; sends++) {
    const answer = await post(endpoint, key, pending);
    if (answer.kind === 'unreachable') {
      return {
        accepted: 0,
        sent: chunk.length - pending.length,
        rejected,
        failure: failureOf(pending, null, 'unreachable', answer.message),
        fatal: true,
      };
    }
    const { status, body } = answer;
    if (status === 202 || (status >= 200 && status < 300)) {
      for (const r of (body.rejected as Array<{ index: number; reason: string }>) ?? []) {
        const row = pending[r.index]?.row;
        if (row) rejected.push({ row: row.row, line: row.line, reason: r.reason });
      }
      return { accepted: Number(body.accepted ?? 0), sent: chunk.length, rejected, failure: null, fatal: false };
    }
    if ((status === 429 || status === 503) && answer.retryAfterMs !== null && waits < MAX_WAITS) {
      waits++;
      sends--;
      await wait(answer.retryAfterMs);
      continue;
    }
    const named = status === 400 ? itemProblems(body.issues, pending.length) : new Map<number, string[]>();
    if (named.size > 0 && sends < MAX_SENDS_PER_CHUNK) {
      for (const [index, problems] of named) {
        const { row } = pending[index];
        rejected.push({ row: row.row, line: row.line, reason: 'invalid-field', message: problems.join('; ') });
      }
      pending = pending.filter((_, index) => !named.has(index));
      if (pending.length === 0) return { accepted: 0, sent: chunk.length, rejected, failure: null, fatal: false };
      continue;
    }
    const code = typeof body.code === 'string' ? body.code : `http_${status}`;
    const message = typeof body.message === 'string' ? body.message : `HTTP ${status}`;
    // A bad key or a wrong URL fails every chunk the same way: stop instead of repeating it.
    const fatal = status === 401 || status === 403 || status === 404;
    return { accepted: 0, sent: chunk.length, rejected, failure: failureOf(pending, status, code, message), fatal };
  }
}

function failureOf(pending: PendingRow[], status: number | null, code: string, message: string): ChunkFailure {
  return {
    fromRow: pending[0].row.row,
    toRow: pending[pending.length - 1].row.row,
    rows: pending.length,
    status,
    code,
    message,
  };
}

async function post(endpoint: string, key: string, pending: PendingRow[]): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contacts: pending.map((p) => p.item) }),
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return {
      kind: 'unreachable',
      message: `cannot reach ${endpoint} (${cause}); is \`contactline serve\` running there?`,
    };
  }
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { message: text.slice(0, 200) };
  }
  return {
    kind: 'answered',
    status: response.status,
    body,
    retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
  };
}

/** Retry-After in seconds (the service sends seconds), bounded; absent or a date: null. */
function retryAfterMs(header: string | null): number | null {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_WAIT_MS) : null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
