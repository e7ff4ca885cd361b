import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';

describe.each(testDatabaseKinds())('service basics on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  it('answers /healthz with 200 when the database is reachable', async () => {
    const res = await server.request(null, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.json.database).toBe(kind);
  });

  it('upserts then reads a contact', async () => {
    const { apiKey } = await server.createAccount();
    const put = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+14155552671',
      firstName: 'Ada',
    });
    expect(put.status).toBe(201);
    const get = await server.request(apiKey, 'GET', `/api/v1/contacts/${put.json.id}`);
    expect(get.status).toBe(200);
    expect(get.json.firstName).toBe('Ada');
  });
});

describe.each(testDatabaseKinds())('health on %s', (kind) => {
  it('answers /healthz with 503 once the database cannot be reached', async () => {
    const server = await startTestServer(kind);
    try {
      expect((await server.request(null, 'GET', '/healthz')).status).toBe(200);
      await server.service.services.queue.stop();
      await server.service.services.db.close();
      const res = await server.request(null, 'GET', '/healthz');
      expect(res.status).toBe(503);
      expect(res.json.status).toBe('unavailable');
      expect(res.headers.get('x-request-id')).toBeTruthy();
    } finally {
      await server.stop();
    }
  });
});
