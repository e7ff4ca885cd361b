// The board mapping and status labels, for the key's Account (the board app's set-up).
import { builder } from '../builder.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';
import { SetBoardMappingSchema } from './board-mapping.inputs.js';
import {
  effectiveStatusLabels,
  getBoardMapping,
  readBoard,
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
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const MondayColumnType = builder.objectRef<{ id: string; title: string; type: string }>('MondayColumn').implement({
  fields: (t) => ({ id: t.exposeString('id'), title: t.exposeString('title'), type: t.exposeString('type') }),
});

const MondayBoardType = builder
  .objectRef<{ id: string; name: string; columns: Array<{ id: string; title: string; type: string }> }>('MondayBoard')
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
