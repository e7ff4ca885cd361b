// The "when a call ends" trigger's subscriptions: monday subscribes when an automation using the
// trigger is created, and unsubscribes when it is deleted. The deliveries that fire them are
// src/jobs/trigger-delivery.ts's.
import { z } from 'zod';
import { requireBoardApp, type RequestContext } from '../context.js';
import { badRequest } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { findAgent } from '../agents/agents.service.js';

/** A subscription as monday's subscribe call describes it (its values as text; null: not sent). */
const CallEndedSubscriptionSchema = z.strictObject({
  /** monday's subscription id: the webhook's id in its unsubscribe call. */
  webhookId: z.string().nullable(),
  webhookUrl: z.string().nullable(),
  /** The automation's board: it hears only about its own board's items (and contacts from no board). */
  boardId: z.string().nullable(),
  /** Only calls of this voice agent fire it; null: every agent. */
  agentId: z.string().nullable(),
  recipeId: z.string().nullable(),
  integrationId: z.string().nullable(),
});
export type CallEndedSubscription = z.infer<typeof CallEndedSubscriptionSchema>;

/** Stores (or renews) the subscription; answers its webhook id. */
export async function subscribeToCallEnded(ctx: RequestContext, body: unknown): Promise<string> {
  const { accountId, mondayAccountId } = requireBoardApp(ctx);
  const input = parseInput(CallEndedSubscriptionSchema, body, 'input');
  if (input.webhookUrl === null || input.webhookId === null) {
    throw badRequest('payload.webhookUrl and payload.subscriptionId are required');
  }
  if (input.agentId && !(await findAgent(ctx, input.agentId))) {
    throw badRequest('The chosen voice agent does not exist in this Contactline account');
  }
  const webhookId = input.webhookId;
  const data = {
    accountId,
    mondayAccountId,
    webhookUrl: input.webhookUrl,
    boardId: input.boardId,
    agentId: input.agentId,
    recipeId: input.recipeId,
    integrationId: input.integrationId,
    deletedAt: null,
  };
  await ctx.db.prisma.mondayTriggerSubscription.upsert({
    where: { webhookId },
    create: { webhookId, ...data, createdAt: ctx.clock.now() },
    update: data,
  });
  return webhookId;
}

/** Stops the subscription. Idempotent: an unknown or already removed one is fine (monday deletes anyway). */
export async function unsubscribeFromCallEnded(ctx: RequestContext, webhookId: string | null): Promise<void> {
  const { accountId } = requireBoardApp(ctx);
  if (webhookId === null) return;
  await ctx.db.prisma.mondayTriggerSubscription.updateMany({
    where: { webhookId, accountId, deletedAt: null },
    data: { deletedAt: ctx.clock.now() },
  });
}
