// Where every password hash of the process runs: one lane, so that sign-in traffic cannot take
// the API's CPU. A hash costs a core for a few hundred milliseconds, on purpose (scrypt, see
// password-hash.ts). Run as they came, on libuv's pool of four threads, thirty sign-ins at once
// took both cores of a small machine from the event loop and the database: API reads went from
// ~10 ms to ~280 ms (~850 ms on the embedded database) and each sign-in took 15 s.
//
// So a hash runs:
//   - one at a time (HASHING_CONCURRENCY), on a worker thread of its own, off the event loop and
//     off libuv's pool (which also serves file and DNS work);
//   - at the lowest CPU priority (nice 19, on Linux where a thread has its own): when the cores
//     are busy, the event loop and the database go first and the hash waits;
//   - after at most HASHING_QUEUE others: past that the caller is refused at once (HashingBusy,
//     a 503 with Retry-After) instead of waiting seconds behind them. A refusal comes before the
//     email is looked up, so it says nothing about who has an account.
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import type { ScryptOptions } from 'node:crypto';
import { DomainError } from '../errors.js';

/** Hashes computed at once by this process. */
export const HASHING_CONCURRENCY = 1;
/** Hashes waiting for the lane; one more is refused. */
export const HASHING_QUEUE = 16;
/** The hashing thread's niceness: the lowest priority (Linux). */
const HASHING_NICENESS = 19;

/** The lane is full: the surface answers 503 `unavailable` with Retry-After. */
export class HashingBusy extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('unavailable', `Too many sign-ins are being checked right now: try again in ${retryAfterSeconds} s`);
  }
}

let running = 0;
const waiting: Array<() => void> = [];
/** A running mean of one hash's time, for Retry-After (a first guess until one has run). */
let meanHashMs = 300;

/** Seconds until the hashes ahead of a newcomer are done (at least 1). */
const retryAfterSeconds = () =>
  Math.max(1, Math.ceil(((running + waiting.length) * meanHashMs) / HASHING_CONCURRENCY / 1000));

/** Throws HashingBusy when a hash asked for now would be refused (a cheap check before any other work). */
export function assertHashingRoom(): void {
  if (running >= HASHING_CONCURRENCY && waiting.length >= HASHING_QUEUE) throw new HashingBusy(retryAfterSeconds());
}

/** scrypt on the lane's thread; HashingBusy when the lane is full. */
export async function scryptInLane(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  assertHashingRoom();
  if (running < HASHING_CONCURRENCY) running++;
  // The slot comes from the hash that finishes first (running stays as it was).
  else await new Promise<void>((resolve) => waiting.push(resolve));
  const started = performance.now();
  try {
    return await hashingThread().scrypt(password, salt, keyLength, options);
  } finally {
    meanHashMs = 0.8 * meanHashMs + 0.2 * (performance.now() - started);
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

// The thread's code, plain JavaScript (a worker does not load the TypeScript sources). A failed
// setPriority is ignored: the lane still bounds how many hashes run.
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
if (process.platform === 'linux') {
  try { require('node:os').setPriority(0, ${HASHING_NICENESS}); } catch {}
}
parentPort.on('message', ({ id, password, salt, keyLength, options }) => {
  try {
    parentPort.postMessage({ id, key: scryptSync(password, salt, keyLength, options) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface HashingThread {
  scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer>;
}

let thread: HashingThread | undefined;

/**
 * The hashing thread, started on first use. It keeps the process alive only while a hash is
 * pending; a thread that fails rejects what it had and is started again by the next hash.
 */
function hashingThread(): HashingThread {
  if (thread) return thread;
  // On Linux, setpriority(0) in the thread lowers that thread alone; elsewhere it would lower
  // the whole process, so the code above only calls it on Linux.
  const worker = new Worker(THREAD_SOURCE, { eval: true });
  worker.unref();
  const pending = new Map<number, { resolve: (key: Buffer) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const fail = (error: Error) => {
    if (thread === current) thread = undefined;
    for (const task of pending.values()) task.reject(error);
    pending.clear();
  };
  worker.on('message', (message: { id: number; key?: Uint8Array; error?: string }) => {
    const task = pending.get(message.id);
    if (!task) return;
    pending.delete(message.id);
    if (pending.size === 0) worker.unref();
    if (message.key) task.resolve(Buffer.from(message.key.buffer, message.key.byteOffset, message.key.byteLength));
    else task.reject(new Error(`password hashing failed: ${message.error}`));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the password hashing thread exited (${code})`)));
  const current: HashingThread = {
    scrypt(password, salt, keyLength, options) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, password, salt, keyLength, options });
      });
    },
  };
  thread = current;
  return current;
}
