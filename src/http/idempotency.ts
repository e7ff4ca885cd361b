// Idempotent REST writes: a POST, PUT or PATCH of /api/v1 carrying `Idempotency-Key` runs once
// per key and Account. The key is claimed in the database before the write runs (one INSERT …
// ON CONFLICT: of two concurrent requests with one key exactly one runs), and the answer the
// client gets (status, content-type, Location, body) is stored before it is sent, for 24 hours
// by the service's clock. A retry with the same key and request (method, path, body bytes)
// gets the stored answer with `Idempotent-Replayed: true`; another request with the key is a
// 422 `idempotency_key_reused`; a retry while the first still runs is a 409
// `idempotency_key_in_use`. 4xx answers are stored like successes (the retry would fail the
// same way); a 5xx releases the claim, so a retry runs again; a claim whose request died
// without answering is abandoned after CLAIM_LEASE_MS. docs/decisions/0025-idempotency-keys.md.
import { createHash, randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { RequestContext, Services } from '../domain/context.js';
import { badRequest, DomainError } from '../domain/errors.js';
import { directSql } from '../db/sql-client.js';
import {
  claimKey,
  deleteExpiredKeys,
  findKey,
  releaseKey,
  storeAnswer,
  type StoredAnswer,
} from '../domain/idempotency/idempotency-keys.store.js';
import { logger } from '../logger.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key and its answer are kept. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim without an answer older than this was left by a request that died: the key is free again. */
export const CLAIM_LEASE_MS = 60_000;
/** Expired keys are deleted at most this often per process (they are ignored as soon as they expire). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;
/** 1–255 visible ASCII characters (a space or a control character is a typo, not a key). */
const ACCEPTABLE_KEY = /^[\x21-\x7e]{1,255}$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** The answer's headers a replay repeats; the others (request id, rate limits) are the retry's own. */
const REPLAYED_HEADERS = ['content-type', 'location'];
/** A claim can be lost to a release between the claim and the read: a few rounds settle it. */
const CLAIM_ROUNDS = 3;

/** The body bytes' hash of each keyed request, noted while express.json reads them. */
const bodyHashes = new WeakMap<Request, string>();
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** express.json's `verify`: hashes the raw body bytes of a request that carries a key (others pay nothing). */
export function noteBodyBytes(req: Request, _res: Response, bytes: Buffer): void {
  if (req.headers['idempotency-key'] !== undefined) bodyHashes.set(req, sha256(bytes));
}

/** The request's key: undefined without the header, a 400 when it is not 1–255 visible ASCII characters. */
export function idempotencyKeyOf(req: Request): string | undefined {
  if (!WRITE_METHODS.has(req.method)) return undefined;
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !ACCEPTABLE_KEY.test(key))
    throw badRequest(`The ${IDEMPOTENCY_KEY_HEADER} header must be 1–255 visible ASCII characters`);
  return key;
}

/**
 * How an answer that carries a secret (a webhook endpoint's signing secret) is kept: encrypted at
 * rest like the secret itself, and opened for a replay.
 */
export interface AnswerSeal {
  seal(body: string): string;
  open(stored: string): string;
}

/**
 * Runs a write (already authenticated, its body read) once per key: `run` answers through
 * `res` as usual (or throws, and the app's error mapper answers); that answer is stored. Without
 * a key, `run` just runs.
 */
export function idempotentWrites(services: Services) {
  const sql = directSql(services.db.sql);
  let lastSweep = 0;

  /** Deletes expired keys now and then, in the background: a failure only leaves them for the next sweep. */
  function sweepExpiredKeys(now: Date) {
    if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now.getTime();
    deleteExpiredKeys(sql, now).catch((error: unknown) => logger.warn({ err: error }, 'idempotency: sweep failed'));
  }

  return async function idempotently(
    ctx: RequestContext,
    key: string | undefined,
    req: Request,
    res: Response,
    run: () => Promise<void>,
    seal?: AnswerSeal,
  ): Promise<void> {
    // Keys are honoured on API-key requests only: the Account is their scope.
    const accountId = ctx.actor?.accountId;
    if (key === undefined || !accountId) return run();
    const now = ctx.clock.now();
    sweepExpiredKeys(now);
    const requestHash = sha256(`${req.method} ${req.originalUrl}\n${bodyHashes.get(req) ?? sha256('')}`);
    const owner = randomUUID();
    const claim = {
      accountId,
      key,
      requestHash,
      owner,
      now,
      expiresAt: new Date(now.getTime() + KEY_TTL_MS),
      abandonedBy: new Date(now.getTime() - CLAIM_LEASE_MS),
    };
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      if (await claimKey(sql, claim)) {
        recordAnswer(res, (answer) =>
          // A 5xx may be retried; a 403 is about the key's scopes, not the request: another key may send it.
          answer.status >= 500 || answer.status === 403
            ? releaseKey(sql, accountId, key, owner)
            : storeAnswer(sql, accountId, key, owner, seal ? { ...answer, body: seal.seal(answer.body) } : answer),
        );
        return run();
      }
      const stored = await findKey(sql, accountId, key);
      if (!stored) continue; // released (a 5xx) or swept between the claim and the read: claim again
      if (stored.status === null)
        throw new DomainError(
          'idempotency_key_in_use',
          `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running; retry once it has answered`,
        );
      if (stored.requestHash !== requestHash)
        throw new DomainError(
          'idempotency_key_reused',
          `This ${IDEMPOTENCY_KEY_HEADER} was used for another request (method, path or body) in the last 24 hours`,
        );
      const body = stored.body && seal ? seal.open(stored.body) : (stored.body ?? '');
      replay(res, { status: stored.status, headers: stored.headers ?? {}, body });
      return;
    }
    throw new DomainError('idempotency_key_in_use', `The ${IDEMPOTENCY_KEY_HEADER} is changing hands; retry`);
  };
}

/**
 * Calls `keep` with the answer before it is sent: the write's end waits for it, so a client
 * that retries the moment it has an answer finds it stored. A failure to keep it is logged and
 * the answer sent anyway (the claim then lapses after CLAIM_LEASE_MS).
 */
function recordAnswer(res: Response, keep: (answer: StoredAnswer) => Promise<void>): void {
  const chunks: Buffer[] = [];
  const toBuffer = (chunk: unknown, encoding?: unknown) =>
    Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, rest[0]));
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    const [chunk, encoding] = args;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const answer = { status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') };
    keep(answer)
      .catch((error: unknown) => logger.error({ err: error }, 'idempotency: the answer could not be kept'))
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}

/**
 * The stored answer, marked as a replay. An error body's requestId becomes this request's, as
 * every error body's is (the x-request-id header); the rest is the stored bytes.
 */
function replay(res: Response, answer: StoredAnswer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.send(answer.status >= 400 ? withRequestId(answer.body, res.locals.requestId as string) : answer.body);
}

function withRequestId(body: string, requestId: string): string {
  try {
    return JSON.stringify({ ...JSON.parse(body), requestId });
  } catch {
    return body;
  }
}
