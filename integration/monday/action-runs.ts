// Runs one action block request end to end: verify, make it idempotent on monday's
// `actionUuid`, run the action, and answer in monday's terms (200, or a failure from
// action-failure.ts).
//
// Idempotency: the run is claimed (a MondayActionRun row in progress) before any work, and the
// answer is stored with it. A retry of a finished run replays the stored answer; a retry that
// arrives while the first attempt still works answers 503 without severity, so monday retries
// later and then gets the replay. A claim left by a crashed process is taken over after
// STALE_CLAIM_MS. Only answers that end the run are stored: a "retry later" answer is not, so
// monday's retry does the work again.
import type { Request, RequestHandler, Response } from 'express';
import type { Services } from '../../src/domain/context.js';
import { asDomainError } from '../../src/domain/errors.js';
import { boardLogger, errorOf } from './board-logger.js';
import type { MondayConfig } from './config.js';
import { MondayActionFailure, retryLater, runFailed } from './action-failure.js';
import { MondayApiFailure } from './monday-api.js';
import { verifyMondayRequest, type MondayRequest } from './monday-request.js';
import { inputFieldsOf } from './actions/fields.js';

const IN_PROGRESS = 0;
const STALE_CLAIM_MS = 2 * 60_000;

export interface ActionInput {
  /** inputFields (falling back to inboundFieldValues, which carry the same data). */
  fields: Record<string, unknown>;
  actionUuid: string | null;
}

export type ActionHandler = (request: MondayRequest, input: ActionInput) => Promise<Record<string, unknown>>;

export function actionRoute(services: Services, config: MondayConfig, kind: string, handler: ActionHandler): RequestHandler {
  return async (req: Request, res: Response) => {
    const request = await verifyMondayRequest(services, config, req, res);
    if (!request) return;
    const payload = req.body?.payload ?? {};
    const fields = inputFieldsOf(payload);
    const rawUuid = req.body?.runtimeMetadata?.actionUuid;
    const actionUuid = typeof rawUuid === 'string' && rawUuid.length > 0 && rawUuid.length <= 200 ? rawUuid : null;
    const accountId = request.ctx.actor!.accountId;

    if (actionUuid) {
      const claim = await claimRun(services, actionUuid, accountId, kind);
      if (claim.kind === 'replay') return void res.status(claim.status).json(claim.response);
      if (claim.kind === 'busy') return void answer(res, retryLater('This run is already being handled; monday will retry it', 503));
    }
    let status: number;
    let body: unknown;
    try {
      const outputFields = await handler(request, { fields, actionUuid });
      status = 200;
      body = { outputFields };
    } catch (error) {
      const failure = asActionFailure(error, kind, request.ctx.requestId, config);
      status = failure.status;
      body = failure.body;
    }
    const final = status < 500;
    if (actionUuid) {
      if (final) await finishRun(services, actionUuid, status, body);
      else await releaseRun(services, actionUuid);
    }
    res.status(status).json(body);
  };
}

function answer(res: Response, failure: MondayActionFailure): void {
  res.status(failure.status).json(failure.body);
}

type Claim = { kind: 'claimed' } | { kind: 'busy' } | { kind: 'replay'; status: number; response: unknown };

async function claimRun(services: Services, actionUuid: string, accountId: string, kind: string): Promise<Claim> {
  const now = services.clock.now();
  const inserted = await services.db.sql.query(
    `INSERT INTO "MondayActionRun" ("actionUuid", "accountId", kind, status, response, "createdAt")
     VALUES ($1, $2, $3, ${IN_PROGRESS}, '{}', $4) ON CONFLICT ("actionUuid") DO NOTHING`,
    [actionUuid, accountId, kind, now],
  );
  if (inserted.rowCount === 1) return { kind: 'claimed' };
  const { rows } = await services.db.sql.query<{ status: number; response: unknown; accountId: string }>(
    `SELECT status, response, "accountId" FROM "MondayActionRun" WHERE "actionUuid" = $1`,
    [actionUuid],
  );
  const run = rows[0];
  if (!run) return claimRun(services, actionUuid, accountId, kind); // released meanwhile
  if (run.accountId !== accountId) return { kind: 'busy' }; // never replay another account's answer
  if (run.status !== IN_PROGRESS) return { kind: 'replay', status: run.status, response: run.response };
  // Take over a claim whose process died (the update wins for exactly one retry).
  const stale = await services.db.sql.query(
    `UPDATE "MondayActionRun" SET "createdAt" = $2 WHERE "actionUuid" = $1 AND status = ${IN_PROGRESS} AND "createdAt" < $3`,
    [actionUuid, now, new Date(now.getTime() - STALE_CLAIM_MS)],
  );
  return stale.rowCount === 1 ? { kind: 'claimed' } : { kind: 'busy' };
}

async function finishRun(services: Services, actionUuid: string, status: number, response: unknown): Promise<void> {
  await services.db.sql.query(`UPDATE "MondayActionRun" SET status = $2, response = $3 WHERE "actionUuid" = $1`, [actionUuid, status, JSON.stringify(response)]);
}

async function releaseRun(services: Services, actionUuid: string): Promise<void> {
  await services.db.sql.query(`DELETE FROM "MondayActionRun" WHERE "actionUuid" = $1 AND status = ${IN_PROGRESS}`, [actionUuid]);
}

/**
 * Any failure in monday's terms: our own MondayActionFailure as is; monday's API busy → retry;
 * a domain rule refusing the contact → this run failed, with the rule's message; anything
 * else → 500 without severity (monday retries; the cause is logged with the request id).
 */
function asActionFailure(error: unknown, kind: string, requestId: string, config: MondayConfig): MondayActionFailure {
  if (error instanceof MondayActionFailure) return error;
  if (error instanceof MondayApiFailure) {
    if (error.kind === 'unavailable') return retryLater(error.message, 503);
    return runFailed('monday refused a request', `monday answered: ${error.message}`, `${kind}: ${error.kind}: ${error.message}`);
  }
  const domain = asDomainError(error);
  if (domain && domain.status < 500) {
    return runFailed('The contact was refused', domain.message, `${kind}: ${domain.code}: ${domain.message} (request ${requestId})`);
  }
  boardLogger(config).error(`${kind} action failed (request ${requestId})`, { error: errorOf((domain as { cause?: unknown } | undefined)?.cause ?? error) });
  return retryLater(`The action failed on Contactline's side (request ${requestId}); monday will retry it`, 500);
}
