// How many requests this process has started, for background work on the embedded database.
// There every statement runs on the process's one thread, one at a time, and a request that
// arrives during a chunk of background work (a bulk-update's) waits for the rest of it. So the
// work sizes its chunks by whether requests are coming: short while they are, large while none
// is. The HTTP app counts each request here; one count per process, like the thread.
import { setImmediate as nextTurn } from 'node:timers/promises';

let started = 0;

/** Counts a request (the HTTP app's first middleware). */
export function noteRequestStarted(): void {
  started++;
}

/** Requests started so far in this process. */
export function requestsStarted(): number {
  return started;
}

/**
 * Resolves once the event loop has polled its sockets: two turns, check phase to check phase.
 * A request that arrived while a chunk held the thread is read, and started, by then.
 */
export async function afterPendingReads(): Promise<void> {
  await nextTurn();
  await nextTurn();
}
