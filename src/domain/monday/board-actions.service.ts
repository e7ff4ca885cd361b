// The board app's reads other than the enroll action: the label the set-status action writes
// for a call result, and the pickers of its recipe sentences (workflows that can take
// enrollments, voice agents).
import { CALL_RESULTS, type CallResult } from '../../calls/telephony/telephony.port.js';
import { requireBoardApp, type RequestContext } from '../context.js';
import { failureFor } from '../errors.js';
import { directSql } from '../../db/sql-client.js';
import { labelForResult, type StatusLabelMapping } from '../boards/status-labels.js';
import { listEnrollableWorkflows, type WorkflowRecord } from '../workflows/workflows.service.js';
import { listAgents } from '../agents/agents.service.js';
import { latestCallResultOfItem } from './item-links.store.js';

/** How many options a picker's page holds. */
const OPTIONS_PAGE_SIZE = 50;

/**
 * The call result to show on the item (the one sent, else the latest finished call of the item's
 * contact) and the status label the Account maps it to (null: leave the status as it is).
 */
export async function boardCallResultLabel(
  ctx: RequestContext,
  itemId: string,
  callResult: string | null,
): Promise<{ callResult: string; label: string | null }> {
  const { accountId } = requireBoardApp(ctx);
  const result = callResult ?? (await latestCallResultOfItem(directSql(ctx.db.sql), accountId, itemId));
  if (!result) {
    const message = `Item ${itemId} has no finished Contactline call, so there is no result to show.`;
    throw failureFor('no_call_result', message);
  }
  if (!(CALL_RESULTS as readonly string[]).includes(result)) {
    throw failureFor('unknown_call_result', `"${result}" is not a Contactline call result.`);
  }
  const mapping = await ctx.db.prisma.boardMapping.findUnique({
    where: { accountId },
    select: { statusLabels: true },
  });
  const labels = mapping?.statusLabels as StatusLabelMapping | null | undefined;
  return { callResult: result, label: labelForResult(result as CallResult, labels) };
}

/** A page of the workflows an item can be enrolled in (published, not paused). */
export async function boardWorkflowOptions(
  ctx: RequestContext,
  nextToken: string | null,
): Promise<{ data: WorkflowRecord[]; nextToken: string | null }> {
  requireBoardApp(ctx);
  return listEnrollableWorkflows(ctx, { limit: OPTIONS_PAGE_SIZE, nextToken: nextToken ?? undefined });
}

/** A page of the Account's voice agents (`nextToken`: the last id of the page before). */
export async function boardAgentOptions(ctx: RequestContext, nextToken: string | null) {
  requireBoardApp(ctx);
  const page = await listAgents(ctx, { after: nextToken ?? undefined, limit: OPTIONS_PAGE_SIZE });
  return { data: page.data, nextToken: page.next };
}
