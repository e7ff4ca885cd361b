// The front door answers the reads of contacts itself, without Express (src/http/front-door.ts,
// src/http/direct-routes.ts). Its answers must be Express's: the same request is sent to the
// service and to an app over the same services that sends everything through Express
// (createApp's directRoutes: false), and the two answers compared, status, headers and body.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { testDatabaseKinds } from '../support/databases.js';
import { uniquePhone, useServerWithAccount } from '../support/api-helpers.js';

/** The headers an answer is judged by (the request id and the remaining quota differ per request). */
const COMPARED_HEADERS = ['content-type', 'content-length', 'x-next-token', 'ratelimit-policy', 'connection', 'vary'];

describe.each(testDatabaseKinds())('direct routes answer as Express does, on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);
  let throughExpress: Server;
  let expressBase: string;
  let contactId: string;

  beforeAll(async () => {
    throughExpress = createServer(createApp({ services: server.service.services, directRoutes: false })).listen(
      0,
      '127.0.0.1',
    );
    await once(throughExpress, 'listening');
    expressBase = `http://127.0.0.1:${(throughExpress.address() as AddressInfo).port}`;
    for (let i = 0; i < 3; i++) {
      const created = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        firstName: `Ada ${i}`,
        sourceKind: 'hubspot',
        externalId: `hs/${i} ü`,
      });
      expect(created.status, created.text).toBe(201);
      contactId = created.json.id;
    }
  });
  afterAll(() => new Promise<void>((resolve) => throughExpress?.close(() => resolve())));

  async function answer(base: string, method: string, path: string, headers: Record<string, string>) {
    const res = await fetch(base + path, { method, headers });
    const text = await res.text();
    const body = text.replace(/"requestId":"[^"]+"/, '"requestId":"…"');
    return {
      status: res.status,
      headers: Object.fromEntries(COMPARED_HEADERS.map((name) => [name, res.headers.get(name)])),
      rateLimitSent: res.headers.get('ratelimit') !== null,
      requestIdEchoed:
        res.headers.get('x-request-id') !== null &&
        (!text.includes('"requestId"') || text.includes(res.headers.get('x-request-id')!)),
      body,
    };
  }

  const key = () => ({ authorization: `Bearer ${account.apiKey}` });
  const cases: Array<[string, string, () => string, () => Record<string, string>]> = [
    ['a contact by id', 'GET', () => `/api/v1/contacts/${contactId}`, key],
    ['a contact by id, HEAD', 'HEAD', () => `/api/v1/contacts/${contactId}`, key],
    ['a contact by id, another case and a trailing slash', 'GET', () => `/API/V1/Contacts/${contactId}/`, key],
    [
      'a contact by external ID, percent-encoded',
      'GET',
      () => `/api/v1/contacts/source/hubspot/external-id/${encodeURIComponent('hs/1 ü')}`,
      key,
    ],
    ['an unknown external ID', 'GET', () => '/api/v1/contacts/source/hubspot/external-id/nobody', key],
    ['an unknown sourceKind', 'GET', () => '/api/v1/contacts/source/fax/external-id/x', key],
    [
      'a parameter that is not percent-encoding',
      'GET',
      () => '/api/v1/contacts/source/hubspot/external-id/%E0%A4%A',
      key,
    ],
    ['an id that is not a UUID', 'GET', () => '/api/v1/contacts/upsert', key],
    ['an unknown contact', 'GET', () => '/api/v1/contacts/00000000-0000-4000-8000-000000000000', key],
    ['a list page with a next token', 'GET', () => '/api/v1/contacts?limit=2&sourceKind=hubspot', key],
    ['a list page, HEAD', 'HEAD', () => '/api/v1/contacts?limit=2', key],
    ['a list with an unknown parameter', 'GET', () => '/api/v1/contacts?serachTerm=ada', key],
    ['a list with a repeated parameter', 'GET', () => '/api/v1/contacts?limit=1&limit=2', key],
    ['a list with a bracketed parameter', 'GET', () => '/api/v1/contacts?status[]=queued', key],
    ['a list with a bad limit', 'GET', () => '/api/v1/contacts?limit=0', key],
    ['a CSV page with a next token', 'GET', () => '/api/v1/contacts/csv?limit=2', key],
    ['no key', 'GET', () => `/api/v1/contacts/${contactId}`, () => ({})],
    ['a malformed key', 'GET', () => '/api/v1/contacts', () => ({ authorization: 'Bearer nope' })],
    ['an unknown key', 'GET', () => '/api/v1/contacts/csv', () => ({ authorization: 'Bearer svc_pk_unknown0000' })],
    [
      'a listed-nowhere Origin',
      'GET',
      () => `/api/v1/contacts/${contactId}`,
      () => ({ ...key(), origin: 'https://elsewhere.example' }),
    ],
    [
      'a GET with a body announced',
      'GET',
      () => `/api/v1/contacts/${contactId}`,
      () => ({ ...key(), 'content-length': '0' }),
    ],
  ];

  it.each(cases)('%s', async (_name, method, path, headers) => {
    const direct = await answer(server.service.baseUrl, method, path(), headers());
    const viaExpress = await answer(expressBase, method, path(), headers());
    expect(direct).toEqual(viaExpress);
    expect(direct.rateLimitSent).toBe(true);
    expect(direct.requestIdEchoed).toBe(true);
  });

  it('the list and CSV pages carry their rows (the comparison is not of two empty answers)', async () => {
    const list = await server.request(account.apiKey, 'GET', '/api/v1/contacts?limit=2&sourceKind=hubspot');
    expect(list.json.data).toHaveLength(2);
    expect(list.json.nextToken).toBeTruthy();
    const csv = await server.request(account.apiKey, 'GET', '/api/v1/contacts/csv?limit=2');
    expect(csv.text.trim().split('\n')).toHaveLength(3);
    expect(csv.headers.get('x-next-token')).toBeTruthy();
    // Written as Express's own res.json and res.send write them, on routes still served by Express.
    const workflows = await server.request(account.apiKey, 'GET', '/api/v1/workflows');
    const audit = await server.request(account.apiKey, 'GET', '/api/v1/calls/audit.csv');
    expect([workflows.status, audit.status]).toEqual([200, 200]);
    expect(list.headers.get('content-type')).toBe(workflows.headers.get('content-type'));
    expect(csv.headers.get('content-type')).toBe(audit.headers.get('content-type'));
    expect(Number(list.headers.get('content-length'))).toBe(Buffer.byteLength(list.text));
  });
});
