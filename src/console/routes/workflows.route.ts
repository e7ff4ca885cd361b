// Agents and workflows: the agents' calling weeks (each created and edited on its own page,
// agents.route.ts), and workflows created as drafts, then published, paused, resumed or archived.
import type { Response, Router } from 'express';
import { asDomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { type ConsoleKit, formErrors, formField, type Signed, send } from '../console-kit.js';
import { type AgentRow, type WorkflowRow, WorkflowsPage } from '../pages/workflows.js';

export function workflowRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  async function workflowsPage(
    res: Response,
    signed: Signed,
    extra: Omit<Parameters<typeof WorkflowsPage>[0], 'viewer' | 'agents' | 'workflows'> = {},
    status = 200,
    agentDone?: { id: string; done: string },
  ) {
    const data = await runOperation(signed.ctx, ConsoleOperations.agentsAndWorkflows, {});
    const agents = data.accountAgents as AgentRow[];
    const done = agentDone && agents.find((agent) => agent.id === agentDone.id);
    send(
      res,
      status,
      WorkflowsPage({
        viewer: viewerOf(signed),
        agents,
        workflows: data.workflows.data as WorkflowRow[],
        ...(done ? { notice: `Agent “${done.name}” ${agentDone.done}.` } : {}),
        ...extra,
      }),
    );
  }

  router.get(
    '/workflows',
    withSession(async (req, res, signed) => {
      // After an agent's form (/console/agents/…): ?created=<id> or ?saved=<id> says so by the agent's name.
      const [done, id] = Object.entries(req.query).find(([key]) => key === 'created' || key === 'saved') ?? [];
      await workflowsPage(res, signed, {}, 200, typeof id === 'string' && done ? { id, done } : undefined);
    }),
  );

  router.post(
    '/workflows',
    withSession(async (req, res, signed) => {
      const field = (name: string) => formField(req, name);
      const values = { name: field('name'), agentId: field('agentId') };
      try {
        await runOperation(signed.ctx, ConsoleOperations.createWorkflow, {
          name: values.name,
          agentId: values.agentId || undefined,
        });
        await workflowsPage(res, signed, { notice: `Workflow “${values.name.trim()}” created as a draft.` }, 201);
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        const errors = formErrors(failure, ['name', 'agentId']);
        await workflowsPage(res, signed, { values, errors }, 400);
      }
    }),
  );

  router.post(
    '/workflows/:id',
    withSession(async (req, res, signed) => {
      const status = req.body?.status;
      const paused = req.body?.paused;
      const change = {
        ...(status === 'published' || status === 'archived' ? { status } : {}),
        ...(paused === 'true' || paused === 'false' ? { paused: paused === 'true' } : {}),
      };
      try {
        const { changeAccountWorkflow: changed } = await runOperation(signed.ctx, ConsoleOperations.changeWorkflow, {
          id: String(req.params.id),
          ...change,
        });
        const what = changed.status === 'published' && changed.paused ? 'paused' : changed.status;
        await workflowsPage(res, signed, { notice: `The workflow is ${what}.` });
      } catch (error) {
        const code = asDomainError(error)?.code;
        if (code !== 'not_found' && code !== 'bad_request') throw error;
        await workflowsPage(res, signed, { notice: undefined }, 404);
      }
    }),
  );
}
