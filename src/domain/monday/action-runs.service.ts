// The board app's action runs, idempotent on monday's `actionUuid`: the run is claimed before
// any work and its final answer stored with it. A retry of a finished run gets the stored
// answer; one that arrives while the first attempt still works is told the run is busy (monday
// retries later and then gets the replay). A claim left by a crashed process is taken over after
// STALE_CLAIM_MS. Only final answers are stored: a "retry later" answer drops the claim, so
// monday's retry does the work again.
import { requireBoardApp, type RequestContext } from '../context.js';
import { directSql } from '../../db/sql-client.js';
import {
  dropRunClaim,
  findRun,
  insertRunClaim,
  RUN_IN_PROGRESS,
  storeRunAnswer,
  takeOverStaleClaim,
} from './action-runs.store.js';

const STALE_CLAIM_MS = 2 * 60_000;

export type RunClaim = { kind: 'claimed' } | { kind: 'busy' } | { kind: 'replay'; status: number; response: unknown };

export async function claimActionRun(ctx: RequestContext, actionUuid: string, kind: string): Promise<RunClaim> {
  const { accountId } = requireBoardApp(ctx);
  const db = directSql(ctx.db.sql);
  const now = ctx.clock.now();
  for (;;) {
    if (await insertRunClaim(db, { actionUuid, accountId, kind }, now)) return { kind: 'claimed' };
    const run = await findRun(db, actionUuid);
    if (!run) continue; // released meanwhile: claim it again
    if (run.accountId !== accountId) return { kind: 'busy' }; // never replay another account's answer
    if (run.status !== RUN_IN_PROGRESS) return { kind: 'replay', status: run.status, response: run.response };
    // Take over a claim whose process died (the update wins for exactly one retry).
    const taken = await takeOverStaleClaim(db, actionUuid, now, new Date(now.getTime() - STALE_CLAIM_MS));
    return taken ? { kind: 'claimed' } : { kind: 'busy' };
  }
}

/** Stores a run's final answer (its HTTP status and body). */
export async function finishActionRun(
  ctx: RequestContext,
  actionUuid: string,
  status: number,
  response: unknown,
): Promise<void> {
  requireBoardApp(ctx);
  await storeRunAnswer(directSql(ctx.db.sql), actionUuid, status, response);
}

/** Drops the claim of a run that ended with "retry later". */
export async function releaseActionRun(ctx: RequestContext, actionUuid: string): Promise<void> {
  requireBoardApp(ctx);
  await dropRunClaim(directSql(ctx.db.sql), actionUuid);
}
