// PUT /api/v1/contacts/upsert through a real listening server: create/update by dedup key,
// every write-field bound, the 422 codes, and the contact field rules
// (src/domain/contacts/contacts.rules.ts).
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import { ADMIN_TOKEN } from '../support/test-server.js';
import { expectContactShape, expectError, listAll, uniquePhone, useServerWithAccount } from '../support/api-helpers.js';

const UPSERT = '/api/v1/contacts/upsert';

describe.each(testDatabaseKinds())('PUT /api/v1/contacts/upsert on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);

  const put = (body: unknown, key = account.apiKey) => server.request(key, 'PUT', UPSERT, body);
  const prisma = () => server.service.services.db.prisma;
  // Through the operator's updateAccount, as an Account's default changes in the product: the
  // change is answered once every process will read the new default (keys are kept in memory).
  const setDefaultLocation = async (id: string, defaultLocation: string | null) => {
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
      query:
        'mutation ($id: String!, $loc: String, $clear: Boolean) { updateAccount(id: $id, defaultLocation: $loc, clearDefaultLocation: $clear) { id } }',
      variables: { id, loc: defaultLocation, clear: defaultLocation === null },
    });
    expect(res.json.errors, res.text).toBeUndefined();
  };

  describe('create and update', () => {
    it('creates with 201, then updates the contact with the same phone with 200', async () => {
      const phone = uniquePhone();
      const created = await put({ phone, firstName: 'Ada', sourceKind: 'api' });
      expect(created.status).toBe(201);
      expectContactShape(created.json);
      expect(created.json).toMatchObject({
        phone,
        firstName: 'Ada',
        accountId: account.accountId,
        sourceKind: 'api',
        priority: 0,
        callCount: 0,
        assignedWorkflowId: null,
      });

      // Same number, written differently: normalized to the same E.164, so the same contact.
      const formatted = `+1 (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
      const updated = await put({ phone: formatted, lastName: 'Lovelace' });
      expect(updated.status).toBe(200);
      expectContactShape(updated.json);
      expect(updated.json.id).toBe(created.json.id);
      expect(updated.json).toMatchObject({ phone, firstName: 'Ada', lastName: 'Lovelace', fullName: 'Ada Lovelace' });
      expect(new Date(updated.json.updatedAt).getTime()).toBeGreaterThanOrEqual(
        new Date(created.json.updatedAt).getTime(),
      );
      expect(updated.json.createdAt).toBe(created.json.createdAt);
    });

    it('normalizes the phone to E.164 with 00 prefix and dots', async () => {
      const res = await put({ phone: '0044 7911.123.456' });
      expect(res.status).toBe(201);
      expect(res.json.phone).toBe('+447911123456');
    });

    it('creates a new contact with the default sourceKind api and priority 0', async () => {
      const res = await put({ phone: uniquePhone() });
      expect(res.status).toBe(201);
      expect(res.json.sourceKind).toBe('api');
      expect(res.json.priority).toBe(0);
    });

    it('20 concurrent upserts of one phone end as exactly one contact', async () => {
      const { apiKey: key } = await server.createAccount();
      const phone = uniquePhone();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => put({ phone, priority: i }, key)));
      expect(results.map((r) => r.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
      const all = await listAll(server, key);
      expect(all).toHaveLength(1);
      expect(all[0].phone).toBe(phone);
    });
  });

  describe('write-field bounds (400 bad_request)', () => {
    const fieldCases: Array<[string, unknown, unknown]> = [
      // field, largest accepted value, smallest refused value
      ['firstName', 'a'.repeat(128), 'a'.repeat(129)],
      ['lastName', 'b'.repeat(128), 'b'.repeat(129)],
      ['fullName', `A ${'c'.repeat(254)}`, `A ${'c'.repeat(255)}`],
      ['location', 'x'.repeat(64), 'x'.repeat(65)],
      ['timezone', 'y'.repeat(64), 'y'.repeat(65)],
      ['language', 'z'.repeat(64), 'z'.repeat(65)],
      ['externalId', 'e'.repeat(256), 'e'.repeat(257)],
      ['priority', 1000, 1001],
    ];
    for (const [field, ok, tooLong] of fieldCases) {
      it(`${field}: accepts the bound, refuses one past it`, async () => {
        const accepted = await put({ phone: uniquePhone(), [field]: ok });
        expect(accepted.status, accepted.text).toBe(201);
        const refused = await put({ phone: uniquePhone(), [field]: tooLong });
        expectError(refused, 400, 'bad_request');
      });
    }

    it('phone: more than 64 characters is a 400', async () => {
      const phone = `+1 415 555 2671${' '.repeat(50)}1`;
      expect(phone.length).toBeGreaterThan(64);
      expectError(await put({ phone }), 400, 'bad_request');
    });

    it('phone: a value outside the pattern is a 400', async () => {
      for (const phone of ['abc', '+1 415 555 267x', '++14155552671', '', '+', '---']) {
        const res = await put({ phone });
        expect(res.status, `${JSON.stringify(phone)} → ${res.text}`).toBe(400);
        expectError(res, 400, 'bad_request');
      }
    });

    it('externalId: empty string is a 400', async () => {
      expectError(await put({ phone: uniquePhone(), externalId: '' }), 400, 'bad_request');
    });

    it('priority: 0 accepted; negative, fractional and string refused', async () => {
      expect((await put({ phone: uniquePhone(), priority: 0 })).status).toBe(201);
      for (const priority of [-1, 1.5, '5', null]) {
        expectError(await put({ phone: uniquePhone(), priority }), 400, 'bad_request');
      }
    });

    it('status: every one of the nineteen values is accepted, anything else refused', async () => {
      const statuses = [
        'new',
        'invalid',
        'paused',
        'unanswered',
        'unreachable',
        'connecting',
        'answered',
        'contact_verified',
        'disqualified',
        'qualified',
        'converted',
        'dont_call',
        'dnc_blocked',
        'not_assigned',
        'assigned',
        'not_answered',
        'not_reached',
        'reached',
        'dnc',
      ];
      for (const status of statuses) {
        const res = await put({ phone: uniquePhone(), status });
        expect(res.status, status).toBe(201);
        expect(res.json.status).toBe(status);
      }
      expectError(await put({ phone: uniquePhone(), status: 'bogus' }), 400, 'bad_request');
      expectError(await put({ phone: uniquePhone(), status: 'QUALIFIED' }), 400, 'bad_request');
    });

    it('sourceKind: the seven values are accepted, anything else refused', async () => {
      for (const sourceKind of ['hubspot', 'salesforce', 'api', 'csv', 'manual', 'monday', 'oneai']) {
        const res = await put({ phone: uniquePhone(), sourceKind });
        expect(res.status, sourceKind).toBe(201);
        expect(res.json.sourceKind).toBe(sourceKind);
      }
      expectError(await put({ phone: uniquePhone(), sourceKind: 'zapier' }), 400, 'bad_request');
      expectError(await put({ phone: uniquePhone(), sourceKind: null }), 400, 'bad_request');
    });

    it('wrong types are a 400', async () => {
      expectError(await put({ phone: uniquePhone(), firstName: 42 }), 400, 'bad_request');
      expectError(await put({ phone: 14155552671 }), 400, 'bad_request');
      expectError(await put({ phone: uniquePhone(), customFields: [1, 2] }), 400, 'bad_request');
      expectError(await put({ phone: uniquePhone(), customFields: 'x' }), 400, 'bad_request');
    });

    it('an unknown field is a 400 and writes nothing', async () => {
      const { apiKey: key } = await server.createAccount();
      expectError(await put({ phone: uniquePhone(), phoneNumber: '+14155552671' }, key), 400, 'bad_request');
      expect(await listAll(server, key)).toEqual([]);
    });

    it('a body that is not JSON is a 400', async () => {
      const res = await server.request(account.apiKey, 'PUT', UPSERT, '{"phone": "+1415', {
        'content-type': 'application/json',
      });
      expectError(res, 400, 'bad_request');
      const notObject = await server.request(account.apiKey, 'PUT', UPSERT, 'hello', { 'content-type': 'text/plain' });
      expectError(notObject, 400, 'bad_request');
    });

    it('a JSON body that is not an object is a 400', async () => {
      expectError(await put([{ phone: uniquePhone() }]), 400, 'bad_request');
      expectError(await put('"+14155552671"'), 400, 'bad_request');
    });

    it('createdAt must be an ISO 8601 date-time with Z or offset', async () => {
      expectError(await put({ phone: uniquePhone(), createdAt: '2020-01-02' }), 400, 'bad_request');
      expectError(await put({ phone: uniquePhone(), createdAt: 'yesterday' }), 400, 'bad_request');
      expectError(await put({ phone: uniquePhone(), createdAt: '2020-01-02T03:04:05' }), 400, 'bad_request');
    });
  });

  describe('422 codes', () => {
    it('invalid_phone when the phone cannot be read as a number', async () => {
      const { apiKey: key } = await server.createAccount();
      expectError(await put({ phone: '+1 123' }, key), 422, 'invalid_phone');
      expectError(await put({ phone: '+999 1234 5678' }, key), 422, 'invalid_phone');
      expect(await listAll(server, key)).toEqual([]);
    });

    it('missing_dedup_field when a phone-dedup account gets no phone', async () => {
      const { apiKey: key } = await server.createAccount();
      expectError(await put({ firstName: 'NoPhone' }, key), 422, 'missing_dedup_field');
      expectError(await put({ firstName: 'NoPhone', phone: null }, key), 422, 'missing_dedup_field');
      expect(await listAll(server, key)).toEqual([]);
    });

    it('dedup_key_too_long when the dedup values are too long', async () => {
      const { apiKey: key } = await server.createAccount({ dedupFields: ['customFields.k'] });
      expectError(await put({ customFields: { k: 'v'.repeat(600) } }, key), 422, 'dedup_key_too_long');
      expect(await listAll(server, key)).toEqual([]);
      // A short value on the same account is fine, and dedups on it.
      const a = await put({ customFields: { k: 'crm-1' }, firstName: 'A' }, key);
      const b = await put({ customFields: { k: 'crm-1' }, firstName: 'B' }, key);
      expect([a.status, b.status]).toEqual([201, 200]);
      expect(b.json.id).toBe(a.json.id);
    });

    it('an externalId-dedup account matches on sourceKind + externalId, not phone', async () => {
      const { apiKey: key } = await server.createAccount({ dedupFields: ['externalId'] });
      const a = await put({ sourceKind: 'hubspot', externalId: 'h-1', phone: uniquePhone() }, key);
      const b = await put({ sourceKind: 'hubspot', externalId: 'h-1', firstName: 'Same' }, key);
      const c = await put({ sourceKind: 'salesforce', externalId: 'h-1' }, key);
      expect([a.status, b.status, c.status]).toEqual([201, 200, 201]);
      expect(b.json.id).toBe(a.json.id);
      expect(c.json.id).not.toBe(a.json.id);
    });
  });

  describe('names', () => {
    it('fullName sent alone is split, dropping titles, middle names and suffixes', async () => {
      const res = await put({ phone: uniquePhone(), fullName: 'Dr. John Michael Smith Jr.' });
      expect(res.json).toMatchObject({ firstName: 'John', lastName: 'Smith', fullName: 'Dr. John Michael Smith Jr.' });
    });

    // A former bug: "Mr. Björn Smith" was stored as firstName null, lastName "Björn Smith".
    it.each([
      ['Mr. Björn Smith', 'Mr. Björn Smith', 'Björn', 'Smith'],
      ['Mr. Bjorn Smith', 'Mr. Bjorn Smith', 'Bjorn', 'Smith'],
      ['Mr. Björn Smith, decomposed (NFD)', 'Mr. Björn Smith'.normalize('NFD'), 'Björn', 'Smith'],
      ['Mr. Ben Smith', 'Mr. Ben Smith', 'Ben', 'Smith'],
      ['Dr. Zoë Ødegaard', 'Dr. Zoë Ødegaard', 'Zoë', 'Ødegaard'],
      ['Prof. Пётр Петров', 'Prof. Пётр Петров', 'Пётр', 'Петров'],
      ['Mrs. Ζωή Παπαδοπούλου', 'Mrs. Ζωή Παπαδοπούλου', 'Ζωή', 'Παπαδοπούλου'],
      ["Mr. Jean-Luc O'Brien", "Mr. Jean-Luc O'Brien", 'Jean-Luc', "O'Brien"],
      ['Dr. Ludwig van Éden', 'Dr. Ludwig van Éden', 'Ludwig', 'van Éden'],
    ])('fullName %s splits into first and last name after its title', async (_label, fullName, firstName, lastName) => {
      const res = await put({ phone: uniquePhone(), fullName });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ firstName, lastName, fullName });
      const stored = await prisma().contact.findUniqueOrThrow({ where: { id: res.json.id } });
      expect(stored).toMatchObject({ firstName, lastName });
    });

    it('fullName sent with only firstName fills lastName', async () => {
      const res = await put({ phone: uniquePhone(), fullName: 'Ada Lovelace', firstName: 'Ada' });
      expect(res.json).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', fullName: 'Ada Lovelace' });
    });

    it('fullName sent with only lastName fills firstName', async () => {
      const res = await put({ phone: uniquePhone(), fullName: 'Grace Hopper', lastName: 'Hopper' });
      expect(res.json).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', fullName: 'Grace Hopper' });
    });

    it('without fullName, it is built from firstName and lastName', async () => {
      const res = await put({ phone: uniquePhone(), firstName: 'Alan', lastName: 'Turing' });
      expect(res.json.fullName).toBe('Alan Turing');
      const onlyFirst = await put({ phone: uniquePhone(), firstName: 'Cher' });
      expect(onlyFirst.json).toMatchObject({ firstName: 'Cher', lastName: null, fullName: 'Cher' });
      const none = await put({ phone: uniquePhone() });
      expect(none.json).toMatchObject({ firstName: null, lastName: null, fullName: null });
    });

    it('an update of firstName rebuilds fullName from the resulting names', async () => {
      const phone = uniquePhone();
      await put({ phone, firstName: 'Alan', lastName: 'Turing' });
      const res = await put({ phone, firstName: 'Alonzo' });
      expect(res.json).toMatchObject({ firstName: 'Alonzo', lastName: 'Turing', fullName: 'Alonzo Turing' });
    });
  });

  describe('status', () => {
    it('a new contact starts as not_assigned when status is omitted, with no status when null', async () => {
      expect((await put({ phone: uniquePhone() })).json.status).toBe('not_assigned');
      expect((await put({ phone: uniquePhone(), status: null })).json.status).toBeNull();
      expect((await put({ phone: uniquePhone(), status: 'qualified' })).json.status).toBe('qualified');
    });

    it('an existing contact keeps its status when omitted or null; a sent status replaces it', async () => {
      const phone = uniquePhone();
      await put({ phone, status: 'qualified' });
      expect((await put({ phone, firstName: 'X' })).json.status).toBe('qualified');
      expect((await put({ phone, status: null })).json.status).toBe('qualified');
      expect((await put({ phone, status: 'paused' })).json.status).toBe('paused');
      // "Replaces" means any value, even an earlier one in the service's order.
      expect((await put({ phone, status: 'not_assigned' })).json.status).toBe('not_assigned');
    });

    it('a contact with no status keeps having none when status is omitted', async () => {
      const phone = uniquePhone();
      await put({ phone, status: null });
      expect((await put({ phone, firstName: 'Y' })).json.status).toBeNull();
    });

    it('a blacklisted phone is stored as dnc whatever status is sent, on create and update', async () => {
      const phone = uniquePhone();
      await prisma().blockedPhone.create({ data: { createdAt: server.now(), accountId: account.accountId, phone } });
      expect((await put({ phone, status: 'qualified' })).json.status).toBe('dnc');
      expect((await put({ phone, status: 'assigned' })).json.status).toBe('dnc');
      expect((await put({ phone, status: null })).json.status).toBe('dnc');
      const other = uniquePhone();
      expect((await put({ phone: other })).json.status).toBe('not_assigned');
    });

    it('an existing contact whose phone was blacklisted later becomes dnc on its next write', async () => {
      const phone = uniquePhone();
      expect((await put({ phone, status: 'reached' })).json.status).toBe('reached');
      await prisma().blockedPhone.create({ data: { createdAt: server.now(), accountId: account.accountId, phone } });
      expect((await put({ phone, firstName: 'Later' })).json.status).toBe('dnc');
    });
  });

  describe('externalId', () => {
    it('null or omitted gives a new contact its own id', async () => {
      const withNull = await put({ phone: uniquePhone(), externalId: null });
      expect(withNull.json.externalId).toBe(withNull.json.id);
      const omitted = await put({ phone: uniquePhone() });
      expect(omitted.json.externalId).toBe(omitted.json.id);
    });

    it('an existing contact keeps its external ID when null is sent, and takes a sent one', async () => {
      const phone = uniquePhone();
      const created = await put({ phone, sourceKind: 'hubspot', externalId: 'crm-1' });
      expect(created.json.externalId).toBe('crm-1');
      expect((await put({ phone, externalId: null })).json.externalId).toBe('crm-1');
      expect((await put({ phone, firstName: 'Z' })).json.externalId).toBe('crm-1');
      expect((await put({ phone, externalId: 'crm-2' })).json.externalId).toBe('crm-2');
    });

    it('an existing contact created without one keeps its own id on a later null', async () => {
      const phone = uniquePhone();
      const created = await put({ phone });
      expect((await put({ phone, externalId: null })).json.externalId).toBe(created.json.id);
    });
  });

  describe('customFields', () => {
    it('merges on a match: keys not sent kept, null key removed, value types kept', async () => {
      const phone = uniquePhone();
      const created = await put({ phone, customFields: { a: 1, b: 'x', nested: { deep: [1, 'two'] } } });
      expect(created.json.customFields).toEqual({ a: 1, b: 'x', nested: { deep: [1, 'two'] } });
      const merged = await put({ phone, customFields: { b: null, c: true, a: 2 } });
      expect(merged.json.customFields).toEqual({ a: 2, c: true, nested: { deep: [1, 'two'] } });
    });

    it('customFields: null on import keeps the stored fields', async () => {
      const phone = uniquePhone();
      await put({ phone, customFields: { keep: 'me' } });
      expect((await put({ phone, customFields: null })).json.customFields).toEqual({ keep: 'me' });
      expect((await put({ phone, firstName: 'Q' })).json.customFields).toEqual({ keep: 'me' });
    });
  });

  describe('language', () => {
    it('normalizes readable values and ignores unreadable ones', async () => {
      expect((await put({ phone: uniquePhone(), language: 'English' })).json.language).toBe('en-US');
      expect((await put({ phone: uniquePhone(), language: 'fr' })).json.language).toBe('fr-FR');
      expect((await put({ phone: uniquePhone(), language: 'he-IL' })).json.language).toBe('he-IL');
      expect((await put({ phone: uniquePhone(), language: 'es-AR' })).json.language).toBe('es-419');
      const unreadable = await put({ phone: uniquePhone(), language: 'klingonish' });
      expect(unreadable.status).toBe(201);
      expect(unreadable.json.language).toBeNull();
    });

    it('an upsert matching a contact sets the language only when it has none', async () => {
      const phone = uniquePhone();
      await put({ phone, language: 'English' });
      expect((await put({ phone, language: 'fr' })).json.language).toBe('en-US');
      expect((await put({ phone, language: null })).json.language).toBe('en-US');

      const other = uniquePhone();
      await put({ phone: other });
      expect((await put({ phone: other, language: 'klingonish' })).json.language).toBeNull();
      expect((await put({ phone: other, language: 'German' })).json.language).toBe('de-DE');
    });
  });

  describe('location', () => {
    it('reads names and codes as ISO 3166 codes', async () => {
      const { apiKey: key } = await server.createAccount();
      const cases: Array<[string, string]> = [
        ['France', 'FR'],
        ['California', 'US-CA'],
        ['US-NY', 'US-NY'],
        ['de', 'DE'],
      ];
      for (const [given, code] of cases) {
        const res = await put({ phone: uniquePhone(), location: given }, key);
        expect(res.json, given).toMatchObject({ location: code, locationDefaulted: false });
      }
      const unreadable = await put({ phone: uniquePhone(), location: 'zzzqq' }, key);
      expect(unreadable.status).toBe(201);
      expect(unreadable.json).toMatchObject({ location: null, locationDefaulted: false });
      const none = await put({ phone: uniquePhone() }, key);
      expect(none.json).toMatchObject({ location: null, locationDefaulted: false });
    });

    it('takes the Account default when none or an unreadable one is given, and follows the default on each write', async () => {
      const acct = await server.createAccount({ defaultLocation: 'US' });
      const phoneDefaulted = uniquePhone();
      const phoneOwn = uniquePhone();
      const phoneUnreadable = uniquePhone();
      expect((await put({ phone: phoneDefaulted }, acct.apiKey)).json).toMatchObject({
        location: 'US',
        locationDefaulted: true,
      });
      expect((await put({ phone: phoneOwn, location: 'France' }, acct.apiKey)).json).toMatchObject({
        location: 'FR',
        locationDefaulted: false,
      });
      expect((await put({ phone: phoneUnreadable, location: 'zzzqq' }, acct.apiKey)).json).toMatchObject({
        location: 'US',
        locationDefaulted: true,
      });
      expect((await put({ phone: uniquePhone(), location: '' }, acct.apiKey)).json).toMatchObject({
        location: 'US',
        locationDefaulted: true,
      });

      await setDefaultLocation(acct.accountId, 'GB');
      expect((await put({ phone: phoneDefaulted, firstName: 'Moved' }, acct.apiKey)).json).toMatchObject({
        location: 'GB',
        locationDefaulted: true,
      });
      expect((await put({ phone: phoneOwn, firstName: 'Stays' }, acct.apiKey)).json).toMatchObject({
        location: 'FR',
        locationDefaulted: false,
      });
      expect((await put({ phone: phoneUnreadable }, acct.apiKey)).json).toMatchObject({
        location: 'GB',
        locationDefaulted: true,
      });

      // A location given later replaces the default.
      expect((await put({ phone: phoneDefaulted, location: 'Germany' }, acct.apiKey)).json).toMatchObject({
        location: 'DE',
        locationDefaulted: false,
      });

      // The Account loses its default: a defaulted location follows to null.
      await setDefaultLocation(acct.accountId, null);
      expect((await put({ phone: phoneUnreadable, firstName: 'Gone' }, acct.apiKey)).json).toMatchObject({
        location: null,
        locationDefaulted: false,
      });
    });
  });

  describe('timezone', () => {
    it('is inferred from the phone when none is sent', async () => {
      const res = await put({ phone: uniquePhone() });
      expect(res.json).toMatchObject({ timezone: 'America/Los_Angeles', timezoneInferred: true });
      const uk = await put({ phone: '+447400123457' });
      expect(uk.json).toMatchObject({ timezone: 'Europe/London', timezoneInferred: true });
      // +44 7911 is a Guernsey range: its own zone, which keeps London's clock.
      const guernsey = await put({ phone: '+447911123457' });
      expect(guernsey.json).toMatchObject({ timezone: 'Europe/Guernsey', timezoneInferred: true });
    });

    // A former bug: "+61412345678" was given Australia/Sydney. A phone gives a zone only when one is
    // certain: its country's only zone, or the one zone of a +1 area code.
    it.each([
      ['an Australian mobile', '+61412345678'],
      ['a Sydney landline', '+61293744000'],
      ['a Brazilian mobile', '+5511912345678'],
      ['a Moscow number', '+74951234567'],
      ['a Mexico City number', '+525512345678'],
      ['an Indonesian mobile', '+628112345678'],
      ['a Spanish mobile', '+34612345678'],
      ['a US toll-free number', '+18005550100'],
      ['a Canadian non-geographic number', '+16002345678'],
      ['an Idaho number (area code on two clocks)', '+12085550100'],
      ['a Florida panhandle number (448, on two clocks)', '+14482345678'],
    ])('is null and not inferred for %s (%s): its zone is not certain', async (_label, phone) => {
      const res = await put({ phone });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ phone, timezone: null, timezoneInferred: false });
      const stored = await prisma().contact.findUniqueOrThrow({ where: { id: res.json.id } });
      expect(stored).toMatchObject({ timezone: null, timezoneInferred: false });
    });

    it.each([
      ['a Kazakh mobile (one zone)', '+77011234567', 'Asia/Almaty'],
      ['a German mobile', '+4915123456789', 'Europe/Berlin'],
      ['a Jamaican number (area code 876)', '+18762345678', 'America/Jamaica'],
      ['an Orlando number (area code 689)', '+16892345678', 'America/New_York'],
    ])('is inferred for %s (%s): %s', async (_label, phone, timezone) => {
      expect((await put({ phone })).json).toMatchObject({ phone, timezone, timezoneInferred: true });
    });

    it('a location with one zone still decides for a phone that gives none', async () => {
      const res = await put({ phone: '+61412345679', location: 'US-NY' });
      expect(res.json).toMatchObject({ timezone: 'America/New_York', timezoneInferred: true });
    });

    it('is inferred from the location before the phone', async () => {
      const res = await put({ phone: uniquePhone(), location: 'US-NY' });
      expect(res.json).toMatchObject({ timezone: 'America/New_York', timezoneInferred: true });
    });

    it('a sent IANA zone is kept and not inferred; an unknown zone is ignored', async () => {
      const sent = await put({ phone: uniquePhone(), timezone: 'Europe/Paris' });
      expect(sent.json).toMatchObject({ timezone: 'Europe/Paris', timezoneInferred: false });
      const unknown = await put({ phone: uniquePhone(), timezone: 'Mars/Olympus_Mons' });
      expect(unknown.status).toBe(201);
      expect(unknown.json).toMatchObject({ timezone: 'America/Los_Angeles', timezoneInferred: true });
    });

    it('is inferred again on each write', async () => {
      const phone = uniquePhone();
      expect((await put({ phone })).json).toMatchObject({ timezone: 'America/Los_Angeles', timezoneInferred: true });
      expect((await put({ phone, location: 'US-NY' })).json).toMatchObject({
        timezone: 'America/New_York',
        timezoneInferred: true,
      });
      expect((await put({ phone, location: 'France' })).json).toMatchObject({
        timezone: 'Europe/Paris',
        timezoneInferred: true,
      });
      // A sent zone ends inference; null hands it back to inference.
      expect((await put({ phone, timezone: 'Asia/Tokyo' })).json).toMatchObject({
        timezone: 'Asia/Tokyo',
        timezoneInferred: false,
      });
      expect((await put({ phone, timezone: null })).json).toMatchObject({
        timezone: 'Europe/Paris',
        timezoneInferred: true,
      });
    });

    it('is null and not inferred when nothing gives a single zone', async () => {
      const { apiKey: key } = await server.createAccount({ dedupFields: ['externalId'] });
      const res = await put({ sourceKind: 'api', externalId: 'tz-none' }, key);
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ timezone: null, timezoneInferred: false });
    });
  });

  describe('createdAt', () => {
    it('is honoured on create only', async () => {
      const phone = uniquePhone();
      const created = await put({ phone, createdAt: '2020-01-02T03:04:05+02:00' });
      expect(created.json.createdAt).toBe('2020-01-02T01:04:05.000Z');
      const updated = await put({ phone, createdAt: '2021-06-01T00:00:00Z', firstName: 'U' });
      expect(updated.status).toBe(200);
      expect(updated.json.createdAt).toBe('2020-01-02T01:04:05.000Z');
    });

    it('defaults to now when not sent', async () => {
      const before = Date.now();
      const res = await put({ phone: uniquePhone() });
      const createdAt = new Date(res.json.createdAt).getTime();
      expect(createdAt).toBeGreaterThanOrEqual(before - 5_000);
      expect(createdAt).toBeLessThanOrEqual(Date.now() + 5_000);
    });
  });

  describe('assignmentOptions', () => {
    it('enrollment sets assignedWorkflowId and moves the status to assigned', async () => {
      const wf = await server.createWorkflow(account.accountId);
      const res = await put({ phone: uniquePhone(), assignmentOptions: { workflowId: wf } });
      expect(res.status).toBe(201);
      expectContactShape(res.json);
      expect(res.json).toMatchObject({
        assignedWorkflowId: wf,
        status: 'assigned',
        lastCallAt: null,
        nextCallAt: null,
      });
    });

    it('enrolls an existing contact on update', async () => {
      const wf = await server.createWorkflow(account.accountId);
      const phone = uniquePhone();
      await put({ phone });
      const res = await put({ phone, assignmentOptions: { workflowId: wf, reEnroll: true, enforceCallNow: true } });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ assignedWorkflowId: wf, status: 'assigned' });
    });

    for (const [label, opts] of [
      ['draft', { status: 'draft' as const }],
      ['archived', { status: 'archived' as const }],
      ['paused', { paused: true }],
    ] as const) {
      it(`a ${label} workflow is a 400 and nothing is written`, async () => {
        const acct = await server.createAccount();
        const wf = await server.createWorkflow(acct.accountId, opts);
        const phone = uniquePhone();
        expectError(await put({ phone, assignmentOptions: { workflowId: wf } }, acct.apiKey), 400, 'bad_request');
        expect(await listAll(server, acct.apiKey)).toEqual([]);
      });
    }

    it("an unknown workflow, or another account's, is a 400 and nothing is written", async () => {
      const acct = await server.createAccount();
      const other = await server.createAccount();
      const foreign = await server.createWorkflow(other.accountId);
      expectError(
        await put(
          { phone: uniquePhone(), assignmentOptions: { workflowId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f' } },
          acct.apiKey,
        ),
        400,
        'bad_request',
      );
      expectError(
        await put({ phone: uniquePhone(), assignmentOptions: { workflowId: foreign } }, acct.apiKey),
        400,
        'bad_request',
      );
      expectError(
        await put({ phone: uniquePhone(), assignmentOptions: { workflowId: 'not-a-uuid' } }, acct.apiKey),
        400,
        'bad_request',
      );
      expect(await listAll(server, acct.apiKey)).toEqual([]);
    });

    it('an existing contact is not changed when the workflow is refused', async () => {
      const acct = await server.createAccount();
      const draft = await server.createWorkflow(acct.accountId, { status: 'draft' });
      const phone = uniquePhone();
      await put({ phone, firstName: 'Before' }, acct.apiKey);
      expectError(
        await put({ phone, firstName: 'After', assignmentOptions: { workflowId: draft } }, acct.apiKey),
        400,
        'bad_request',
      );
      const [contact] = await listAll(server, acct.apiKey);
      expect(contact).toMatchObject({ firstName: 'Before', assignedWorkflowId: null, status: 'not_assigned' });
    });

    it('reEnroll and enforceCallNow must be sent together', async () => {
      const wf = await server.createWorkflow(account.accountId);
      expectError(
        await put({ phone: uniquePhone(), assignmentOptions: { workflowId: wf, reEnroll: true } }),
        400,
        'bad_request',
      );
      expectError(
        await put({ phone: uniquePhone(), assignmentOptions: { workflowId: wf, enforceCallNow: false } }),
        400,
        'bad_request',
      );
      expectError(
        await put({
          phone: uniquePhone(),
          assignmentOptions: { workflowId: wf, reEnroll: 'yes', enforceCallNow: true },
        }),
        400,
        'bad_request',
      );
      expectError(
        await put({ phone: uniquePhone(), assignmentOptions: { workflowId: wf, bogus: 1 } }),
        400,
        'bad_request',
      );
    });
  });
});
