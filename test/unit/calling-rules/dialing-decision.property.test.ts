// Properties of the dialing decision (src/domain/calling-rules/dialing-decision.rules.ts), checked
// by fast-check over random instants (DST changes included), contacts across the rule set's
// jurisdictions, consents, calls already placed, policies and enrollments, against an oracle
// written here independently: local time read with Intl's own formatter, windows compared as
// "HH:MM" text, caps counted directly.
//   1. A decision that says "callable now" breaks no binding rule at that instant.
//   2. nextCallableAt is callable (the oracle agrees, and so does the decision made then), and no
//      instant sampled before it is (it is the first).
//   3. A decision that says "not callable now" names a reason, and the oracle agrees a rule blocks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WorkingHours } from '../../../src/domain/calls/calling-hours.inputs.js';
import type { CallingRuleSet, ConsentKind } from '../../../src/domain/calling-rules/calling-rule.types.js';
import {
  decideDialing,
  type DialingInputs,
  type EnrollmentInputs,
} from '../../../src/domain/calling-rules/dialing-decision.rules.js';
import { RULE_SET } from '../../../src/domain/calling-rules/rule-set.js';
import { oracleBlocks } from '../../support/dialing-oracle.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Numbers across the rule set's jurisdictions: US states with their own rules, split zones, Canada, and abroad. */
const PHONES = [
  '+13125550143', // Illinois
  '+13055550143', // Florida
  '+18505550143', // Florida panhandle: Eastern and Central
  '+14055550143', // Oklahoma
  '+14105550143', // Maryland
  '+12075550143', // Maine
  '+14015550143', // Rhode Island
  '+15045550143', // Louisiana
  '+12055550143', // Alabama
  '+16015550143', // Mississippi
  '+18015550143', // Utah
  '+15125550143', // Texas
  '+12065550143', // Washington
  '+14155550143', // California
  '+19075550143', // Alaska: two zones
  '+18085550143', // Hawaii
  '+12015550143', // New Jersey and New York
  '+18005550143', // toll free: anywhere in the US
  '+14165550143', // Ontario
  '+19025550143', // Nova Scotia and Prince Edward Island
  '+33612345678', // France
  '+4915123456789', // Germany
  '+34612345678', // Spain
  '+447400123456', // United Kingdom (+44 7911 is Guernsey's)
  '+525512345678', // Mexico City
  '+972587654321', // Israel
];
const LOCATIONS = [null, null, 'US-CA', 'US-FL', 'US-TX', 'US-AZ', 'FR', 'ES-MD', 'CA-QC', 'GB'];
const ZONES = [null, null, null, 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Europe/Paris'];

/** Instants near DST changes in the zones above (US, EU), and plain ones over two years. */
const DST_CHANGES = [
  '2026-03-08T08:00:00Z',
  '2026-11-01T06:00:00Z',
  '2026-03-29T01:00:00Z',
  '2026-10-25T01:00:00Z',
  '2027-03-14T08:00:00Z',
  '2027-11-07T06:00:00Z',
].map((d) => Date.parse(d));
const instant = fc.oneof(
  fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-12-31T00:00:00Z') }),
  fc.tuple(fc.constantFrom(...DST_CHANGES), fc.integer({ min: -36 * HOUR, max: 36 * HOUR })).map(([d, o]) => d + o),
);

/** Working hours of whole half hours between 06:00 and 23:00 on some days (none inside a DST gap). */
const halfHour = (n: number) => `${String(Math.floor(n / 2)).padStart(2, '0')}:${n % 2 ? '30' : '00'}`;
const workingHours: fc.Arbitrary<WorkingHours> = fc
  .tuple(
    fc.subarray(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const, { minLength: 1 }),
    fc.integer({ min: 12, max: 40 }),
    fc.integer({ min: 1, max: 6 }),
  )
  .map(([days, start, length]) => {
    const window = [{ start: halfHour(start), end: halfHour(Math.min(46, start + length * 2)) }];
    return Object.fromEntries(days.map((d) => [d, window]));
  });

const enrollment: fc.Arbitrary<EnrollmentInputs | null> = fc.option(
  fc.record({
    workflowId: fc.constant('00000000-0000-4000-8000-000000000001'),
    workingHours,
    hoursTimeZone: fc.constantFrom('America/Chicago', 'America/New_York', 'Europe/Paris'),
    immediate: fc.boolean(),
    dueAt: fc.constant(null),
    holds: fc.constant([]),
  }),
  { nil: null },
);

/** The rule set, or a random part of it (so rules meet in every combination). */
const ruleSet: fc.Arbitrary<CallingRuleSet> = fc.oneof(
  fc.constant(RULE_SET),
  fc.subarray([...RULE_SET.rules]).map((rules) => ({ version: 'test', rules })),
);

const inputs = fc
  .record({
    now: instant,
    ruleSet,
    purpose: fc.constantFrom('telemarketing' as const, 'informational' as const),
    requireWrittenConsent: fc.boolean(),
    disabled: fc.subarray(['US-FL', 'FR', 'US', 'CA'], { maxLength: 2 }),
    attemptCap: fc.option(fc.record({ max: fc.integer({ min: 1, max: 4 }), periodHours: fc.constantFrom(1, 24, 72) }), {
      nil: null,
    }),
    phone: fc.constantFrom(...PHONES),
    location: fc.constantFrom(...LOCATIONS),
    timezone: fc.constantFrom(...ZONES),
    consent: fc.constantFrom<ConsentKind | null>(null, 'express', 'express_written'),
    registryListed: fc.boolean(),
    registryAgeDays: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
    callsAgoMinutes: fc.array(fc.integer({ min: 1, max: 60 * 24 * 35 }), { maxLength: 6 }),
    enrollment,
  })
  .map(
    (r): DialingInputs => ({
      now: new Date(r.now),
      ruleSet: r.ruleSet,
      policy: {
        purpose: r.purpose,
        requireWrittenConsent: r.requireWrittenConsent,
        disabledJurisdictions: r.disabled,
        attemptCap: r.attemptCap,
      },
      contact: { phone: r.phone, location: r.location, timezone: r.timezone, dnc: false, blocked: false },
      consent: r.consent ? { id: '00000000-0000-4000-8000-0000000000c1', kind: r.consent } : null,
      registries: Object.fromEntries(
        ['us_national', 'ca_national', 'fr_bloctel', 'gb_tps', 'es_robinson', 'mx_repep', 'il_do_not_call'].map(
          (registry) => [
            registry,
            {
              listed: r.registryListed,
              copyDownloadedAt: r.registryAgeDays === null ? null : new Date(r.now - r.registryAgeDays * DAY),
            },
          ],
        ),
      ),
      callsPlacedAt: r.callsAgoMinutes.map((m) => new Date(r.now - m * 60_000)),
      enrollment: r.enrollment,
    }),
  );

describe('the dialing decision', () => {
  it('never says "callable now" when a rule forbids the call at that instant', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        const decision = decideDialing(i);
        const blocks = oracleBlocks(i, i.now.getTime());
        expect(decision.callableNow, `blocked by ${blocks.join(', ')}`).toBe(blocks.length === 0);
        if (!decision.callableNow) expect(decision.reasons.length).toBeGreaterThan(0);
      }),
      { numRuns: 600 },
    );
  }, 120_000);

  it('nextCallableAt is the first instant the oracle allows, and the decision made then agrees', () => {
    fc.assert(
      fc.property(
        inputs,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }),
        (i, samples) => {
          const decision = decideDialing(i);
          const next = decision.nextCallableAt?.getTime() ?? null;
          if (next === null) {
            // Null only when a reason lasts until someone acts, or no instant within the lookahead is open.
            const lasting = decision.reasons.some((r) => r.until === null);
            if (!lasting) {
              for (let t = i.now.getTime(); t < i.now.getTime() + 45 * DAY; t += 3 * HOUR)
                expect(oracleBlocks(i, t), new Date(t).toISOString()).not.toEqual([]);
            }
            return;
          }
          expect(next).toBeGreaterThanOrEqual(i.now.getTime());
          expect(oracleBlocks(i, next), new Date(next).toISOString()).toEqual([]);
          expect(decideDialing({ ...i, now: new Date(next) }).callableNow).toBe(true);
          // Whole minutes before it (sampled, and the minute before): each is blocked.
          for (const s of [...samples, 1]) {
            const t =
              i.now.getTime() + Math.floor(((next - i.now.getTime()) * s) / 60_000) * 60_000 - (s === 1 ? 60_000 : 0);
            if (t >= i.now.getTime() && t < next) expect(oracleBlocks(i, t), new Date(t).toISOString()).not.toEqual([]);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 240_000);

  it('calls a first attempt at once (enforceCallNow) only inside the law: outside the working hours, never outside the law', () => {
    const chicagoNight = new Date('2026-11-30T05:00:00Z'); // Sunday 23:00 in Chicago
    const i: DialingInputs = {
      now: chicagoNight,
      ruleSet: RULE_SET,
      policy: { purpose: 'telemarketing', requireWrittenConsent: false, disabledJurisdictions: [], attemptCap: null },
      contact: { phone: '+13125550143', location: null, timezone: null, dnc: false, blocked: false },
      consent: { id: '00000000-0000-4000-8000-0000000000c1', kind: 'express_written' },
      registries: {},
      callsPlacedAt: [],
      enrollment: {
        workflowId: '00000000-0000-4000-8000-000000000001',
        workingHours: { mon: [{ start: '09:00', end: '17:00' }] },
        hoursTimeZone: 'America/Chicago',
        immediate: true,
        dueAt: null,
        holds: [],
      },
    };
    const night = decideDialing(i);
    expect(night.callableNow).toBe(false);
    expect(night.reasons.map((r) => r.ruleId)).toContain('us-il-adad-hours');
    expect(night.reasons.map((r) => r.code)).not.toContain('outside_working_hours');
    // 09:00 in Chicago: Illinois allows autodialed sales calls from 09:00, the federal rule from 08:00.
    expect(night.nextCallableAt?.toISOString()).toBe('2026-11-30T15:00:00.000Z');
  });

  it('waits for a fresh registry copy, not the clock, when the copy goes stale before the contact may be called again', () => {
    // Found by the property above (US spring-forward, one call a minute ago, one call per 72 hours).
    const now = new Date('2026-03-08T08:00:00Z');
    const usDnc = RULE_SET.rules.find((r) => r.id === 'us-dnc');
    if (!usDnc) throw new Error('the rule set has no us-dnc rule');
    const i: DialingInputs = {
      now,
      ruleSet: { version: 'test', rules: [usDnc] },
      policy: {
        purpose: 'telemarketing',
        requireWrittenConsent: false,
        disabledJurisdictions: [],
        attemptCap: { max: 1, periodHours: 72 },
      },
      contact: { phone: '+13125550143', location: null, timezone: null, dnc: false, blocked: false },
      consent: null,
      registries: { us_national: { listed: false, copyDownloadedAt: new Date('2026-02-07T08:00:00Z') } },
      callsPlacedAt: [new Date('2026-03-08T07:59:00Z')],
      enrollment: null,
    };
    const decision = decideDialing(i);
    expect(decision.callableNow).toBe(false);
    // The cap ends 2026-03-11 07:59; the copy is 31 days old at 2026-03-10 08:00.
    expect(decision.reasons.map((r) => [r.code, r.until?.toISOString() ?? null])).toEqual([
      ['attempt_cap_reached', '2026-03-11T07:59:00.000Z'],
      ['registry_copy_stale', null],
    ]);
    expect(decision.nextCallableAt).toBeNull();
    // With a copy downloaded a day later it stays fresh past the cap: the cap alone decides.
    const fresher = decideDialing({
      ...i,
      registries: { us_national: { listed: false, copyDownloadedAt: new Date('2026-02-09T08:00:00Z') } },
    });
    expect(fresher.nextCallableAt?.toISOString()).toBe('2026-03-11T07:59:00.000Z');
  });

  it('takes the intersection of every zone the person may be in: a New York number in California is called 11:00–21:00 Eastern', () => {
    const decision = decideDialing({
      now: new Date('2026-12-01T14:30:00Z'), // Tuesday 09:30 New York, 06:30 Los Angeles
      ruleSet: RULE_SET,
      policy: { purpose: 'telemarketing', requireWrittenConsent: false, disabledJurisdictions: [], attemptCap: null },
      contact: { phone: '+12125550143', location: 'US-CA', timezone: null, dnc: false, blocked: false },
      consent: { id: '00000000-0000-4000-8000-0000000000c1', kind: 'express_written' },
      registries: {},
      callsPlacedAt: [],
      enrollment: null,
    });
    expect(decision.timeZones).toEqual(['America/Los_Angeles', 'America/New_York']);
    expect(decision.callableNow).toBe(false);
    // California's 09:00 (autodialer rule) in Los Angeles is 12:00 in New York.
    expect(decision.nextCallableAt?.toISOString()).toBe('2026-12-01T17:00:00.000Z');
  });
});
