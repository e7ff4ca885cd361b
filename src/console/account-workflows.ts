// The Account's workflows as the console's pages list them: every page of them, archived ones
// last. One lookup for the contact page's consent scopes, the contacts' bulk actions and a
// workflow's own page.
import type { RequestContext } from '../domain/context.js';
import { runOperation } from '../graphql/execute.js';
import { ConsoleOperations } from '../graphql/operations/console.js';

export interface WorkflowSummary {
  id: string;
  name: string;
  status: string;
  paused: boolean;
  agentId: string | null;
}

/** The Account's workflows, every page of them, archived ones last. */
export async function accountWorkflows(ctx: RequestContext): Promise<WorkflowSummary[]> {
  const out: WorkflowSummary[] = [];
  let nextToken: string | undefined;
  do {
    const { workflows } = await runOperation(ctx, ConsoleOperations.workflowSummaries, { limit: 100, nextToken });
    out.push(...(workflows.data as WorkflowSummary[]));
    nextToken = workflows.nextToken ?? undefined;
  } while (nextToken);
  return [...out.filter((w) => w.status !== 'archived'), ...out.filter((w) => w.status === 'archived')];
}
