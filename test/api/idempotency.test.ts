// Idempotency-Key on the REST writes (src/http/idempotency.ts) through a real listening server:
// a retry gets the stored answer, another request with the key is refused, a retry while the
// first runs is a 409, and keys are per Account and expire after 24 hours by the service's clock.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, listAll, uniquePhone, useServerWithAccount } from '../support/api-helpers.js';
import type { JobQueue } from '../../src/domain/context.js';

const UPSERT = '/api/v1/contacts/upsert';
const BULK = '/api/v1/contacts/bulk';
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testDatabaseKinds())('Idempotency-Key on %s', (kind) => {
  const clock = {
    at: new Date('2026-12-01T09:00:00.000Z'),
    now() {
      return this.at;
    },
    advance(ms: number) {
      this.at = new Date(this.at.getTime() + ms);
    },
  };
  const { server, account } = useServerWithAccount(kind, { clock });

  const keyed = (key: string) => ({ 'idempotency-key': key });
  const newKey = () => `key-${randomUUID()}`;
  const send = (method: string, path: string, body: unknown, key: string, apiKey = account.apiKey) =>
    server.request(apiKey, method, path, body, keyed(key));
  const contactsWithPhone = async (apiKey: string, phone: string) =>
    (await listAll(server, apiKey)).filter((c) => c.phone === phone);
  const bulkBody = (phones: string[]) => ({
    contacts: phones.map((phone) => ({ sourceKind: 'csv', externalId: null, phone })),
  });

  describe('replay', () => {
    it('answers a retried upsert with the first answer, marked Idempotent-Replayed, and writes once', async () => {
      const key = newKey();
      const body = { phone: uniquePhone(), firstName: 'Ada' };
      const first = await send('PUT', UPSERT, body, key);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await send('PUT', UPSERT, body, key);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(again.text).toBe(first.text);
      expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
      expect(await contactsWithPhone(account.apiKey, body.phone)).toHaveLength(1);
      // Without the key the same body runs again: an update (200), not a replay.
      const unkeyed = await server.request(account.apiKey, 'PUT', UPSERT, body);
      expect(unkeyed.status).toBe(200);
      expect(unkeyed.headers.get('idempotent-replayed')).toBeNull();
    });

    it('enqueues a retried bulk import once', async () => {
      const { apiKey } = await server.createAccount();
      const queue = server.service.services.queue;
      const sent: unknown[] = [];
      const send0 = queue.send;
      queue.send = ((...args: Parameters<JobQueue['send']>) => {
        sent.push(args[1]);
        return send0.apply(queue, args);
      }) as JobQueue['send'];
      try {
        const key = newKey();
        const body = bulkBody([uniquePhone(), uniquePhone()]);
        const first = await send('POST', BULK, body, key, apiKey);
        const again = await send('POST', BULK, body, key, apiKey);
        expect(first.status).toBe(202);
        expect({ status: again.status, json: again.json }).toEqual({ status: 202, json: first.json });
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        await server.eventually(async () => (await listAll(server, apiKey)).length === 2);
        expect(sent).toHaveLength(1);
        expect(await listAll(server, apiKey)).toHaveLength(2);
      } finally {
        queue.send = send0;
      }
    });

    it('stores a 4xx answer: the retry gets the same error without running again', async () => {
      const key = newKey();
      const first = await send('PUT', UPSERT, { phone: '+1 123' }, key);
      expectError(first, 422, 'invalid_phone');
      const again = await send('PUT', UPSERT, { phone: '+1 123' }, key);
      // The error body's requestId is the retry's own (as its x-request-id says); the rest is the first answer.
      expectError(again, 422, 'invalid_phone');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect({ ...again.json, requestId: null }).toEqual({ ...first.json, requestId: null });
    });

    it('does not store a 401: the key is free for the authenticated request', async () => {
      const key = newKey();
      const body = { phone: uniquePhone() };
      expectError(await send('PUT', UPSERT, body, key, 'svc_pk_unknown'), 401, 'unauthenticated');
      const res = await send('PUT', UPSERT, body, key);
      expect(res.status).toBe(201);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    });
  });

  describe('reuse', () => {
    it('refuses the key with another body, or on another path, with 422 idempotency_key_reused', async () => {
      const key = newKey();
      const phone = uniquePhone();
      expect((await send('PUT', UPSERT, { phone }, key)).status).toBe(201);
      expectError(await send('PUT', UPSERT, { phone: uniquePhone() }, key), 422, 'idempotency_key_reused');
      expectError(await send('POST', BULK, bulkBody([phone]), key), 422, 'idempotency_key_reused');
      const path = `/api/v1/contacts/source/api/external-id/${randomUUID()}`;
      expectError(await send('PATCH', path, { phone }, key), 422, 'idempotency_key_reused');
      // The first answer is still there for the first request.
      expect((await send('PUT', UPSERT, { phone }, key)).headers.get('idempotent-replayed')).toBe('true');
    });

    it('keeps each Account’s keys apart', async () => {
      const other = await server.createAccount();
      const key = newKey();
      const phone = uniquePhone();
      expect((await send('PUT', UPSERT, { phone }, key)).status).toBe(201);
      const theirs = await send('PUT', UPSERT, { phone: uniquePhone() }, key, other.apiKey);
      expect(theirs.status).toBe(201);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    });
  });

  describe('in use', () => {
    it('answers 409 idempotency_key_in_use to a retry while the first runs, then replays its answer', async () => {
      const { apiKey } = await server.createAccount();
      const queue = server.service.services.queue;
      // The first import waits at the queue until the test lets it go.
      let letGo!: () => void;
      const held = new Promise<void>((resolve) => (letGo = resolve));
      let reached!: () => void;
      const waiting = new Promise<void>((resolve) => (reached = resolve));
      const send0 = queue.send;
      queue.send = (async (...args: Parameters<JobQueue['send']>) => {
        reached();
        await held;
        return send0.apply(queue, args);
      }) as JobQueue['send'];
      try {
        const key = newKey();
        const body = bulkBody([uniquePhone()]);
        const first = send('POST', BULK, body, key, apiKey);
        await waiting;
        expectError(await send('POST', BULK, body, key, apiKey), 409, 'idempotency_key_in_use');
        letGo();
        const answered = await first;
        expect(answered.status).toBe(202);
        const retry = await send('POST', BULK, body, key, apiKey);
        expect({ status: retry.status, text: retry.text }).toEqual({ status: 202, text: answered.text });
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
      } finally {
        queue.send = send0;
        letGo();
      }
    });

    it('runs exactly one of two concurrent requests with one key', async () => {
      const { apiKey } = await server.createAccount();
      const key = newKey();
      const body = bulkBody(Array.from({ length: 1000 }, () => uniquePhone()));
      const answers = await Promise.all([1, 2].map(() => send('POST', BULK, body, key, apiKey)));
      const statuses = answers.map((a) => a.status).sort();
      // The second either found the first running (409) or already answered (a replay).
      expect(statuses[0]).toBe(202);
      if (statuses[1] === 202) expect(answers.filter((a) => a.headers.get('idempotent-replayed'))).toHaveLength(1);
      else expect(statuses[1]).toBe(409);
      await server.eventually(async () => (await listAll(server, apiKey)).length === 1000, 30_000);
    });

    it('releases the key when the request fails with a 5xx, so a retry runs again', async () => {
      const queue = server.service.services.queue;
      const send0 = queue.send;
      queue.send = (async () => {
        throw new Error('queue down');
      }) as JobQueue['send'];
      const key = newKey();
      const body = bulkBody([uniquePhone()]);
      try {
        expectError(await send('POST', BULK, body, key), 500, 'internal');
      } finally {
        queue.send = send0;
      }
      const retry = await send('POST', BULK, body, key);
      expect(retry.status).toBe(202);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
    });

    it('treats a claim left without an answer for over a minute as abandoned', async () => {
      const key = newKey();
      const body = { phone: uniquePhone() };
      await server.service.services.db.prisma.idempotencyKey.create({
        data: {
          accountId: account.accountId,
          key,
          requestHash: 'a request that crashed',
          owner: randomUUID(),
          claimedAt: clock.now(),
          expiresAt: new Date(clock.now().getTime() + DAY_MS),
        },
      });
      expectError(await send('PUT', UPSERT, body, key), 409, 'idempotency_key_in_use');
      clock.advance(61_000);
      expect((await send('PUT', UPSERT, body, key)).status).toBe(201);
    });
  });

  it('runs the key again after 24 hours, and deletes expired keys', async () => {
    const key = newKey();
    const phone = uniquePhone();
    expect((await send('PUT', UPSERT, { phone }, key)).status).toBe(201);
    clock.advance(DAY_MS - 1000);
    expect((await send('PUT', UPSERT, { phone }, key)).headers.get('idempotent-replayed')).toBe('true');
    clock.advance(1000);
    // Another body is fine now: the key is free again.
    const again = await send('PUT', UPSERT, { phone, firstName: 'Later' }, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const prisma = server.service.services.db.prisma;
    clock.advance(DAY_MS);
    // Any keyed write sweeps what has expired (at most every ten minutes per process).
    expect((await send('PUT', UPSERT, { phone: uniquePhone() }, newKey())).status).toBe(201);
    await server.eventually(
      async () => (await prisma.idempotencyKey.count({ where: { key, accountId: account.accountId } })) === 0,
    );
  });

  describe('the header', () => {
    it.each([
      ['empty', ''],
      ['over 255 characters', 'k'.repeat(256)],
      ['with a space', 'my key'],
      ['with a non-ASCII character', 'clé'],
    ])('refuses a key %s with 400 bad_request naming the header', async (_what, key) => {
      const res = await server.request(account.apiKey, 'PUT', UPSERT, { phone: uniquePhone() }, keyed(key));
      expectError(res, 400, 'bad_request');
      expect(res.json.message).toContain('Idempotency-Key');
    });

    it('accepts 255 visible ASCII characters', async () => {
      const res = await send('PUT', UPSERT, { phone: uniquePhone() }, `${'k'.repeat(254)}~`);
      expect(res.status).toBe(201);
    });

    it('is ignored on a read', async () => {
      const res = await server.request(account.apiKey, 'GET', '/api/v1/contacts', undefined, keyed(''));
      expect(res.status).toBe(200);
    });
  });
});
