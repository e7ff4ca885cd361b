// Runs one action block request end to end: verify, make it idempotent on monday's
// `actionUuid`, run the action, and answer in monday's terms (200, or a failure from
// action-failure.ts).
//
// Idempotency (src/domain/monday/action-runs.service.ts): the run is claimed before any work
// and its final answer stored with it. A retry of a finished run replays the stored answer; a
// retry that arrives while the first attempt still works answers 503 without severity, so monday
// retries later and then gets the replay. Only answers that end the run are stored: a "retry
// later" answer is not, so monday's retry does the work again.
import type { Request, RequestHandler, Response } from 'express';
import type { RequestContext, Services } from '../../src/domain/context.js';
import { runOperation, type Operation, type VariablesArgument } from '../../src/graphql/execute.js';
import { BoardOperations, type BoardRunClaim } from '../../src/graphql/operations/board.js';
import { boardLogger, errorOf } from './board-logger.js';
import type { MondayConfig } from './config.js';
import { actionFailureOf, retryLater } from './action-failure.js';
import { verifyMondayRequest, type MondayRequest } from './monday-request.js';
import { inputFieldsOf } from './actions/fields.js';

export interface ActionInput {
  /** inputFields (falling back to inboundFieldValues, which carry the same data). */
  fields: Record<string, unknown>;
  actionUuid: string | null;
}

export type ActionHandler = (request: MondayRequest, input: ActionInput) => Promise<Record<string, unknown>>;

/** Runs one of the board app's operations for an action; a failure is thrown as monday's answer to it. */
export async function runBoardOperation<Result, Variables>(
  ctx: RequestContext,
  operation: Operation<Result, Variables>,
  ...variables: VariablesArgument<NoInfer<Variables>>
): Promise<Result> {
  try {
    return await runOperation(ctx, operation, ...variables);
  } catch (error) {
    throw actionFailureOf(error, ctx.requestId);
  }
}

export function actionRoute(
  services: Services,
  config: MondayConfig,
  kind: string,
  handler: ActionHandler,
): RequestHandler {
  return async (req: Request, res: Response) => {
    const request = await verifyMondayRequest(services, config, req, res);
    if (!request) return;
    const { ctx } = request;
    const payload = req.body?.payload ?? {};
    const fields = inputFieldsOf(payload);
    const rawUuid = req.body?.runtimeMetadata?.actionUuid;
    const actionUuid = typeof rawUuid === 'string' && rawUuid.length > 0 && rawUuid.length <= 200 ? rawUuid : null;

    if (actionUuid) {
      // The schema types status and response apart; the domain sets both only on a replay.
      const claim = (await runOperation(ctx, BoardOperations.claimRun, { actionUuid, kind }))
        .claimBoardActionRun as BoardRunClaim;
      if (claim.kind === 'replay') return void res.status(claim.status).json(claim.response);
      if (claim.kind === 'busy') {
        const busy = retryLater('This run is already being handled; monday will retry it', 503, ctx.requestId);
        return void res.status(busy.status).json(busy.body);
      }
    }
    let status: number;
    let body: unknown;
    try {
      const outputFields = await handler(request, { fields, actionUuid });
      status = 200;
      body = { outputFields };
    } catch (error) {
      const failure = actionFailureOf(error, ctx.requestId);
      if (failure.failure !== undefined) {
        const message = `${kind} action failed (request ${ctx.requestId})`;
        boardLogger(config).error(message, { error: errorOf(failure.failure) });
      }
      status = failure.status;
      body = failure.body;
    }
    const final = status < 500;
    if (actionUuid) {
      if (final) await runOperation(ctx, BoardOperations.finishRun, { actionUuid, status, response: body });
      else await runOperation(ctx, BoardOperations.releaseRun, { actionUuid });
    }
    res.status(status).json(body);
  };
}
