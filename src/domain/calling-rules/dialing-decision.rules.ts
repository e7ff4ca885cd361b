// The one decision of whether a contact may be called now, and when next: the law's rules that
// bind it (rule-set.ts, by whereabouts.ts), the contact's consent and do-not-call registries, the
// calls already placed to it, the Account's calling policy, and, when it is enrolled, its
// enrollment (the agent's working hours, when it is due, what holds it). Pure. The dialer's claim
// and GET /contacts/{id}/dialing both call decideDialing, so what the API explains is what the
// dialer does.
//
// Time-bound reasons (hours, public holidays, attempt caps, the agent's hours, not yet due) end
// by themselves: nextCallableAt is the first instant when none binds, found by moving forward
// to the latest "next allowed" instant of every constraint until all agree. Any other reason
// (no consent, a registry listing, a stale registry copy, a hold) lasts until someone acts:
// nextCallableAt is then null. So it is too when a registry copy, fresh now, goes stale before
// the time-bound reasons end (the reason says so).
import {
  WEEKDAYS,
  hasWorkingHours,
  nextWindowStart,
  type Weekday,
  type WorkingHours,
} from '../calls/calling-hours.rules.js';
import { addDays, dateKey, localDate, localToInstant, zoneOf } from '../calls/zoned-time.js';
import {
  CONSENT_KINDS,
  DNC_REGISTRIES,
  type CallingRule,
  type CallingRuleSet,
  type CallPurpose,
  type ConsentKind,
  type DncRegistry,
} from './calling-rule.types.js';
import { publicHolidayDates } from './public-holidays.js';
import { bindingRules } from './rule-set.js';
import { whereabouts, type ContactPlace } from './whereabouts.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** How far ahead nextCallableAt is looked for; past it the answer is null ("not within 45 days"). */
export const DIALING_LOOKAHEAD_DAYS = 45;

export interface CallingPolicyRules {
  purpose: CallPurpose;
  /** Prior express written consent before any call, wherever the contact is. */
  requireWrittenConsent: boolean;
  /** Jurisdictions whose rules the Account turned off. */
  disabledJurisdictions: readonly string[];
  /** The Account's own cap on calls to one contact, beside the law's. */
  attemptCap: { max: number; periodHours: number } | null;
}

/** What holds an enrollment whatever the time (next-call.service.ts's holds): the dialer's claim skips it. */
export type EnrollmentHold =
  | 'call_in_progress'
  | 'no_agent'
  | 'workflow_not_published'
  | 'workflow_paused'
  | 'agent_not_live'
  | 'no_working_hours'
  | 'no_phone'
  | 'contact_paused';

export interface EnrollmentInputs {
  workflowId: string;
  workingHours: WorkingHours;
  /** The zone the agent's working hours apply in (callingTimeZone: the contact's, else the agent's). */
  hoursTimeZone: string;
  /** A first attempt called at once (enforceCallNow, call-immediately): skips the working hours, never the law. */
  immediate: boolean;
  /** When the enrollment is due; null while a call is in flight. */
  dueAt: Date | null;
  holds: readonly EnrollmentHold[];
}

export interface DialingInputs {
  now: Date;
  ruleSet: CallingRuleSet;
  policy: CallingPolicyRules;
  contact: ContactPlace & { dnc: boolean; blocked: boolean };
  /** The contact's strongest live consent that covers this call (the Account's, or the enrollment's workflow's). */
  consent: { id: string; kind: ConsentKind } | null;
  /** Per registry: whether the number is listed, and when the Account's copy covering it was downloaded. */
  registries: Partial<Record<DncRegistry, { listed: boolean; copyDownloadedAt: Date | null }>>;
  /** When each call to the contact was placed, any order: the attempt caps count them. */
  callsPlacedAt: readonly Date[];
  enrollment: EnrollmentInputs | null;
}

export const DIALING_REASON_CODES = [
  'outside_legal_hours',
  'public_holiday',
  'attempt_cap_reached',
  'consent_required',
  'registry_listed',
  'registry_copy_missing',
  'registry_copy_stale',
  'no_time_zone',
  'phone_blocked',
  'contact_dnc',
  'outside_working_hours',
  'not_due',
  'call_in_progress',
  'no_agent',
  'workflow_not_published',
  'workflow_paused',
  'agent_not_live',
  'no_working_hours',
  'no_phone',
  'contact_paused',
] as const;
export type DialingReasonCode = (typeof DIALING_REASON_CODES)[number];

export interface DialingReason {
  code: DialingReasonCode;
  message: string;
  /** The jurisdiction whose rule blocks (null: the Account's policy, the contact or the enrollment). */
  jurisdiction: string | null;
  /** The rule's statute or regulation; null when no law is the reason. */
  source: string | null;
  ruleId: string | null;
  /** When this reason stops blocking by itself; null when someone must act. */
  until: Date | null;
}

export interface AttemptCount {
  ruleId: string | null;
  jurisdiction: string | null;
  max: number;
  periodHours: number;
  counted: number;
  source: string | null;
}

export interface DialingDecision {
  callableNow: boolean;
  nextCallableAt: Date | null;
  reasons: DialingReason[];
  timeZones: string[];
  jurisdictions: string[];
  ruleSetVersion: string;
  purpose: CallPurpose;
  /** The rules that bound the decision (ids). */
  ruleIds: string[];
  attempts: AttemptCount[];
  consentUsed: { id: string; kind: ConsentKind } | null;
}

/** A constraint that ends by itself: the first instant >= t it allows (t itself when it allows t); null: never within the lookahead. */
interface TimeConstraint {
  reason: Omit<DialingReason, 'until'>;
  nextAllowed(t: number): number | null;
}

const consentRank = (kind: ConsentKind | null) => (kind === null ? -1 : CONSENT_KINDS.indexOf(kind));
const KIND_WORDS: Record<ConsentKind, string> = {
  express: 'prior express consent',
  express_written: 'prior express written consent',
};

const lawReason = (rule: CallingRule, code: DialingReasonCode, message: string): Omit<DialingReason, 'until'> => ({
  code,
  message,
  jurisdiction: rule.jurisdiction,
  source: rule.source,
  ruleId: rule.id,
});

const ownReason = (code: DialingReasonCode, message: string): Omit<DialingReason, 'until'> => ({
  code,
  message,
  jurisdiction: null,
  source: null,
  ruleId: null,
});

export function decideDialing(inputs: DialingInputs): DialingDecision {
  const { now, policy, contact, enrollment } = inputs;
  const place = whereabouts(contact);
  const rules = bindingRules({
    ruleSet: inputs.ruleSet,
    jurisdictions: place.jurisdictions,
    regionUnknownIn: place.regionUnknownIn,
    purpose: policy.purpose,
    disabledJurisdictions: policy.disabledJurisdictions,
    at: now,
  });
  const lasting: Array<Omit<DialingReason, 'until'>> = [];
  // `timed` names each constraint that blocks now (its reason); `schedule` finds the next instant
  // none blocks, with the hours rules of each zone intersected into one week, and the holiday
  // rules of each zone into one calendar, so that the search stays short for a number that could
  // be in a dozen zones under a dozen states' rules.
  const timed: TimeConstraint[] = [];
  const schedule: Array<TimeConstraint['nextAllowed']> = [];
  const attempts: AttemptCount[] = [];
  const consentKind = inputs.consent?.kind ?? null;
  // Registry copies fresh now, and the last instant each stays fresh: a call that has to wait
  // past it waits for a fresh copy, not for the clock.
  const copyDeadlines: Array<{ at: number; reason: Omit<DialingReason, 'until'> }> = [];

  // What holds the contact or the enrollment, whatever the time.
  if (contact.blocked) lasting.push(ownReason('phone_blocked', "The phone is on the Account's block list"));
  if (contact.dnc) lasting.push(ownReason('contact_dnc', 'The contact asked not to be called (status dnc)'));
  for (const hold of enrollment?.holds ?? []) lasting.push(ownReason(hold, HOLD_MESSAGES[hold]));
  if (place.zones.length === 0)
    lasting.push(ownReason('no_time_zone', 'No time zone is known for the contact: its local time cannot be checked'));

  // Consent: the strongest kind any binding rule, or the policy, requires.
  const consentRules = rules.filter((r) => r.restriction.kind === 'consent');
  const required = consentRules.reduce<{ kind: ConsentKind; rule: CallingRule | null } | null>((strongest, rule) => {
    const kind = (rule.restriction as { consent: ConsentKind }).consent;
    return strongest && consentRank(strongest.kind) >= consentRank(kind) ? strongest : { kind, rule };
  }, null);
  if (policy.requireWrittenConsent && consentRank(required?.kind ?? null) < consentRank('express_written')) {
    if (consentRank(consentKind) < consentRank('express_written'))
      lasting.push(
        ownReason('consent_required', "The Account's calling policy requires prior express written consent"),
      );
  }
  if (required && consentRank(consentKind) < consentRank(required.kind)) {
    const rule = required.rule as CallingRule;
    lasting.push(
      lawReason(
        rule,
        'consent_required',
        `${rule.jurisdiction} requires ${KIND_WORDS[required.kind]} for this call${consentKind ? ` (the contact gave ${KIND_WORDS[consentKind]})` : ''}`,
      ),
    );
  }

  for (const rule of rules) {
    const r = rule.restriction;
    if (r.kind === 'registry') {
      if (consentRank(consentKind) >= consentRank(r.unlessConsent)) continue;
      const entry = inputs.registries[r.registry];
      const copyAt = entry?.copyDownloadedAt ?? null;
      if (!copyAt)
        lasting.push(
          lawReason(
            rule,
            'registry_copy_missing',
            `No copy of the ${r.registry} registry covers this number: import one (${DNC_REGISTRIES[r.registry]} numbers are not called without it)`,
          ),
        );
      else if (now.getTime() > copyStaleAfter(copyAt, r.maxCopyAgeDays))
        lasting.push(
          lawReason(
            rule,
            'registry_copy_stale',
            `The ${r.registry} registry copy was downloaded ${copyAt.toISOString().slice(0, 10)}, more than ${r.maxCopyAgeDays} days ago: import a fresh one`,
          ),
        );
      else if (entry?.listed)
        lasting.push(
          lawReason(
            rule,
            'registry_listed',
            `The number is on the ${r.registry} registry, and the contact has not given ${KIND_WORDS[r.unlessConsent]}`,
          ),
        );
      else
        copyDeadlines.push({
          at: copyStaleAfter(copyAt, r.maxCopyAgeDays),
          reason: lawReason(
            rule,
            'registry_copy_stale',
            `The ${r.registry} registry copy downloaded ${copyAt.toISOString().slice(0, 10)} will be more than ${r.maxCopyAgeDays} days old before this number may be called again: import a fresh one`,
          ),
        });
    } else if (r.kind === 'hours') {
      for (const zone of place.zones)
        timed.push({
          reason: lawReason(
            rule,
            'outside_legal_hours',
            `${rule.jurisdiction} allows calls only ${describeHours(r.hours)} (${zone})`,
          ),
          nextAllowed: (t) => nextWindowStart(r.hours, zone, new Date(t))?.getTime() ?? null,
        });
    } else if (r.kind === 'no_public_holidays') {
      for (const zone of place.zones)
        timed.push({
          reason: lawReason(rule, 'public_holiday', `${rule.jurisdiction} forbids calls on public holidays (${zone})`),
          nextAllowed: (t) => afterHolidays(rule.jurisdiction, place.jurisdictions, zone, t),
        });
    } else if (r.kind === 'attempt_cap') {
      if (r.unlessConsent && consentRank(consentKind) >= consentRank(r.unlessConsent)) continue;
      const cap = capConstraint(
        inputs.callsPlacedAt,
        now,
        r.max,
        r.periodHours,
        lawReason(
          rule,
          'attempt_cap_reached',
          `${rule.jurisdiction} allows at most ${r.max} calls in ${periodWords(r.periodHours)}`,
        ),
      );
      attempts.push({
        ruleId: rule.id,
        jurisdiction: rule.jurisdiction,
        max: r.max,
        periodHours: r.periodHours,
        counted: cap.counted,
        source: rule.source,
      });
      timed.push(cap.constraint);
      schedule.push(cap.constraint.nextAllowed);
    }
  }
  const hoursRules = rules.flatMap((rule) => (rule.restriction.kind === 'hours' ? [rule.restriction.hours] : []));
  if (hoursRules.length > 0) {
    const week = intersectWeeks(hoursRules);
    for (const zone of place.zones) schedule.push((t) => nextWindowStart(week, zone, new Date(t))?.getTime() ?? null);
  }
  const holidayRules = rules.filter((rule) => rule.restriction.kind === 'no_public_holidays');
  if (holidayRules.length > 0)
    for (const zone of place.zones)
      schedule.push((t) => {
        // Past every rule's holidays in this zone: each move is to a local midnight, so few rounds.
        let at = t;
        for (let round = 0; round < 64; round++) {
          const next = Math.max(
            ...holidayRules.map((rule) => afterHolidays(rule.jurisdiction, place.jurisdictions, zone, at)),
          );
          if (next === at) return at;
          at = next;
        }
        return at;
      });
  if (policy.attemptCap) {
    const { max, periodHours } = policy.attemptCap;
    const cap = capConstraint(
      inputs.callsPlacedAt,
      now,
      max,
      periodHours,
      ownReason(
        'attempt_cap_reached',
        `The Account's calling policy allows at most ${max} calls in ${periodWords(periodHours)}`,
      ),
    );
    attempts.push({ ruleId: null, jurisdiction: null, max, periodHours, counted: cap.counted, source: null });
    timed.push(cap.constraint);
    schedule.push(cap.constraint.nextAllowed);
  }

  if (enrollment) {
    if (enrollment.dueAt && enrollment.dueAt.getTime() > now.getTime()) {
      const due = enrollment.dueAt.getTime();
      const notDue: TimeConstraint = {
        reason: ownReason('not_due', 'The next attempt is not due yet (the retry delay)'),
        nextAllowed: (t) => Math.max(t, due),
      };
      timed.push(notDue);
      schedule.push(notDue.nextAllowed);
    }
    if (!enrollment.immediate && hasWorkingHours(enrollment.workingHours)) {
      const hours: TimeConstraint = {
        reason: ownReason('outside_working_hours', `Outside the agent's working hours (${enrollment.hoursTimeZone})`),
        nextAllowed: (t) =>
          nextWindowStart(enrollment.workingHours, enrollment.hoursTimeZone, new Date(t))?.getTime() ?? null,
      };
      timed.push(hours);
      schedule.push(hours.nextAllowed);
    }
  }

  const t0 = now.getTime();
  const reasons: DialingReason[] = [
    ...lasting.map((reason) => ({ ...reason, until: null })),
    ...timed.flatMap(({ reason, nextAllowed }) => {
      const next = nextAllowed(t0);
      return next === t0 ? [] : [{ ...reason, until: next === null ? null : new Date(next) }];
    }),
  ];
  const clockAllows = lasting.length > 0 ? null : reasons.length === 0 ? t0 : firstAllowed(schedule, t0);
  // Not callable now, and by the time the clock allows it a copy is stale: that lasts.
  const staleBy = clockAllows === null ? [] : copyDeadlines.filter((deadline) => clockAllows > deadline.at);
  for (const deadline of staleBy) reasons.push({ ...deadline.reason, until: null });
  const nextCallableAt = staleBy.length > 0 ? null : clockAllows;
  return {
    callableNow: reasons.length === 0,
    nextCallableAt: nextCallableAt === null ? null : new Date(nextCallableAt),
    reasons,
    timeZones: place.zones,
    jurisdictions: place.jurisdictions,
    ruleSetVersion: inputs.ruleSet.version,
    purpose: policy.purpose,
    ruleIds: rules.map((r) => r.id),
    attempts,
    consentUsed: inputs.consent && consentRank(inputs.consent.kind) >= 0 ? inputs.consent : null,
  };
}

/** The last instant a registry copy downloaded at `copyAt` is fresh enough to call against. */
function copyStaleAfter(copyAt: Date, maxCopyAgeDays: number): number {
  return copyAt.getTime() + maxCopyAgeDays * DAY;
}

/** The first instant >= t0 that every constraint allows, within the lookahead; null when none. */
function firstAllowed(constraints: ReadonlyArray<TimeConstraint['nextAllowed']>, t0: number): number | null {
  const limit = t0 + DIALING_LOOKAHEAD_DAYS * DAY;
  let t = t0;
  // Each round moves t to the latest "next allowed" instant; it stops when all allow t. Each
  // move skips at least one closed stretch of one constraint, so the rounds are few.
  for (let round = 0; round < 1000 && t <= limit; round++) {
    let next = t;
    for (const nextAllowed of constraints) {
      const allowed = nextAllowed(t);
      if (allowed === null) return null;
      next = Math.max(next, allowed);
    }
    if (next === t) return t;
    t = next;
  }
  return null;
}

/** An attempt cap: how many calls fall in the period now, and when a call is allowed again. */
function capConstraint(
  placed: readonly Date[],
  now: Date,
  max: number,
  periodHours: number,
  reason: Omit<DialingReason, 'until'>,
): { counted: number; constraint: TimeConstraint } {
  const period = periodHours * HOUR;
  const times = placed.map((d) => d.getTime()).sort((a, b) => b - a);
  const counted = times.filter((t) => t > now.getTime() - period).length;
  // With the calls newest first, fewer than `max` fall in (t - period, t] once t >= times[max-1] + period.
  const release = times.length >= max ? times[max - 1] + period : Number.NEGATIVE_INFINITY;
  return { counted, constraint: { reason, nextAllowed: (t) => Math.max(t, release) } };
}

/** `t` when its local date in `zone` is no public holiday of the rule, else the next local midnight that is not one. */
function afterHolidays(
  jurisdiction: string,
  contactJurisdictions: readonly string[],
  zoneName: string,
  t: number,
): number {
  const zone = zoneOf(zoneName);
  let date = localDate(zone, t);
  let moved = false;
  for (let i = 0; i < 31; i++) {
    if (!publicHolidayDates(jurisdiction, contactJurisdictions, date.year).has(dateKey(date))) break;
    date = addDays(date, 1);
    moved = true;
  }
  return moved ? localToInstant(zone, date, 0) : t;
}

/** The windows open in every one of these weeks: per weekday, the intersection of their windows. */
export function intersectWeeks(weeks: readonly WorkingHours[]): WorkingHours {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const time = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const result: WorkingHours = {};
  for (const day of WEEKDAYS) {
    let open: Array<[number, number]> = [[0, 1440]];
    for (const week of weeks) {
      const windows = (week[day] ?? []).map((w): [number, number] => [minutes(w.start), minutes(w.end)]);
      open = open.flatMap(([a, b]) =>
        windows.flatMap(
          ([c, d]): Array<[number, number]> =>
            Math.max(a, c) < Math.min(b, d) ? [[Math.max(a, c), Math.min(b, d)]] : [],
        ),
      );
    }
    if (open.length > 0)
      result[day] = open.sort((x, y) => x[0] - y[0]).map(([a, b]) => ({ start: time(a), end: time(b) }));
  }
  return result;
}

function periodWords(hours: number): string {
  return hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? '' : 's'}` : `${hours} hours`;
}

const DAY_WORDS: Record<Weekday, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};

/** "Mon–Fri 10:00–13:00, 14:00–20:00; Sat 10:00–18:00 local time": runs of days with the same windows. */
export function describeHours(hours: WorkingHours): string {
  const runs: Array<{ first: Weekday; last: Weekday; text: string }> = [];
  let previous: string | null = null;
  for (const day of WEEKDAYS) {
    const text = (hours[day] ?? []).map((w) => `${w.start}–${w.end}`).join(', ');
    if (text !== '' && text === previous) runs[runs.length - 1].last = day;
    else if (text !== '') runs.push({ first: day, last: day, text });
    previous = text;
  }
  if (runs.length === 0) return 'never';
  const days = (r: (typeof runs)[number]) =>
    r.first === r.last ? DAY_WORDS[r.first] : `${DAY_WORDS[r.first]}–${DAY_WORDS[r.last]}`;
  return `${runs.map((r) => `${days(r)} ${r.text}`).join('; ')} local time`;
}

const HOLD_MESSAGES: Record<EnrollmentHold, string> = {
  call_in_progress: 'A call to the contact is in progress',
  no_agent: "The workflow's agent was removed",
  workflow_not_published: 'The workflow is not published',
  workflow_paused: 'The workflow is paused',
  agent_not_live: 'The agent is not live',
  no_working_hours: 'The agent has no working hours',
  no_phone: 'The contact has no phone',
  contact_paused: 'The contact is paused',
};
