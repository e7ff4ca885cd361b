// The Contact type with its queries and mutations. Resolvers only call the services.
import { z } from 'zod';
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';
import {
  BulkImportBodySchema,
  BulkItemSchema,
  BulkUpdateBodySchema,
  CONTACT_STATUSES,
  PatchBodySchema,
  SOURCE_KINDS,
  UpsertBodySchema,
} from './contacts.inputs.js';
import { getContact, getContactByExternalId, patchContactByExternalId, upsertContact } from './contacts.service.js';
import { listContacts } from './contacts-list.service.js';
import { importContacts } from './contacts-import.service.js';
import { bulkUpdateContacts } from './contacts-bulk-update.service.js';
import type { ContactRow } from './contacts.rules.js';
import { eraseContact, eraseContactByExternalId, type ContactErasure } from './contacts-erase.service.js';

export const ContactStatusEnum = builder.enumType('ContactStatus', { values: CONTACT_STATUSES });
export const SourceKindEnum = builder.enumType('SourceKind', { values: SOURCE_KINDS });

// Typed by the row the services return (not Prisma's model), so resolvers return it as it is.
export const ContactType = builder.objectRef<ContactRow>('Contact').implement({
  description: 'A contact, exactly as the REST API returns it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    accountId: t.exposeString('accountId'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    fullName: t.exposeString('fullName', { nullable: true }),
    phone: t.exposeString('phone', { nullable: true, description: 'E.164' }),
    location: t.exposeString('location', { nullable: true, description: 'ISO 3166 code: country, or country-region' }),
    locationDefaulted: t.exposeBoolean('locationDefaulted'),
    timezone: t.exposeString('timezone', { nullable: true, description: 'IANA time zone' }),
    timezoneInferred: t.exposeBoolean('timezoneInferred'),
    language: t.exposeString('language', { nullable: true }),
    status: t.expose('status', { type: ContactStatusEnum, nullable: true }),
    sourceKind: t.expose('sourceKind', { type: SourceKindEnum }),
    externalId: t.exposeString('externalId', { nullable: true }),
    customFields: t.expose('customFields', { type: 'JSON', nullable: true }),
    priority: t.exposeInt('priority'),
    assignedWorkflowId: t.exposeString('assignedWorkflowId', { nullable: true }),
    callCount: t.exposeInt('callCount'),
    maxAttempts: t.exposeInt('maxAttempts', { nullable: true }),
    lastCallAt: t.expose('lastCallAt', { type: 'DateTime', nullable: true }),
    nextCallAt: t.expose('nextCallAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ContactPage = builder.objectRef<{ data: ContactRow[]; nextToken: string | null }>('ContactPage').implement({
  fields: (t) => ({
    data: t.field({ type: [ContactType], resolve: (p) => p.data }),
    nextToken: t.exposeString('nextToken', { nullable: true, description: 'Absent (null) on the last page' }),
  }),
});

const UpsertResult = builder.objectRef<{ contact: ContactRow; created: boolean }>('UpsertContactResult').implement({
  fields: (t) => ({
    contact: t.field({ type: ContactType, resolve: (p) => p.contact }),
    created: t.exposeBoolean('created'),
  }),
});

export const ImportRejection = builder.objectRef<{ reason: string; index: number }>('ImportRejection').implement({
  fields: (t) => ({ reason: t.exposeString('reason'), index: t.exposeInt('index') }),
});

const ImportResult = builder
  .objectRef<{ importId: string; accepted: number; rejected: Array<{ reason: string; index: number }> }>(
    'ImportContactsResult',
  )
  .implement({
    fields: (t) => ({
      importId: t.exposeID('importId', {
        description: 'The import, to read back: import(id) / GET /api/v1/imports/{id}',
      }),
      accepted: t.exposeInt('accepted'),
      rejected: t.field({ type: [ImportRejection], resolve: (p) => p.rejected }),
    }),
  });

builder.queryFields((t) => ({
  contact: t.field({
    type: ContactType,
    description: "One contact of the key's Account by id.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => getContact(ctx, args.id),
  }),
  contactByExternalId: t.field({
    type: ContactType,
    description: 'The contact with this external ID in its source; conflict when several match.',
    args: { sourceKind: t.arg.string({ required: true }), externalId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getContactByExternalId(ctx, args),
  }),
  contacts: t.field({
    type: ContactPage,
    description: 'One page of contacts, newest first (the REST list and search).',
    args: {
      status: t.arg.stringList(),
      sourceKind: t.arg.stringList(),
      addedSince: t.arg.string(),
      addedBefore: t.arg.string(),
      assignedWorkflowId: t.arg.string({ ...UUID_ARG }),
      searchTerm: t.arg.string(),
      limit: t.arg.int(),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => listContacts(ctx, withoutNulls(args)),
  }),
}));

builder.mutationFields((t) => ({
  upsertContact: t.field({
    type: UpsertResult,
    description:
      "Creates a contact or updates the one matching the Account's dedup fields; input as the REST upsert body.",
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => upsertContact(ctx, args.input),
  }),
  importContacts: t.field({
    type: ImportResult,
    description: 'Queues up to 1000 contacts (the REST bulk body); they are written within seconds.',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => importContacts(ctx, args.input),
  }),
  bulkUpdateContacts: t.boolean({
    description: 'Queues the same change for every contact matching the filter ({ filter, data }, as REST).',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: async (_root, args, ctx) => {
      await bulkUpdateContacts(ctx, args.input);
      return true;
    },
  }),
  patchContactByExternalId: t.field({
    type: ContactType,
    description: 'Changes only the fields sent on the contact with this external ID.',
    args: {
      sourceKind: t.arg.string({ required: true }),
      externalId: t.arg.string({ required: true }),
      input: t.arg({ type: 'JSON', required: true }),
    },
    resolve: (_root, args, ctx) => patchContactByExternalId(ctx, args, args.input),
  }),
}));

const ContactDeletion = builder.objectRef<ContactErasure>('ContactDeletion').implement({
  description: 'An erased contact: it and its personal data are gone; its calls remain only as counts by result.',
  fields: (t) => ({
    deleted: t.exposeBoolean('deleted', { description: 'Always true: a contact that could not be erased is an error' }),
    id: t.exposeID('id', { description: "The erased contact's id (now unknown: reads answer not_found)" }),
    blocked: t.exposeBoolean('blocked', { description: 'Whether its phone was put on the block list (block: true)' }),
  }),
});

const BLOCK_DESCRIPTION = "Also put the contact's phone on the Account's block list (default false).";

builder.mutationFields((t) => ({
  deleteContact: t.field({
    type: ContactDeletion,
    description:
      "Erases one contact of the key's Account by id: the contact, its enrollments, its calls' transcripts and " +
      'recordings; the calls remain as anonymous counts by result; a contact.deleted event follows.',
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      block: t.arg.boolean({ description: BLOCK_DESCRIPTION }),
    },
    resolve: (_root, args, ctx) => eraseContact(ctx, args.id, { block: args.block ?? false }),
  }),
  deleteContactByExternalId: t.field({
    type: ContactDeletion,
    description:
      'Erases the contact with this external ID in its source, as deleteContact; conflict when several match.',
    args: {
      sourceKind: t.arg.string({ required: true }),
      externalId: t.arg.string({ required: true }),
      block: t.arg.boolean({ description: BLOCK_DESCRIPTION }),
    },
    resolve: (_root, args, ctx) =>
      eraseContactByExternalId(
        ctx,
        { sourceKind: args.sourceKind, externalId: args.externalId },
        { block: args.block ?? false },
      ),
  }),
}));

// The same writes with typed inputs, generated from the zod schemas that validate them (the
// JSON-argument fields above stay: they take the REST body as it came, for REST, the tool
// server, the board app and existing clients). The services parse a typed input with the same
// zod schema, so bounds, formats and errors are the same.
const enums = [
  [ContactStatusEnum, CONTACT_STATUSES],
  [SourceKindEnum, SOURCE_KINDS],
] as const;

const PatchContactInput = inputTypeFromZod('PatchContactInput', PatchBodySchema, {
  description: 'The contact fields to change (PATCH): a field left out is kept, a field sent as null is cleared.',
  enums,
});
const UpsertContactInput = inputTypeFromZod('UpsertContactInput', UpsertBodySchema, {
  description: 'A contact to create or update (the REST upsert body).',
  nested: { assignmentOptions: 'AssignmentOptionsInput', consent: 'ConsentInput' },
  enums,
});
// The service parses an import's items one by one (BulkItemSchema, each named `contacts[i]`): typed here as such items.
const ImportBodyWithItems = BulkImportBodySchema.extend({ contacts: z.array(BulkItemSchema) });
const ImportContactsInput = inputTypeFromZod('ImportContactsInput', ImportBodyWithItems, {
  description: 'Up to 1000 contacts to import (the REST bulk body).',
  nested: { contacts: 'ImportContactItemInput', assignmentOptions: 'AssignmentOptionsInput', consent: 'ConsentInput' },
  enums,
});
export const BulkUpdateContactsInput = inputTypeFromZod('BulkUpdateContactsInput', BulkUpdateBodySchema, {
  description: 'The same change (data) for every contact matching the filter (the REST bulk-update body).',
  nested: { filter: 'BulkUpdateFilterInput', customFields: 'CustomFieldMatchInput' },
  enums,
});

builder.mutationFields((t) => ({
  upsertContactTyped: t.field({
    type: UpsertResult,
    description: 'upsertContact with a typed input: creates a contact or updates the one matching the dedup fields.',
    args: { input: t.arg({ type: UpsertContactInput, required: true }) },
    resolve: (_root, args, ctx) => upsertContact(ctx, args.input),
  }),
  importContactsTyped: t.field({
    type: ImportResult,
    description: 'importContacts with a typed input: queues up to 1000 contacts; they are written within seconds.',
    args: { input: t.arg({ type: ImportContactsInput, required: true }) },
    resolve: (_root, args, ctx) => importContacts(ctx, args.input),
  }),
  bulkUpdateContactsTyped: t.boolean({
    description: 'bulkUpdateContacts with a typed input: queues the same change for every contact matching the filter.',
    args: { input: t.arg({ type: BulkUpdateContactsInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await bulkUpdateContacts(ctx, args.input);
      return true;
    },
  }),
  patchContactByExternalIdTyped: t.field({
    type: ContactType,
    description: 'patchContactByExternalId with a typed input: changes only the fields sent on that contact.',
    args: {
      sourceKind: t.arg.string({ required: true }),
      externalId: t.arg.string({ required: true }),
      input: t.arg({ type: PatchContactInput, required: true }),
    },
    resolve: (_root, args, ctx) => patchContactByExternalId(ctx, args, args.input),
  }),
}));

function withoutNulls<T extends Record<string, unknown>>(args: T): Partial<T> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}
