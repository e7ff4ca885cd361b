// The shape of a calling rule: one restriction the law puts on an outbound AI voice call, in one
// jurisdiction, with the text it comes from and the day it took effect. The rules themselves are
// data (rule-set.data.ts); the decision that applies them is dialing-decision.rules.ts.
import type { WorkingHours } from '../calls/calling-hours.inputs.js';

/** Why an Account calls: telephone solicitation (selling), or information (reminders, service). */
export const CALL_PURPOSES = ['telemarketing', 'informational'] as const;
export type CallPurpose = (typeof CALL_PURPOSES)[number];

/** The kinds of consent a contact can give, weakest first. */
export const CONSENT_KINDS = ['express', 'express_written'] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** The do-not-call registries an Account can import a copy of, and the country each covers. */
export const DNC_REGISTRIES = {
  us_national: 'US',
  ca_national: 'CA',
  fr_bloctel: 'FR',
  gb_tps: 'GB',
  es_robinson: 'ES',
  mx_repep: 'MX',
  il_do_not_call: 'IL',
} as const;
export type DncRegistry = keyof typeof DNC_REGISTRIES;

/**
 * What a rule restricts:
 * - hours: calls only inside these local windows (a weekday left out: no calls that day);
 * - no_public_holidays: no calls on the jurisdiction's public holidays (from date-holidays);
 * - attempt_cap: at most `max` calls to the same contact in any `periodHours` (every call the
 *   Account placed to the contact counts, whatever its workflow: the stricter reading of "on the
 *   same subject"); `unlessConsent` lifts the cap for a contact with that consent;
 * - consent: no call without the contact's consent of at least this kind;
 * - registry: a number listed in the registry is not called without `unlessConsent`, and not at
 *   all while the Account's copy of the registry is older than `maxCopyAgeDays`.
 */
export type CallingRestriction =
  | { kind: 'hours'; hours: WorkingHours }
  | { kind: 'no_public_holidays' }
  | { kind: 'attempt_cap'; max: number; periodHours: number; unlessConsent?: ConsentKind }
  | { kind: 'consent'; consent: ConsentKind }
  | { kind: 'registry'; registry: DncRegistry; unlessConsent: ConsentKind; maxCopyAgeDays: number };

export interface CallingRule {
  /** Stable id: `us-fl-hours`. */
  id: string;
  /** ISO 3166 code: a country (`US`) or a subdivision (`US-FL`). */
  jurisdiction: string;
  /** The purposes the rule binds. */
  purposes: readonly CallPurpose[];
  restriction: CallingRestriction;
  /** The statute or regulation and its section: `Fla. Stat. § 501.616(6)(a)`. */
  source: string;
  /** The day the rule took effect (YYYY-MM-DD): a call before it is not bound by it. */
  effectiveFrom: string;
  /** Where the text was unclear, the stricter reading chosen (said in the docs too). */
  note?: string;
}

export interface CallingRuleSet {
  /** The rule set's version: the date it was last revised, and a revision number that day. */
  version: string;
  rules: readonly CallingRule[];
}
