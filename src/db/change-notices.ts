// Tells this process when rows it keeps in memory have changed in the database, whichever
// process changed them: PostgreSQL's LISTEN on a channel that triggers notify (the migrations
// name the channels and their triggers). A cache asks two things of it before it answers from
// memory: is the listening connection up (while it is down, notices may be missed, so nothing
// may be answered from memory), and has a notice arrived since the entry was read (the
// generation: an entry read before a notice is not kept, even if the read finished after it).
//
// On PostgreSQL the listening connection is one of its own, outside the pool: LISTEN needs a
// session, which a transaction pooler (PgBouncer) does not give. On the embedded database the
// one process owns the database and PGlite delivers notices in-process.
import pg from 'pg';
import type { Database } from './database.js';
import { logger } from '../logger.js';

export interface ChangeNotices {
  /** Counts notices and losses of the listening connection; an entry read under an older one is stale. */
  generation(): number;
  /** Whether notices are being received now; false: answer nothing from memory. */
  live(): boolean;
  /**
   * Resolves once the generation has moved past `generation` (a notice, or a lost connection), or
   * after `timeoutMs`: a writer of a change calls it after its commit, so that its own answer is
   * sent only once this process has heard of the change.
   */
  passed(generation: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** The waiters of `passed`, woken at each change of the generation. */
function generationWaiters() {
  const waiters = new Set<() => void>();
  return {
    wake() {
      for (const wake of [...waiters]) wake();
    },
    wait(done: () => boolean, timeoutMs: number): Promise<void> {
      if (done()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const finish = () => {
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const check = () => {
          if (done()) finish();
        };
        const timer = setTimeout(finish, timeoutMs);
        waiters.add(check);
      });
    },
  };
}

/** How long to wait before listening again after the connection was lost, at first and at most. */
const RECONNECT_MS = { first: 200, max: 10_000 };

/** Listens on `channel` of `db`; resolves once listening (or rejects: the caller starts without notices). */
export async function listenForChanges(db: Database, channel: string): Promise<ChangeNotices> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let generation = 0;
  const waiters = generationWaiters();
  const passed = (past: number, timeoutMs: number) => waiters.wait(() => generation > past, timeoutMs);
  if (db.listen) {
    const unlisten = await db.listen(channel, () => {
      generation++;
      waiters.wake();
    });
    return { generation: () => generation, live: () => true, passed, close: unlisten };
  }
  const connectionString = db.directConnectionString ?? db.connectionString;
  if (!connectionString) throw new Error('change notices need a PostgreSQL connection string');
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retryMs = RECONNECT_MS.first;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString, application_name: 'contactline-notices' });
    next.on('notification', () => {
      generation++;
      waiters.wake();
    });
    const lost = (error?: Error) => {
      if (client !== next) return;
      client = null;
      live = false;
      generation++;
      waiters.wake();
      next.end().catch(() => {});
      if (closed) return;
      logger.warn(
        { err: error },
        `change notices: lost the listening connection; answering from the database until it is back`,
      );
      timer = setTimeout(reconnect, retryMs);
      retryMs = Math.min(retryMs * 2, RECONNECT_MS.max);
    };
    next.on('error', lost);
    next.on('end', () => lost());
    client = next;
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    // Whatever changed while no one listened is unknown: everything read before now is stale.
    generation++;
    live = true;
    waiters.wake();
    retryMs = RECONNECT_MS.first;
  };
  const reconnect = () => {
    if (closed) return;
    connect().catch((error: Error) => {
      const failed = client;
      client = null;
      failed?.end().catch(() => {});
      if (closed) return;
      logger.warn({ err: error }, 'change notices: cannot listen yet; trying again');
      timer = setTimeout(reconnect, retryMs);
      retryMs = Math.min(retryMs * 2, RECONNECT_MS.max);
    });
  };

  await connect();
  return {
    generation: () => generation,
    live: () => live,
    passed,
    async close() {
      closed = true;
      live = false;
      clearTimeout(timer);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}
