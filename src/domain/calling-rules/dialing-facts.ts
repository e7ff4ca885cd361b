// The dialing decision's inputs for a batch of contacts, read in four statements whatever the
// batch's size (dialing.store.ts), and the decision made for each: the dialer's claim and
// GET /contacts/{id}/dialing both come here.
import type { SqlClient } from '../../db/sql-client.js';
import { phoneRegion } from '../../normalize/phone-region.js';
import { CONSENT_KINDS, DNC_REGISTRIES, type CallingRuleSet, type DncRegistry } from './calling-rule.types.js';
import { policyRules } from './calling-policy.service.js';
import { registryScope } from './dnc-registries.rules.js';
import {
  decideDialing,
  type DialingDecision,
  type DialingInputs,
  type EnrollmentInputs,
} from './dialing-decision.rules.js';
import {
  callsPlacedSince,
  liveConsentsOf,
  policiesOf,
  registryAnswers,
  type LiveConsent,
  type RegistryQuestion,
} from './dialing.store.js';

const HOUR = 3_600_000;

/** A contact to decide on, with the enrollment it would be called for (null: the law and consent alone). */
export interface DialingSubject {
  accountId: string;
  contactId: string;
  phone: string | null;
  location: string | null;
  locationDefaulted?: boolean;
  timezone: string | null;
  dnc: boolean;
  blocked: boolean;
  enrollment: EnrollmentInputs | null;
}

/** The registries the rule set names for the number's country. */
function registriesFor(ruleSet: CallingRuleSet, phone: string | null): DncRegistry[] {
  if (!phone) return [];
  const country = phoneRegion(phone).country;
  if (!country) return [];
  const named = ruleSet.rules.flatMap((r) => (r.restriction.kind === 'registry' ? [r.restriction.registry] : []));
  return [...new Set(named)].filter((registry) => DNC_REGISTRIES[registry] === country);
}

/** The longest attempt-cap period the rule set or a policy has, in hours. */
function longestCapHours(
  ruleSet: CallingRuleSet,
  policies: Iterable<{ attemptCapPeriodHours: number | null }>,
): number {
  let hours = 0;
  for (const rule of ruleSet.rules)
    if (rule.restriction.kind === 'attempt_cap') hours = Math.max(hours, rule.restriction.periodHours);
  for (const p of policies) hours = Math.max(hours, p.attemptCapPeriodHours ?? 0);
  return hours;
}

/** The strongest live consent covering a call for `workflowId` (the Account's, or that workflow's); newest first among equals. */
function coveringConsent(consents: readonly LiveConsent[], workflowId: string | null) {
  const covering = consents
    .filter((c) => c.workflowId === null || c.workflowId === workflowId)
    .sort(
      (a, b) =>
        CONSENT_KINDS.indexOf(b.kind) - CONSENT_KINDS.indexOf(a.kind) ||
        b.obtainedAt.getTime() - a.obtainedAt.getTime(),
    );
  return covering[0] ? { id: covering[0].id, kind: covering[0].kind } : null;
}

/** The decision for each subject, in order, at `now`. */
export async function decideForSubjects(
  tx: SqlClient,
  ruleSet: CallingRuleSet,
  subjects: readonly DialingSubject[],
  now: Date,
): Promise<DialingDecision[]> {
  if (subjects.length === 0) return [];
  const contactIds = subjects.map((s) => s.contactId);
  const policies = await policiesOf(
    tx,
    subjects.map((s) => s.accountId),
  );
  const since = new Date(now.getTime() - longestCapHours(ruleSet, policies.values()) * HOUR);
  const questions: Array<RegistryQuestion & { subject: number }> = subjects.flatMap((s, subject) =>
    registriesFor(ruleSet, s.phone).map((registry) => ({
      subject,
      accountId: s.accountId,
      registry,
      scope: registryScope(registry, s.phone as string),
      phone: s.phone as string,
    })),
  );
  // One after the other: `tx` is the dialer's transaction, one connection, which runs one
  // statement at a time anyway (pg deprecates queueing a query on a client that is busy, and
  // pg@9 refuses it).
  const consents = await liveConsentsOf(tx, contactIds);
  const calls = await callsPlacedSince(tx, contactIds, since);
  const answers = await registryAnswers(tx, questions);
  return subjects.map((subject, i) => {
    const registries: DialingInputs['registries'] = {};
    questions.forEach((q, k) => {
      if (q.subject === i) registries[q.registry] = answers[k];
    });
    return decideDialing({
      now,
      ruleSet,
      policy: policyRules(policies.get(subject.accountId)),
      contact: subject,
      consent: coveringConsent(
        consents.filter((c) => c.contactId === subject.contactId),
        subject.enrollment?.workflowId ?? null,
      ),
      registries,
      callsPlacedAt: calls.filter((c) => c.contactId === subject.contactId).map((c) => c.startedAt),
      enrollment: subject.enrollment,
    });
  });
}
