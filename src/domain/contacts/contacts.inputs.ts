// Input schemas for contact operations: the single source of every bound and format of a contact
// write and of a list query (schema/openapi.json is printed from them). REST, GraphQL and MCP all
// parse through these.
import { z } from 'zod';
import { ConsentBodySchema } from '../calling-rules/calling-rules.inputs.js';
import { PHONE_WRITE_PATTERN } from '../../normalize/phone.js';
import { UUID_PATTERN } from '../shared/ids.js';
import { PageQuerySchema } from '../shared/cursor.js';
import { CUSTOM_FIELDS_LIMITS, customFieldsLimitProblem } from './custom-fields.rules.js';

export const SOURCE_KINDS = ['hubspot', 'salesforce', 'api', 'csv', 'manual', 'monday', 'oneai'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const CONTACT_STATUSES = [
  'new',
  'invalid',
  'paused',
  'unanswered',
  'unreachable',
  'connecting',
  'answered',
  'contact_verified',
  'disqualified',
  'qualified',
  'converted',
  'dont_call',
  'dnc_blocked',
  'not_assigned',
  'assigned',
  'not_answered',
  'not_reached',
  'reached',
  'dnc',
] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** ISO 8601 date-time with Z or an offset: the format of createdAt and of the list's date filters. */
export const isoDateTime = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset' })
  .transform((s) => new Date(s));

const uuid = z
  .string()
  .regex(UUID_PATTERN, 'must be a UUID')
  .transform((s) => s.toLowerCase());

const phone = z
  .string()
  .max(64)
  .trim()
  .regex(
    PHONE_WRITE_PATTERN,
    'must be digits with an optional leading + or 00, and only spaces, parentheses, dots or hyphens between them',
  );

/** A customFields object within CUSTOM_FIELDS_LIMITS (size, depth, keys). */
const customFields = z
  .record(z.string().min(1).max(128), z.unknown())
  .superRefine((value, ctx) => {
    const problem = customFieldsLimitProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description: `At most ${CUSTOM_FIELDS_LIMITS.maxBytes / 1024} KB as JSON (UTF-8), ${CUSTOM_FIELDS_LIMITS.maxDepth} levels deep and ${CUSTOM_FIELDS_LIMITS.maxKeys} keys (nested objects' keys included); keys 1 to 128 characters. The limits hold for what the contact stores: merged into its stored custom fields (keys not sent are kept), the result must be within them too`,
  });

/** The write fields shared by import, upsert, PATCH and bulk-update's `data`. */
const writeFields = {
  firstName: z.string().max(128).nullable(),
  lastName: z.string().max(128).nullable(),
  fullName: z.string().max(256).nullable(),
  phone: phone.nullable(),
  location: z.string().max(64).nullable(),
  timezone: z.string().max(64).nullable(),
  language: z.string().max(64).nullable(),
  status: z.enum(CONTACT_STATUSES).nullable(),
  sourceKind: z.enum(SOURCE_KINDS),
  externalId: z.string().min(1).max(256).nullable(),
  customFields: customFields.nullable(),
  priority: z.number().int().min(0).max(1000),
};

/**
 * One contact in an import or upsert. Unknown fields are refused (a typo such as
 * `phoneNumber` would otherwise be silently dropped). Absent keys stay absent: "not sent"
 * and "sent as null" mean different things throughout the contact rules.
 */
export const ContactWriteSchema = z.strictObject({
  ...partial(writeFields),
  createdAt: isoDateTime.optional(),
});
export type ContactWrite = z.infer<typeof ContactWriteSchema>;

/** A consent the contact gave, sent with its write: stored beside it (POST /contacts/{id}/consents has the same body). */
const ConsentWithWriteSchema = ConsentBodySchema.optional().describe(
  "The contact's consent to be called, stored with the contact (as POST /api/v1/contacts/{id}/consents would)",
);

/** An item of a bulk import: sourceKind and externalId are required keys (externalId may be null). */
export const BulkItemSchema = z.strictObject({
  ...partial(writeFields),
  sourceKind: writeFields.sourceKind,
  externalId: writeFields.externalId,
  createdAt: isoDateTime.optional(),
  consent: ConsentWithWriteSchema,
});

export const AssignmentOptionsSchema = z
  .strictObject({
    workflowId: uuid.optional(),
    reEnroll: z.boolean().optional(),
    enforceCallNow: z.boolean().optional(),
  })
  .refine((o) => (o.reEnroll === undefined) === (o.enforceCallNow === undefined), {
    message: 'reEnroll and enforceCallNow must be sent together',
  });
export type AssignmentOptions = z.infer<typeof AssignmentOptionsSchema>;

export const UpsertBodySchema = ContactWriteSchema.extend({
  assignmentOptions: AssignmentOptionsSchema.optional(),
  consent: ConsentWithWriteSchema,
});
export type UpsertBody = z.infer<typeof UpsertBodySchema>;

export const BulkImportBodySchema = z.strictObject({
  contacts: z
    .array(z.unknown())
    .min(1, 'contacts must hold 1 to 1000 items')
    .max(1000, 'contacts must hold 1 to 1000 items'),
  assignmentOptions: AssignmentOptionsSchema.optional(),
});

/** PATCH by external ID: any subset of the write fields, nothing else. */
export const PatchBodySchema = z.strictObject({ ...partial(writeFields) });

/** bulk-update `data`: the write fields, externalId limited to 256 chars. */
export const BulkUpdateDataSchema = z.strictObject({ ...partial(writeFields) });

export const BulkUpdateFilterSchema = z
  .strictObject({
    firstName: z.string().min(1).max(128).optional(),
    lastName: z.string().min(1).max(128).optional(),
    phone: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'must be E.164: +, first digit 1-9, 7 to 15 digits')
      .optional(),
    sourceKind: z.enum(SOURCE_KINDS).optional(),
    externalId: z.string().min(1).max(256).optional(),
    customFields: z
      .array(z.strictObject({ key: z.string().min(1).max(128), value: z.string().max(1024) }))
      .min(1)
      .max(5)
      .optional(),
  })
  .refine((f) => (f.sourceKind === undefined) === (f.externalId === undefined), {
    message: 'sourceKind and externalId must be sent together',
  });
export type BulkUpdateFilter = z.infer<typeof BulkUpdateFilterSchema>;

export const BulkUpdateBodySchema = z.strictObject({ filter: BulkUpdateFilterSchema, data: BulkUpdateDataSchema });
export type BulkUpdateBody = z.infer<typeof BulkUpdateBodySchema>;

/** Accepts one value, repeated keys (an array) or comma-separated values. */
function listOf<T extends readonly [string, ...string[]]>(values: T) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((v) =>
      (Array.isArray(v) ? v : [v])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values)).min(1));
}

export const ListQuerySchema = z.object({
  status: listOf(CONTACT_STATUSES).optional(),
  sourceKind: listOf(SOURCE_KINDS).optional(),
  addedSince: isoDateTime.optional(),
  addedBefore: isoDateTime.optional(),
  assignedWorkflowId: uuid.optional(),
  searchTerm: z.string().min(1).max(100).optional(),
  ...PageQuerySchema.shape,
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export const ExternalIdPathSchema = z.object({
  sourceKind: z.enum(SOURCE_KINDS),
  // An external ID matches with its trailing spaces ignored, so they are trimmed before the length check.
  externalId: z
    .string()
    .transform((s) => s.replace(/ +$/, ''))
    .pipe(z.string().min(1).max(256)),
});

function partial<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as never;
}
