// The Agent type, the operator's operations on it, and the console's on its own Account's agents.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';
import { AGENT_STATUSES } from './agents.inputs.js';
import {
  createAccountAgent,
  CreateAccountAgentSchema,
  createAgent,
  CreateAgentSchema,
  findAgent,
  listAgents,
  updateAccountAgent,
  updateAgent,
  UpdateAgentSchema,
} from './agents.service.js';

export const AgentStatusEnum = builder.enumType('AgentStatus', { values: AGENT_STATUSES });

export const AgentType = builder.prismaObject('Agent', {
  description: "A voice agent: it calls a workflow's enrolled contacts inside its working hours.",
  fields: (t) => ({
    id: t.exposeID('id'),
    accountId: t.exposeString('accountId'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: AgentStatusEnum }),
    timezone: t.exposeString('timezone'),
    defaultLanguage: t.exposeString('defaultLanguage'),
    attemptLimit: t.exposeInt('attemptLimit'),
    workingHours: t.expose('workingHours', {
      type: 'JSON',
      description: 'Per weekday (mon..sun), [start, end) local windows as HH:MM',
    }),
    retryDelayMinutes: t.exposeInt('retryDelayMinutes'),
    callNewContactsImmediately: t.exposeBoolean('callNewContactsImmediately'),
    phoneNumber: t.exposeString('phoneNumber', {
      nullable: true,
      description: 'E.164; inbound calls to it belong to this agent',
    }),
    provider: t.exposeString('provider', { description: 'Who runs the calls: simulator, vapi or retell' }),
    providerAgentId: t.exposeString('providerAgentId', {
      nullable: true,
      description: 'Vapi assistant id or Retell agent id',
    }),
    providerPhoneNumber: t.exposeString('providerPhoneNumber', {
      nullable: true,
      description: 'Vapi phone number id or Retell from-number',
    }),
    maxConcurrentCalls: t.exposeInt('maxConcurrentCalls', {
      nullable: true,
      description: "Calls in flight at most (null: the provider's default)",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  accountAgents: t.field({
    type: [AgentType],
    description: "The acting Account's voice agents, by id (at most 200).",
    resolve: async (_root, _args, ctx) => (await listAgents(ctx, { limit: 200 })).data,
  }),
  accountAgent: t.field({
    type: AgentType,
    nullable: true,
    description: "One of the acting Account's voice agents; null when it has none of this id.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => findAgent(ctx, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: AgentType,
    description:
      'Operator: creates a voice agent ({ accountId, name, status?, timezone?, defaultLanguage?, attemptLimit?, workingHours?, retryDelayMinutes?, callNewContactsImmediately?, phoneNumber?, provider? (simulator|vapi|retell), providerAgentId?, providerPhoneNumber?, maxConcurrentCalls? }).',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => createAgent(ctx, args.input),
  }),
  updateAgent: t.field({
    type: AgentType,
    description: 'Operator: changes the fields sent on a voice agent.',
    args: { id: t.arg.string({ required: true, ...UUID_ARG }), input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => updateAgent(ctx, args.id, args.input),
  }),
}));

// The same operations with typed inputs, generated from the zod schemas the service parses them with.
const agentInputOptions = {
  nested: { workingHours: 'WorkingHoursInput', mon: 'WorkingHoursWindowInput' },
  enums: [[AgentStatusEnum, AGENT_STATUSES]],
} as const;
const CreateAgentInput = inputTypeFromZod('CreateAgentInput', CreateAgentSchema, {
  description: 'A voice agent to create; a field left out takes its default.',
  ...agentInputOptions,
});
const UpdateAgentInput = inputTypeFromZod('UpdateAgentInput', UpdateAgentSchema, {
  description: 'The fields of a voice agent to change; a field left out is kept.',
  ...agentInputOptions,
});

builder.mutationFields((t) => ({
  createAgentTyped: t.field({
    type: AgentType,
    description: 'createAgent with a typed input: operator, creates a voice agent.',
    args: { input: t.arg({ type: CreateAgentInput, required: true }) },
    resolve: (_root, args, ctx) => createAgent(ctx, args.input),
  }),
  updateAgentTyped: t.field({
    type: AgentType,
    description: 'updateAgent with a typed input: operator, changes the fields sent on a voice agent.',
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      input: t.arg({ type: UpdateAgentInput, required: true }),
    },
    resolve: (_root, args, ctx) => updateAgent(ctx, args.id, args.input),
  }),
}));

// The console's: the same fields and checks, in the signed-in person's Account (requireConsoleUser:
// an API key or the operator token is refused); another Account's agent is not found. Typed
// inputs only, generated from the schemas the service parses them with.
const CreateAccountAgentInput = inputTypeFromZod('CreateAccountAgentInput', CreateAccountAgentSchema, {
  description: "A voice agent to create in the signed-in person's Account; a field left out takes its default.",
  ...agentInputOptions,
});

builder.mutationFields((t) => ({
  createAccountAgent: t.field({
    type: AgentType,
    description: "Console: creates a voice agent in the signed-in person's Account.",
    args: { input: t.arg({ type: CreateAccountAgentInput, required: true }) },
    resolve: (_root, args, ctx) => createAccountAgent(ctx, args.input),
  }),
  updateAccountAgent: t.field({
    type: AgentType,
    description: "Console: changes the fields sent on a voice agent of the signed-in person's Account.",
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      input: t.arg({ type: UpdateAgentInput, required: true }),
    },
    resolve: (_root, args, ctx) => updateAccountAgent(ctx, args.id, args.input),
  }),
}));
