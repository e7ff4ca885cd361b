// The board app's HTTP surface under /integrations/monday/. Every request is verified as
// monday's (JWT, Signing Secret, aud), resolved to the linked Contactline Account, and runs
// the same domain operations as the REST API.
import express, { Router, type Request, type Response } from 'express';
import type { RequestContext, Services } from '../../src/domain/context.js';
import { asDomainError, DomainError } from '../../src/domain/errors.js';
import { runOperation, type Operation } from '../../src/graphql/execute.js';
import { BoardOperations, type BoardOptionsPage } from '../../src/graphql/operations/board.js';
import { errorBody } from '../../src/http/error-body.js';
import { answerRefusal, mondayTokenFirst, verifyMondayRequest } from './monday-request.js';
import { actionRoute } from './action-runs.js';
import { enrollAction } from './actions/enroll.action.js';
import { fillTimezoneAction } from './actions/fill-timezone.action.js';
import { setStatusAction } from './actions/set-status.action.js';
import { inputFieldsOf, optionValue } from './actions/fields.js';
import { boardLogger, errorOf } from './board-logger.js';
import type { MondayConfig } from './config.js';
import { installRouter } from './oauth.route.js';
import { boardViewRouter } from './views/board-view.route.js';
import { refuseDeclaredOversize } from '../../src/http/edge/body-limits.js';

/** The largest body monday may send to a Run URL, an options or a trigger route. */
export const MONDAY_BODY_LIMIT_BYTES = 1024 * 1024;

export function mondayRouter(services: Services, config: MondayConfig): Router {
  const router = Router();
  // monday's calls (Run URLs, remote options, trigger subscriptions): its token is checked from
  // the headers first, then the JSON body is read.
  router.use(
    ['/actions', '/options', '/trigger'],
    mondayTokenFirst(services, config),
    refuseDeclaredOversize(MONDAY_BODY_LIMIT_BYTES),
    express.json({ limit: MONDAY_BODY_LIMIT_BYTES }),
  );
  // Install and OAuth linking (browser pages; no monday JWT except /authorize's ?token=).
  router.use(installRouter(services, config));
  // The board view monday frames inside a board (its sessionToken, not a JWT header).
  router.use(boardViewRouter(services, config));

  /** The linked Account acting as the user who linked it, or null when an answer was sent. */
  async function linkedContext(req: Request, res: Response): Promise<RequestContext | null> {
    return (await verifyMondayRequest(services, config, req, res))?.ctx ?? null;
  }

  // Action blocks (Run URLs): idempotent on actionUuid, answering in monday's failure terms.
  router.post('/actions/enroll', actionRoute(services, config, 'enroll', enrollAction(config)));
  router.post('/actions/fill-timezone', actionRoute(services, config, 'fill_timezone', fillTimezoneAction(config)));
  router.post('/actions/set-status', actionRoute(services, config, 'set_status', setStatusAction(config)));

  /** Remote options in monday's paginated shape; our cursor is the domain's nextToken. */
  const options =
    <T>(operation: Operation, field: string, option: (entry: T) => { title: string; value: string }) =>
    async (req: Request, res: Response) => {
      const ctx = await linkedContext(req, res);
      if (!ctx) return;
      const cursor = req.body?.payload?.pageRequestData?.cursor;
      try {
        const nextToken = typeof cursor === 'string' ? cursor : null;
        type OptionsOperation = Operation<Record<string, BoardOptionsPage<T>>, { nextToken: string | null }>;
        const page = (await runOperation(ctx, operation as OptionsOperation, { nextToken }))[field];
        const next = page.nextToken;
        res.json({
          options: page.data.map(option),
          isPaginated: true,
          nextPageRequestData: next ? { cursor: next } : null,
          isLastPage: next === null,
        });
      } catch (error) {
        const failure = asDomainError(error) ?? new DomainError('internal', 'Could not list the options');
        if (failure.status >= 500) {
          const cause = (failure as { cause?: unknown }).cause ?? error;
          boardLogger(config).error('listing remote options failed', { error: errorOf(cause) });
        }
        // The contract's error body, as every other route answers it (the code in `code`).
        res.status(failure.status).json(errorBody(failure, ctx.requestId));
      }
    };

  type WorkflowOption = { id: string; name: string };
  type AgentOption = { id: string; name: string; status: string };
  const workflowOption = (w: WorkflowOption) => ({ title: w.name, value: w.id });
  router.post('/options/workflows', options(BoardOperations.workflowOptions, 'boardWorkflowOptions', workflowOption));
  router.post(
    '/options/agents',
    options<AgentOption>(BoardOperations.agentOptions, 'boardAgentOptions', (a) => ({
      title: `${a.name}${a.status === 'live' ? '' : ` (${a.status})`}`,
      value: a.id,
    })),
  );

  // "When a call ends" trigger: monday subscribes when an automation using it is created and
  // unsubscribes when it is deleted. Firing happens later (src/jobs/trigger-delivery.ts).
  router.post('/trigger/subscribe', async (req, res) => {
    const ctx = await linkedContext(req, res);
    if (!ctx) return;
    const payload = req.body?.payload ?? {};
    const fields = inputFieldsOf(payload);
    const text = (value: unknown) => (value === undefined || value === null ? null : String(value));
    try {
      const input = {
        webhookId: payload.subscriptionId === undefined ? null : String(payload.subscriptionId),
        webhookUrl: typeof payload.webhookUrl === 'string' ? payload.webhookUrl : null,
        boardId: text(fields.boardId),
        agentId: optionValue(fields.agentId),
        recipeId: payload.recipeId === undefined ? null : String(payload.recipeId),
        integrationId: payload.integrationId === undefined ? null : String(payload.integrationId),
      };
      const answer = await runOperation(ctx, BoardOperations.subscribe, { input });
      const webhookId = answer.subscribeToCallEnded;
      res.json({ webhookId });
    } catch (error) {
      const refusal = asDomainError(error);
      if (!refusal || refusal.status >= 500) throw error;
      answerRefusal(res, refusal);
    }
  });

  router.post('/trigger/unsubscribe', async (req, res) => {
    const ctx = await linkedContext(req, res);
    if (!ctx) return;
    const webhookId = req.body?.payload?.webhookId;
    // Idempotent: an unknown or already removed subscription is fine (monday deletes anyway).
    const subscription = webhookId === undefined || webhookId === null ? null : String(webhookId);
    await runOperation(ctx, BoardOperations.unsubscribe, { subscription });
    res.json({ result: 'Unsubscribed successfully.' });
  });

  return router;
}
