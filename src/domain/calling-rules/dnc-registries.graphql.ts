// Do-not-call registry imports in GraphQL: a file is imported as a staged import (start, append
// its lines in chunks, finish or abandon), so that REST and the CLI can stream a file of
// millions of lines through operations of the schema; and the Account's copies, listed.
// Resolvers only call the service (dnc-registries.service.ts).
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import {
  abandonDncRegistryImport,
  appendDncRegistryLines,
  dncRegistryCopies,
  finishDncRegistryImport,
  startDncRegistryImport,
  type DncCopyView,
  type DncImportResult,
  type DncImportView,
} from './dnc-registries.service.js';

const DncRegistryImportType = builder.objectRef<DncImportView>('DncRegistryImport').implement({
  description: 'A registry file being imported: its lines arrive in chunks; nothing sees them until it is finished.',
  fields: (t) => ({
    id: t.exposeID('id'),
    registry: t.exposeString('registry'),
    downloadedAt: t.expose('downloadedAt', { type: 'DateTime' }),
    areaCodes: t.stringList({ resolve: (i) => i.areaCodes }),
    nextLine: t.exposeInt('nextLine', { description: 'The line the next chunk starts at (lines count from 1)' }),
    numbersRead: t.exposeInt('numbersRead', { description: 'Lines that held a number so far (repeats included)' }),
  }),
});

const DncRegistryImportResultType = builder.objectRef<DncImportResult>('DncRegistryImportResult').implement({
  description: 'A finished import: what it stored and the scopes whose copies it replaced.',
  fields: (t) => ({
    registry: t.exposeString('registry'),
    downloadedAt: t.expose('downloadedAt', { type: 'DateTime' }),
    lines: t.exposeInt('lines'),
    numbers: t.exposeInt('numbers', { description: 'Distinct numbers stored' }),
    scopes: t.stringList({
      description: 'The +1 area codes whose copies it replaced, else ["*"]',
      resolve: (r) => r.scopes,
    }),
    bytesStored: t.exposeFloat('bytesStored'),
    bytesPerNumber: t.exposeFloat('bytesPerNumber', { nullable: true }),
  }),
});

const DncRegistryCopyType = builder.objectRef<DncCopyView>('DncRegistryCopy').implement({
  description: "The Account's copy of a registry for one scope (a +1 area code, else *).",
  fields: (t) => ({
    registry: t.exposeString('registry'),
    scope: t.exposeString('scope'),
    downloadedAt: t.expose('downloadedAt', { type: 'DateTime' }),
    importedAt: t.expose('importedAt', { type: 'DateTime' }),
    numbers: t.exposeInt('numbers'),
    maxCopyAgeDays: t.exposeInt('maxCopyAgeDays', { nullable: true }),
    fresh: t.exposeBoolean('fresh', { description: 'Not older than the rule’s maxCopyAgeDays' }),
    freshUntil: t.expose('freshUntil', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => ({
  dncRegistryCopies: t.field({
    type: [DncRegistryCopyType],
    description: "The Account's do-not-call registry copies, by registry and scope.",
    resolve: (_root, _args, ctx) => dncRegistryCopies(ctx),
  }),
}));

builder.mutationFields((t) => ({
  startDncRegistryImport: t.field({
    type: DncRegistryImportType,
    description:
      'Starts importing a registry file (registry: us_national, ca_national, fr_bloctel, gb_tps, es_robinson, mx_repep, il_do_not_call; downloadedAt: a date or date-time, not in the future; areaCodes: +1 registries only).',
    args: {
      registry: t.arg.string({ required: true }),
      downloadedAt: t.arg.string({ required: true }),
      areaCodes: t.arg.stringList(),
    },
    resolve: (_root, args, ctx) => startDncRegistryImport(ctx, args),
  }),
  appendDncRegistryLines: t.field({
    type: DncRegistryImportType,
    description:
      'Appends lines firstLine, firstLine + 1, … of the file (at most 100,000): a malformed line is a 400 naming it, and nothing of the chunk is stored.',
    args: {
      importId: t.arg.string({ required: true, ...UUID_ARG }),
      firstLine: t.arg.int({ required: true }),
      lines: t.arg.stringList({ required: true }),
    },
    resolve: (_root, args, ctx) => appendDncRegistryLines(ctx, args),
  }),
  finishDncRegistryImport: t.field({
    type: DncRegistryImportResultType,
    description: "Replaces the Account's copies of every scope the import covers with it, in one transaction.",
    args: { importId: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => finishDncRegistryImport(ctx, args),
  }),
  abandonDncRegistryImport: t.field({
    type: 'Boolean',
    description: 'Deletes a staged import and what it wrote; false when there is none.',
    args: { importId: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => abandonDncRegistryImport(ctx, args),
  }),
}));
