// Agents and workflows: the agents' calling weeks (each created and edited on its own page,
// agents.route.ts), and workflows created as drafts, then published, paused, resumed or archived.
// Every change ends with a redirect to the list (post/redirect/get): reloading it changes nothing.
import type { Request, Response, Router } from 'express';
import { asDomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { type ConsoleKit, fieldMessage, formErrors, formField, type Signed, send } from '../console-kit.js';
import { NotFoundPage } from '../pages/not-found.js';
import { type AgentRow, type WorkflowRow, WorkflowsPage } from '../pages/workflows.js';

/** What a workflow change says once the list loads (?done=…&workflow=<id>), by the workflow's name. */
function workflowNotice(done: string, workflow: WorkflowRow, agents: AgentRow[]): string | undefined {
  if (done === 'workflow-created') return `Workflow “${workflow.name}” created as a draft.`;
  if (done === 'workflow-agent') {
    const agent = agents.find((a) => a.id === workflow.agentId);
    return `Workflow “${workflow.name}” is called by ${agent ? `“${agent.name}”` : 'its new agent'} from now on.`;
  }
  if (done === 'workflow-changed') {
    const state = workflow.status === 'published' && workflow.paused ? 'paused' : workflow.status;
    return `Workflow “${workflow.name}” is ${state}.`;
  }
  return undefined;
}

export function workflowRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  async function workflowsPage(
    req: Request,
    res: Response,
    signed: Signed,
    extra: Omit<Parameters<typeof WorkflowsPage>[0], 'viewer' | 'agents' | 'workflows'> = {},
    status = 200,
  ) {
    const data = await runOperation(signed.ctx, ConsoleOperations.agentsAndWorkflows, {});
    const agents = data.accountAgents as AgentRow[];
    const workflows = data.workflows.data as WorkflowRow[];
    // After a change (post/redirect/get) the address says what was done, by id; the page says it by name.
    const query = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : '');
    // After an agent's form (/console/agents/…): ?created=<id> or ?saved=<id>.
    const agentDone = ['created', 'saved'].find((done) => query(done));
    const agent = agentDone && agents.find((a) => a.id === query(agentDone));
    const workflow = workflows.find((w) => w.id === query('workflow'));
    const notice = agent
      ? `Agent “${agent.name}” ${agentDone}.`
      : workflow
        ? workflowNotice(query('done'), workflow, agents)
        : undefined;
    send(res, status, WorkflowsPage({ viewer: viewerOf(signed), agents, workflows, notice, ...extra }));
  }

  /** The list again after a change, saying what was done (post/redirect/get: a reload changes nothing). */
  const done = (res: Response, what: string, workflowId: string) =>
    res.redirect(303, `/console/workflows?${new URLSearchParams({ done: what, workflow: workflowId })}`);

  router.get(
    '/workflows',
    withSession(async (req, res, signed) => workflowsPage(req, res, signed)),
  );

  router.post(
    '/workflows',
    withSession(async (req, res, signed) => {
      const field = (name: string) => formField(req, name);
      const values = { name: field('name'), agentId: field('agentId') };
      try {
        const { createAccountWorkflow } = await runOperation(signed.ctx, ConsoleOperations.createWorkflow, {
          name: values.name,
          agentId: values.agentId || undefined,
        });
        done(res, 'workflow-created', createAccountWorkflow.id);
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        const errors = formErrors(failure, ['name', 'agentId']);
        await workflowsPage(req, res, signed, { values, errors }, 400);
      }
    }),
  );

  // A workflow's agent, set or changed (a draft created without one is never dialled otherwise).
  router.post(
    '/workflows/:id/agent',
    withSession(async (req, res, signed) => {
      const id = String(req.params.id);
      const agentId = formField(req, 'agentId');
      // What the form itself can send wrong: no choice made.
      if (!agentId) {
        const agentErrors = { [id]: 'choose the agent that calls this workflow’s contacts' };
        return workflowsPage(req, res, signed, { agentErrors }, 400);
      }
      try {
        await runOperation(signed.ctx, ConsoleOperations.changeWorkflow, { id, agentId });
        done(res, 'workflow-agent', id);
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code === 'not_found') return workflowNotFound(res, signed);
        if (failure?.code !== 'bad_request') throw error;
        await workflowsPage(req, res, signed, { agentErrors: { [id]: fieldMessage(failure, 'agentId') } }, 400);
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
        done(res, 'workflow-changed', changed.id);
      } catch (error) {
        const code = asDomainError(error)?.code;
        if (code !== 'not_found' && code !== 'bad_request') throw error;
        workflowNotFound(res, signed);
      }
    }),
  );

  function workflowNotFound(res: Response, signed: Signed) {
    send(
      res,
      404,
      NotFoundPage({ viewer: viewerOf(signed), what: 'No such workflow in your Account.', back: '/console/workflows' }),
    );
  }
}
