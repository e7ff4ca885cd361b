// A bulk-update over many contacts runs in chunks that leave the service answering other
// requests while it is in progress (seen from the batch's progress, not from timings), and
// still updates every matched contact exactly once, with the dedup rules applied across
// chunks, resuming from its committed progress. A change of nothing is done at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { processBatch } from '../../src/jobs/import-batches.js';
import { CHUNK_BOUNDS } from '../../src/domain/contacts/batch-chunks.js';

const MANY = 30_000;

describe.each(testDatabaseKinds())('chunked bulk-update on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  const sql = () => server.service.services.db.sql;

  /** Stores `n` contacts of the Account directly, one millisecond apart (oldest first: index 0). */
  async function seedContacts(accountId: string, n: number): Promise<void> {
    const start = server.now().getTime() - n - 60_000;
    await sql().query(
      `INSERT INTO "Contact" ("id", "accountId", "firstName", "phone", "status", "sourceKind", "externalId", "createdAt", "updatedAt", "dedupKey", "phoneDigits")
       SELECT gen_random_uuid(), $1::uuid, 'Seed', p.phone, 'not_assigned', 'csv', 'seed-' || g, $2::timestamptz + g * interval '1 millisecond', $2::timestamptz,
              'phone=' || p.phone, substr(p.phone, 2)
         FROM generate_series(0, $3::int - 1) AS g, LATERAL (SELECT '+1415' || (2000000 + g)::text AS phone) AS p`,
      [accountId, new Date(start), n],
    );
  }

  async function batchOf(accountId: string): Promise<{
    id: string;
    status: string;
    payload: { updated?: number };
    result: { updated: number; skipped: number } | null;
  }> {
    const { rows } = await sql().query<{
      id: string;
      status: string;
      payload: { updated?: number };
      result: { updated: number; skipped: number } | null;
    }>(
      `SELECT "id", "status"::text AS "status", "payload", "result" FROM "ImportBatch" WHERE "accountId" = $1::uuid AND "kind" = 'bulk-update'`,
      [accountId],
    );
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  it(`keeps answering other requests while it updates ${MANY} contacts, and updates each once`, async () => {
    const { apiKey, accountId } = await server.createAccount({ defaultLocation: 'US' });
    await seedContacts(accountId, MANY);
    const res = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk-update', {
      filter: {},
      data: { customFields: { wave: 'one' }, priority: 3 },
    });
    expect(res.status).toBe(202);

    // Other requests, one after another, for as long as the update runs: each answer is
    // checked against the batch's progress read right after it.
    const progressSeenAfterAnswers: number[] = [];
    for (;;) {
      const other = await server.request(apiKey, 'GET', '/api/v1/workflows');
      expect(other.status).toBe(200);
      const batch = await batchOf(accountId);
      if (batch.status === 'done') break;
      const seen = batch.payload.updated ?? 0;
      progressSeenAfterAnswers.push(seen);
      // The next request once the update has moved on (a request after every answer would keep
      // its chunks at their smallest, and on a busy machine take minutes for 30,000 contacts).
      await server.eventually(async () => {
        const now = await batchOf(accountId);
        return now.status === 'done' || (now.payload.updated ?? 0) !== seen;
      }, 120_000);
    }
    // Answered while the update was in progress, at several points of it.
    expect(progressSeenAfterAnswers.length).toBeGreaterThan(0);
    expect(progressSeenAfterAnswers.some((updated) => updated > 0 && updated < MANY)).toBe(true);
    expect(new Set(progressSeenAfterAnswers).size).toBeGreaterThan(1);

    const { result } = await batchOf(accountId);
    expect(result).toEqual({ updated: MANY, skipped: 0 });
    const { rows } = await sql().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Contact" WHERE "accountId" = $1::uuid AND "customFields" ->> 'wave' = 'one' AND "priority" = 3`,
      [accountId],
    );
    expect(rows[0].n).toBe(MANY);
  }, 180_000);

  it('gives a dedup value to the first matching contact only, across chunks (the rest are skipped)', async () => {
    const { apiKey, accountId } = await server.createAccount({ defaultLocation: 'US' });
    const n = CHUNK_BOUNDS[kind].write * 2 + 500;
    await seedContacts(accountId, n);
    const res = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk-update', {
      filter: {},
      data: { phone: '+12125550199', firstName: 'Moved' },
    });
    expect(res.status).toBe(202);
    await server.eventually(async () => (await batchOf(accountId)).status === 'done', 60_000);
    expect((await batchOf(accountId)).result).toEqual({ updated: 1, skipped: n - 1 });
    const { rows } = await sql().query<{ externalId: string; firstName: string }>(
      `SELECT "externalId", "firstName" FROM "Contact" WHERE "accountId" = $1::uuid AND "phone" = '+12125550199'`,
      [accountId],
    );
    expect(rows).toEqual([{ externalId: 'seed-0', firstName: 'Moved' }]);
    const { rows: untouched } = await sql().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Contact" WHERE "accountId" = $1::uuid AND "firstName" = 'Seed'`,
      [accountId],
    );
    expect(untouched[0].n).toBe(n - 1);
  }, 120_000);

  it('resumes after its last committed chunk: the contacts before the cursor are not changed again', async () => {
    const { accountId, userId } = await server.createAccount({ defaultLocation: 'US' });
    const window = CHUNK_BOUNDS[kind].write;
    const n = window * 3;
    await seedContacts(accountId, n);
    // A batch as a killed process leaves it: the first window applied and its cursor stored.
    const { rows: firstWindow } = await sql().query<{ id: string; createdAt: Date }>(
      `SELECT "id", "createdAt" FROM "Contact" WHERE "accountId" = $1::uuid ORDER BY "createdAt", "id" LIMIT ${window}`,
      [accountId],
    );
    const cursor = firstWindow.at(-1)!;
    const write = { customFields: { pass: 'second' }, newId: randomUUID(), dedup: { ok: true, key: '' } };
    const batchId = randomUUID();
    await sql().query(
      `INSERT INTO "ImportBatch" ("id", "accountId", "userId", "kind", "payload", "createdAt") VALUES ($1::uuid, $2::uuid, $3::uuid, 'bulk-update', $4::jsonb, $5)`,
      [
        batchId,
        accountId,
        userId,
        JSON.stringify({
          filter: {},
          write,
          after: { createdAt: new Date(cursor.createdAt).toISOString(), id: cursor.id },
          updated: window,
          skipped: 0,
        }),
        server.now(),
      ],
    );
    await processBatch(server.service.services, batchId);
    expect((await batchOf(accountId)).result).toEqual({ updated: n, skipped: 0 });
    const { rows } = await sql().query<{ changed: number; unchanged: number }>(
      `SELECT count(*) FILTER (WHERE "customFields" ->> 'pass' = 'second')::int AS changed, count(*) FILTER (WHERE "customFields" IS NULL)::int AS unchanged
         FROM "Contact" WHERE "accountId" = $1::uuid`,
      [accountId],
    );
    expect(rows[0]).toEqual({ changed: n - window, unchanged: window });
  }, 120_000);

  it('a change of nothing ({"data":{}}) answers 202 and is done at once, changing no contact', async () => {
    const { apiKey, accountId } = await server.createAccount({ defaultLocation: 'US' });
    await seedContacts(accountId, 50);
    const before = await sql().query<{ latest: Date }>(
      `SELECT max("updatedAt") AS latest FROM "Contact" WHERE "accountId" = $1::uuid`,
      [accountId],
    );
    const res = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk-update', { filter: {}, data: {} });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ updateId: expect.any(String) });
    const { rows } = await sql().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "ImportBatch" WHERE "accountId" = $1::uuid AND "status" = 'pending'`,
      [accountId],
    );
    expect(rows[0].n).toBe(0);
    const after = await sql().query<{ latest: Date }>(
      `SELECT max("updatedAt") AS latest FROM "Contact" WHERE "accountId" = $1::uuid`,
      [accountId],
    );
    expect(after.rows[0].latest).toEqual(before.rows[0].latest);
  });
});
