// The console's CSV uploads: upload, preview and import in steps (csv-uploads.service.ts). Only
// the signed-in person who uploaded a file can read or import it.
import { builder } from '../../builder.js';
import { UUID_ARG } from '../../shared/argument-guard.js';
import type { RowRejection, StoredRow } from './csv-uploads.store.js';
import { type CsvUploadView, createCsvUpload, csvUpload, importCsvUpload } from './csv-uploads.service.js';

const CsvPreviewRow = builder.objectRef<StoredRow>('CsvPreviewRow').implement({
  description:
    "A record of the file: its number after the header, the file line it starts on, its cells in the header's order.",
  fields: (t) => ({
    row: t.exposeInt('row'),
    line: t.exposeInt('line'),
    cells: t.exposeStringList('cells'),
  }),
});

const CsvRowRejection = builder.objectRef<RowRejection>('CsvRowRejection').implement({
  description:
    'A row not imported: `malformed-record`, `invalid-priority`, `invalid-field`, or importContacts’ reasons.',
  fields: (t) => ({
    row: t.exposeInt('row'),
    line: t.exposeInt('line'),
    reason: t.exposeString('reason'),
    message: t.exposeString('message'),
  }),
});

const CsvUploadType = builder.objectRef<CsvUploadView>('CsvUpload').implement({
  description: 'A CSV the signed-in person uploaded in the console, kept an hour after its last step.',
  fields: (t) => ({
    id: t.exposeID('id'),
    fileName: t.exposeString('fileName'),
    headers: t.exposeStringList('headers'),
    preview: t.field({ type: [CsvPreviewRow], description: 'The first rows.', resolve: (u) => u.preview }),
    rowCount: t.exposeInt('rowCount', { description: 'Records after the header, malformed ones included.' }),
    suggestedMapping: t.exposeStringList('suggestedMapping', {
      description: 'Per column, by its header: a write field, `custom` (customFields under the header) or `skip`.',
    }),
    mapping: t.exposeStringList('mapping', { description: 'The mapping the import uses; empty until it starts.' }),
    status: t.exposeString('status', { description: '`preview`, `importing` or `done`.' }),
    rowsDone: t.exposeInt('rowsDone', { description: 'Records sent or refused so far, of rowCount.' }),
    accepted: t.exposeInt('accepted'),
    rejectedCount: t.int({ resolve: (u) => u.rejected.length }),
    rejected: t.field({ type: [CsvRowRejection], resolve: (u) => u.rejected }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  csvUpload: t.field({
    type: CsvUploadType,
    description: "Console: an upload of the signed-in person's, unexpired.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => csvUpload(ctx, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createCsvUpload: t.field({
    type: CsvUploadType,
    description:
      'Console: reads a CSV (header line, then rows; malformed records set aside) and keeps it for the signed-in ' +
      'person for an hour, to preview and import. A file that cannot be imported is a 400 about `file`.',
    args: { fileName: t.arg.string({ required: true }), csv: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => createCsvUpload(ctx, args),
  }),
  importCsvUpload: t.field({
    type: CsvUploadType,
    description:
      "Console: imports an upload's next rows (at most 1000) through importContacts. The first call sets the " +
      'mapping (one word per column: a write field, `custom` or `skip`); later calls keep it.',
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      mapping: t.arg.stringList({ required: true }),
    },
    resolve: (_root, args, ctx) => importCsvUpload(ctx, args),
  }),
}));
