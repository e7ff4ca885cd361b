// An oracle of the calling rules, written apart from src/domain/calling-rules/dialing-decision.rules.ts:
// local time read with Intl's own formatter, windows compared as "HH:MM" text, caps counted
// directly. The property test (test/unit/calling-rules/) and the dialing simulation
// (test/api/calling-rules-simulation.test.ts) both judge the service against it. It uses the
// service's rule set, zone lookup and holiday calendar (the data), never its decision (the logic).
import type { WorkingHours } from '../../src/domain/calls/calling-hours.inputs.js';
import type { CallingRule, ConsentKind } from '../../src/domain/calling-rules/calling-rule.types.js';
import type { DialingInputs } from '../../src/domain/calling-rules/dialing-decision.rules.js';
import { publicHolidayDates } from '../../src/domain/calling-rules/public-holidays.js';
import { bindingRules } from '../../src/domain/calling-rules/rule-set.js';
import { whereabouts } from '../../src/domain/calling-rules/whereabouts.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const WEEKDAY_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

const formats = new Map<string, Intl.DateTimeFormat>();
/** The wall clock in a zone, read with Intl's own formatter: weekday key, "HH:MM", YYYY-MM-DD. */
export function wall(zone: string, t: number) {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(zone, format);
  }
  const p = Object.fromEntries(format.formatToParts(t).map((x) => [x.type, x.value]));
  const weekday = WEEKDAY_KEYS[['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday)];
  return { weekday, time: `${p.hour}:${p.minute}`, date: `${p.year}-${p.month}-${p.day}` };
}

/** Inside the week's windows, as text: start <= HH:MM < end. */
export function inHours(hours: WorkingHours, zone: string, t: number): boolean {
  const { weekday, time } = wall(zone, t);
  return (hours[weekday] ?? []).some((w) => w.start <= time && (w.end === '24:00' || time < w.end));
}

const rank = (kind: ConsentKind | null) => (kind === null ? -1 : kind === 'express' ? 0 : 1);

/** Every rule or condition that forbids a call at `t` (the oracle's reasons), given the inputs. */
export function oracleBlocks(i: DialingInputs, t: number): string[] {
  const place = whereabouts(i.contact);
  const rules: CallingRule[] = bindingRules({
    ruleSet: i.ruleSet,
    jurisdictions: place.jurisdictions,
    regionUnknownIn: place.regionUnknownIn,
    purpose: i.policy.purpose,
    disabledJurisdictions: i.policy.disabledJurisdictions,
    at: i.now,
  });
  const consent = i.consent?.kind ?? null;
  const blocks: string[] = [];
  if (place.zones.length === 0) blocks.push('no zone');
  if (i.policy.requireWrittenConsent && rank(consent) < 1) blocks.push('policy consent');
  const count = (periodHours: number) =>
    i.callsPlacedAt.filter((c) => c.getTime() > t - periodHours * HOUR && c.getTime() <= t).length;
  for (const rule of rules) {
    const r = rule.restriction;
    if (r.kind === 'consent' && rank(consent) < rank(r.consent)) blocks.push(`${rule.id}`);
    if (r.kind === 'hours')
      for (const zone of place.zones) if (!inHours(r.hours, zone, t)) blocks.push(`${rule.id} ${zone}`);
    if (r.kind === 'no_public_holidays')
      for (const zone of place.zones) {
        const { date } = wall(zone, t);
        if (publicHolidayDates(rule.jurisdiction, place.jurisdictions, Number(date.slice(0, 4))).has(date))
          blocks.push(`${rule.id} ${zone}`);
      }
    if (r.kind === 'attempt_cap' && !(r.unlessConsent && rank(consent) >= rank(r.unlessConsent)))
      if (count(r.periodHours) >= r.max) blocks.push(rule.id);
    if (r.kind === 'registry' && rank(consent) < rank(r.unlessConsent)) {
      const entry = i.registries[r.registry];
      const copy = entry?.copyDownloadedAt?.getTime() ?? null;
      if (copy === null || t - copy > r.maxCopyAgeDays * DAY || entry?.listed) blocks.push(rule.id);
    }
  }
  if (i.policy.attemptCap && count(i.policy.attemptCap.periodHours) >= i.policy.attemptCap.max)
    blocks.push('policy cap');
  const e = i.enrollment;
  if (e && !e.immediate && !inHours(e.workingHours, e.hoursTimeZone, t)) blocks.push('working hours');
  return blocks;
}
