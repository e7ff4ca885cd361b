// GET /api/v1/contacts and /api/v1/contacts/csv through a real listening server: order,
// paging, every filter and its bounds, search, and the CSV format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import {
  CONTACT_FIELDS,
  expectContactShape,
  expectError,
  listAll,
  listOk,
  uniquePhone,
  upsertOk,
} from '../support/api-helpers.js';

describe.each(testDatabaseKinds())('GET /api/v1/contacts and /csv on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  const get = (key: string, path: string) => server.request(key, 'GET', path);
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

  describe('order and paging', () => {
    let apiKey: string;
    let newestFirst: string[];
    beforeAll(async () => {
      ({ apiKey } = await server.createAccount());
      const made: any[] = [];
      for (let i = 0; i < 7; i++) {
        // Out of creation order on purpose: order is by createdAt, not insertion.
        const day = [3, 1, 6, 2, 7, 5, 4][i];
        made.push(
          await upsertOk(server, apiKey, {
            phone: uniquePhone(),
            firstName: `P${day}`,
            createdAt: `2022-01-0${day}T00:00:00Z`,
          }),
        );
      }
      newestFirst = made.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((c) => c.id);
    });

    it('lists newest first, every contact with the full response shape', async () => {
      const page = await listOk(server, apiKey);
      expect(ids(page.data)).toEqual(newestFirst);
      expect(page.data.map((c) => c.firstName)).toEqual(['P7', 'P6', 'P5', 'P4', 'P3', 'P2', 'P1']);
      for (const c of page.data) expectContactShape(c);
      expect(page).not.toHaveProperty('nextToken');
    });

    it('pages with nextToken until the last page, which has none, without overlap', async () => {
      const seen: string[] = [];
      let token: string | undefined;
      const sizes: number[] = [];
      for (let i = 0; i < 10; i++) {
        const page = await listOk(server, apiKey, `limit=3${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
        sizes.push(page.data.length);
        seen.push(...ids(page.data));
        if (!('nextToken' in page)) break;
        expect(typeof page.nextToken).toBe('string');
        token = page.nextToken;
      }
      expect(sizes).toEqual([3, 3, 1]);
      expect(seen).toEqual(newestFirst);
    });

    it('an exact multiple of the limit ends with a page that has no nextToken', async () => {
      const first = await listOk(server, apiKey, 'limit=7');
      expect(first.data).toHaveLength(7);
      expect(first).not.toHaveProperty('nextToken');
    });

    it('pages without gaps or repeats when contacts share createdAt', async () => {
      const { apiKey: key } = await server.createAccount();
      const made: string[] = [];
      for (let i = 0; i < 5; i++)
        made.push((await upsertOk(server, key, { phone: uniquePhone(), createdAt: '2023-03-03T03:03:03.000Z' })).id);
      const seen: string[] = [];
      let token: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await listOk(server, key, `limit=2${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
        seen.push(...ids(page.data));
        if (!page.nextToken) break;
        token = page.nextToken;
      }
      expect(seen).toHaveLength(5);
      expect(new Set(seen)).toEqual(new Set(made));
    });

    it('limit defaults to 50 and accepts 1 and 100', async () => {
      const { apiKey: key } = await server.createAccount();
      const res = await server.request(key, 'POST', '/api/v1/contacts/bulk', {
        contacts: Array.from({ length: 55 }, (_, i) => ({
          sourceKind: 'api',
          externalId: `d-${i}`,
          phone: `+1415${String(4_000_000 + i)}`,
        })),
      });
      expect(res.json.accepted).toBe(55);
      await server.eventually(async () => (await listAll(server, key)).length === 55);
      const def = await listOk(server, key);
      expect(def.data).toHaveLength(50);
      expect(typeof def.nextToken).toBe('string');
      const rest = await listOk(server, key, `nextToken=${encodeURIComponent(def.nextToken!)}`);
      expect(rest.data).toHaveLength(5);
      expect(rest).not.toHaveProperty('nextToken');
      expect((await listOk(server, key, 'limit=1')).data).toHaveLength(1);
      expect((await listOk(server, key, 'limit=100')).data).toHaveLength(55);
    });

    it('limit out of bounds or not an integer is a 400', async () => {
      // Beyond GraphQL's 32-bit Int too: the bound is named, never a 500.
      for (const limit of ['0', '101', 'abc', '1.5', '-1', '', '1000000000000', '-3000000000', '1e400']) {
        expectError(await get(apiKey, `/api/v1/contacts?limit=${limit}`), 400, 'bad_request');
        expectError(await get(apiKey, `/api/v1/contacts/csv?limit=${limit}`), 400, 'bad_request');
      }
    });

    it('a filter sent as an object (?name[key]=value) is a 400 naming it, not a search for "[object Object]"', async () => {
      for (const query of [
        'searchTerm[a]=1',
        'status[a]=new',
        'addedSince[a]=2026-01-01',
        'limit[a]=5',
        'nextToken[a]=x',
      ]) {
        const res = await get(apiKey, `/api/v1/contacts?${query}`);
        expectError(res, 400, 'bad_request');
        expect(res.json.message).toContain(query.slice(0, query.indexOf('[')));
        expectError(await get(apiKey, `/api/v1/contacts/csv?${query}`), 400, 'bad_request');
      }
    });

    it('a malformed nextToken is a 400', async () => {
      const forged = Buffer.from(JSON.stringify(['not a date', 'x'])).toString('base64url');
      for (const token of ['garbage', '!!!', forged, 'a'.repeat(600)]) {
        expectError(await get(apiKey, `/api/v1/contacts?nextToken=${encodeURIComponent(token)}`), 400, 'bad_request');
        expectError(
          await get(apiKey, `/api/v1/contacts/csv?nextToken=${encodeURIComponent(token)}`),
          400,
          'bad_request',
        );
      }
    });

    it('an unknown query parameter is a 400 naming it (a misspelled filter never lists everything)', async () => {
      for (const path of ['/api/v1/contacts', '/api/v1/contacts/csv']) {
        const res = await get(apiKey, `${path}?serachTerm=ada`);
        expectError(res, 400, 'bad_request');
        expect(res.json.issues).toEqual([
          {
            path: 'serachTerm',
            message:
              'unknown query parameter (this operation takes status, sourceKind, addedSince, addedBefore, assignedWorkflowId, searchTerm, limit, nextToken)',
          },
        ]);
      }
      expect((await listOk(server, apiKey, 'searchTerm=p7')).data).toHaveLength(1);
    });
  });

  describe('filters', () => {
    let apiKey: string;
    let accountId: string;
    let byName: Record<string, any>;
    let wf: string;
    beforeAll(async () => {
      ({ apiKey, accountId } = await server.createAccount());
      wf = await server.createWorkflow(accountId);
      const made = [
        await upsertOk(server, apiKey, {
          phone: uniquePhone(),
          firstName: 'S1',
          status: 'qualified',
          sourceKind: 'hubspot',
          createdAt: '2020-01-01T00:00:00Z',
        }),
        await upsertOk(server, apiKey, {
          phone: uniquePhone(),
          firstName: 'S2',
          status: 'paused',
          sourceKind: 'csv',
          createdAt: '2021-01-01T00:00:00Z',
        }),
        await upsertOk(server, apiKey, {
          phone: uniquePhone(),
          firstName: 'S3',
          sourceKind: 'api',
          createdAt: '2022-01-01T00:00:00Z',
        }),
        await upsertOk(server, apiKey, {
          phone: uniquePhone(),
          firstName: 'S4',
          status: null,
          sourceKind: 'salesforce',
          createdAt: '2023-01-01T00:00:00Z',
          assignmentOptions: { workflowId: wf },
        }),
        await upsertOk(server, apiKey, {
          phone: uniquePhone(),
          firstName: 'S5',
          status: 'reached',
          sourceKind: 'api',
          createdAt: '2024-01-01T00:00:00Z',
          assignmentOptions: { workflowId: wf },
        }),
      ];
      byName = Object.fromEntries(made.map((c) => [c.firstName, c]));
    });
    const names = async (query: string) => (await listOk(server, apiKey, query)).data.map((c) => c.firstName).sort();

    it('status: single value, repeated keys, comma-separated', async () => {
      expect(await names('status=qualified')).toEqual(['S1']);
      expect(await names('status=qualified&status=paused')).toEqual(['S1', 'S2']);
      expect(await names('status=qualified,paused')).toEqual(['S1', 'S2']);
      expect(await names('status=not_assigned')).toEqual(['S3']);
      expect(await names('status=assigned,reached')).toEqual(['S4', 'S5']);
      expect(await names('status=converted')).toEqual([]);
    });

    it('status: an unknown value is a 400', async () => {
      expectError(await get(apiKey, '/api/v1/contacts?status=bogus'), 400, 'bad_request');
      expectError(await get(apiKey, '/api/v1/contacts?status=qualified,bogus'), 400, 'bad_request');
      expectError(await get(apiKey, '/api/v1/contacts/csv?status=bogus'), 400, 'bad_request');
    });

    it('sourceKind: single value, repeated keys, comma-separated; unknown is a 400', async () => {
      expect(await names('sourceKind=api')).toEqual(['S3', 'S5']);
      expect(await names('sourceKind=hubspot&sourceKind=csv')).toEqual(['S1', 'S2']);
      expect(await names('sourceKind=hubspot,salesforce')).toEqual(['S1', 'S4']);
      expect(await names('sourceKind=monday')).toEqual([]);
      expectError(await get(apiKey, '/api/v1/contacts?sourceKind=zapier'), 400, 'bad_request');
    });

    it('addedSince is inclusive, addedBefore exclusive, offsets honoured', async () => {
      expect(await names('addedSince=2022-01-01T00:00:00Z')).toEqual(['S3', 'S4', 'S5']);
      expect(await names('addedBefore=2022-01-01T00:00:00Z')).toEqual(['S1', 'S2']);
      expect(await names('addedSince=2021-01-01T00:00:00Z&addedBefore=2023-01-01T00:00:00Z')).toEqual(['S2', 'S3']);
      // 2022-01-01T01:00:00+01:00 is 2022-01-01T00:00:00Z.
      expect(await names(`addedSince=${encodeURIComponent('2022-01-01T01:00:00+01:00')}`)).toEqual(['S3', 'S4', 'S5']);
      expect(await names(`addedBefore=${encodeURIComponent('2022-01-01T01:00:00.001+01:00')}`)).toEqual([
        'S1',
        'S2',
        'S3',
      ]);
    });

    it('a malformed date is a 400', async () => {
      for (const bad of ['yesterday', '2021-13-01T00:00:00Z', '2021-01-01', '2021-01-01T00:00:00']) {
        expectError(await get(apiKey, `/api/v1/contacts?addedSince=${encodeURIComponent(bad)}`), 400, 'bad_request');
        expectError(await get(apiKey, `/api/v1/contacts?addedBefore=${encodeURIComponent(bad)}`), 400, 'bad_request');
      }
    });

    it('assignedWorkflowId filters enrolled contacts; a malformed UUID is a 400', async () => {
      expect(await names(`assignedWorkflowId=${wf}`)).toEqual(['S4', 'S5']);
      expect(await names(`assignedWorkflowId=${wf.toUpperCase()}`)).toEqual(['S4', 'S5']);
      expect(await names('assignedWorkflowId=6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f')).toEqual([]);
      expectError(await get(apiKey, '/api/v1/contacts?assignedWorkflowId=not-a-uuid'), 400, 'bad_request');
      expectError(await get(apiKey, `/api/v1/contacts?assignedWorkflowId=${wf}x`), 400, 'bad_request');
    });

    it('filters combine (all must hold)', async () => {
      expect(await names(`sourceKind=api&assignedWorkflowId=${wf}`)).toEqual(['S5']);
      expect(await names('status=qualified&sourceKind=csv')).toEqual([]);
      expect(byName.S4.status).toBe('assigned');
    });
  });

  describe('searchTerm', () => {
    let apiKey: string;
    beforeAll(async () => {
      ({ apiKey } = await server.createAccount());
      await upsertOk(server, apiKey, {
        phone: '+14155550123',
        firstName: 'Ada',
        lastName: 'Lovelace',
        sourceKind: 'hubspot',
        externalId: 'Zorro-77',
      });
      await upsertOk(server, apiKey, { phone: '+14155559876', firstName: 'Adam', lastName: 'Smith' });
      await upsertOk(server, apiKey, { phone: '+447911123456', firstName: 'Grace', lastName: 'Hopper' });
    });
    const search = async (term: string) =>
      (await listOk(server, apiKey, `searchTerm=${encodeURIComponent(term)}`)).data.map((c) => c.firstName).sort();

    it('matches the start of a first or last name, case-insensitively', async () => {
      expect(await search('ada')).toEqual(['Ada', 'Adam']);
      expect(await search('ADAM')).toEqual(['Adam']);
      expect(await search('love')).toEqual(['Ada']);
      expect(await search('hOPP')).toEqual(['Grace']);
      expect(await search('ovelace')).toEqual([]);
      expect(await search('race')).toEqual([]);
    });

    it('matches digits anywhere in the phone number', async () => {
      expect(await search('0123')).toEqual(['Ada']);
      expect(await search('555')).toEqual(['Ada', 'Adam']);
      expect(await search('7911')).toEqual(['Grace']);
      expect(await search('98765')).toEqual([]);
    });

    it('every word must match', async () => {
      expect(await search('ada love')).toEqual(['Ada']);
      expect(await search('ada smith')).toEqual(['Adam']);
      expect(await search('ada 9876')).toEqual(['Adam']);
      expect(await search('ada hopper')).toEqual([]);
    });

    it('only the first ten words count', async () => {
      const tenMatching = Array(10).fill('ada').join(' ');
      expect(await search(tenMatching)).toEqual(['Ada', 'Adam']);
      expect(await search(`${tenMatching} zzz`)).toEqual(['Ada', 'Adam']);
      expect(await search(`${Array(9).fill('ada').join(' ')} zzz`)).toEqual([]);
    });

    it('does not match the external ID', async () => {
      expect(await search('Zorro')).toEqual([]);
      expect(await search('Zorro-77')).toEqual([]);
    });

    it('length 1 to 100: 100 accepted, 101 and empty refused', async () => {
      const hundred = `ada ${'x'.repeat(96)}`;
      expect(hundred).toHaveLength(100);
      expect((await get(apiKey, `/api/v1/contacts?searchTerm=${hundred}`)).status).toBe(200);
      expectError(await get(apiKey, `/api/v1/contacts?searchTerm=${'x'.repeat(101)}`), 400, 'bad_request');
      expectError(await get(apiKey, `/api/v1/contacts/csv?searchTerm=${'x'.repeat(101)}`), 400, 'bad_request');
      expectError(await get(apiKey, '/api/v1/contacts?searchTerm='), 400, 'bad_request');
    });

    it('applies to the CSV too', async () => {
      const res = await get(apiKey, '/api/v1/contacts/csv?searchTerm=love');
      const rows = parse(res.text, { columns: true }) as Array<Record<string, string>>;
      expect(rows.map((r) => r.firstName)).toEqual(['Ada']);
    });
  });

  describe('CSV', () => {
    it('has content type text/csv, the header in the documented column order, one row per contact', async () => {
      const { apiKey, accountId } = await server.createAccount();
      const c = await upsertOk(server, apiKey, {
        phone: uniquePhone(),
        firstName: 'Smith, John',
        lastName: 'O"Brien',
        fullName: 'Line\nBreak',
        customFields: { note: 'line1\nline2', q: 'a,"b"', n: 5, nested: { x: [1, null] } },
        priority: 7,
        createdAt: '2020-02-02T02:02:02.020Z',
        status: null,
      });
      const res = await get(apiKey, '/api/v1/contacts/csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('x-next-token')).toBeNull();
      const records = parse(res.text) as string[][];
      expect(records[0]).toEqual(CONTACT_FIELDS);
      expect(records).toHaveLength(2);
      const row = Object.fromEntries(CONTACT_FIELDS.map((f, i) => [f, records[1][i]]));
      expect(row).toMatchObject({
        id: c.id,
        accountId,
        firstName: 'Smith, John',
        lastName: 'O"Brien',
        fullName: 'Line\nBreak',
        phone: c.phone,
        priority: '7',
        status: '',
        location: '',
        locationDefaulted: 'false',
        timezoneInferred: 'true',
        assignedWorkflowId: '',
        createdAt: '2020-02-02T02:02:02.020Z',
        externalId: c.id,
      });
      expect(JSON.parse(row.customFields)).toEqual({
        note: 'line1\nline2',
        q: 'a,"b"',
        n: 5,
        nested: { x: [1, null] },
      });
    });

    it('an empty account gives the header row only', async () => {
      const { apiKey } = await server.createAccount();
      const res = await get(apiKey, '/api/v1/contacts/csv');
      expect(res.status).toBe(200);
      expect(parse(res.text)).toEqual([CONTACT_FIELDS]);
    });

    it('pages with x-next-token, absent on the last page, newest first, filters applied', async () => {
      const { apiKey } = await server.createAccount();
      for (let i = 1; i <= 3; i++)
        await upsertOk(server, apiKey, {
          phone: uniquePhone(),
          firstName: `C${i}`,
          createdAt: `2021-0${i}-01T00:00:00Z`,
          sourceKind: 'csv',
        });
      await upsertOk(server, apiKey, { phone: uniquePhone(), firstName: 'Other', sourceKind: 'hubspot' });
      const names: string[] = [];
      let token: string | null = null;
      const tokens: Array<string | null> = [];
      for (let i = 0; i < 5; i++) {
        const res = await get(
          apiKey,
          `/api/v1/contacts/csv?sourceKind=csv&limit=2${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
        );
        expect(res.status).toBe(200);
        const rows = parse(res.text, { columns: true }) as Array<Record<string, string>>;
        names.push(...rows.map((r) => r.firstName));
        token = res.headers.get('x-next-token');
        tokens.push(token);
        if (!token) break;
      }
      expect(names).toEqual(['C3', 'C2', 'C1']);
      expect(tokens).toHaveLength(2);
      expect(typeof tokens[0]).toBe('string');
      expect(tokens[1]).toBeNull();
    });
  });
});
