// On the embedded database every statement runs on the service's one thread, and PGlite hands
// its lock from one waiting statement to the next within the same turn of the event loop: while
// statements are waiting, no socket is read. Under many concurrent requests some connections
// were then served over and over while others sat unread for seconds (50 connections of list
// requests: p99 2.8 s, and 14 requests over 10 s in 30 s). Letting the event loop turn
// (setImmediate) before each statement asks for the lock reads every request that has arrived
// first, so requests queue for the database in the order they came: the same throughput, and
// the slowest request waits for the queue ahead of it, not for its luck.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PGlite } from '@electric-sql/pglite';

/** Makes `db`'s entry points (query, exec, transaction) let the event loop turn before they queue for the lock. */
export function takeTurnsFairly(db: PGlite): PGlite {
  const query = db.query.bind(db);
  const exec = db.exec.bind(db);
  const transaction = db.transaction.bind(db);
  return Object.assign(db, {
    query: (async (...args: Parameters<typeof query>) => {
      await nextTurn();
      return query(...args);
    }) as typeof query,
    exec: (async (...args: Parameters<typeof exec>) => {
      await nextTurn();
      return exec(...args);
    }) as typeof exec,
    transaction: (async (...args: Parameters<typeof transaction>) => {
      await nextTurn();
      return transaction(...args);
    }) as typeof transaction,
  });
}
