// Keeps the planner's statistics of "Contact" fresh, so that no operator has to run ANALYZE.
//
// PGlite never gathers statistics by itself (it has no autovacuum), and a PostgreSQL may run
// with autovacuum off. Without statistics the planner takes an Account of a million contacts
// for a few thousand rows; the list's query shapes are written to hold up even then (see
// contacts-list.store.ts), but every other plan on the table is better with them. So:
// - a light check every minute (a few catalog rows): when a tenth of the table has changed
//   since its last ANALYZE (the modification counter PostgreSQL keeps, and PGlite too,
//   lazily), or been added (counted from its pages: survives a lost counter), or it has
//   never been analyzed, it is analyzed;
// - a write of many contacts at once (a bulk import, a bulk update) says so (`wrote`), and
//   the check runs at once when this process alone has written a tenth of the table.
// Only ANALYZE, never VACUUM: on PGlite a statement holds the one connection, and the first
// VACUUM of 100,000 contacts held it for 5 s; the shapes do not need the visibility map.
import type { Database } from '../db/database.js';
import { logger } from '../logger.js';
import { startPeriodic, type PeriodicWorker } from './periodic.js';

/** Below this many pages (1 MB) the table is read whole in no time, whatever the plan. */
const MIN_PAGES = 128;
/** The share of the table that, changed or added, makes its statistics stale (autovacuum's default). */
const STALE_SHARE = 0.1;
/** Changes always tolerated, however small the table. */
const STALE_MIN_ROWS = 1000;

export interface StatisticsKeeper extends PeriodicWorker {
  /** Notes `rows` contacts written by this process; checks at once once they are a large share. */
  wrote(rows: number): void;
  /** One check (and ANALYZE when stale), now; resolves to whether it analyzed. */
  check(): Promise<boolean>;
}

interface TableState {
  tuples: number;
  analyzedPages: number;
  pages: number;
  /** n_mod_since_analyze: rows changed since the last ANALYZE, as far as reported yet. */
  changed: number;
  /** ANALYZE runs so far, manual and automatic. */
  analyses: number;
  analyzed: boolean;
}

export function startStatisticsKeeper(db: Pick<Database, 'sql'>, intervalMs = 60_000): StatisticsKeeper {
  let written = 0;
  let knownTuples = 0;
  let running: Promise<boolean> | null = null;
  // A backend reports its changes to the counters lazily (up to ~10 s after going idle), so
  // the changes that made a table stale can be counted after the ANALYZE they caused. The
  // count found at the first periodic check after our ANALYZE is taken as such leftovers,
  // and only changes beyond it count (until another ANALYZE resets the counter).
  let leftover: number | null = 0;
  let ticksSinceAnalyze = 0;
  let analysesSeen = -1;

  const runCheck = async (onTick: boolean): Promise<boolean> => {
    const state = await tableState(db);
    knownTuples = Math.max(state.tuples, 0);
    if (state.analyses !== analysesSeen) {
      if (analysesSeen >= 0) leftover = 0;
      analysesSeen = state.analyses;
    }
    if (onTick && leftover === null && ticksSinceAnalyze++ >= 1) leftover = state.changed;
    const counted = leftover === null ? 0 : Math.max(0, state.changed - leftover);
    // Rows added since the last ANALYZE, from the pages added (survives a lost counter).
    const grown =
      state.analyzedPages > 0 ? ((state.pages - state.analyzedPages) * knownTuples) / state.analyzedPages : 0;
    const changed = Math.max(counted, written, grown);
    const stale = state.pages >= MIN_PAGES && (!state.analyzed || changed > STALE_MIN_ROWS + STALE_SHARE * knownTuples);
    if (!stale) return false;
    written = 0;
    await db.sql.exec('ANALYZE "Contact"');
    leftover = null;
    ticksSinceAnalyze = 0;
    analysesSeen = (await tableState(db)).analyses;
    logger.info({ table: 'Contact', changed: Math.round(changed), pages: state.pages }, 'table statistics refreshed');
    return true;
  };

  // One check at a time: a nudge during a check waits for it rather than starting another.
  const check = (onTick = false): Promise<boolean> => {
    running ??= runCheck(onTick).finally(() => {
      running = null;
    });
    return running;
  };

  const worker = startPeriodic(
    intervalMs,
    () => check(true),
    (error) => logger.warn({ err: error }, 'table statistics check failed; retrying next tick'),
  );
  return {
    check: () => check(),
    wrote(rows) {
      written += rows;
      if (written > STALE_MIN_ROWS + STALE_SHARE * knownTuples && !running) {
        check().catch((error) => logger.warn({ err: error }, 'table statistics check failed; retrying next tick'));
      }
    },
    async stop() {
      await worker.stop();
      await running?.catch(() => {});
    },
  };
}

async function tableState(db: Pick<Database, 'sql'>): Promise<TableState> {
  const { rows } = await db.sql.query<TableState>(
    `SELECT c.reltuples::float8 AS "tuples", c.relpages AS "analyzedPages",
       (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS "pages",
       coalesce(s.n_mod_since_analyze, 0)::float8 AS "changed",
       coalesce(s.analyze_count + s.autoanalyze_count, 0)::int AS "analyses",
       EXISTS (SELECT 1 FROM pg_stats p WHERE p.schemaname = n.nspname AND p.tablename = c.relname) AS "analyzed"
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
     WHERE c.oid = '"Contact"'::regclass`,
  );
  return rows[0];
}
