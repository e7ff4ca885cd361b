// Tells whether the service process that leased a piece of work is still alive, so a process
// that starts can take over at once the work of one that was killed, instead of waiting for
// its lease to run out.
//
// Each process gets a random id. On PostgreSQL it holds a session advisory lock keyed by that
// id, on a connection of its own, for as long as it lives: the server drops the lock when the
// process's connection ends (a kill -9 included, once the server sees the socket close), so an
// owner whose lock can be taken is gone. On the embedded database only one process can open the
// data directory (src/db/data-dir-lock.ts), so every owner but this process is gone.
//
// The lock is session state: through a transaction pooler (PgBouncer) the server connection
// changes under it, so this connection goes straight to the primary (DATABASE_DIRECT_URL).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../db/database.js';

export interface ProcessLiveness {
  /** This process's id, recorded on the work it leases. */
  readonly id: string;
  /** Of these owner ids, the ones whose process is gone. */
  gone(ownerIds: string[]): Promise<string[]>;
  close(): Promise<void>;
}

/** The advisory-lock namespace of process ids (the first key of the two-key form). */
const LOCK_NAMESPACE = 'contactline.process';

export async function registerProcess(
  db: Pick<Database, 'kind' | 'connectionString' | 'directConnectionString'>,
): Promise<ProcessLiveness> {
  const id = randomUUID();
  if (db.kind === 'pglite') {
    return { id, gone: async (owners) => owners.filter((owner) => owner !== id), close: async () => {} };
  }
  const client = new pg.Client({ connectionString: db.directConnectionString ?? db.connectionString });
  // A lost connection would drop the lock; the error must not crash the process.
  client.on('error', () => {});
  await client.connect();
  await client.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', [LOCK_NAMESPACE, id]);
  return {
    id,
    async gone(owners) {
      const dead: string[] = [];
      for (const owner of owners) {
        if (owner === id) continue;
        const { rows } = await client.query<{ free: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS free',
          [LOCK_NAMESPACE, owner],
        );
        if (!rows[0].free) continue;
        await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [LOCK_NAMESPACE, owner]);
        dead.push(owner);
      }
      return dead;
    },
    async close() {
      await client.end().catch(() => {});
    },
  };
}
