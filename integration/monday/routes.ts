// The board app's HTTP surface under /integrations/monday/. Every request is verified as
// monday's (JWT, Signing Secret, aud), resolved to the linked Contactline Account, and runs
// the same domain operations as the REST API.
import express, { Router, type Request, type Response } from 'express';
import type { RequestContext, Services } from '../../src/domain/context.js';
import { listEnrollableWorkflows } from '../../src/domain/workflows/workflows.service.js';
import { findAgent, listAgents } from '../../src/domain/agents/agents.service.js';
import { asDomainError } from '../../src/domain/errors.js';
import { mondayTokenFirst, verifyMondayRequest } from './monday-request.js';
import { actionRoute } from './action-runs.js';
import { enrollAction } from './actions/enroll.action.js';
import { fillTimezoneAction } from './actions/fill-timezone.action.js';
import { setStatusAction } from './actions/set-status.action.js';
import { inputFieldsOf, optionValue } from './actions/fields.js';
import { boardLogger, errorOf } from './board-logger.js';
import type { MondayConfig } from './config.js';
import { installRouter } from './oauth.routes.js';
import { refuseDeclaredOversize } from '../../src/http/edge/body-limits.js';

const PAGE_SIZE = 50;
/** The largest body monday may send to a Run URL, an options or a trigger route. */
export const MONDAY_BODY_LIMIT_BYTES = 1024 * 1024;

export function mondayRouter(services: Services, config: MondayConfig): Router {
  const router = Router();
  // monday's calls (Run URLs, remote options, trigger subscriptions): its token is checked from
  // the headers first, then the JSON body is read.
  router.use(['/actions', '/options', '/trigger'], mondayTokenFirst(services, config), refuseDeclaredOversize(MONDAY_BODY_LIMIT_BYTES), express.json({ limit: MONDAY_BODY_LIMIT_BYTES }));
  // Install and OAuth linking (browser pages; no monday JWT except /authorize's ?token=).
  router.use(installRouter(services, config));

  /** The linked Account acting as the user who linked it, or null when an answer was sent. */
  async function linkedContext(req: Request, res: Response): Promise<RequestContext | null> {
    return (await verifyMondayRequest(services, config, req, res))?.ctx ?? null;
  }

  // Action blocks (Run URLs): idempotent on actionUuid, answering in monday's failure terms.
  router.post('/actions/enroll', actionRoute(services, config, 'enroll', enrollAction(services, config)));
  router.post('/actions/fill-timezone', actionRoute(services, config, 'fill_timezone', fillTimezoneAction(services, config)));
  router.post('/actions/set-status', actionRoute(services, config, 'set_status', setStatusAction(services, config)));

  /** Remote options in monday's paginated shape; our cursor is the domain's nextToken. */
  const options = (list: (ctx: RequestContext, cursor: string | undefined) => Promise<{ options: Array<{ title: string; value: string }>; next: string | null }>) =>
    async (req: Request, res: Response) => {
      const ctx = await linkedContext(req, res);
      if (!ctx) return;
      const cursor = req.body?.payload?.pageRequestData?.cursor;
      try {
        const page = await list(ctx, typeof cursor === 'string' ? cursor : undefined);
        res.json({ options: page.options, isPaginated: true, nextPageRequestData: page.next ? { cursor: page.next } : null, isLastPage: page.next === null });
      } catch (error) {
        const domain = asDomainError(error);
        if (!domain || domain.status >= 500) boardLogger(config).error('listing remote options failed', { error: errorOf(error) });
        res.status(domain?.status ?? 500).json({ error: domain?.code ?? 'internal', message: domain?.message ?? 'Could not list the options' });
      }
    };

  router.post('/options/workflows', options(async (ctx, cursor) => {
    const page = await listEnrollableWorkflows(ctx, { limit: PAGE_SIZE, nextToken: cursor });
    return { options: page.data.map((w) => ({ title: w.name, value: w.id })), next: page.nextToken };
  }));

  router.post('/options/agents', options(async (ctx, cursor) => {
    const page = await listAgents(ctx, { after: cursor, limit: PAGE_SIZE });
    return { options: page.data.map((a) => ({ title: `${a.name}${a.status === 'live' ? '' : ` (${a.status})`}`, value: a.id })), next: page.next };
  }));

  // "When a call ends" trigger: monday subscribes when an automation using it is created and
  // unsubscribes when it is deleted. Firing happens later, from the call.ended events.
  router.post('/trigger/subscribe', async (req, res) => {
    const request = await verifyMondayRequest(services, config, req, res);
    if (!request) return;
    const { ctx, claims } = request;
    const payload = req.body?.payload ?? {};
    const fields = inputFieldsOf(payload);
    if (typeof payload.webhookUrl !== 'string' || payload.subscriptionId === undefined) {
      res.status(400).json({ error: 'Bad Request', message: 'payload.webhookUrl and payload.subscriptionId are required' });
      return;
    }
    const agentId = optionValue(fields.agentId);
    if (agentId) {
      if (!(await findAgent(ctx, agentId))) {
        res.status(400).json({ error: 'Bad Request', message: 'The chosen voice agent does not exist in this Contactline account' });
        return;
      }
    }
    const webhookId = String(payload.subscriptionId);
    const data = {
      accountId: ctx.actor!.accountId, mondayAccountId: String(claims.accountId), webhookUrl: payload.webhookUrl,
      boardId: fields.boardId === undefined || fields.boardId === null ? null : String(fields.boardId), agentId: agentId ?? null,
      recipeId: payload.recipeId === undefined ? null : String(payload.recipeId), integrationId: payload.integrationId === undefined ? null : String(payload.integrationId),
      deletedAt: null,
    };
    await services.db.prisma.mondayTriggerSubscription.upsert({ where: { webhookId }, create: { webhookId, ...data, createdAt: services.clock.now() }, update: data });
    res.json({ webhookId });
  });

  router.post('/trigger/unsubscribe', async (req, res) => {
    const ctx = await linkedContext(req, res);
    if (!ctx) return;
    const webhookId = req.body?.payload?.webhookId;
    // Idempotent: an unknown or already removed subscription is fine (monday deletes anyway).
    if (webhookId !== undefined && webhookId !== null) {
      await services.db.prisma.mondayTriggerSubscription.updateMany({
        where: { webhookId: String(webhookId), accountId: ctx.actor!.accountId, deletedAt: null },
        data: { deletedAt: services.clock.now() },
      });
    }
    res.json({ result: 'Unsubscribed successfully.' });
  });

  return router;
}
