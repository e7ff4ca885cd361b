// The Workflow type; listing for the key's Account, operator management.
import { builder } from '../builder.js';
import type { ResultCount } from '../calls/call-tallies.store.js';
import { workflowCallResults } from '../calls/calls-read.service.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import {
  changeAccountWorkflow,
  createAccountWorkflow,
  createWorkflow,
  listWorkflows,
  updateWorkflow,
  WORKFLOW_STATUSES,
  type WorkflowRecord,
} from './workflows.service.js';

export const WorkflowStatusEnum = builder.enumType('WorkflowStatus', { values: WORKFLOW_STATUSES });

const CallResultCount = builder.objectRef<ResultCount>('CallResultCount').implement({
  description: "How many of a workflow's calls ended with one result.",
  fields: (t) => ({ result: t.exposeString('result'), count: t.exposeInt('count') }),
});

export const WorkflowType = builder.prismaObject('Workflow', {
  fields: (t) => ({
    callResults: t.field({
      type: [CallResultCount],
      description:
        "The workflow's ended calls counted by result, by result name: its calls, plus those of erased contacts " +
        '(kept only as these counts).',
      resolve: (workflow, _args, ctx) => workflowCallResults(ctx, workflow),
    }),
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: WorkflowStatusEnum }),
    paused: t.exposeBoolean('paused'),
    accountId: t.exposeString('accountId'),
    agentId: t.exposeString('agentId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const WorkflowPage = builder.objectRef<{ data: WorkflowRecord[]; nextToken: string | null }>('WorkflowPage').implement({
  fields: (t) => ({
    data: t.field({ type: [WorkflowType], resolve: (p) => p.data }),
    nextToken: t.exposeString('nextToken', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  workflows: t.field({
    type: WorkflowPage,
    description: "One page of the key's Account's workflows, newest first.",
    args: { limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) =>
      listWorkflows(ctx, { limit: args.limit ?? undefined, nextToken: args.nextToken ?? undefined }),
  }),
}));

builder.mutationFields((t) => ({
  createWorkflow: t.field({
    type: WorkflowType,
    description: 'Operator: creates a workflow in an Account (status draft unless given).',
    args: {
      accountId: t.arg.string({ required: true, ...UUID_ARG }),
      name: t.arg.string({ required: true }),
      status: t.arg({ type: WorkflowStatusEnum }),
      agentId: t.arg.string({ ...UUID_ARG }),
    },
    resolve: (_root, args, ctx) =>
      createWorkflow(ctx, {
        accountId: args.accountId,
        name: args.name,
        status: args.status ?? undefined,
        agentId: args.agentId ?? undefined,
      }),
  }),
  updateWorkflow: t.field({
    type: WorkflowType,
    description:
      'Operator: publishes, archives, pauses or resumes a workflow, or sets the agent that calls its contacts.',
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      status: t.arg({ type: WorkflowStatusEnum }),
      paused: t.arg.boolean(),
      agentId: t.arg.string({ ...UUID_ARG }),
    },
    resolve: (_root, args, ctx) =>
      updateWorkflow(ctx, args.id, {
        status: args.status ?? undefined,
        paused: args.paused ?? undefined,
        agentId: args.agentId ?? undefined,
      }),
  }),
  createAccountWorkflow: t.field({
    type: WorkflowType,
    description: "Console: a draft workflow in the signed-in person's Account, called by the agent given.",
    args: { name: t.arg.string({ required: true }), agentId: t.arg.string({ ...UUID_ARG }) },
    resolve: (_root, args, ctx) => createAccountWorkflow(ctx, { name: args.name, agentId: args.agentId ?? undefined }),
  }),
  changeAccountWorkflow: t.field({
    type: WorkflowType,
    description:
      "Console: publishes, archives, pauses or resumes a workflow of the signed-in person's Account, or sets the agent that calls its contacts (one of the Account's agents).",
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      status: t.arg({ type: WorkflowStatusEnum }),
      paused: t.arg.boolean(),
      agentId: t.arg.string({ ...UUID_ARG }),
    },
    resolve: (_root, args, ctx) =>
      changeAccountWorkflow(ctx, args.id, {
        status: args.status ?? undefined,
        paused: args.paused ?? undefined,
        agentId: args.agentId ?? undefined,
      }),
  }),
}));
