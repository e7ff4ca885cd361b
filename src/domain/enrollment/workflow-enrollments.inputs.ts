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

const selectionShape = {
  contactIds: z.array(contactId).min(1).max(1000).optional(),
  filter: ContactFilterSchema.optional(),
};
const oneSelection = (b: { contactIds?: unknown; filter?: unknown }) =>
  (b.contactIds === undefined) !== (b.filter === undefined);
const ONE_SELECTION = { message: 'send either contactIds or filter, not both' };

/** Which contacts: `contactIds` (1 to 1000), or every contact `filter` matches. Exactly one of them. */
export const ContactSelectionSchema = z.strictObject(selectionShape).refine(oneSelection, ONE_SELECTION);
export type ContactSelection = z.infer<typeof ContactSelectionSchema>;

/**
 * Enrolling existing contacts (POST /workflows/{id}/enrollments): a selection, and the import's
 * options, `reEnroll` and `enforceCallNow`, sent together or not at all.
 */
export const EnrollContactsSchema = z
  .strictObject({
    ...selectionShape,
    reEnroll: z.boolean().optional().describe('Enroll again contacts this workflow has already called'),
    enforceCallNow: z
      .boolean()
      .optional()
      .describe("Place each first call at once, outside the agent's working hours (never outside the law's)"),
  })
  .refine(oneSelection, ONE_SELECTION)
  .refine((o) => (o.reEnroll === undefined) === (o.enforceCallNow === undefined), {
    message: 'reEnroll and enforceCallNow must be sent together',
  });
export type EnrollContacts = z.infer<typeof EnrollContactsSchema>;
