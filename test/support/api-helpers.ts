// Small helpers shared by the HTTP suites (test/api, test/edge, test/mcp): the suite's server
// with an account, unique phone numbers, the error-body check, and paging through a list.
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestAccount, type TestServer, type TestServerOptions } from './test-server.js';
import type { DatabaseKind } from './databases.js';

/**
 * One server with one account for the calling describe block, so that suites do not each repeat
 * the beforeAll/afterAll pair: started in beforeAll, stopped in afterAll. Both objects are empty
 * until beforeAll has run (it copies the started server's and the account's fields into them), so
 * read them inside hooks and tests only.
 */
export function useServerWithAccount(
  kind: DatabaseKind,
  options: TestServerOptions = {},
  accountOptions: Parameters<TestServer['createAccount']>[0] = {},
): { server: TestServer; account: TestAccount } {
  const server = {} as TestServer;
  const account = {} as TestAccount;
  beforeAll(async () => {
    Object.assign(server, await startTestServer(kind, options));
    Object.assign(account, await server.createAccount(accountOptions));
  });
  afterAll(() => server.stop?.());
  return { server, account };
}

let phoneCounter = Math.floor(Math.random() * 1_000_000);

/** A valid, unique US number in E.164 (+1 415 2xx xxxx). */
export function uniquePhone(): string {
  phoneCounter = (phoneCounter + 1) % 8_000_000;
  return `+1415${String(2_000_000 + phoneCounter)}`;
}

/** The response fields of a contact, in the order the API lists them (the OpenAPI Contact schema). */
export const CONTACT_FIELDS = [
  'id',
  'accountId',
  'firstName',
  'lastName',
  'fullName',
  'phone',
  'location',
  'locationDefaulted',
  'timezone',
  'timezoneInferred',
  'language',
  'status',
  'sourceKind',
  'externalId',
  'customFields',
  'priority',
  'assignedWorkflowId',
  'callCount',
  'maxAttempts',
  'lastCallAt',
  'nextCallAt',
  'createdAt',
  'updatedAt',
];

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Res = Awaited<ReturnType<TestServer['request']>>;

/**
 * Asserts the API's error body: status, code, a body with error/message/code/requestId
 * (and the `extras` keys, when given), and requestId equal to the x-request-id header.
 */
export function expectError(res: Res, status: number, code: string, extras: string[] = []): void {
  expect({ status: res.status, code: res.json?.code, body: res.json }).toMatchObject({ status, code });
  // The four fields are always there; extra fields are allowed (`issues` on a 400, `contacts` on a 409).
  for (const field of ['code', 'error', 'message', 'requestId', ...extras])
    expect(res.json, `error body field ${field}`).toHaveProperty(field);
  expect(typeof res.json.error).toBe('string');
  expect(res.json.error.length).toBeGreaterThan(0);
  expect(typeof res.json.message).toBe('string');
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect(res.json.requestId).toBe(res.headers.get('x-request-id'));
}

/** Asserts a contact response has exactly the response fields. */
export function expectContactShape(contact: Record<string, unknown>): void {
  expect(Object.keys(contact).sort()).toEqual([...CONTACT_FIELDS].sort());
  expect(contact.id).toMatch(UUID_RE);
  expect(contact.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(contact.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
}

/** PUT /api/v1/contacts/upsert, expecting 200 or 201; returns the contact. */
export async function upsertOk(server: TestServer, apiKey: string, body: Record<string, unknown>): Promise<any> {
  const res = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', body);
  if (res.status !== 200 && res.status !== 201) throw new Error(`upsert answered ${res.status}: ${res.text}`);
  return res.json;
}

/** GET /api/v1/contacts with the given query, expecting 200; returns the body. */
export async function listOk(
  server: TestServer,
  apiKey: string,
  query = '',
): Promise<{ data: any[]; nextToken?: string }> {
  const res = await server.request(apiKey, 'GET', `/api/v1/contacts${query ? `?${query}` : ''}`);
  if (res.status !== 200) throw new Error(`list answered ${res.status}: ${res.text}`);
  return res.json;
}

/** Every contact of the account, through the list's pages. */
export async function listAll(server: TestServer, apiKey: string, query = ''): Promise<any[]> {
  const out: any[] = [];
  let token: string | undefined;
  for (let i = 0; i < 100; i++) {
    const q = [query, 'limit=100', token ? `nextToken=${encodeURIComponent(token)}` : ''].filter(Boolean).join('&');
    const page = await listOk(server, apiKey, q);
    out.push(...page.data);
    if (!page.nextToken) return out;
    token = page.nextToken;
  }
  throw new Error('too many pages');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
