import { describe, expect, it } from 'vitest';
import {
  applyCallOutcome,
  forwardStatus,
  RESULT_STATUS,
  SERVICE_STATUS_ORDER,
} from '../../../src/domain/calls/call-outcome.rules.js';
import { CALL_RESULTS } from '../../../src/calls/telephony/telephony.port.js';
import type { ContactRow } from '../../../src/domain/contacts/contacts.rules.js';

const now = new Date('2026-11-22T12:00:00.000Z');
function contact(overrides: Partial<ContactRow> = {}): ContactRow {
  return {
    id: 'c',
    accountId: 'a',
    firstName: null,
    lastName: null,
    fullName: null,
    phone: '+14155552671',
    location: null,
    locationDefaulted: false,
    timezone: null,
    timezoneInferred: false,
    language: null,
    status: 'assigned',
    sourceKind: 'api',
    externalId: 'c',
    customFields: null,
    priority: 0,
    assignedWorkflowId: 'w',
    callCount: 0,
    maxAttempts: 3,
    lastCallAt: null,
    nextCallAt: null,
    createdAt: now,
    updatedAt: now,
    dedupKey: 'phone=+14155552671',
    phoneDigits: '14155552671',
    ...overrides,
  };
}

describe('call result → status', () => {
  it('maps every call result to a service status', () => {
    for (const result of CALL_RESULTS) expect(SERVICE_STATUS_ORDER).toContain(RESULT_STATUS[result]);
  });

  it.each([
    ['busy', 'not_answered'],
    ['human_busy', 'not_answered'],
    ['no_answer', 'not_answered'],
    ['voicemail', 'not_answered'],
    ['ivr', 'not_answered'],
    ['unknown', 'not_answered'],
    ['new', 'not_answered'],
    ['invalid_number', 'not_reached'],
    ['wrong_number', 'not_reached'],
    ['carrier_blocked', 'not_reached'],
    ['answered', 'reached'],
    ['contact_verified', 'reached'],
    ['identified', 'reached'],
    ['callback_requested', 'reached'],
    ['neutral_value_call', 'reached'],
    ['disqualified', 'disqualified'],
    ['wrong_language', 'disqualified'],
    ['not_interested', 'disqualified'],
    ['qualified', 'qualified'],
    ['converted', 'converted'],
    ['do_not_call', 'dnc'],
  ] as const)('%s moves an assigned contact to %s', (result, status) => {
    expect(
      applyCallOutcome(contact(), { startedAt: now, result, language: null, nextAttemptAt: null }, now).contact.status,
    ).toBe(status);
  });

  it('never moves a status backwards, keeps paused, and lifts legacy or no status', () => {
    expect(forwardStatus('qualified', 'reached')).toBe('qualified');
    expect(forwardStatus('reached', 'not_answered')).toBe('reached');
    expect(forwardStatus('dnc', 'converted')).toBe('dnc');
    expect(forwardStatus('paused', 'reached')).toBe('paused');
    expect(forwardStatus(null, 'not_answered')).toBe('not_answered');
    expect(forwardStatus('answered', 'not_reached')).toBe('not_reached');
  });
});

describe('applyCallOutcome', () => {
  it('counts a call, sets lastCallAt and nextCallAt', () => {
    const startedAt = new Date('2026-11-22T11:00:00.000Z');
    const nextAttemptAt = new Date('2026-11-22T13:00:00.000Z');
    const { contact: c, counted } = applyCallOutcome(
      contact({ callCount: 1 }),
      { startedAt, result: 'no_answer', language: 'fr-FR', nextAttemptAt },
      now,
    );
    expect(counted).toBe(true);
    expect(c).toMatchObject({
      callCount: 2,
      lastCallAt: startedAt,
      nextCallAt: nextAttemptAt,
      language: null,
      updatedAt: now,
    });
  });

  it('sets the language of an answered call, normalized', () => {
    expect(
      applyCallOutcome(
        contact({ language: 'en-US' }),
        { startedAt: now, result: 'answered', language: 'es-AR', nextAttemptAt: null },
        now,
      ).contact.language,
    ).toBe('es-419');
    expect(
      applyCallOutcome(
        contact({ language: 'en-US' }),
        { startedAt: now, result: 'answered', language: 'Klingon', nextAttemptAt: null },
        now,
      ).contact.language,
    ).toBe('en-US');
  });

  it('does not count a call that started at or before lastCallAt, but still moves the status forward', () => {
    const lastCallAt = new Date('2026-11-22T11:00:00.000Z');
    const nextCallAt = new Date('2026-11-22T15:00:00.000Z');
    const before = contact({ lastCallAt, nextCallAt, callCount: 2, language: 'en-US', status: 'not_answered' });
    for (const startedAt of [lastCallAt, new Date('2026-11-22T10:00:00.000Z')]) {
      const { contact: c, counted } = applyCallOutcome(
        before,
        { startedAt, result: 'converted', language: 'de-DE', nextAttemptAt: null },
        now,
      );
      expect(counted).toBe(false);
      expect(c).toMatchObject({ callCount: 2, lastCallAt, nextCallAt, language: 'en-US', status: 'converted' });
    }
  });

  it('clears nextCallAt on a do-not-call result, counted or not', () => {
    const lastCallAt = new Date('2026-11-22T11:00:00.000Z');
    const late = applyCallOutcome(
      contact({ lastCallAt, nextCallAt: now }),
      { startedAt: lastCallAt, result: 'do_not_call', language: null, nextAttemptAt: null },
      now,
    );
    expect(late.contact).toMatchObject({ nextCallAt: null, status: 'dnc' });
    const fresh = applyCallOutcome(
      contact(),
      { startedAt: now, result: 'do_not_call', language: null, nextAttemptAt: new Date() },
      now,
    );
    expect(fresh.contact).toMatchObject({ nextCallAt: null, status: 'dnc', callCount: 1 });
  });
});
