// The input of enrollBoardItem: the run's workflow and the item as monday's API read it (the
// board app reads it with the run's short-lived token; its column values are monday's).
import { z } from 'zod';

const mondayId = z.string().regex(/^\d{1,20}$/, 'must be a monday id (digits)');
const text = z.string().nullish();

const ColumnValueSchema = z.looseObject({
  text,
  value: text,
  phone: text,
  country_short_name: text,
  timezone: text,
  label: text,
});

export const EnrollBoardItemSchema = z.strictObject({
  workflowId: z.uuid(),
  item: z.strictObject({
    id: mondayId,
    /** The item name; null when the mapping does not read it. */
    name: z.string().nullable(),
    boardId: mondayId,
    /** The board's columns among those read (a mapped column missing here was deleted). */
    columns: z.array(z.strictObject({ id: z.string(), title: z.string(), type: z.string() })),
    /** The values of the columns read, by column id. */
    values: z.record(z.string(), ColumnValueSchema),
  }),
});
export type EnrollBoardItemInput = z.infer<typeof EnrollBoardItemSchema>;
