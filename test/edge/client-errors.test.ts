// Requests Node's HTTP parser refuses, answered with the API's error body: a header section
// over Node's limit is a 431, a request that is not HTTP a 400; then the connection closes.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';

/** Sends raw bytes, returns everything the server answered until it closed the connection. */
async function rawRequest(server: TestServer, bytes: string): Promise<string> {
  const { port } = server.service.server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (d) => (answer += d.toString('utf8')));
  socket.on('error', () => {});
  socket.write(bytes);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return answer;
}

function parse(answer: string) {
  const end = answer.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = answer.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { statusLine, headers, body: JSON.parse(answer.slice(end + 4)) };
}

describe.each(testDatabaseKinds())('answers to requests Node refuses on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  it('a header over 16 KB: 431 with the error body, connection closed', async () => {
    const answer = parse(
      await rawRequest(server, `GET /api/v1/contacts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toEqual({
      error: 'Request Header Fields Too Large',
      code: 'request_header_fields_too_large',
      message: expect.any(String),
      requestId: answer.headers['x-request-id'],
    });
  });

  it('a request that is not HTTP: 400 bad_request with the error body', async () => {
    const answer = parse(await rawRequest(server, 'HELLO THERE\r\n\r\n'));
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.body).toMatchObject({
      code: 'bad_request',
      error: 'Bad Request',
      requestId: answer.headers['x-request-id'],
    });
  });

  it('the server keeps answering afterwards', async () => {
    expect((await server.request(null, 'GET', '/healthz')).status).toBe(200);
  });
});
