// The calling rules' types, queries and mutations (REST, the console, the MCP tools and the CLI
// run them): the Account's calling policy and its history, a contact's consents, and a
// contact's dialing decision. Resolvers only call the services.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';
import { CALL_PURPOSES, CONSENT_KINDS } from './calling-rule.types.js';
import {
  CallingPolicyBodySchema,
  ConsentBodySchema,
  CONSENT_METHODS,
  RevokeConsentsBodySchema,
} from './calling-rules.inputs.js';
import {
  callingPolicyChanges,
  getCallingPolicy,
  setCallingPolicy,
  type CallingPolicyChangeView,
  type CallingPolicyView,
  type DisabledJurisdiction,
} from './calling-policy.service.js';
import { addConsent, listConsents, revokeConsents, type ConsentView, type ContactRef } from './consents.service.js';
import { contactDialing, type ContactDialing } from './dialing.service.js';
import { callAuditPage, type CallAuditRow } from './call-audit.service.js';
import type { AttemptCount, DialingReason } from './dialing-decision.rules.js';

const CallPurposeEnum = builder.enumType('CallPurpose', {
  description: 'telemarketing: the calls sell; informational: reminders, service, surveys without a sale.',
  values: CALL_PURPOSES,
});
const ConsentKindEnum = builder.enumType('ConsentKind', {
  description: 'express, or express_written (a signed agreement, e-signature included).',
  values: CONSENT_KINDS,
});
const ConsentMethodEnum = builder.enumType('ConsentMethod', {
  description: 'How a consent was obtained.',
  values: CONSENT_METHODS,
});

const AttemptCapType = builder
  .objectRef<{ max: number; periodHours: number }>('AttemptCap')
  .implement({ fields: (t) => ({ max: t.exposeInt('max'), periodHours: t.exposeInt('periodHours') }) });

const DisabledJurisdictionType = builder.objectRef<DisabledJurisdiction>('DisabledJurisdiction').implement({
  description: 'A jurisdiction whose rules the Account turned off, with who did it and when.',
  fields: (t) => ({
    jurisdiction: t.exposeString('jurisdiction'),
    disabledAt: t.expose('disabledAt', { type: 'DateTime' }),
    disabledBy: t.exposeString('disabledBy', { description: 'user:<id>, key:<id> or operator' }),
  }),
});

const LegalAttemptCapType = builder
  .objectRef<CallingPolicyView['legalAttemptCaps'][number]>('LegalAttemptCap')
  .implement({
    description: "A law's cap on calls to one contact, from the rule set.",
    fields: (t) => ({
      ruleId: t.exposeString('ruleId'),
      jurisdiction: t.exposeString('jurisdiction'),
      max: t.exposeInt('max'),
      periodHours: t.exposeInt('periodHours'),
      source: t.exposeString('source'),
      disabled: t.exposeBoolean('disabled', {
        description: "True when the Account turned the jurisdiction's rules off",
      }),
    }),
  });

const CallingPolicyType = builder.objectRef<CallingPolicyView>('CallingPolicy').implement({
  description: "The Account's calling policy, as GET /api/v1/calling-policy answers it.",
  fields: (t) => ({
    purpose: t.expose('purpose', { type: CallPurposeEnum }),
    requireWrittenConsent: t.exposeBoolean('requireWrittenConsent'),
    attemptCap: t.field({ type: AttemptCapType, nullable: true, resolve: (p) => p.attemptCap }),
    disabledJurisdictions: t.field({ type: [DisabledJurisdictionType], resolve: (p) => p.disabledJurisdictions }),
    legalAttemptCaps: t.field({ type: [LegalAttemptCapType], resolve: (p) => p.legalAttemptCaps }),
    jurisdictions: t.stringList({ resolve: (p) => [...p.jurisdictions] }),
    ruleSetVersion: t.exposeString('ruleSetVersion'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
    updatedBy: t.exposeString('updatedBy', { nullable: true }),
  }),
});

const CallingPolicyChangeType = builder.objectRef<CallingPolicyChangeView>('CallingPolicyChange').implement({
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime' }),
    actor: t.exposeString('actor'),
    change: t.expose('change', { type: 'JSON', description: '{ field: { from, to } } for each field changed' }),
  }),
});

const ConsentType = builder.objectRef<ConsentView>('Consent').implement({
  description: "A contact's consent to be called.",
  fields: (t) => ({
    id: t.exposeID('id'),
    contactId: t.exposeString('contactId'),
    kind: t.expose('kind', { type: ConsentKindEnum }),
    workflowId: t.exposeString('workflowId', {
      nullable: true,
      description: 'The one workflow it covers; null: every call of the Account',
    }),
    method: t.exposeString('method'),
    evidence: t.exposeString('evidence', { nullable: true }),
    obtainedAt: t.expose('obtainedAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    revokedBy: t.exposeString('revokedBy', {
      nullable: true,
      description: 'api, do_not_call_result, erasure or block_list',
    }),
    active: t.exposeBoolean('active'),
  }),
});

const DialingReasonType = builder.objectRef<DialingReason>('DialingReason').implement({
  description: 'A rule that blocks a call now.',
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    jurisdiction: t.exposeString('jurisdiction', { nullable: true }),
    source: t.exposeString('source', {
      nullable: true,
      description: 'The statute or regulation; null when no law is the reason',
    }),
    ruleId: t.exposeString('ruleId', { nullable: true }),
    until: t.expose('until', {
      type: 'DateTime',
      nullable: true,
      description: 'When it stops blocking by itself; null when someone must act',
    }),
  }),
});

const AttemptCountType = builder.objectRef<AttemptCount>('AttemptCount').implement({
  description: 'The calls counted against one cap.',
  fields: (t) => ({
    ruleId: t.exposeString('ruleId', { nullable: true, description: "null: the Account's own cap" }),
    jurisdiction: t.exposeString('jurisdiction', { nullable: true }),
    max: t.exposeInt('max'),
    periodHours: t.exposeInt('periodHours'),
    counted: t.exposeInt('counted'),
    source: t.exposeString('source', { nullable: true }),
  }),
});

const DialingEnrollmentType = builder
  .objectRef<NonNullable<ContactDialing['enrollment']>>('DialingEnrollment')
  .implement({
    fields: (t) => ({
      workflowId: t.exposeString('workflowId'),
      agentId: t.exposeString('agentId', { nullable: true }),
      attempts: t.exposeInt('attempts'),
      dueAt: t.expose('dueAt', { type: 'DateTime', nullable: true }),
      immediate: t.exposeBoolean('immediate', {
        description: "A first attempt called at once: outside the agent's working hours, never outside the law",
      }),
    }),
  });

const ConsentRefType = builder.objectRef<{ id: string; kind: string }>('ConsentUsed').implement({
  fields: (t) => ({ id: t.exposeString('id'), kind: t.exposeString('kind') }),
});

const ContactDialingType = builder.objectRef<ContactDialing>('ContactDialing').implement({
  description: 'Whether the dialer may call the contact now, when next, and why not: the dialer’s own decision.',
  fields: (t) => ({
    contactId: t.exposeString('contactId'),
    callableNow: t.exposeBoolean('callableNow'),
    nextCallableAt: t.expose('nextCallableAt', {
      type: 'DateTime',
      nullable: true,
      description: 'null: not within 45 days, or not until someone acts (a reason without `until`)',
    }),
    reasons: t.field({ type: [DialingReasonType], resolve: (d) => d.reasons }),
    timeZones: t.stringList({ resolve: (d) => d.timeZones }),
    jurisdictions: t.stringList({ resolve: (d) => d.jurisdictions }),
    ruleSetVersion: t.exposeString('ruleSetVersion'),
    purpose: t.expose('purpose', { type: CallPurposeEnum }),
    ruleIds: t.stringList({ resolve: (d) => d.ruleIds }),
    attempts: t.field({ type: [AttemptCountType], resolve: (d) => d.attempts }),
    consentUsed: t.field({ type: ConsentRefType, nullable: true, resolve: (d) => d.consentUsed }),
    enrollment: t.field({ type: DialingEnrollmentType, nullable: true, resolve: (d) => d.enrollment }),
  }),
});

const CallAuditRowType = builder.objectRef<CallAuditRow>('CallAuditRow').implement({
  description:
    'A placed call and what allowed it (a line of GET /api/v1/calls/audit.csv); the rule fields are null for calls placed before the calling rules.',
  fields: (t) => ({
    callId: t.exposeString('callId'),
    contactId: t.exposeString('contactId'),
    workflowId: t.exposeString('workflowId', { nullable: true }),
    agentId: t.exposeString('agentId', { nullable: true }),
    provider: t.exposeString('provider'),
    placedAt: t.expose('placedAt', { type: 'DateTime' }),
    status: t.exposeString('status'),
    result: t.exposeString('result', { nullable: true }),
    ruleSetVersion: t.exposeString('ruleSetVersion', { nullable: true }),
    purpose: t.exposeString('purpose', { nullable: true }),
    timeZones: t.exposeString('timeZones', { nullable: true, description: 'Space-separated' }),
    jurisdictions: t.exposeString('jurisdictions', { nullable: true, description: 'Space-separated' }),
    ruleIds: t.exposeString('ruleIds', { nullable: true, description: 'Space-separated' }),
    consentId: t.exposeString('consentId', { nullable: true }),
    consentKind: t.exposeString('consentKind', { nullable: true }),
    attemptCounts: t.exposeString('attemptCounts', {
      nullable: true,
      description: 'Each cap as rule:counted/max@periodh (policy for the Account’s own), counted before the call',
    }),
  }),
});

const CallAuditPage = builder.objectRef<{ data: CallAuditRow[]; nextToken: string | null }>('CallAuditPage').implement({
  fields: (t) => ({
    data: t.field({ type: [CallAuditRowType], resolve: (p) => p.data }),
    nextToken: t.exposeString('nextToken', { nullable: true, description: 'Null on the last page' }),
  }),
});

const enums = [
  [CallPurposeEnum, CALL_PURPOSES],
  [ConsentKindEnum, CONSENT_KINDS],
  [ConsentMethodEnum, CONSENT_METHODS],
] as const;

export const CallingPolicyInput = inputTypeFromZod('CallingPolicyInput', CallingPolicyBodySchema, {
  description:
    'Changes to the calling policy (the REST body of PUT /calling-policy): fields left out keep their value.',
  nested: { attemptCap: 'AttemptCapInput' },
  enums,
});
export const ConsentInput = inputTypeFromZod('ConsentInput', ConsentBodySchema, {
  description: 'A consent (the REST body of POST /contacts/{id}/consents).',
  enums,
});
export const RevokeConsentsInput = inputTypeFromZod('RevokeConsentsInput', RevokeConsentsBodySchema, {
  description: 'Which consents to revoke (the REST body of POST /contacts/{id}/consents/revoke).',
});

/** A contact argument pair: its id, or its source kind and external ID. */
const contactRef = (args: {
  contactId?: string | null;
  sourceKind?: string | null;
  externalId?: string | null;
}): ContactRef =>
  args.contactId ? { id: args.contactId } : { sourceKind: args.sourceKind ?? '', externalId: args.externalId ?? '' };

builder.queryFields((t) => ({
  callAudit: t.field({
    type: CallAuditPage,
    description: "The Account's placed calls, oldest first, with what allowed each (from, to: placed in [from, to)).",
    args: { from: t.arg.string(), to: t.arg.string(), limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) =>
      callAuditPage(ctx, {
        from: args.from ?? undefined,
        to: args.to ?? undefined,
        limit: args.limit ?? undefined,
        nextToken: args.nextToken ?? undefined,
      }),
  }),
  callingPolicy: t.field({
    type: CallingPolicyType,
    description: "The key's Account's calling policy (the operator names the Account).",
    args: { accountId: t.arg.string({ ...UUID_ARG }) },
    resolve: (_root, args, ctx) => getCallingPolicy(ctx, args.accountId),
  }),
  callingPolicyChanges: t.field({
    type: [CallingPolicyChangeType],
    description: "The calling policy's changes, newest first, with who made each.",
    args: { limit: t.arg.int(), accountId: t.arg.string({ ...UUID_ARG }) },
    resolve: (_root, args, ctx) => callingPolicyChanges(ctx, args.limit ?? undefined, args.accountId),
  }),
  contactConsents: t.field({
    type: [ConsentType],
    description: "A contact's consents, newest first (by contactId, or by sourceKind and externalId).",
    args: { contactId: t.arg.string({ ...UUID_ARG }), sourceKind: t.arg.string(), externalId: t.arg.string() },
    resolve: (_root, args, ctx) => listConsents(ctx, contactRef(args)),
  }),
  contactDialing: t.field({
    type: ContactDialingType,
    description: 'Whether the dialer may call the contact now, when next, and every rule that blocks it.',
    args: { contactId: t.arg.string({ ...UUID_ARG }), sourceKind: t.arg.string(), externalId: t.arg.string() },
    resolve: (_root, args, ctx) => contactDialing(ctx, contactRef(args)),
  }),
}));

builder.mutationFields((t) => ({
  setCallingPolicy: t.field({
    type: CallingPolicyType,
    description:
      'Changes the calling policy ({ purpose?, requireWrittenConsent?, attemptCap?, disabledJurisdictions? }, as REST PUT).',
    args: { input: t.arg({ type: 'JSON', required: true }), accountId: t.arg.string({ ...UUID_ARG }) },
    resolve: (_root, args, ctx) => setCallingPolicy(ctx, args.input, args.accountId),
  }),
  setCallingPolicyTyped: t.field({
    type: CallingPolicyType,
    description: 'setCallingPolicy with a typed input.',
    args: { input: t.arg({ type: CallingPolicyInput, required: true }), accountId: t.arg.string({ ...UUID_ARG }) },
    resolve: (_root, args, ctx) => setCallingPolicy(ctx, args.input, args.accountId),
  }),
  addContactConsent: t.field({
    type: ConsentType,
    description: "Records a contact's consent ({ kind, workflowId?, method, evidence?, obtainedAt }, as REST).",
    args: {
      contactId: t.arg.string({ ...UUID_ARG }),
      sourceKind: t.arg.string(),
      externalId: t.arg.string(),
      input: t.arg({ type: 'JSON', required: true }),
    },
    resolve: (_root, args, ctx) => addConsent(ctx, contactRef(args), args.input),
  }),
  addContactConsentTyped: t.field({
    type: ConsentType,
    description: 'addContactConsent with a typed input.',
    args: {
      contactId: t.arg.string({ ...UUID_ARG }),
      sourceKind: t.arg.string(),
      externalId: t.arg.string(),
      input: t.arg({ type: ConsentInput, required: true }),
    },
    resolve: (_root, args, ctx) => addConsent(ctx, contactRef(args), args.input),
  }),
  revokeContactConsents: t.field({
    type: [ConsentType],
    description:
      "Revokes a contact's live consents (all; the Account-wide ones with workflowId null; or one workflow's): those revoked.",
    args: {
      contactId: t.arg.string({ ...UUID_ARG }),
      sourceKind: t.arg.string(),
      externalId: t.arg.string(),
      input: t.arg({ type: 'JSON', required: true }),
    },
    resolve: (_root, args, ctx) => revokeConsents(ctx, contactRef(args), args.input),
  }),
  revokeContactConsentsTyped: t.field({
    type: [ConsentType],
    description: 'revokeContactConsents with a typed input.',
    args: {
      contactId: t.arg.string({ ...UUID_ARG }),
      sourceKind: t.arg.string(),
      externalId: t.arg.string(),
      input: t.arg({ type: RevokeConsentsInput, required: true }),
    },
    resolve: (_root, args, ctx) => revokeConsents(ctx, contactRef(args), args.input),
  }),
}));
