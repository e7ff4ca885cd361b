// What a finished call does to its contact: the status moves forward only (SERVICE_STATUS_ORDER;
// `paused` stays), a late or out-of-order report is not counted (applyCallOutcome), and a final
// result ends the enrollment (docs/calls.md, "How the dialer calls";
// docs/decisions/0015-calls-engine.md), as pure functions.
import type { ContactRow } from '../contacts/contacts.rules.js';
import type { ContactStatus } from '../contacts/contacts.inputs.js';
import { normalizeLanguage } from '../../normalize/language.js';
import { isConversationResult, type CallResult } from '../../calls/telephony/telephony.port.js';

/** The statuses the service sets, in order: a call result only ever moves a contact forward. */
export const SERVICE_STATUS_ORDER = [
  'not_assigned',
  'assigned',
  'not_answered',
  'not_reached',
  'reached',
  'disqualified',
  'qualified',
  'converted',
  'dnc',
] as const satisfies readonly ContactStatus[];

/** The status each call result moves a contact to (at least). */
export const RESULT_STATUS: Record<CallResult, (typeof SERVICE_STATUS_ORDER)[number]> = {
  busy: 'not_answered',
  human_busy: 'not_answered',
  no_answer: 'not_answered',
  voicemail: 'not_answered',
  ivr: 'not_answered',
  unknown: 'not_answered',
  new: 'not_answered',
  invalid_number: 'not_reached',
  wrong_number: 'not_reached',
  carrier_blocked: 'not_reached',
  answered: 'reached',
  contact_verified: 'reached',
  identified: 'reached',
  callback_requested: 'reached',
  neutral_value_call: 'reached',
  disqualified: 'disqualified',
  wrong_language: 'disqualified',
  not_interested: 'disqualified',
  qualified: 'qualified',
  converted: 'converted',
  do_not_call: 'dnc',
};

/**
 * Results after which the workflow stops calling the contact (beyond them, another attempt
 * would be unwelcome or pointless). Other results retry until the attempt limit.
 */
export const FINAL_RESULTS: ReadonlySet<CallResult> = new Set<CallResult>([
  'converted',
  'qualified',
  'disqualified',
  'wrong_language',
  'not_interested',
  'do_not_call',
  'invalid_number',
  'wrong_number',
  'carrier_blocked',
]);

export interface CallOutcome {
  startedAt: Date;
  result: CallResult;
  /** The language the call ended in, as the provider reported it. */
  language: string | null;
  /** The next attempt time reported for this call. */
  nextAttemptAt: Date | null;
}

/** Moves `current` forward to `target`; legacy statuses and none are below every service status; `paused` stays. */
export function forwardStatus(
  current: ContactStatus | null,
  target: (typeof SERVICE_STATUS_ORDER)[number],
): ContactStatus | null {
  if (current === 'paused') return current;
  const from = SERVICE_STATUS_ORDER.indexOf(current as (typeof SERVICE_STATUS_ORDER)[number]);
  const to = SERVICE_STATUS_ORDER.indexOf(target);
  return to > from ? target : current;
}

/**
 * The contact after a call outcome. A call that started at or before lastCallAt (a late or
 * out-of-order report) is not counted and changes neither lastCallAt, nextCallAt nor the
 * language; its result can still move the status forward. A do-not-call result clears
 * nextCallAt. An answered call sets the language the call ended in.
 */
export function applyCallOutcome(
  contact: ContactRow,
  outcome: CallOutcome,
  now: Date,
): { contact: ContactRow; counted: boolean } {
  const next: ContactRow = { ...contact, updatedAt: now };
  const counted = contact.lastCallAt === null || outcome.startedAt.getTime() > contact.lastCallAt.getTime();
  if (counted) {
    next.callCount = contact.callCount + 1;
    next.lastCallAt = outcome.startedAt;
    next.nextCallAt = outcome.nextAttemptAt;
    if (isConversationResult(outcome.result) && outcome.language) {
      next.language = normalizeLanguage(outcome.language) ?? contact.language;
    }
  }
  next.status = forwardStatus(contact.status, RESULT_STATUS[outcome.result]);
  if (outcome.result === 'do_not_call') next.nextCallAt = null;
  return { contact: next, counted };
}
