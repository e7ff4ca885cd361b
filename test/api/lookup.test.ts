// Reads and changes through a real listening server: GET by id, GET/PATCH by external ID,
// bulk-update, and the workflows list.
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import {
  expectContactShape,
  expectError,
  listAll,
  sleep,
  uniquePhone,
  upsertOk,
  useServerWithAccount,
  UUID_RE,
} from '../support/api-helpers.js';

const byExt = (sourceKind: string, externalId: string) =>
  `/api/v1/contacts/source/${sourceKind}/external-id/${encodeURIComponent(externalId)}`;

describe.each(testDatabaseKinds())('lookups and changes on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);

  const get = (path: string, key = account.apiKey) => server.request(key, 'GET', path);
  const patch = (path: string, body: unknown, key = account.apiKey) => server.request(key, 'PATCH', path, body);
  const bulkUpdate = (body: unknown, key = account.apiKey) =>
    server.request(key, 'POST', '/api/v1/contacts/bulk-update', body);

  describe('GET /api/v1/contacts/{id}', () => {
    it('returns the contact', async () => {
      const c = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        firstName: 'ById',
        customFields: { a: 1 },
      });
      const res = await get(`/api/v1/contacts/${c.id}`);
      expect(res.status).toBe(200);
      expectContactShape(res.json);
      expect(res.json).toEqual(c);
    });

    it('a malformed id is a 400, an unknown one a 404', async () => {
      expectError(await get('/api/v1/contacts/not-a-uuid'), 400, 'bad_request');
      expectError(await get('/api/v1/contacts/12345'), 400, 'bad_request');
      expectError(await get('/api/v1/contacts/6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4fz'), 400, 'bad_request');
      expectError(await get('/api/v1/contacts/6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'), 404, 'not_found');
    });
  });

  describe('GET /api/v1/contacts/source/{sourceKind}/external-id/{externalId}', () => {
    it('returns the contact with that sourceKind and external ID', async () => {
      const c = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'hubspot',
        externalId: 'hs-100',
      });
      const res = await get(byExt('hubspot', 'hs-100'));
      expect(res.status).toBe(200);
      expectContactShape(res.json);
      expect(res.json).toEqual(c);
    });

    it('a contact created without one is found by its own id', async () => {
      const c = await upsertOk(server, account.apiKey, { phone: uniquePhone(), sourceKind: 'manual' });
      expect((await get(byExt('manual', c.id))).json.id).toBe(c.id);
    });

    it('404 for an unknown external ID or another sourceKind', async () => {
      await upsertOk(server, account.apiKey, { phone: uniquePhone(), sourceKind: 'hubspot', externalId: 'hs-200' });
      expectError(await get(byExt('hubspot', 'hs-nope')), 404, 'not_found');
      expectError(await get(byExt('salesforce', 'hs-200')), 404, 'not_found');
    });

    it('ignores trailing spaces; is case- and accent-sensitive', async () => {
      const c = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'salesforce',
        externalId: 'Café-1',
      });
      expect((await get(byExt('salesforce', 'Café-1  '))).json.id).toBe(c.id);
      expectError(await get(byExt('salesforce', 'café-1')), 404, 'not_found');
      expectError(await get(byExt('salesforce', 'CAFÉ-1')), 404, 'not_found');
      expectError(await get(byExt('salesforce', 'Cafe-1')), 404, 'not_found');
      // Leading spaces are not trailing spaces.
      expectError(await get(byExt('salesforce', ' Café-1')), 404, 'not_found');
    });

    it('an external ID stored with trailing spaces is found without them', async () => {
      const c = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'monday',
        externalId: 'item-7   ',
      });
      expect((await get(byExt('monday', 'item-7'))).json.id).toBe(c.id);
    });

    it('409 conflict listing every matching contact when several share it', async () => {
      const a = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'csv',
        externalId: 'dup-1',
        firstName: 'A',
      });
      const b = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'csv',
        externalId: 'dup-1',
        firstName: 'B',
      });
      expect(a.id).not.toBe(b.id);
      const res = await get(byExt('csv', 'dup-1'));
      expectError(res, 409, 'conflict', ['contacts']);
      expect(Array.isArray(res.json.contacts)).toBe(true);
      expect(res.json.contacts.map((c: { id: string }) => c.id).sort()).toEqual([a.id, b.id].sort());
      for (const c of res.json.contacts) expectContactShape(c);
      // Each can be read by id.
      expect((await get(`/api/v1/contacts/${a.id}`)).json.firstName).toBe('A');
    });

    it('bad path values are a 400', async () => {
      expectError(await get(byExt('zapier', 'x')), 400, 'bad_request');
      expectError(await get(byExt('hubspot', 'e'.repeat(257))), 400, 'bad_request');
      expectError(await get(byExt('hubspot', '   ')), 400, 'bad_request');
    });

    it('external IDs with reserved URL characters are found when percent-encoded', async () => {
      const ext = 'a/b c?d#e%f';
      const c = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'hubspot',
        externalId: ext,
      });
      const res = await get(byExt('hubspot', ext));
      expect(res.status, res.text).toBe(200);
      expect(res.json.id).toBe(c.id);
      const patched = await patch(byExt('hubspot', ext), { priority: 4 });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.json).toMatchObject({ id: c.id, priority: 4 });
    });

    it('256 chars is accepted', async () => {
      const ext = 'L'.repeat(256);
      const c = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'hubspot',
        externalId: ext,
      });
      expect((await get(byExt('hubspot', ext))).json.id).toBe(c.id);
    });
  });

  describe('PATCH by external ID', () => {
    it('changes only the fields sent and returns the contact', async () => {
      const c = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'hubspot',
        externalId: 'p-1',
        firstName: 'Old',
        lastName: 'Name',
        status: 'reached',
        customFields: { a: 1, b: 2 },
        priority: 5,
        language: 'en',
        location: 'France',
      });
      const res = await patch(byExt('hubspot', 'p-1'), { firstName: 'New', priority: 9 });
      expect(res.status).toBe(200);
      expectContactShape(res.json);
      expect(res.json).toMatchObject({
        id: c.id,
        firstName: 'New',
        lastName: 'Name',
        fullName: 'New Name',
        priority: 9,
        phone: c.phone,
        status: 'reached',
        customFields: { a: 1, b: 2 },
        language: 'en-US',
        location: 'FR',
        externalId: 'p-1',
        sourceKind: 'hubspot',
        createdAt: c.createdAt,
      });
      const read = await get(`/api/v1/contacts/${c.id}`);
      expect(read.json).toEqual(res.json);
    });

    it('merges customFields (null key removed)', async () => {
      await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'hubspot',
        externalId: 'p-2',
        customFields: { a: 1, b: 2 },
      });
      const res = await patch(byExt('hubspot', 'p-2'), { customFields: { b: null, c: 3 } });
      expect(res.json.customFields).toEqual({ a: 1, c: 3 });
    });

    it('sets status, and a blocked phone makes it dnc', async () => {
      const phone = uniquePhone();
      await upsertOk(server, account.apiKey, { phone, sourceKind: 'hubspot', externalId: 'p-3' });
      expect((await patch(byExt('hubspot', 'p-3'), { status: 'qualified' })).json.status).toBe('qualified');
      await server.service.services.db.prisma.blockedPhone.create({
        data: { createdAt: server.now(), accountId: account.accountId, phone },
      });
      expect((await patch(byExt('hubspot', 'p-3'), { status: 'qualified' })).json.status).toBe('dnc');
    });

    it('404 when none matches, 409 with contacts when several do', async () => {
      expectError(await patch(byExt('hubspot', 'p-none'), { firstName: 'X' }), 404, 'not_found');
      await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'csv',
        externalId: 'dup-p',
        firstName: 'One',
      });
      await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'csv',
        externalId: 'dup-p',
        firstName: 'Two',
      });
      const res = await patch(byExt('csv', 'dup-p'), { firstName: 'Both' });
      expectError(res, 409, 'conflict', ['contacts']);
      expect(res.json.contacts.map((c: { firstName: string }) => c.firstName).sort()).toEqual(['One', 'Two']);
      // Neither changed.
      const all = await listAll(server, account.apiKey, 'sourceKind=csv');
      expect(
        all
          .filter((c) => c.externalId === 'dup-p')
          .map((c) => c.firstName)
          .sort(),
      ).toEqual(['One', 'Two']);
    });

    it('unknown field, bad bounds, non-JSON body are a 400 and change nothing', async () => {
      const c = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'hubspot',
        externalId: 'p-4',
        firstName: 'Keep',
      });
      const path = byExt('hubspot', 'p-4');
      expectError(await patch(path, { firstName: 'X', phoneNumber: '1' }), 400, 'bad_request');
      expectError(await patch(path, { firstName: 'a'.repeat(129) }), 400, 'bad_request');
      expectError(await patch(path, { priority: 1001 }), 400, 'bad_request');
      expectError(await patch(path, { status: 'bogus' }), 400, 'bad_request');
      expectError(await patch(path, { externalId: 'e'.repeat(257) }), 400, 'bad_request');
      expectError(
        await server.request(account.apiKey, 'PATCH', path, '{"firstName":', { 'content-type': 'application/json' }),
        400,
        'bad_request',
      );
      expect((await get(`/api/v1/contacts/${c.id}`)).json.firstName).toBe('Keep');
    });
  });

  describe('POST /api/v1/contacts/bulk-update', () => {
    it('answers 202 {} and applies data to matching contacts only', async () => {
      const { apiKey: key } = await server.createAccount();
      const red1 = await upsertOk(server, key, {
        phone: uniquePhone(),
        firstName: 'R1',
        customFields: { team: 'red', keep: 'k' },
      });
      const red2 = await upsertOk(server, key, {
        phone: uniquePhone(),
        firstName: 'R2',
        customFields: { team: 'red' },
      });
      const blue = await upsertOk(server, key, {
        phone: uniquePhone(),
        firstName: 'B1',
        customFields: { team: 'blue' },
      });
      const res = await bulkUpdate(
        {
          filter: { customFields: [{ key: 'team', value: 'red' }] },
          data: { priority: 42, status: 'paused', customFields: { tag: 'hit' } },
        },
        key,
      );
      expect(res.status).toBe(202);
      expect(res.json).toEqual({ updateId: expect.any(String) });
      await server.eventually(async () => {
        const all = await listAll(server, key);
        return all.filter((c) => c.priority === 42).length === 2;
      });
      const byId = Object.fromEntries((await listAll(server, key)).map((c) => [c.id, c]));
      expect(byId[red1.id]).toMatchObject({
        priority: 42,
        status: 'paused',
        customFields: { team: 'red', keep: 'k', tag: 'hit' },
      });
      expect(byId[red2.id]).toMatchObject({
        priority: 42,
        status: 'paused',
        customFields: { team: 'red', tag: 'hit' },
      });
      expect(byId[blue.id]).toMatchObject({ priority: 0, status: 'not_assigned', customFields: { team: 'blue' } });
    });

    it('all filter conditions must match (names, phone, sourceKind + externalId)', async () => {
      const { apiKey: key } = await server.createAccount();
      const target = await upsertOk(server, key, {
        phone: uniquePhone(),
        firstName: 'Ann',
        lastName: 'Lee',
        sourceKind: 'hubspot',
        externalId: 'h-1',
      });
      const sameFirst = await upsertOk(server, key, {
        phone: uniquePhone(),
        firstName: 'Ann',
        lastName: 'Other',
        sourceKind: 'hubspot',
        externalId: 'h-2',
      });
      await bulkUpdate({ filter: { firstName: 'Ann', lastName: 'Lee' }, data: { priority: 1 } }, key);
      await bulkUpdate({ filter: { phone: target.phone }, data: { location: 'France' } }, key);
      await bulkUpdate({ filter: { sourceKind: 'hubspot', externalId: 'h-1' }, data: { language: 'German' } }, key);
      await bulkUpdate({ filter: { sourceKind: 'salesforce', externalId: 'h-2' }, data: { priority: 999 } }, key);
      const t = await server.eventually(async () => {
        const c = (await server.request(key, 'GET', `/api/v1/contacts/${target.id}`)).json;
        return c.priority === 1 && c.location === 'FR' && c.language === 'de-DE' ? c : undefined;
      });
      expect(t).toMatchObject({ firstName: 'Ann', lastName: 'Lee' });
      await sleep(500);
      const other = (await server.request(key, 'GET', `/api/v1/contacts/${sameFirst.id}`)).json;
      expect(other).toMatchObject({ priority: 0, location: null, language: null });
    });

    it('data.customFields: null removes every custom field; a null key removes that key', async () => {
      const { apiKey: key } = await server.createAccount();
      const a = await upsertOk(server, key, { phone: uniquePhone(), firstName: 'Wipe', customFields: { a: 1, b: 2 } });
      const b = await upsertOk(server, key, { phone: uniquePhone(), firstName: 'Trim', customFields: { a: 1, b: 2 } });
      await bulkUpdate({ filter: { firstName: 'Wipe' }, data: { customFields: null } }, key);
      await bulkUpdate({ filter: { firstName: 'Trim' }, data: { customFields: { a: null } } }, key);
      await server.eventually(async () => {
        const ca = (await server.request(key, 'GET', `/api/v1/contacts/${a.id}`)).json;
        const cb = (await server.request(key, 'GET', `/api/v1/contacts/${b.id}`)).json;
        return (
          (ca.customFields === null || (ca.customFields && Object.keys(ca.customFields).length === 0)) &&
          JSON.stringify(cb.customFields) === '{"b":2}'
        );
      });
    });

    it("a change that would collide with another contact's dedup key is skipped (the first wins)", async () => {
      const { apiKey: key } = await server.createAccount();
      const first = await upsertOk(server, key, {
        phone: uniquePhone(),
        firstName: 'Dup',
        createdAt: '2020-01-01T00:00:00Z',
      });
      const second = await upsertOk(server, key, {
        phone: uniquePhone(),
        firstName: 'Dup',
        createdAt: '2021-01-01T00:00:00Z',
      });
      const newPhone = uniquePhone();
      const res = await bulkUpdate({ filter: { firstName: 'Dup' }, data: { phone: newPhone, priority: 3 } }, key);
      expect(res.status).toBe(202);
      const firstAfter = await server.eventually(async () => {
        const c = (await server.request(key, 'GET', `/api/v1/contacts/${first.id}`)).json;
        return c.phone === newPhone ? c : undefined;
      });
      expect(firstAfter.priority).toBe(3);
      await sleep(300);
      const secondAfter = (await server.request(key, 'GET', `/api/v1/contacts/${second.id}`)).json;
      expect(secondAfter).toMatchObject({ phone: second.phone, priority: 0 });
      expect(await listAll(server, key)).toHaveLength(2);
    });

    it('a change colliding with a contact outside the filter is skipped', async () => {
      const { apiKey: key } = await server.createAccount();
      const holder = await upsertOk(server, key, { phone: uniquePhone(), firstName: 'Holder' });
      const mover = await upsertOk(server, key, { phone: uniquePhone(), firstName: 'Mover' });
      const marker = await upsertOk(server, key, { phone: uniquePhone(), firstName: 'Marker' });
      await bulkUpdate({ filter: { firstName: 'Mover' }, data: { phone: holder.phone, lastName: 'Changed' } }, key);
      await bulkUpdate({ filter: { firstName: 'Marker' }, data: { lastName: 'Done' } }, key);
      await server.eventually(
        async () => (await server.request(key, 'GET', `/api/v1/contacts/${marker.id}`)).json.lastName === 'Done',
      );
      await sleep(300);
      const m = (await server.request(key, 'GET', `/api/v1/contacts/${mover.id}`)).json;
      expect(m).toMatchObject({ phone: mover.phone, lastName: null });
      const h = (await server.request(key, 'GET', `/api/v1/contacts/${holder.id}`)).json;
      expect(h).toMatchObject({ phone: holder.phone, firstName: 'Holder' });
    });

    it('filter bounds are a 400', async () => {
      const data = { priority: 1 };
      const badFilters: Array<Record<string, unknown>> = [
        { firstName: '' },
        { firstName: 'a'.repeat(129) },
        { lastName: '' },
        { lastName: 'a'.repeat(129) },
        { phone: '4155552671' },
        { phone: '+04155552671' },
        { phone: '+123456' },
        { phone: '+1234567890123456' },
        { phone: '+1 415 555 2671' },
        { sourceKind: 'hubspot' },
        { externalId: 'x' },
        { sourceKind: 'zapier', externalId: 'x' },
        { sourceKind: 'hubspot', externalId: '' },
        { sourceKind: 'hubspot', externalId: 'e'.repeat(257) },
        { customFields: [] },
        { customFields: Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: 'v' })) },
        { customFields: [{ key: '', value: 'v' }] },
        { customFields: [{ key: 'k'.repeat(129), value: 'v' }] },
        { customFields: [{ key: 'k', value: 'v'.repeat(1025) }] },
        { customFields: [{ key: 'k', value: 5 }] },
        { customFields: [{ key: 'k' }] },
        { unknown: 'x' },
      ];
      for (const filter of badFilters) {
        const res = await bulkUpdate({ filter, data });
        expect(res.status, JSON.stringify(filter).slice(0, 80)).toBe(400);
        expectError(res, 400, 'bad_request');
      }
    });

    it('filter values at their bounds are accepted', async () => {
      const good: Array<Record<string, unknown>> = [
        {},
        { firstName: 'a'.repeat(128), lastName: 'b'.repeat(128) },
        { phone: '+1234567' },
        { phone: '+123456789012345' },
        { sourceKind: 'hubspot', externalId: 'e'.repeat(256) },
        { customFields: Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, value: '' })) },
        { customFields: [{ key: 'k'.repeat(128), value: 'v'.repeat(1024) }] },
      ];
      const { apiKey: key } = await server.createAccount();
      for (const filter of good) {
        const res = await bulkUpdate({ filter, data: { priority: 1 } }, key);
        expect(res.status, JSON.stringify(filter).slice(0, 80)).toBe(202);
        expect(res.json).toEqual({ updateId: expect.any(String) });
      }
    });

    it('missing filter or data, bad data, or a non-JSON body is a 400', async () => {
      expectError(await bulkUpdate({ data: { priority: 1 } }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {} }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {}, data: { priority: 1001 } }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {}, data: { firstName: 'a'.repeat(129) } }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {}, data: { externalId: 'e'.repeat(257) } }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {}, data: { status: 'bogus' } }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {}, data: { nope: 1 } }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {}, data: { phone: 'abc' } }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {}, data: { sourceKind: 'zapier' } }), 400, 'bad_request');
      expectError(await bulkUpdate({ filter: {}, data: {}, extra: 1 }), 400, 'bad_request');
      expectError(
        await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk-update', 'nope', {
          'content-type': 'application/json',
        }),
        400,
        'bad_request',
      );
    });
  });

  describe('GET /api/v1/workflows', () => {
    it("lists the Account's workflows with id, name and status, paging with limit and nextToken", async () => {
      const { apiKey: key, accountId: acct } = await server.createAccount();
      const made: string[] = [];
      for (let i = 0; i < 5; i++)
        made.push(await server.createWorkflow(acct, { name: `WF ${i}`, status: i === 4 ? 'draft' : 'published' }));
      const all = await server.request(key, 'GET', '/api/v1/workflows');
      expect(all.status).toBe(200);
      expect(all.json.data).toHaveLength(5);
      expect(all.json.nextToken ?? null).toBeNull();
      for (const wf of all.json.data) {
        expect(wf.id).toMatch(UUID_RE);
        expect(typeof wf.name).toBe('string');
        expect(typeof wf.status).toBe('string');
      }
      expect(all.json.data.find((w: { id: string }) => w.id === made[4])).toMatchObject({
        name: 'WF 4',
        status: 'draft',
      });

      const seen: string[] = [];
      let token: string | undefined;
      const sizes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await server.request(
          key,
          'GET',
          `/api/v1/workflows?limit=2${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
        );
        expect(res.status).toBe(200);
        sizes.push(res.json.data.length);
        seen.push(...res.json.data.map((w: { id: string }) => w.id));
        if (!res.json.nextToken) break;
        token = res.json.nextToken;
      }
      expect(sizes).toEqual([2, 2, 1]);
      expect(new Set(seen)).toEqual(new Set(made));
      expect(seen).toHaveLength(5);
    });

    it('limit bounds and a malformed nextToken are a 400', async () => {
      for (const q of [
        'limit=0',
        'limit=101',
        'limit=abc',
        'limit=2.5',
        'limit=3000000000',
        'limit[a]=1',
        'nextToken=garbage',
        'nextToken[a]=x',
      ]) {
        expectError(await get(`/api/v1/workflows?${q}`), 400, 'bad_request');
      }
      expect((await get('/api/v1/workflows?limit=100')).status).toBe(200);
    });
  });
});
