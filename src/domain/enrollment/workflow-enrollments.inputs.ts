// What the workflow enrollment operations take: a page query of a workflow's enrollments, and
// the contacts an operation is for (ids, or every contact a list filter matches).
import { z } from 'zod';
import { PageQuerySchema } from '../shared/cursor.js';
import { UUID_PATTERN } from '../shared/ids.js';
import { ListQuerySchema } from '../contacts/contacts.inputs.js';

export const ENROLLMENT_STATES = ['active', 'ended'] as const;

export const EnrollmentPageQuerySchema = z.object({
  state: z.enum(ENROLLMENT_STATES).optional(),
  ...PageQuerySchema.shape,
});

/** The list operation's filters (GET /contacts), without its page. */
export const ContactFilterSchema = ListQuerySchema.omit({ limit: true, nextToken: true }).strict();

const contactId = z
  .string()
  .regex(UUID_PATTERN, 'must be a UUID')
  .transform((s) => s.toLowerCase());

/** Which contacts: `contactIds` (1 to 1000), or every contact `filter` matches. Exactly one of them. */
export const ContactSelectionSchema = z
  .strictObject({
    contactIds: z.array(contactId).min(1).max(1000).optional(),
    filter: ContactFilterSchema.optional(),
  })
  .refine((b) => (b.contactIds === undefined) !== (b.filter === undefined), {
    message: 'send either contactIds or filter, not both',
  });
export type ContactSelection = z.infer<typeof ContactSelectionSchema>;
