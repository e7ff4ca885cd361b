// The board mapping and status labels, for the key's Account (the board app's set-up).
import { builder } from '../builder.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';
import { SetBoardMappingSchema } from './board-mapping.inputs.js';
import type { BoardColumn } from './board-mapping.rules.js';
import type { MondayBoardSummary } from '../context.js';
import type { BoardItemCallRow } from '../monday/board-calls.store.js';
import type { MondayBoardList } from './board-mapping.service.js';
import { fieldsFedBy } from './board-mapping.rules.js';
import {
  effectiveStatusLabels,
  getBoardMapping,
  listBoards,
  readBoard,
  recentBoardCalls,
  removeBoardMapping,
  setBoardMapping,
  setStatusLabels,
} from './board-mapping.service.js';

builder.prismaObject('BoardMapping', {
  description: 'The monday board the Account maps, and which of its columns feed which contact fields.',
  fields: (t) => ({
    boardId: t.exposeString('boardId'),
    firstNameColumnId: t.exposeString('firstNameColumnId', { nullable: true }),
    lastNameColumnId: t.exposeString('lastNameColumnId', { nullable: true }),
    itemNameIsFullName: t.exposeBoolean('itemNameIsFullName', {
      description: 'The item name holds the full name (split into first and last name)',
    }),
    phoneColumnId: t.exposeString('phoneColumnId'),
    timezoneColumnId: t.exposeString('timezoneColumnId', { nullable: true }),
    timezoneColumnType: t.exposeString('timezoneColumnType', {
      nullable: true,
      description: '`text` or `world_clock`',
    }),
    extraFields: t.expose('extraFields', {
      type: 'JSON',
      description: "[{ columnId, identifier }]: stored as the contact's customFields[identifier]",
    }),
    statusLabels: t.field({
      type: 'JSON',
      description: 'Call result → status label the set-status action writes (null: the status is left unchanged)',
      resolve: (row) => effectiveStatusLabels(row),
    }),
    statusLabelsCustomized: t.boolean({
      description: 'False while the board uses the default status labels (see statusLabels)',
      resolve: (row) => row.statusLabels !== null,
    }),
    recentCalls: t.field({
      type: [BoardItemCallType],
      description: "The newest calls of the board's items (the contacts its enroll action linked), newest first",
      args: { limit: t.arg.int({ description: '1 to 100 (default 20)' }) },
      resolve: (row, args, ctx) => recentBoardCalls(ctx, row, args.limit),
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const MondayColumnType = builder.objectRef<BoardColumn>('MondayColumn').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    type: t.exposeString('type'),
    mappableAs: t.stringList({
      description:
        'The setBoardMapping input fields this column may feed (phoneColumnId, firstNameColumnId, lastNameColumnId, timezoneColumnId, extraFields), by its type',
      resolve: (column) => fieldsFedBy(column),
    }),
    labels: t.stringList({
      nullable: true,
      description: "A status column's labels in monday's order (deactivated ones left out); null for other columns",
      resolve: (column) => column.labels ?? null,
    }),
  }),
});

const BoardItemCallType = builder.objectRef<BoardItemCallRow>('BoardItemCall').implement({
  description: 'A call of a contact that came from a board item.',
  fields: (t) => ({
    callId: t.exposeString('callId'),
    itemId: t.exposeString('itemId', { description: "The monday item's id" }),
    contactId: t.exposeString('contactId'),
    contactName: t.string({
      nullable: true,
      resolve: (row) => row.fullName ?? ([row.firstName, row.lastName].filter(Boolean).join(' ') || null),
    }),
    status: t.exposeString('status'),
    result: t.exposeString('result', { nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    durationSeconds: t.exposeInt('durationSeconds', { nullable: true }),
  }),
});

const MondayBoardSummaryType = builder.objectRef<MondayBoardSummary>('MondayBoardSummary').implement({
  fields: (t) => ({ id: t.exposeString('id'), name: t.exposeString('name') }),
});

const MondayBoardListType = builder.objectRef<MondayBoardList>('MondayBoardList').implement({
  description: "One page of the boards the linked monday user can see (monday's page numbers).",
  fields: (t) => ({
    data: t.field({ type: [MondayBoardSummaryType], resolve: (list) => list.data }),
    page: t.exposeInt('page'),
    nextPage: t.exposeInt('nextPage', { nullable: true, description: 'null when this page was the last' }),
  }),
});

const MondayBoardType = builder
  .objectRef<{ id: string; name: string; columns: BoardColumn[] }>('MondayBoard')
  .implement({
    fields: (t) => ({
      id: t.exposeString('id'),
      name: t.exposeString('name'),
      columns: t.field({ type: [MondayColumnType], resolve: (b) => b.columns }),
    }),
  });

builder.queryFields((t) => ({
  boardMapping: t.prismaField({
    type: 'BoardMapping',
    nullable: true,
    description: "The key's Account's board mapping (null until a board is mapped).",
    resolve: (_query, _root, _args, ctx) => getBoardMapping(ctx),
  }),
  mondayBoard: t.field({
    type: MondayBoardType,
    description:
      "A monday board and its columns, read through the Account's monday link (to choose the columns to map).",
    args: { boardId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => readBoard(ctx, args.boardId),
  }),
  mondayBoards: t.field({
    type: MondayBoardListType,
    description:
      "The boards the Account's linked monday user can see, one page at a time as monday's API pages them (to choose the board to map).",
    args: {
      page: t.arg.int({ description: 'From 1 (default 1)' }),
      limit: t.arg.int({ description: '1 to 100 (default 50)' }),
    },
    resolve: (_root, args, ctx) => listBoards(ctx, { page: args.page, limit: args.limit }),
  }),
}));

builder.mutationFields((t) => ({
  setBoardMapping: t.prismaField({
    type: 'BoardMapping',
    description:
      "Maps the Account's board ({ boardId, phoneColumnId, firstNameColumnId?, lastNameColumnId?, itemNameIsFullName?, timezoneColumnId?, extraFields?: [{ columnId, identifier }] }). " +
      "Checked against the board's columns. Another board than the mapped one clears the previous mapping.",
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_query, _root, args, ctx) => setBoardMapping(ctx, args.input),
  }),
  removeBoardMapping: t.boolean({
    description: 'Forgets the board mapping (true when there was one).',
    resolve: (_root, _args, ctx) => removeBoardMapping(ctx),
  }),
  setStatusLabels: t.prismaField({
    type: 'BoardMapping',
    description:
      'Replaces the call result → status label mapping ({ "converted": "Booked", "busy": null, ... }; results not sent keep the default); null restores the default.',
    args: { mapping: t.arg({ type: 'JSON' }) },
    resolve: (_query, _root, args, ctx) => setStatusLabels(ctx, args.mapping),
  }),
}));

// setBoardMapping with a typed input, generated from the zod schema the service parses it with.
const SetBoardMappingInput = inputTypeFromZod('SetBoardMappingInput', SetBoardMappingSchema, {
  description: "The board to map and which of its columns feed which contact fields (monday's ids).",
  nested: { extraFields: 'BoardExtraFieldInput' },
});

builder.mutationFields((t) => ({
  setBoardMappingTyped: t.prismaField({
    type: 'BoardMapping',
    description: "setBoardMapping with a typed input: maps the Account's board, checked against the board's columns.",
    args: { input: t.arg({ type: SetBoardMappingInput, required: true }) },
    resolve: (_query, _root, args, ctx) => setBoardMapping(ctx, args.input),
  }),
}));
