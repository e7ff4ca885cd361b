// A write whose body does not arrive as its head declares, sent over a raw socket: a
// Content-Length shorter than the bytes sent (Node takes the rest for a broken next request
// and closes the connection while the key is being checked), a Content-Length of 0 before a
// body, a Content-Length longer than what came before the client ended, and no body at all.
// Each is a 400 with the error body or a closed connection: the operation never runs on a
// missing body, nothing is written, and the service logs no error.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { logger } from '../../src/logger.js';
import { uniquePhone, useServerWithAccount } from '../support/api-helpers.js';
import { testDatabaseKinds } from '../support/databases.js';
import { sendRaw } from '../support/raw-http.js';

const SEEDED = 'Seededcut';

const WRITES = [
  ['PUT', '/api/v1/contacts/upsert', () => ({ phone: uniquePhone(), firstName: 'Cutshort' })],
  [
    'POST',
    '/api/v1/contacts/bulk',
    () => ({ contacts: [{ sourceKind: 'api', externalId: null, phone: uniquePhone(), firstName: 'Cutshort' }] }),
  ],
  ['POST', '/api/v1/contacts/bulk-update', () => ({ filter: { firstName: SEEDED }, data: { priority: 777 } })],
] as const;

/** How the request's head and body disagree: the Content-Length header it sends (or none), the bytes after the head, and whether the client then ends. */
const CUTS: Array<[string, (body: string) => { length: number | null; sent: string; end: boolean }]> = [
  ['Content-Length shorter than the body sent', (body) => ({ length: 5, sent: body, end: false })],
  ['Content-Length shorter than the body sent, then the client ends', (body) => ({ length: 5, sent: body, end: true })],
  ['Content-Length 0 before a body', (body) => ({ length: 0, sent: body, end: false })],
  [
    'Content-Length longer than the body sent, then the client ends',
    (body) => ({ length: body.length + 40, sent: body, end: true }),
  ],
  [
    'Content-Length longer than a half sent, then the client ends',
    (body) => ({ length: body.length, sent: body.slice(0, 9), end: true }),
  ],
];

describe.each(testDatabaseKinds())('a write whose body is cut short on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);
  let seededId: string;
  let errorLines: MockInstance[];

  beforeAll(async () => {
    const seeded = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      firstName: SEEDED,
    });
    expect(seeded.status, seeded.text).toBe(201);
    seededId = seeded.json.id;
  });
  beforeEach(() => {
    errorLines = [vi.spyOn(logger, 'error'), vi.spyOn(logger, 'fatal')];
  });
  afterEach(() => {
    for (const spy of errorLines) spy.mockRestore();
  });

  const head = (method: string, path: string, length: number | null) =>
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${account.apiKey}\r\n` +
    `Content-Type: application/json\r\n${length === null ? '' : `Content-Length: ${length}\r\n`}\r\n`;

  /**
   * Lists the Account's contacts through another connection. On a cut request whose connection
   * is gone this also waits for it: its key check was queried before this request's, and it
   * goes on from there to its answer without waiting on anything else.
   */
  const contacts = async () => {
    const list = await server.request(account.apiKey, 'GET', '/api/v1/contacts?limit=100');
    expect(list.status, list.text).toBe(200);
    return list.json.data as Array<{ id: string; priority: number }>;
  };

  const expectNoErrorLogged = () => {
    for (const spy of errorLines) expect(spy.mock.calls).toEqual([]);
  };

  it.each(CUTS)('%s: 400 or the connection closed; nothing written, no error logged', async (_name, cut) => {
    for (const [method, path, body] of WRITES) {
      const { length, sent, end } = cut(JSON.stringify(body()));
      const answer = await sendRaw(server.service.server, head(method, path, length) + sent, { end });
      const what = `${method} ${path}: ${answer.status} ${answer.body.slice(0, 200)}`;
      if (answer.status !== null) {
        expect(answer.status, what).toBe(400);
        expect(JSON.parse(answer.body), what).toMatchObject({ error: 'Bad Request', code: 'bad_request' });
      }
      expect(await contacts(), what).toEqual([expect.objectContaining({ id: seededId, priority: 0 })]);
      expectNoErrorLogged();
    }
  });

  it('no body at all (no Content-Length): a 400 saying the operation takes a JSON body, on every write that takes one', async () => {
    const everyBodyWrite = [
      ...WRITES,
      ['PATCH', '/api/v1/contacts/source/api/external-id/nobody'],
      ['POST', '/api/v1/webhook-endpoints'],
      ['PATCH', `/api/v1/webhook-endpoints/${seededId}`],
    ] as const;
    for (const [method, path] of everyBodyWrite) {
      const answer = await sendRaw(server.service.server, head(method, path, null));
      expect(answer.status, answer.body).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        error: 'Bad Request',
        code: 'bad_request',
        message: 'This operation takes a JSON body, and the request has none',
      });
    }
    expect(await contacts()).toEqual([expect.objectContaining({ id: seededId, priority: 0 })]);
    expectNoErrorLogged();
  });

  it('queued no import and no bulk-update either', async () => {
    const prisma = server.service.services.db.prisma;
    const where = { accountId: account.accountId };
    expect({
      imports: await prisma.importJob.count({ where }),
      bulkUpdates: await prisma.bulkUpdateJob.count({ where }),
    }).toEqual({ imports: 0, bulkUpdates: 0 });
  });
});
