// Workflows: listing for the key's Account, operator management, and the enrollment-target
// check shared by upsert, bulk import and the board app's enroll action.
import type { Workflow } from '../../generated/prisma/client.js';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { requireActor, requireAdmin, requireConsoleUser } from '../context.js';
import { badRequest, failureFor, notFound, type FailureReason } from '../errors.js';
import { newestFirstPage, newestFirstPageOf, PageQuerySchema } from '../shared/cursor.js';
import { parseInput } from '../shared/validation.js';
import { assertUuid } from '../shared/ids.js';
import type { Enrollment } from '../enrollment/enrollment.rules.js';
import type { AssignmentOptions } from '../contacts/contacts.inputs.js';

/** A workflow's statuses (the database enum WorkflowStatus). */
export const WORKFLOW_STATUSES = ['published', 'draft', 'archived'] as const;

/** A workflow as stored (the GraphQL Workflow type resolves from it). */
export type WorkflowRecord = Workflow;

/**
 * The key's Account's workflow `workflowId` (`field` names it in a 400 for a malformed id); 404
 * for an unknown workflow or another Account's, which are indistinguishable.
 */
export async function accountWorkflow(ctx: RequestContext, workflowId: string, field: string): Promise<WorkflowRecord> {
  const { accountId } = requireActor(ctx);
  const id = assertUuid(workflowId, field);
  const workflow = await ctx.db.prisma.workflow.findFirst({ where: { id, accountId } });
  if (!workflow) throw notFound(`No workflow ${workflowId}`);
  return workflow;
}

/** One page of the Account's workflows, newest first. */
export async function listWorkflows(
  ctx: RequestContext,
  input: unknown,
): Promise<{ data: WorkflowRecord[]; nextToken: string | null }> {
  return pageOfWorkflows(ctx, input, {});
}

/** A page of the key's Account's workflows matching `where`, newest first, with an opaque token. */
async function pageOfWorkflows(ctx: RequestContext, input: unknown, where: { status?: 'published'; paused?: boolean }) {
  const actor = requireActor(ctx);
  const page = parseInput(PageQuerySchema, input);
  const { after, orderBy, take } = newestFirstPage(page);
  const rows = await ctx.db.prisma.workflow.findMany({
    where: { accountId: actor.accountId, ...where, ...after },
    orderBy,
    take,
  });
  return newestFirstPageOf(rows, page.limit);
}

/**
 * Resolves assignmentOptions into an enrollment, or 400 when the workflow is unknown to
 * this Account, not published, or paused (checked before anything is written or queued).
 * `field` names the workflow in a refusal (POST /workflows/{id}/enrollments: its path's id).
 */
export async function resolveEnrollmentTarget(
  ctx: RequestContext,
  accountId: string,
  options: AssignmentOptions | undefined,
  field = 'assignmentOptions.workflowId',
): Promise<Enrollment | null> {
  // Every refusal names the field in `issues`, as a refused body field is.
  const issues = (message: string) => ({ issues: [{ path: field, message }] });
  if (!options?.workflowId) {
    if (options && (options.reEnroll !== undefined || options.enforceCallNow !== undefined)) {
      const problem = 'is required when reEnroll or enforceCallNow is sent';
      throw badRequest(`${field}: ${problem}`, issues(problem));
    }
    return null;
  }
  const workflow = await ctx.db.prisma.workflow.findFirst({
    where: { id: options.workflowId, accountId },
    include: { agent: { select: { attemptLimit: true } } },
  });
  // Each refusal names its reason: the board app turns an automation off for the first three,
  // and only fails the run for a paused workflow (resuming it makes the same run succeed).
  const refuse = (reason: FailureReason, problem: string, subject?: string) =>
    failureFor(reason, `${field}: ${problem}`, subject, issues(problem));
  if (!workflow) throw refuse('workflow_not_found', `no workflow ${options.workflowId} in this Account`);
  if (workflow.status !== 'published') {
    const reason = workflow.status === 'draft' ? 'workflow_draft' : 'workflow_archived';
    throw refuse(reason, `workflow "${workflow.name}" is ${workflow.status}, not published`, workflow.name);
  }
  if (workflow.paused) throw refuse('workflow_paused', `workflow "${workflow.name}" is paused`, workflow.name);
  return {
    workflowId: workflow.id,
    attemptLimit: workflow.agent?.attemptLimit ?? null,
    reEnroll: options.reEnroll ?? false,
    enforceCallNow: options.enforceCallNow ?? false,
  };
}

export const CreateWorkflowSchema = z.strictObject({
  accountId: z.uuid(),
  name: z.string().trim().min(1).max(200),
  status: z.enum(WORKFLOW_STATUSES).default('draft'),
  /** The voice agent that calls this workflow's contacts. */
  agentId: z.uuid().optional(),
});

export async function createWorkflow(ctx: RequestContext, input: unknown): Promise<WorkflowRecord> {
  requireAdmin(ctx);
  return insertWorkflow(ctx, parseInput(CreateWorkflowSchema, input));
}

/** Console: a draft workflow in the signed-in person's Account (published when they say so). */
export async function createAccountWorkflow(ctx: RequestContext, input: unknown): Promise<WorkflowRecord> {
  const { accountId } = requireConsoleUser(ctx);
  const data = parseInput(CreateWorkflowSchema.omit({ accountId: true, status: true }), input);
  return insertWorkflow(ctx, { ...data, accountId, status: 'draft' });
}

async function insertWorkflow(ctx: RequestContext, data: z.output<typeof CreateWorkflowSchema>) {
  const account = await ctx.db.prisma.account.findUnique({ where: { id: data.accountId } });
  if (!account) throw notFound(`No account ${data.accountId}`);
  if (data.agentId) await requireAgentOf(ctx, data.accountId, data.agentId);
  const now = ctx.clock.now();
  return ctx.db.prisma.workflow.create({ data: { ...data, createdAt: now, updatedAt: now } });
}

/** A workflow's agent must be one of its Account's agents. */
async function requireAgentOf(ctx: RequestContext, accountId: string, agentId: string): Promise<void> {
  const agent = await ctx.db.prisma.agent.findFirst({ where: { id: agentId, accountId } });
  if (!agent) throw badRequest(`agentId: no agent ${agentId} in account ${accountId}`);
}

/** What a change may set: the status, the pause, the agent that calls the workflow's contacts. */
export interface WorkflowChange {
  status?: WorkflowRecord['status'];
  paused?: boolean;
  /** The agent from now on: the dialer reads it at each call, so the workflow's enrollments follow it. */
  agentId?: string;
}

/** Operator changes: publish, archive, pause, resume, set the agent. */
export async function updateWorkflow(ctx: RequestContext, id: string, change: WorkflowChange): Promise<WorkflowRecord> {
  requireAdmin(ctx);
  return changeWorkflow(ctx, id, null, change);
}

/** Console: publishes, archives, pauses or resumes a workflow of the signed-in person's Account, or sets its agent. */
export async function changeAccountWorkflow(
  ctx: RequestContext,
  id: string,
  change: WorkflowChange,
): Promise<WorkflowRecord> {
  return changeWorkflow(ctx, id, requireConsoleUser(ctx).accountId, change);
}

/** `accountId`: the Account the workflow must be in (null: any, for the operator). */
async function changeWorkflow(
  ctx: RequestContext,
  id: string,
  accountId: string | null,
  change: WorkflowChange,
): Promise<WorkflowRecord> {
  const existing = await ctx.db.prisma.workflow.findFirst({ where: { id, ...(accountId ? { accountId } : {}) } });
  if (!existing) throw notFound(`No workflow ${id}`);
  if (change.agentId !== undefined) await requireAgentOf(ctx, existing.accountId, change.agentId);
  return ctx.db.prisma.workflow.update({ where: { id }, data: { ...change, updatedAt: ctx.clock.now() } });
}

/**
 * Workflows that can take enrollments now (published, not paused): the same condition
 * resolveEnrollmentTarget enforces, for pickers such as the board app's options.
 */
export async function listEnrollableWorkflows(
  ctx: RequestContext,
  input: unknown,
): Promise<{ data: WorkflowRecord[]; nextToken: string | null }> {
  return pageOfWorkflows(ctx, input, { status: 'published', paused: false });
}
