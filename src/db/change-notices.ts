// Tells this process when rows it keeps in memory have changed in the database, whichever
// process changed them: PostgreSQL's LISTEN on a channel that triggers notify (the migrations
// name the channels and their triggers). A cache asks two things of it before it answers from
// memory: is the listening connection up (while it is down, notices may be missed, so nothing
// may be answered from memory), and has a notice arrived since the entry was read (the
// generation: an entry read before a notice is not kept, even if the read finished after it).
//
// A notice reaches each process on its own time: the process that made a change may hear it
// before another does, and a client told "done" could then reach the other process first. So
// the writer of a change asks every listening process to confirm (`heardEverywhere`): it
// notifies a barrier on the same channel after its commit; the channel delivers in commit
// order, so a process that hears the barrier has heard the change; each answers on
// `<channel>_heard`, and the writer waits for every listening session of this database
// (pg_stat_activity) to have answered.
//
// On PostgreSQL the listening connection is one of its own, outside the pool: LISTEN needs a
// session, which a transaction pooler (PgBouncer) does not give. On the embedded database the
// one process owns the database and PGlite delivers notices in-process.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Database } from './database.js';
import { logger } from '../logger.js';

export interface ChangeNotices {
  /** Counts notices and losses of the listening connection; an entry read under an older one is stale. */
  generation(): number;
  /** Whether notices are being received now; false: answer nothing from memory. */
  live(): boolean;
  /**
   * Called by the writer of a change after its commit, with the generation read before it: resolves
   * true once every process listening on this database has heard every notice committed so far
   * (its answer may then be sent: the next request anywhere sees the change), or false after
   * `timeoutMs` (a process that stopped answering; logged).
   */
  heardEverywhere(before: number, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The waiters of `passed`, woken at each change of the generation. */
function generationWaiters() {
  const waiters = new Set<() => void>();
  return {
    wake() {
      for (const wake of [...waiters]) wake();
    },
    /** Resolves true once `done()`, false after `timeoutMs`. */
    wait(done: () => boolean, timeoutMs: number): Promise<boolean> {
      if (done()) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const finish = (met: boolean) => {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(met);
        };
        const check = () => {
          if (done()) finish(true);
        };
        const timer = setTimeout(() => finish(false), timeoutMs);
        waiters.add(check);
      });
    },
  };
}

/** The application_name of every listening connection: how a writer finds the sessions that must confirm. */
const LISTENER_NAME = 'contactline-notices';
/** The payload of a barrier notice (followed by its token); the triggers' payloads are table names. */
const BARRIER = 'barrier:';

/** How long to wait before listening again after the connection was lost, at first and at most. */
const RECONNECT_MS = { first: 200, max: 10_000 };

/** Listens on `channel` of `db`; resolves once listening (or rejects: the caller starts without notices). */
export async function listenForChanges(db: Database, channel: string): Promise<ChangeNotices> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let generation = 0;
  const waiters = generationWaiters();
  if (db.listen) {
    const unlisten = await db.listen(channel, () => {
      generation++;
      waiters.wake();
    });
    // One process: hearing its own notice is everyone hearing it.
    const heardEverywhere = (before: number, timeoutMs: number) => waiters.wait(() => generation > before, timeoutMs);
    return { generation: () => generation, live: () => true, heardEverywhere, close: unlisten };
  }
  const heardChannel = `${channel}_heard`;
  /** The barriers this process sent and awaits: token → the listening sessions (pids) that answered. */
  const barriers = new Map<string, Set<number>>();
  const connectionString = db.directConnectionString ?? db.connectionString;
  if (!connectionString) throw new Error('change notices need a PostgreSQL connection string');
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retryMs = RECONNECT_MS.first;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString, application_name: LISTENER_NAME });
    next.on('notification', ({ channel: from, payload = '', processId }) => {
      if (from === heardChannel) {
        barriers.get(payload)?.add(processId);
        waiters.wake();
      } else if (payload.startsWith(BARRIER)) {
        // Every notice committed before the barrier has been handled above: confirm it.
        next.query('SELECT pg_notify($1, $2)', [heardChannel, payload.slice(BARRIER.length)]).catch(() => {});
      } else {
        generation++;
        waiters.wake();
      }
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
    await next.query(`LISTEN ${channel}; LISTEN ${heardChannel}`);
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

  const heardEverywhere = async (_before: number, timeoutMs: number): Promise<boolean> => {
    const token = randomUUID();
    const heard = new Set<number>();
    barriers.set(token, heard);
    try {
      // The barrier and the sessions that must answer it, in one statement. A session that
      // connects later listens after the change was committed: it has nothing stale to forget.
      const { rows } = await db.sql.query<{ pid: number }>(
        `WITH barrier AS (SELECT pg_notify($1, $2))
         SELECT pid FROM pg_stat_activity, barrier
          WHERE datname = current_database() AND application_name = $3`,
        [channel, BARRIER + token, LISTENER_NAME],
      );
      const must = rows.map((row) => row.pid);
      const everyone = await waiters.wait(() => must.every((pid) => heard.has(pid)), timeoutMs);
      if (!everyone)
        logger.warn(
          `change notices: ${must.length - heard.size} of ${must.length} listening processes did not confirm a change within ${timeoutMs} ms`,
        );
      return everyone;
    } catch (error) {
      logger.warn({ err: error }, 'change notices: could not ask the other processes to confirm a change');
      return false;
    } finally {
      barriers.delete(token);
    }
  };

  await connect();
  return {
    generation: () => generation,
    live: () => live,
    heardEverywhere,
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
