// The ImportJob and BulkUpdateJob types: bulk imports and bulk-updates read back after their
// 202, and the bulk-update mutation that answers its job's id. Resolvers only call the services.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import type { ImportRejection as Rejection, SkippedContact } from './contact-jobs.store.js';
import {
  type BulkUpdateJob,
  getBulkUpdateJob,
  getImportJob,
  type ImportJob,
  listImportJobs,
} from './contact-jobs.service.js';
import { bulkUpdateContacts } from './contacts-bulk-update.service.js';
import { BulkUpdateContactsInput, ImportRejection } from './contacts.graphql.js';

export const JobStatusEnum = builder.enumType('JobStatus', {
  description: 'queued: stored, not started; running: being written; done: every row written or rejected.',
  values: ['queued', 'running', 'done'] as const,
});

const ImportJobType = builder.objectRef<ImportJob>('ImportJob').implement({
  description: 'A bulk import (POST /contacts/bulk), exactly as GET /api/v1/imports/{id} returns it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: JobStatusEnum }),
    accepted: t.exposeInt('accepted', { description: 'Items that passed validation (the 202 said so)' }),
    created: t.exposeInt('created', { description: 'Items that created a contact' }),
    updated: t.exposeInt('updated', {
      description: 'Items that updated a stored contact (or one an earlier item created)',
    }),
    rejected: t.field({
      type: [ImportRejection],
      description:
        "Items not written: refused at validation, or skipped by the writer; index is the item's in the request",
      resolve: (job) => job.rejected as unknown as Rejection[],
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const ImportJobPage = builder.objectRef<{ data: ImportJob[]; nextToken: string | null }>('ImportJobPage').implement({
  fields: (t) => ({
    data: t.field({ type: [ImportJobType], resolve: (p) => p.data }),
    nextToken: t.exposeString('nextToken', { nullable: true, description: 'Absent (null) on the last page' }),
  }),
});

const SkippedContactType = builder.objectRef<SkippedContact>('BulkUpdateSkippedContact').implement({
  fields: (t) => ({
    contactId: t.exposeString('contactId'),
    reason: t.exposeString('reason', {
      description: 'dedup-conflict, missing-dedup-field, dedup-key-too-long or custom-fields-over-limit',
    }),
    conflictsWith: t.string({
      nullable: true,
      description: 'For a dedup-conflict: the contact holding the dedup key the change would have given',
      resolve: (skipped) => skipped.conflictsWith ?? null,
    }),
  }),
});

const BulkUpdateJobType = builder.objectRef<BulkUpdateJob>('BulkUpdateJob').implement({
  description: 'A bulk-update (POST /contacts/bulk-update), exactly as GET /api/v1/bulk-updates/{id} returns it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: JobStatusEnum }),
    matched: t.exposeInt('matched', { description: 'Contacts the filter matched so far' }),
    changed: t.exposeInt('changed', { description: 'Of those, the contacts changed' }),
    skipped: t.field({
      type: [SkippedContactType],
      description: 'Matched contacts left unchanged, with why (the first 1000; skippedCount counts them all)',
      resolve: (job) => job.skipped as unknown as SkippedContact[],
    }),
    skippedCount: t.exposeInt('skippedCount'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const BulkUpdateStarted = builder.objectRef<{ updateId: string }>('BulkUpdateStarted').implement({
  fields: (t) => ({
    updateId: t.exposeID('updateId', { description: 'The bulk-update, to read back: bulkUpdate(id)' }),
  }),
});

builder.queryFields((t) => ({
  import: t.field({
    type: ImportJobType,
    description: "One bulk import of the key's Account by id.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => getImportJob(ctx, args.id),
  }),
  imports: t.field({
    type: ImportJobPage,
    description: "One page of the key's Account's bulk imports, newest first.",
    args: { limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) =>
      listImportJobs(ctx, { limit: args.limit ?? undefined, nextToken: args.nextToken ?? undefined }),
  }),
  bulkUpdate: t.field({
    type: BulkUpdateJobType,
    description: "One bulk-update of the key's Account by id.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => getBulkUpdateJob(ctx, args.id),
  }),
}));

builder.mutationFields((t) => ({
  startBulkUpdate: t.field({
    type: BulkUpdateStarted,
    description:
      'bulkUpdateContacts answering its id: queues the same change for every contact matching the filter ({ filter, data }, as REST).',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => bulkUpdateContacts(ctx, args.input),
  }),
  startBulkUpdateTyped: t.field({
    type: BulkUpdateStarted,
    description: 'startBulkUpdate with a typed input: queues the same change for every contact matching the filter.',
    args: { input: t.arg({ type: BulkUpdateContactsInput, required: true }) },
    resolve: (_root, args, ctx) => bulkUpdateContacts(ctx, args.input),
  }),
}));
