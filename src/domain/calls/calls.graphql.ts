// The Call and Transcript types with their queries. Resolvers only call the services.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import {
  getCallTranscript,
  listContactCalls,
  type CallPage,
  type CallRecord,
  type Transcript,
  type Utterance,
} from './calls-read.service.js';

export const CallDirectionEnum = builder.enumType('CallDirection', { values: ['outbound', 'inbound'] as const });

// Typed by the record the services return (not Prisma's model), so resolvers return it as it is.
export const CallType = builder.objectRef<CallRecord>('Call').implement({
  description: 'A call, exactly as the REST calls list returns it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    contactId: t.exposeString('contactId'),
    workflowId: t.exposeString('workflowId', { nullable: true }),
    agentId: t.exposeString('agentId', { nullable: true }),
    direction: t.expose('direction', { type: CallDirectionEnum }),
    status: t.exposeString('status'),
    result: t.exposeString('result', { nullable: true }),
    endReason: t.exposeString('endReason', { nullable: true }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      description: 'When the call was placed (outbound) or started (inbound); the list order',
    }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    durationSeconds: t.exposeInt('durationSeconds', { nullable: true }),
    language: t.exposeString('language', { nullable: true }),
    lastCall: t.exposeBoolean('lastCall', {
      description: "True when no further attempt follows this call (the contact's last call)",
    }),
    recordingUrl: t.exposeString('recordingUrl', {
      nullable: true,
      description:
        'The recording of the call, as the voice provider reported it (its URL, which may expire); null when there is none',
    }),
    transcriptAvailable: t.boolean({
      description:
        "True when the call's report is ready and it has at least one utterance (callTranscript is then non-empty)",
      // Computed by the service that loaded the call (see calls-read.service.ts).
      resolve: (call) => call.transcriptAvailable,
    }),
  }),
});

const CallPageType = builder.objectRef<CallPage>('CallPage').implement({
  fields: (t) => ({
    data: t.field({ type: [CallType], resolve: (p) => p.data }),
    nextToken: t.exposeString('nextToken', { nullable: true, description: 'Absent (null) on the last page' }),
  }),
});

const UtteranceType = builder.objectRef<Utterance>('Utterance').implement({
  fields: (t) => ({
    speaker: t.exposeString('speaker', {
      nullable: true,
      description: '`assistant` for the voice agent, `user` for the contact',
    }),
    content: t.exposeString('content', { nullable: true, description: 'What the speaker said' }),
    timestamp: t.expose('timestamp', { type: 'DateTime', nullable: true, description: 'When it was spoken' }),
  }),
});

const TranscriptType = builder.objectRef<Transcript>('Transcript').implement({
  fields: (t) => ({
    utterances: t.field({
      type: [UtteranceType],
      description: "In conversation order; empty until the call's report is ready, and for a call without a transcript",
      resolve: (p) => p.utterances,
    }),
  }),
});

builder.queryFields((t) => ({
  contactCalls: t.field({
    type: CallPageType,
    description:
      'One page of the calls of the contact with this external ID, oldest first by start (startedAt, then id); conflict when several contacts match.',
    args: {
      sourceKind: t.arg.string({ required: true }),
      externalId: t.arg.string({ required: true }),
      limit: t.arg.int(),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      listContactCalls(
        ctx,
        { sourceKind: args.sourceKind, externalId: args.externalId },
        { limit: args.limit ?? undefined, nextToken: args.nextToken ?? undefined },
      ),
  }),
  callTranscript: t.field({
    type: TranscriptType,
    description: "The transcript of one call of the key's Account.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => getCallTranscript(ctx, args.id),
  }),
}));
