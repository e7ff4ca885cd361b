// The board app's own operations (integration/monday/ runs them in-process for the requests
// monday signs). Each service calls requireBoardApp, as the operator operations call
// requireAdmin: an API key or the operator token calling one gets `unauthenticated`.
import type { Agent } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { WorkflowType } from '../workflows/workflows.graphql.js';
import { AgentType } from '../agents/agents.graphql.js';
import type { WorkflowRecord } from '../workflows/workflows.service.js';
import {
  boardEnrollmentTarget,
  enrollBoardItem,
  type BoardEnrollment,
  type BoardItemFields,
} from './board-enrollment.service.js';
import { boardAgentOptions, boardCallResultLabel, boardWorkflowOptions } from './board-actions.service.js';
import { claimActionRun, finishActionRun, releaseActionRun, type RunClaim } from './action-runs.service.js';
import { subscribeToCallEnded, unsubscribeFromCallEnded } from './trigger-subscriptions.service.js';

const ONLY = "The monday board app's own operation: only a request monday signed for a linked account runs it.";

const BoardItemFieldsType = builder.objectRef<BoardItemFields>('BoardItemFields').implement({
  description: 'Which fields of a board item the enroll action reads.',
  fields: (t) => ({
    columnIds: t.exposeStringList('columnIds', { description: 'The mapped columns' }),
    itemName: t.exposeBoolean('itemName', { description: 'Whether the item name is mapped (as the full name)' }),
  }),
});

const BoardEnrollmentType = builder.objectRef<BoardEnrollment>('BoardEnrollment').implement({
  fields: (t) => ({
    contactId: t.exposeString('contactId'),
    workflowId: t.exposeString('workflowId'),
    created: t.exposeBoolean('created'),
  }),
});

type CallResultLabel = { callResult: string; label: string | null };
type Page<T> = { data: T[]; nextToken: string | null };

const BoardCallResultLabelType = builder.objectRef<CallResultLabel>('BoardCallResultLabel').implement({
  fields: (t) => ({
    callResult: t.exposeString('callResult'),
    label: t.exposeString('label', { nullable: true, description: 'null: the status is left as it is' }),
  }),
});

const BoardWorkflowOptionsType = builder.objectRef<Page<WorkflowRecord>>('BoardWorkflowOptions').implement({
  fields: (t) => ({
    data: t.field({ type: [WorkflowType], resolve: (p) => p.data }),
    nextToken: t.exposeString('nextToken', { nullable: true }),
  }),
});

const BoardAgentOptionsType = builder.objectRef<Page<Agent>>('BoardAgentOptions').implement({
  fields: (t) => ({
    data: t.field({ type: [AgentType], resolve: (p) => p.data }),
    nextToken: t.exposeString('nextToken', { nullable: true }),
  }),
});

const BoardActionRunClaimType = builder.objectRef<RunClaim>('BoardActionRunClaim').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description: '`claimed`: run it; `busy`: another attempt is running it; `replay`: answer status and response',
    }),
    status: t.int({ nullable: true, resolve: (c) => (c.kind === 'replay' ? c.status : null) }),
    response: t.field({ type: 'JSON', nullable: true, resolve: (c) => (c.kind === 'replay' ? c.response : null) }),
  }),
});

builder.queryFields((t) => ({
  boardEnrollmentTarget: t.field({
    type: BoardItemFieldsType,
    description:
      `${ONLY} Checks that the workflow takes enrollments and the run's board is the mapped one; ` +
      'answers what to read of the item.',
    args: { workflowId: t.arg.string({ required: true, ...UUID_ARG }), boardId: t.arg.string() },
    resolve: (_root, args, ctx) => boardEnrollmentTarget(ctx, args.workflowId, args.boardId ?? null),
  }),
  boardCallResultLabel: t.field({
    type: BoardCallResultLabelType,
    description: `${ONLY} The call result (sent, else the item's latest call) and the status label the Account maps it to.`,
    args: { item: t.arg.string({ required: true, description: "monday's item id" }), callResult: t.arg.string() },
    resolve: (_root, args, ctx) => boardCallResultLabel(ctx, args.item, args.callResult ?? null),
  }),
  boardWorkflowOptions: t.field({
    type: BoardWorkflowOptionsType,
    description: `${ONLY} A page of the workflows that take enrollments now.`,
    args: { nextToken: t.arg.string() },
    resolve: (_root, args, ctx) => boardWorkflowOptions(ctx, args.nextToken ?? null),
  }),
  boardAgentOptions: t.field({
    type: BoardAgentOptionsType,
    description: `${ONLY} A page of the Account's voice agents.`,
    args: { nextToken: t.arg.string() },
    resolve: (_root, args, ctx) => boardAgentOptions(ctx, args.nextToken ?? null),
  }),
}));

builder.mutationFields((t) => ({
  enrollBoardItem: t.field({
    type: BoardEnrollmentType,
    description:
      `${ONLY} Upserts and enrolls a board item's contact ({ workflowId, item }), ` +
      'linked to the item in the same transaction.',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => enrollBoardItem(ctx, args.input),
  }),
  claimBoardActionRun: t.field({
    type: BoardActionRunClaimType,
    description: `${ONLY} Claims an action run by monday's actionUuid before any work.`,
    args: { actionUuid: t.arg.string({ required: true }), kind: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => claimActionRun(ctx, args.actionUuid, args.kind),
  }),
  finishBoardActionRun: t.boolean({
    description: `${ONLY} Stores a run's final answer, replayed to monday's retries.`,
    args: {
      actionUuid: t.arg.string({ required: true }),
      status: t.arg.int({ required: true }),
      response: t.arg({ type: 'JSON', required: true }),
    },
    resolve: async (_root, args, ctx) => {
      await finishActionRun(ctx, args.actionUuid, args.status, args.response);
      return true;
    },
  }),
  releaseBoardActionRun: t.boolean({
    description: `${ONLY} Drops the claim of a run answered "retry later".`,
    args: { actionUuid: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await releaseActionRun(ctx, args.actionUuid);
      return true;
    },
  }),
  subscribeToCallEnded: t.string({
    description:
      `${ONLY} Subscribes an automation to the "when a call ends" trigger ` +
      '({ webhookId, webhookUrl, boardId, agentId, recipeId, integrationId }); answers the webhook id.',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => subscribeToCallEnded(ctx, args.input),
  }),
  unsubscribeFromCallEnded: t.boolean({
    description: `${ONLY} Stops a subscription (idempotent).`,
    args: { subscription: t.arg.string({ description: 'The webhook id monday subscribed with' }) },
    resolve: async (_root, args, ctx) => {
      await unsubscribeFromCallEnded(ctx, args.subscription ?? null);
      return true;
    },
  }),
}));
