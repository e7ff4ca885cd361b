// The bodies of the calling rules' writes: the calling policy, a consent, a revocation (REST and
// GraphQL parse them with these schemas; the typed GraphQL inputs are generated from them).
import { z } from 'zod';
import { CALL_PURPOSES, CONSENT_KINDS } from './calling-rule.types.js';
import { RULE_JURISDICTIONS } from './rule-set.js';

/** How a consent was obtained. */
export const CONSENT_METHODS = ['web_form', 'recorded_call', 'paper', 'import', 'other'] as const;

const JurisdictionSchema = z
  .string()
  .max(10)
  .refine((code) => RULE_JURISDICTIONS.includes(code), {
    message: `unknown jurisdiction: expected one the rule set has rules for (${RULE_JURISDICTIONS.slice(0, 8).join(', ')}, …; GET /api/v1/calling-policy lists them)`,
  });

export const AttemptCapSchema = z
  .strictObject({
    max: z.int().min(1).max(100).describe('At most this many calls to one contact'),
    periodHours: z
      .int()
      .min(1)
      .max(24 * 366)
      .describe('in any period of this many hours'),
  })
  .describe("The Account's own cap on calls to one contact, beside the law's; null: none of its own");

export const CallingPolicyBodySchema = z.strictObject({
  purpose: z
    .enum(CALL_PURPOSES)
    .optional()
    .describe('telemarketing: the calls sell; informational: reminders, service, surveys without a sale'),
  requireWrittenConsent: z
    .boolean()
    .optional()
    .describe('true: no contact is called, anywhere, without prior express written consent'),
  attemptCap: AttemptCapSchema.nullable().optional(),
  disabledJurisdictions: z
    .array(JurisdictionSchema)
    .max(RULE_JURISDICTIONS.length)
    .refine((codes) => new Set(codes).size === codes.length, { message: 'each jurisdiction may be listed once' })
    .optional()
    .describe(
      "The jurisdictions whose rules are off for the Account (a country's code turns its regions off too). Each change is recorded with who made it",
    ),
});

/** An instant as ISO 8601 with an offset or Z. */
const InstantSchema = z.iso.datetime({ offset: true });

export const ConsentBodySchema = z.strictObject({
  kind: z.enum(CONSENT_KINDS).describe('express, or express_written (a signed agreement, e-signature included)'),
  workflowId: z
    .uuid()
    .nullable()
    .optional()
    .describe('The one workflow the consent covers; null or left out: every call of the Account'),
  method: z.enum(CONSENT_METHODS).describe('How it was obtained'),
  evidence: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .optional()
    .describe('What proves it: the form text and where it was submitted, a recording URL, a document reference'),
  obtainedAt: InstantSchema.describe('When the contact gave it (not in the future)'),
});
export type ConsentBody = z.infer<typeof ConsentBodySchema>;

export const RevokeConsentsBodySchema = z
  .strictObject({
    workflowId: z
      .uuid()
      .nullable()
      .optional()
      .describe(
        "Left out: every consent of the contact; null: the Account-wide ones; a workflow's id: that workflow's",
      ),
  })
  .describe('Which consents to revoke; an empty body revokes them all');
