// The calling rule set's data (src/domain/calling-rules/rule-set.data.ts) is well formed: ids
// unique, jurisdictions real ISO 3166 codes, dates real calendar days, hours valid working hours,
// caps and registry ages positive integers, and every rule listed in docs/calling-rules-us.md and docs/calling-rules-international.md.
// Nothing here depends on today's date.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { iso31661, iso31662 } from 'iso-3166';
import { describe, expect, it } from 'vitest';
import { WorkingHoursSchema } from '../../../src/domain/calls/calling-hours.inputs.js';
import {
  CALL_PURPOSES,
  CONSENT_KINDS,
  type CallingRule,
  DNC_REGISTRIES,
} from '../../../src/domain/calling-rules/calling-rule.types.js';
import { CALLING_RULE_SET } from '../../../src/domain/calling-rules/rule-set.data.js';

const rules: readonly CallingRule[] = CALLING_RULE_SET.rules;
const countries = new Set(iso31661.map((c) => c.alpha2));
const subdivisions = new Set(iso31662.map((s) => s.code));
const table = ['calling-rules-us.md', 'calling-rules-international.md']
  .map((file) => readFileSync(fileURLToPath(new URL(`../../../docs/${file}`, import.meta.url)), 'utf8'))
  .join('\n');

/** YYYY-MM-DD naming a day that exists in the proleptic Gregorian calendar. */
function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const positiveInteger = (n: number) => Number.isInteger(n) && n > 0;

describe('calling rule set data', () => {
  it('has a version of the form YYYY-MM-DD.N naming a real day', () => {
    const match = /^(\d{4}-\d{2}-\d{2})\.([1-9]\d*)$/.exec(CALLING_RULE_SET.version);
    expect(match).not.toBeNull();
    expect(isCalendarDay(match![1])).toBe(true);
  });

  it('has rules, each with a unique id of lowercase words', () => {
    expect(rules.length).toBeGreaterThan(0);
    const ids = rules.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z]{2}(-[a-z0-9]+)+$/);
  });

  it('names a valid ISO 3166 country or subdivision for every rule, and ids start with it', () => {
    for (const rule of rules) {
      const valid = rule.jurisdiction.includes('-')
        ? subdivisions.has(rule.jurisdiction) && countries.has(rule.jurisdiction.split('-')[0])
        : countries.has(rule.jurisdiction);
      expect(valid, `${rule.id}: ${rule.jurisdiction}`).toBe(true);
      expect(rule.id.startsWith(`${rule.jurisdiction.toLowerCase()}-`), rule.id).toBe(true);
    }
  });

  it('binds known purposes, at least one, without repeats', () => {
    for (const rule of rules) {
      expect(rule.purposes.length, rule.id).toBeGreaterThan(0);
      expect(new Set(rule.purposes).size, rule.id).toBe(rule.purposes.length);
      for (const purpose of rule.purposes) expect(CALL_PURPOSES, rule.id).toContain(purpose);
    }
  });

  it('gives every rule a source and an effectiveFrom that is a real calendar day', () => {
    for (const rule of rules) {
      expect(rule.source.trim().length, rule.id).toBeGreaterThan(0);
      expect(isCalendarDay(rule.effectiveFrom), `${rule.id}: ${rule.effectiveFrom}`).toBe(true);
      if (rule.note !== undefined) expect(rule.note.trim().length, rule.id).toBeGreaterThan(0);
    }
  });

  it('recognises the calendar check itself', () => {
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2023-02-29')).toBe(false);
    expect(isCalendarDay('2023-13-01')).toBe(false);
    expect(isCalendarDay('2023-1-01')).toBe(false);
  });

  it('has valid working hours with at least one window in every hours rule', () => {
    const hoursRules = rules.filter((r) => r.restriction.kind === 'hours');
    expect(hoursRules.length).toBeGreaterThan(0);
    for (const rule of hoursRules) {
      if (rule.restriction.kind !== 'hours') continue;
      const parsed = WorkingHoursSchema.safeParse(rule.restriction.hours);
      expect(parsed.success, `${rule.id}: ${parsed.error?.message ?? ''}`).toBe(true);
      const windows = Object.values(rule.restriction.hours).flat();
      expect(windows.length, rule.id).toBeGreaterThan(0);
    }
  });

  it('has positive integer caps and registry ages, and known consent kinds and registries', () => {
    for (const rule of rules) {
      const r = rule.restriction;
      if (r.kind === 'attempt_cap') {
        expect(positiveInteger(r.max), rule.id).toBe(true);
        expect(positiveInteger(r.periodHours), rule.id).toBe(true);
        if (r.unlessConsent !== undefined) expect(CONSENT_KINDS, rule.id).toContain(r.unlessConsent);
      } else if (r.kind === 'consent') {
        expect(CONSENT_KINDS, rule.id).toContain(r.consent);
      } else if (r.kind === 'registry') {
        expect(positiveInteger(r.maxCopyAgeDays), rule.id).toBe(true);
        expect(CONSENT_KINDS, rule.id).toContain(r.unlessConsent);
        expect(Object.keys(DNC_REGISTRIES), rule.id).toContain(r.registry);
        // A registry belongs to one country: its rules are that country's.
        expect(rule.jurisdiction.split('-')[0], rule.id).toBe(DNC_REGISTRIES[r.registry]);
      }
    }
  });

  it('lists every rule id in docs/calling-rules-us.md and docs/calling-rules-international.md', () => {
    const missing = rules.map((r) => r.id).filter((id) => !table.includes(`\`${id}\``));
    expect(missing).toEqual([]);
  });
});
