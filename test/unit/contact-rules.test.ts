// The contact field rules as pure functions: prepare (normalize, dedup key) then apply.
import { describe, expect, it } from 'vitest';
import {
  applyContactWrite,
  prepareContactWrite,
  mergeCustomFields,
  type AccountRules,
  type ContactRow,
  type WriteMode,
} from '../../src/domain/contacts/contacts.rules.js';
import { buildDedupKey } from '../../src/domain/contacts/dedup.rules.js';
import type { ContactWrite } from '../../src/domain/contacts/contacts.inputs.js';

const account: AccountRules = {
  id: '00000000-0000-4000-8000-000000000001',
  defaultLocation: null,
  dedupFields: ['phone'],
};
const now = new Date('2026-11-22T10:00:00.000Z');

function write(input: ContactWrite, rules: AccountRules = account) {
  const prepared = prepareContactWrite(input, rules);
  if (!prepared.ok) throw new Error(prepared.reason);
  return prepared.write;
}

function create(input: ContactWrite, rules: AccountRules = account, phoneBlocked = false): ContactRow {
  return applyContactWrite(null, write(input, rules), { account: rules, mode: 'import', phoneBlocked, now });
}

function update(
  stored: ContactRow,
  input: ContactWrite,
  mode: WriteMode = 'import',
  rules: AccountRules = account,
  phoneBlocked = false,
): ContactRow {
  const prepared = prepareContactWrite(input, rules, { keyFields: mode === 'import' ? undefined : null });
  if (!prepared.ok) throw new Error(prepared.reason);
  return applyContactWrite(stored, prepared.write, {
    account: rules,
    mode,
    phoneBlocked,
    now: new Date(now.getTime() + 1000),
  });
}

const PHONE = '+14155552671';

describe('prepareContactWrite', () => {
  it.each([
    ['(415) 555-2671', 'US', PHONE],
    ['415.555.2671', 'US', PHONE],
    ['+44 (0) 20 7946 0958', null, '+442079460958'],
    ['00 44 20 7946 0958', 'US', '+442079460958'],
    ['020 7946 0958', 'GB', '+442079460958'],
  ])('normalizes phone %s (default location %s) to %s', (phone, location, e164) => {
    expect(write({ phone }, { ...account, defaultLocation: location }).phone).toBe(e164);
  });

  it('takes the default country from the location sent with the contact first', () => {
    expect(
      write({ phone: '020 7946 0958', location: 'United Kingdom' }, { ...account, defaultLocation: 'US' }).phone,
    ).toBe('+442079460958');
  });

  it.each([['+1 415 555'], ['12'], ['+999 1234567']])('rejects %s as invalid_phone', (phone) => {
    expect(prepareContactWrite({ phone }, account)).toEqual({ ok: false, reason: 'invalid_phone' });
  });

  it('reports missing_dedup_field when none of the dedup fields is present', () => {
    expect(prepareContactWrite({ firstName: 'A' }, account)).toEqual({ ok: false, reason: 'missing_dedup_field' });
    expect(prepareContactWrite({ phone: null }, account)).toEqual({ ok: false, reason: 'missing_dedup_field' });
  });

  it('reports dedup_key_too_long beyond 512 characters', () => {
    const rules = { ...account, dedupFields: ['customFields.k'] };
    expect(prepareContactWrite({ customFields: { k: 'x'.repeat(600) } }, rules)).toEqual({
      ok: false,
      reason: 'dedup_key_too_long',
    });
    expect(prepareContactWrite({ customFields: { k: 'x'.repeat(100) } }, rules).ok).toBe(true);
  });

  it('keys externalId dedup on sourceKind + externalId, and a null externalId on the new id', () => {
    const rules = { ...account, dedupFields: ['externalId'] };
    const a = write({ sourceKind: 'hubspot', externalId: 'X1' }, rules);
    const b = write({ sourceKind: 'salesforce', externalId: 'X1' }, rules);
    expect(a.dedup).not.toEqual(b.dedup);
    const own = write({ sourceKind: 'api', externalId: null }, rules);
    expect(own.dedup.ok && own.dedup.key).toContain(own.newId);
  });

  it('ignores an unknown time zone and an unreadable language (as if not sent)', () => {
    const w = write({ phone: PHONE, timezone: 'Mars/Olympus', language: 'Klingon' });
    expect('timezone' in w).toBe(false);
    expect('language' in w).toBe(false);
  });
});

describe('names', () => {
  it('splits a full name sent alone, dropping titles, middle names and suffixes', () => {
    const c = create({ phone: PHONE, fullName: 'Dr. John Michael Smith Jr.' });
    expect([c.firstName, c.lastName, c.fullName]).toEqual(['John', 'Smith', 'Dr. John Michael Smith Jr.']);
  });

  it('fills the missing one of first/last from the full name', () => {
    const c = create({ phone: PHONE, fullName: 'Ada Lovelace', firstName: 'Ada' });
    expect([c.firstName, c.lastName]).toEqual(['Ada', 'Lovelace']);
    const d = create({ phone: PHONE, fullName: 'Ada Lovelace', lastName: 'Lovelace' });
    expect([d.firstName, d.lastName]).toEqual(['Ada', 'Lovelace']);
  });

  it('joins first and last when no full name is sent, and rebuilds it when either changes', () => {
    const c = create({ phone: PHONE, firstName: 'Ada', lastName: 'Lovelace' });
    expect(c.fullName).toBe('Ada Lovelace');
    expect(update(c, { phone: PHONE, firstName: 'Augusta' }).fullName).toBe('Augusta Lovelace');
    expect(update(c, { phone: PHONE, priority: 3 }).fullName).toBe('Ada Lovelace');
    expect(create({ phone: PHONE }).fullName).toBeNull();
  });
});

describe('status', () => {
  it('starts as not_assigned when omitted and with no status when null', () => {
    expect(create({ phone: PHONE }).status).toBe('not_assigned');
    expect(create({ phone: PHONE, status: null }).status).toBeNull();
    expect(create({ phone: PHONE, status: 'paused' }).status).toBe('paused');
  });

  it('keeps the stored status when omitted or null, replaces it when sent', () => {
    const c = create({ phone: PHONE, status: 'reached' });
    expect(update(c, { phone: PHONE }).status).toBe('reached');
    expect(update(c, { phone: PHONE, status: null }).status).toBe('reached');
    expect(update(c, { phone: PHONE, status: 'paused' }).status).toBe('paused');
  });

  it('stores dnc for a blocked phone whatever status is sent', () => {
    expect(create({ phone: PHONE, status: 'qualified' }, account, true).status).toBe('dnc');
    expect(update(create({ phone: PHONE }), { phone: PHONE, status: 'paused' }, 'import', account, true).status).toBe(
      'dnc',
    );
  });
});

describe('location', () => {
  it('reads codes and names, and takes the Account default when empty, unreadable or null', () => {
    const rules = { ...account, defaultLocation: 'US' };
    expect(create({ phone: PHONE, location: 'us-ca' }, rules)).toMatchObject({
      location: 'US-CA',
      locationDefaulted: false,
    });
    expect(create({ phone: PHONE, location: 'Deutschland' }, rules)).toMatchObject({
      location: 'DE',
      locationDefaulted: false,
    });
    expect(create({ phone: PHONE, location: 'Atlantis' }, rules)).toMatchObject({
      location: 'US',
      locationDefaulted: true,
    });
    expect(create({ phone: PHONE, location: null }, rules)).toMatchObject({ location: 'US', locationDefaulted: true });
    expect(create({ phone: PHONE }, account)).toMatchObject({ location: null, locationDefaulted: false });
  });

  it('follows the Account default on each write while defaulted, and keeps a given one', () => {
    const defaulted = create({ phone: PHONE }, { ...account, defaultLocation: 'US' });
    const moved = update(defaulted, { phone: PHONE }, 'import', { ...account, defaultLocation: 'CA' });
    expect(moved).toMatchObject({ location: 'CA', locationDefaulted: true });
    const given = create({ phone: PHONE, location: 'GB' }, { ...account, defaultLocation: 'US' });
    expect(update(given, { phone: PHONE }, 'import', { ...account, defaultLocation: 'CA' })).toMatchObject({
      location: 'GB',
      locationDefaulted: false,
    });
  });
});

describe('timezone', () => {
  it('keeps an explicit zone and infers otherwise, again on each write', () => {
    const explicit = create({ phone: PHONE, timezone: 'Europe/Paris' });
    expect(explicit).toMatchObject({ timezone: 'Europe/Paris', timezoneInferred: false });
    expect(update(explicit, { phone: PHONE, location: 'GB' })).toMatchObject({
      timezone: 'Europe/Paris',
      timezoneInferred: false,
    });

    const inferred = create({ phone: PHONE });
    expect(inferred).toMatchObject({ timezone: 'America/Los_Angeles', timezoneInferred: true });
    const moved = update(inferred, { phone: PHONE, location: 'US-NY' });
    expect(moved).toMatchObject({ timezone: 'America/New_York', timezoneInferred: true });
    const cleared = update(explicit, { phone: PHONE, timezone: null });
    expect(cleared).toMatchObject({ timezone: 'America/Los_Angeles', timezoneInferred: true });
  });

  it('is null and not inferred when nothing gives a single zone', () => {
    expect(create({ phone: '+19075550100' })).toMatchObject({ timezone: null, timezoneInferred: false });
  });
});

describe('language', () => {
  it('normalizes onto the nine locales on create', () => {
    expect(create({ phone: PHONE, language: 'English' }).language).toBe('en-US');
    expect(create({ phone: PHONE, language: 'es-AR' }).language).toBe('es-419');
  });

  it('is set by an import match only when the contact has none; PATCH sets it', () => {
    const withNone = create({ phone: PHONE });
    expect(update(withNone, { phone: PHONE, language: 'fr' }).language).toBe('fr-FR');
    const withOne = create({ phone: PHONE, language: 'de' });
    expect(update(withOne, { phone: PHONE, language: 'fr' }).language).toBe('de-DE');
    expect(update(withOne, { language: 'fr' }, 'patch').language).toBe('fr-FR');
  });
});

describe('externalId, customFields, priority, createdAt', () => {
  it('gives a new contact its own id when externalId is null, keeps a stored one on null', () => {
    const c = create({ phone: PHONE, externalId: null });
    expect(c.externalId).toBe(c.id);
    const d = create({ phone: PHONE, externalId: 'crm-1' });
    expect(update(d, { phone: PHONE, externalId: null }).externalId).toBe('crm-1');
    expect(update(d, { phone: PHONE, externalId: 'crm-2' }).externalId).toBe('crm-2');
  });

  it('merges custom fields; null removes a key; customFields null keeps on import, clears on PATCH/bulk-update', () => {
    expect(mergeCustomFields({ a: 1, b: 2 }, { b: null, c: 3 }, 'import')).toEqual({ a: 1, c: 3 });
    expect(mergeCustomFields({ a: 1 }, null, 'import')).toEqual({ a: 1 });
    expect(mergeCustomFields({ a: 1 }, null, 'bulk-update')).toBeNull();
    expect(mergeCustomFields(null, { a: { nested: true } }, 'patch')).toEqual({ a: { nested: true } });
  });

  it('defaults priority to 0 and keeps it unless sent', () => {
    const c = create({ phone: PHONE });
    expect(c.priority).toBe(0);
    expect(update(update(c, { phone: PHONE, priority: 900 }), { phone: PHONE }).priority).toBe(900);
  });

  it('honours createdAt on create only', () => {
    const c = create({ phone: PHONE, createdAt: new Date('2020-01-01T00:00:00+02:00') });
    expect(c.createdAt.toISOString()).toBe('2019-12-31T22:00:00.000Z');
    expect(update(c, { phone: PHONE, createdAt: new Date('2024-01-01T00:00:00Z') }).createdAt.toISOString()).toBe(
      '2019-12-31T22:00:00.000Z',
    );
  });
});

describe('buildDedupKey', () => {
  it('builds the ordered tuple and treats partial tuples as keys', () => {
    const fields = ['customFields.crm', 'phone'];
    const a = buildDedupKey(fields, { phone: PHONE, customFields: { crm: 'A' } });
    const b = buildDedupKey(fields, { phone: PHONE, customFields: {} });
    expect(a.ok && b.ok && a.key !== b.key).toBe(true);
    expect(buildDedupKey(fields, {})).toEqual({ ok: false, reason: 'missing_dedup_field' });
  });
});
