// Sends one chunk of an import to POST /api/v1/contacts/bulk and keeps the good rows of it.
// The service's answer is the judge of every row: a 202 names the rows it rejected (bad phone,
// no dedup field); a 400 names the items it refused by path (`contacts[12].phone`, at most 20
// per answer), and those rows are dropped and the rest sent again, until the chunk is accepted
// or an answer names no item (then the chunk fails as a whole, reported once). Each resend
// drops at least one row, and there are at most MAX_SENDS_PER_CHUNK of them. A 429 or 503 is
// sent again after its Retry-After (at most MAX_WAITS times). The request goes through the
// typed client of the OpenAPI document (src/client/), so the body and the answer's types are
// the document's.
import type { ContactlineClient, ContactWrite } from '../client/index.js';
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
  | { kind: 'unreachable' | 'not-the-service'; message: string }
  | { kind: 'answered'; status: number; body: Record<string, unknown>; retryAfterMs: number | null };

/** `endpoint` names the bulk URL in messages; the request goes through `client`. */
export async function sendChunk(
  client: ContactlineClient,
  endpoint: string,
  chunk: PendingRow[],
  wait = sleep,
): Promise<ChunkResult> {
  let pending = chunk;
  const rejected: RowRejection[] = [];
  let waits = 0;
  for (let sends = 1; ; sends++) {
    const answer = await post(client, endpoint, pending);
    if (answer.kind !== 'answered') {
      // Both repeat for every chunk: stop the import.
      return {
        accepted: 0,
        sent: chunk.length - pending.length,
        rejected,
        failure: failureOf(pending, null, answer.kind === 'unreachable' ? 'unreachable' : 'not_json', answer.message),
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

/**
 * One POST through the typed client. Whatever the service answers comes back as an answer
 * (an error body that is not JSON becomes its first 200 characters as the message); only a
 * request that got no answer (refused, reset, timed out) is `unreachable`.
 */
async function post(client: ContactlineClient, endpoint: string, pending: PendingRow[]): Promise<Answer> {
  let result: Awaited<ReturnType<typeof sendBulk>>;
  try {
    result = await sendBulk(client, pending);
  } catch (error) {
    // A 2xx whose body is not JSON: something else answers at this address.
    if (error instanceof SyntaxError) return { kind: 'not-the-service', message: notTheService(endpoint) };
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return {
      kind: 'unreachable',
      message: `cannot reach ${endpoint} (${cause}); is \`contactline serve\` running there?`,
    };
  }
  const { data, error, response } = result;
  const body: Record<string, unknown> = data
    ? data
    : typeof error === 'object' && error !== null
      ? error
      : { message: String(error ?? '').slice(0, 200) };
  return {
    kind: 'answered',
    status: response.status,
    body,
    retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
  };
}

function sendBulk(client: ContactlineClient, pending: PendingRow[]) {
  return client.POST('/api/v1/contacts/bulk', {
    // The items are the CSV rows as mapped, not checked here: the service is the judge of
    // every row (a 202 names those it rejects, a 400 the fields it refuses).
    body: { contacts: pending.map((p) => p.item) as ContactWrite[] },
    signal: AbortSignal.timeout(120_000),
  });
}

const notTheService = (endpoint: string) =>
  `${endpoint} answered something other than JSON; is it a contactline service?`;

/** Retry-After in seconds (the service sends seconds), bounded; absent or a date: null. */
function retryAfterMs(header: string | null): number | null {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_WAIT_MS) : null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
