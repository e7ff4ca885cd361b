// A workflow's enrollments: the Enrollment type, the page query, and the stop mutation.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import {
  ENROLLMENT_END_REASONS,
  listWorkflowEnrollments,
  stopWorkflowEnrollments,
  type EnrollmentView,
  type StopResult,
} from './workflow-enrollments.service.js';
import { ContactSelectionSchema, ENROLLMENT_STATES } from './workflow-enrollments.inputs.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';

const EnrollmentStateEnum = builder.enumType('EnrollmentState', { values: ENROLLMENT_STATES });
const EnrollmentEndReasonEnum = builder.enumType('EnrollmentEndReason', { values: ENROLLMENT_END_REASONS });

const EnrollmentType = builder.objectRef<EnrollmentView>('Enrollment').implement({
  description: "A contact's enrollment in a workflow: the dialer calls it while it is active.",
  fields: (t) => ({
    id: t.exposeID('id'),
    contactId: t.exposeString('contactId', {
      nullable: true,
      description: 'null once the contact is erased: the enrollment stays, with no link to the person.',
    }),
    workflowId: t.exposeString('workflowId'),
    state: t.expose('state', { type: EnrollmentStateEnum }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    endReason: t.expose('endReason', { type: EnrollmentEndReasonEnum, nullable: true }),
    finalResult: t.exposeString('finalResult', {
      nullable: true,
      description: 'The call result that ended it, when endReason is final_result.',
    }),
    attempts: t.exposeInt('attempts'),
    nextCallAt: t.expose('nextCallAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the dialer may next call; null once ended or while a call is in progress.',
    }),
  }),
});

const EnrollmentPage = builder
  .objectRef<{ data: EnrollmentView[]; nextToken: string | null }>('EnrollmentPage')
  .implement({
    fields: (t) => ({
      data: t.field({ type: [EnrollmentType], resolve: (p) => p.data }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

const StopResultType = builder.objectRef<StopResult>('EnrollmentStopResult').implement({
  fields: (t) => ({
    stopped: t.exposeInt('stopped', { description: 'Contacts whose active enrollment in the workflow ended.' }),
    notActive: t.exposeStringList('notActive', {
      description: 'Of the contactIds sent, those with no active enrollment in the workflow.',
    }),
  }),
});

const ContactSelectionInput = inputTypeFromZod('ContactSelectionInput', ContactSelectionSchema, {
  description:
    "Which contacts (the REST body of POST /workflows/{id}/enrollments/stop): contactIds, or the list operation's filter.",
  nested: { filter: 'ContactFilterInput' },
});

builder.queryFields((t) => ({
  workflowEnrollments: t.field({
    type: EnrollmentPage,
    description: "One page of a workflow's enrollments, newest first; `state` keeps the active or the ended ones.",
    args: {
      workflowId: t.arg.string({ required: true, ...UUID_ARG }),
      state: t.arg.string(),
      limit: t.arg.int(),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      listWorkflowEnrollments(ctx, args.workflowId, {
        state: args.state ?? undefined,
        limit: args.limit ?? undefined,
        nextToken: args.nextToken ?? undefined,
      }),
  }),
}));

builder.mutationFields((t) => ({
  stopWorkflowEnrollments: t.field({
    type: StopResultType,
    description:
      "Ends the workflow's active enrollments of `contactIds` (1 to 1000) or of every contact `filter` (the list operation's filters) matches. No call is placed to them for the workflow after the answer; a call in progress finishes and is recorded.",
    args: {
      workflowId: t.arg.string({ required: true, ...UUID_ARG }),
      input: t.arg({ type: 'JSON', required: true }),
    },
    resolve: (_root, args, ctx) => stopWorkflowEnrollments(ctx, args.workflowId, args.input),
  }),
  stopWorkflowEnrollmentsTyped: t.field({
    type: StopResultType,
    description: 'stopWorkflowEnrollments with a typed input.',
    args: {
      workflowId: t.arg.string({ required: true, ...UUID_ARG }),
      input: t.arg({ type: ContactSelectionInput, required: true }),
    },
    resolve: (_root, args, ctx) => stopWorkflowEnrollments(ctx, args.workflowId, args.input),
  }),
}));
