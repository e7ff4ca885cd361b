// The input of setBoardMapping. Ids are monday's: a board id is a number (sent as a string or
// a number), a column id a short string such as "phone_1".
import { z } from 'zod';

const columnId = z.string().trim().min(1).max(100);

/** The agent reads extra fields by this key: letters, digits and underscores, starting with a letter. */
const identifier = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
    'must start with a letter and hold only letters, digits and underscores (64 at most)',
  );

export const SetBoardMappingSchema = z
  .strictObject({
    boardId: z
      .union([
        z
          .string()
          .trim()
          .regex(/^\d{1,20}$/, 'must be a monday board id (digits)'),
        z.number().int().positive(),
      ])
      .transform(String),
    firstNameColumnId: columnId.nullable().optional(),
    lastNameColumnId: columnId.nullable().optional(),
    itemNameIsFullName: z.boolean().optional(),
    phoneColumnId: columnId.optional(),
    timezoneColumnId: columnId.nullable().optional(),
    extraFields: z.array(z.strictObject({ columnId, identifier })).max(50).optional(),
  })
  .refine((m) => new Set((m.extraFields ?? []).map((f) => f.identifier)).size === (m.extraFields ?? []).length, {
    message: 'extraFields: each identifier may be used once',
    path: ['extraFields'],
  });
export type SetBoardMappingInput = z.infer<typeof SetBoardMappingSchema>;
