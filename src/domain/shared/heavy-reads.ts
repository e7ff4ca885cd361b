// The SqlClient of the heavy reads: contact lists and searches (REST, MCP, the console, the
// CSV pages) and workflow results. They run on the read replica when DATABASE_READ_URL is set
// (on the primary otherwise); a replica that does not answer is a 503 `unavailable`, which the
// client retries, never a 500 and never a silent fall-back to the primary (decision 0044).
// Reads by id and everything a write reads stay on ctx.db.sql. docs/read-replica.md.
import { ReplicaUnavailableError } from '../../db/database.js';
import { directSql, type SqlClient } from '../../db/sql-client.js';
import type { Services } from '../context.js';
import { DomainError } from '../errors.js';

export function heavyReads(ctx: Pick<Services, 'db'>): SqlClient {
  const { reads } = ctx.db;
  return directSql({
    query: async (text, params) => {
      try {
        return await reads.sql.query(text, params);
      } catch (error) {
        if (error instanceof ReplicaUnavailableError)
          throw new DomainError('unavailable', 'The read replica is not answering just now: retry in a few seconds');
        throw error;
      }
    },
  });
}
