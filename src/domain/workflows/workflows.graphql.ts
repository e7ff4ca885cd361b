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
import {
  workflowResults,
  type ResultCount as WindowResultCount,
  type ResultFigures,
  type WorkflowResults,
} from './workflow-results.service.js';

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

const ResultCountType = builder.objectRef<WindowResultCount>('ResultCount').implement({
  description: 'How many calls ended with one result.',
  fields: (t) => ({ result: t.exposeString('result'), count: t.exposeInt('count') }),
});

const ResultFiguresType = builder.objectRef<ResultFigures>('ResultFigures').implement({
  description: "A workflow's figures over a window (docs/campaigns.md, Workflow results, defines each).",
  fields: (t) => ({
    enrolled: t.exposeInt('enrolled', {
      nullable: true,
      description: 'Enrollments of the workflow started in the window; null per agent',
    }),
    attempted: t.exposeInt('attempted', {
      description: 'Contacts whose first call of the workflow was placed in the window',
    }),
    reached: t.exposeInt('reached', {
      description: 'Contacts whose first call that reached them was placed in the window',
    }),
    converted: t.exposeInt('converted', {
      description: 'Contacts whose first converted call was placed in the window',
    }),
    calls: t.exposeInt('calls', { description: 'Ended calls placed in the window' }),
    connected: t.exposeInt('connected', { description: 'Ended calls where a person talked with the agent' }),
    connectRate: t.exposeFloat('connectRate', { nullable: true, description: 'connected / calls; null without calls' }),
    conversionRate: t.exposeFloat('conversionRate', {
      nullable: true,
      description: 'converted / attempted; null without attempted contacts',
    }),
    durationMedianSeconds: t.exposeInt('durationMedianSeconds', {
      nullable: true,
      description:
        "The connected calls' median duration, as the lower bound of its histogram bucket; null without connected calls",
    }),
    durationP90Seconds: t.exposeInt('durationP90Seconds', {
      nullable: true,
      description: "The connected calls' 90th percentile duration; null without connected calls",
    }),
    attemptsPerConversion: t.exposeFloat('attemptsPerConversion', {
      nullable: true,
      description:
        'The calls up to and including each conversion counted in converted, on average; null without conversions',
    }),
    results: t.field({
      type: [ResultCountType],
      description: 'Each of the 21 call results with its count, zeros included',
      resolve: (f) => f.results,
    }),
  }),
});

type Day = WorkflowResults['days'][number];
const ResultDayType = builder.objectRef<Day>('ResultDay').implement({
  description: 'The calls placed on one day of the requested time zone, by result (only the results counted).',
  fields: (t) => ({
    date: t.exposeString('date', { description: 'YYYY-MM-DD in the time zone' }),
    calls: t.exposeInt('calls'),
    results: t.field({ type: [ResultCountType], resolve: (d) => d.results }),
  }),
});

type AgentFigures = WorkflowResults['agents'][number];
const AgentResultsType = builder.objectRef<AgentFigures>('AgentResults').implement({
  fields: (t) => ({
    agentId: t.exposeString('agentId', { nullable: true, description: 'null: calls without an agent' }),
    figures: t.field({ type: ResultFiguresType, resolve: (a) => a.figures }),
  }),
});

const WorkflowResultsType = builder.objectRef<WorkflowResults>('WorkflowResults').implement({
  description: "A workflow's results over [from, to).",
  fields: (t) => ({
    workflowId: t.exposeString('workflowId'),
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    timeZone: t.exposeString('timeZone', { description: 'The canonical IANA name of the zone the days are in' }),
    groupBy: t.exposeString('groupBy'),
    totals: t.field({ type: ResultFiguresType, resolve: (r) => r.totals }),
    days: t.field({
      type: [ResultDayType],
      description: 'groupBy=day: each day with calls, oldest first; empty otherwise',
      resolve: (r) => r.days,
    }),
    agents: t.field({
      type: [AgentResultsType],
      description: 'groupBy=agent: the figures of each agent that placed calls; empty otherwise',
      resolve: (r) => r.agents,
    }),
  }),
});

builder.queryFields((t) => ({
  workflowResults: t.field({
    type: WorkflowResultsType,
    description:
      "A workflow of the key's Account: its results over [from, to) (default the 30 days before now), per day in timeZone (default UTC) or per agent.",
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      from: t.arg.string(),
      to: t.arg.string(),
      groupBy: t.arg.string(),
      timeZone: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      workflowResults(ctx, args.id, {
        from: args.from ?? undefined,
        to: args.to ?? undefined,
        groupBy: args.groupBy ?? undefined,
        timeZone: args.timeZone ?? undefined,
      }),
  }),
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
