// The rule set in force, and the rules that bind one call: by jurisdiction, purpose, the day
// the call is placed, and the Account's policy (jurisdictions it turned off).
import type { CallingRule, CallingRuleSet, CallPurpose } from './calling-rule.types.js';
import { CALLING_RULE_SET } from './rule-set.data.js';

export const RULE_SET: CallingRuleSet = CALLING_RULE_SET;

/** Every jurisdiction the rule set has rules for, sorted. */
export const RULE_JURISDICTIONS: readonly string[] = [...new Set(RULE_SET.rules.map((r) => r.jurisdiction))].sort();

const effectiveInstants = new WeakMap<CallingRule, number>();

/**
 * The instant a rule's first day began anywhere on Earth (UTC+14): a stricter start than its own
 * zone's. Parsed once a rule (the dialer asks it of every rule for every contact it claims).
 */
function effectiveInstant(rule: CallingRule): number {
  let instant = effectiveInstants.get(rule);
  if (instant === undefined) {
    instant = Date.parse(`${rule.effectiveFrom}T00:00:00+14:00`);
    effectiveInstants.set(rule, instant);
  }
  return instant;
}

/**
 * The rules that bind a call at `at` for `purpose` to a contact in `jurisdictions`, where
 * `regionUnknownIn` lists the countries whose every region's rules apply (whereabouts.ts), minus
 * the jurisdictions the Account turned off (turning a country off turns its regions off too).
 */
export function bindingRules(args: {
  ruleSet: CallingRuleSet;
  jurisdictions: readonly string[];
  regionUnknownIn: readonly string[];
  purpose: CallPurpose;
  disabledJurisdictions: readonly string[];
  at: Date;
}): CallingRule[] {
  const disabled = (j: string) =>
    args.disabledJurisdictions.includes(j) || args.disabledJurisdictions.includes(j.split('-')[0]);
  const applies = (j: string) =>
    args.jurisdictions.includes(j) || (j.includes('-') && args.regionUnknownIn.includes(j.split('-')[0]));
  const t = args.at.getTime();
  return args.ruleSet.rules.filter(
    (rule) =>
      applies(rule.jurisdiction) &&
      !disabled(rule.jurisdiction) &&
      rule.purposes.includes(args.purpose) &&
      effectiveInstant(rule) <= t,
  );
}
