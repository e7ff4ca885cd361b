// Enrolling a workflow's existing contacts: the EnrollmentJob type, the mutation that starts one
// (and its typed twin), and the query that reads one back.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';
import { JobStatusEnum } from '../contacts/contact-jobs.graphql.js';
import { NOT_ENROLLED_REASONS, type NotEnrolledReason } from './enrollment-jobs.rules.js';
import { enrollWorkflowContacts, getEnrollmentJob, type EnrollmentJobView } from './enrollment-jobs.service.js';
import { EnrollContactsSchema } from './workflow-enrollments.inputs.js';

const NotEnrolledReasonEnum = builder.enumType('NotEnrolledReason', { values: NOT_ENROLLED_REASONS });

const ReasonCountType = builder
  .objectRef<{ reason: NotEnrolledReason; count: number }>('NotEnrolledReasonCount')
  .implement({
    fields: (t) => ({
      reason: t.expose('reason', { type: NotEnrolledReasonEnum }),
      count: t.exposeInt('count'),
    }),
  });

const NotEnrolledType = builder
  .objectRef<{ contactId: string; reason: NotEnrolledReason }>('NotEnrolledContact')
  .implement({
    fields: (t) => ({
      contactId: t.exposeString('contactId'),
      reason: t.expose('reason', { type: NotEnrolledReasonEnum }),
    }),
  });

const EnrollmentJobType = builder.objectRef<EnrollmentJobView>('EnrollmentJob').implement({
  description:
    "Enrolling a workflow's existing contacts (POST /workflows/{id}/enrollments), exactly as GET /api/v1/enrollment-jobs/{id} returns it.",
  fields: (t) => ({
    id: t.exposeID('id'),
    workflowId: t.exposeString('workflowId'),
    status: t.expose('status', { type: JobStatusEnum }),
    reEnroll: t.exposeBoolean('reEnroll'),
    enforceCallNow: t.exposeBoolean('enforceCallNow'),
    matched: t.exposeInt('matched', { description: 'Contacts selected so far: the ids sent, or the filter’s matches' }),
    enrolled: t.exposeInt('enrolled', { description: 'Of those, the contacts enrolled' }),
    notEnrolledCount: t.exposeInt('notEnrolledCount', { description: 'Of those, the contacts not enrolled' }),
    reasons: t.field({
      type: [ReasonCountType],
      description: 'How many contacts were not enrolled for each reason (every reason, zeros included)',
      resolve: (job) => job.reasons,
    }),
    notEnrolled: t.field({
      type: [NotEnrolledType],
      description: 'Contacts not enrolled, with why (the first 1000; notEnrolledCount counts them all)',
      resolve: (job) => job.notEnrolled,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const EnrollContactsInput = inputTypeFromZod('EnrollContactsInput', EnrollContactsSchema, {
  description:
    "Which contacts to enroll (the REST body of POST /workflows/{id}/enrollments): contactIds, or the list operation's filter; reEnroll and enforceCallNow together or not at all.",
  nested: { filter: 'ContactFilterInput' },
});

const ENROLL_DESCRIPTION =
  "Enrolls the workflow's existing contacts: `contactIds` (1 to 1000) or every contact `filter` (the list operation's filters) matches. The workflow must be published and not paused. Answers the job, which runs on: read it back with enrollmentJob(id).";

builder.queryFields((t) => ({
  enrollmentJob: t.field({
    type: EnrollmentJobType,
    description: "One enrollment job of the key's Account by id.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => getEnrollmentJob(ctx, args.id),
  }),
}));

builder.mutationFields((t) => ({
  enrollWorkflowContacts: t.field({
    type: EnrollmentJobType,
    description: ENROLL_DESCRIPTION,
    args: {
      workflowId: t.arg.string({ required: true, ...UUID_ARG }),
      input: t.arg({ type: 'JSON', required: true }),
    },
    resolve: (_root, args, ctx) => enrollWorkflowContacts(ctx, args.workflowId, args.input),
  }),
  enrollWorkflowContactsTyped: t.field({
    type: EnrollmentJobType,
    description: 'enrollWorkflowContacts with a typed input.',
    args: {
      workflowId: t.arg.string({ required: true, ...UUID_ARG }),
      input: t.arg({ type: EnrollContactsInput, required: true }),
    },
    resolve: (_root, args, ctx) => enrollWorkflowContacts(ctx, args.workflowId, args.input),
  }),
}));
