// GET /metrics and GET /readyz through a real server on each database. /metrics is refused
// without the operator token; with it, it serves the named metrics in Prometheus's text format,
// and their values follow what happens: a request counter and its latency histogram count per
// route pattern, the stored work waiting (import batches, due enrollments, calls in flight,
// trigger deliveries), the database pool, the event-loop lag. /readyz answers 503 in the error
// body while a migration this code ships is missing or the database is closed.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrationNames } from '../../src/db/migrate.js';
import { ADMIN_TOKEN, startTestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, uniquePhone, useServerWithAccount } from '../support/api-helpers.js';

/** Prometheus text format: `name{labels} value` per sample (labels as written, sorted by prom-client). */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    samples.set(match[1], Number(match[2]));
  }
  return samples;
}

describe.each(testDatabaseKinds())('metrics and readiness on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);

  const scrape = async () => {
    const res = await server.request(ADMIN_TOKEN, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(res.text);
  };

  it('refuses /metrics without the operator token', async () => {
    for (const token of [null, 'not-the-token-0123456789', account.apiKey]) {
      const res = await server.request(token, 'GET', '/metrics');
      expectError(res, 401, 'unauthenticated');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.text).not.toContain('contactline_');
    }
  });

  it('counts requests by method, route pattern and status, with their latency', async () => {
    const created = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      firstName: 'Ada',
    });
    expect(created.status).toBe(201);
    const path = `/api/v1/contacts/${created.json.id}`;
    expect((await server.request(account.apiKey, 'GET', path)).status).toBe(200);
    const labels = '{method="GET",route="/api/v1/contacts/:id",status="200"}';
    const before = await scrape();
    const count = before.get(`contactline_http_requests_total${labels}`);
    expect(count).toBeGreaterThanOrEqual(1);
    expect(before.get(`contactline_http_request_duration_seconds_count${labels}`)).toBe(count);

    for (let i = 0; i < 3; i++) expect((await server.request(account.apiKey, 'GET', path)).status).toBe(200);
    expect((await server.request(account.apiKey, 'GET', `/api/v1/contacts/${randomUUID()}`)).status).toBe(404);
    const after = await scrape();
    expect(after.get(`contactline_http_requests_total${labels}`)).toBe(count! + 3);
    expect(after.get(`contactline_http_request_duration_seconds_count${labels}`)).toBe(count! + 3);
    expect(
      after.get(
        `contactline_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/contacts/:id",status="200"}`,
      ),
    ).toBe(count! + 3);
    expect(after.get('contactline_http_requests_total{method="GET",route="/api/v1/contacts/:id",status="404"}')).toBe(
      1,
    );
    // The scrapes themselves are counted under their own pattern; raw paths never become labels.
    expect(
      after.get('contactline_http_requests_total{method="GET",route="/metrics",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect([...after.keys()].some((name) => name.includes(created.json.id))).toBe(false);
  });

  it('serves the stored work waiting, read on each scrape', async () => {
    const prisma = server.service.services.db.prisma;
    const zero = await scrape();
    expect(zero.get('contactline_database_up')).toBe(1);
    for (const name of [
      'contactline_dialer_due_enrollments',
      'contactline_dialer_calls_in_flight',
      'contactline_trigger_deliveries_waiting',
      'contactline_trigger_deliveries_failing',
      'contactline_webhook_deliveries_waiting',
      'contactline_webhook_deliveries_failing',
      'contactline_webhook_events_to_fan_out',
      'contactline_import_batches_waiting{kind="import"}',
      'contactline_import_batches_waiting{kind="bulk-update"}',
      'contactline_import_batch_oldest_waiting_seconds',
    ]) {
      expect(zero.get(name), name).toBe(0);
    }

    // Two contacts enrolled into a workflow (the test server runs no dialer: they stay due),
    // one call in flight, two trigger deliveries waiting of which one failed once.
    const workflowId = await server.createWorkflow(account.accountId);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        assignmentOptions: { workflowId },
      });
      expect(res.status).toBe(201);
      ids.push(res.json.id);
    }
    const now = server.now();
    await prisma.call.create({
      data: {
        id: randomUUID(),
        accountId: account.accountId,
        contactId: ids[0],
        workflowId,
        status: 'queued',
        startedAt: now,
        createdAt: now,
      },
    });
    for (const lastError of [null, 'HTTP 502: bad gateway']) {
      await prisma.mondayTriggerDelivery.create({
        data: {
          webhookId: randomUUID(),
          callId: randomUUID(),
          payload: {},
          status: 'pending',
          nextAttemptAt: now,
          createdAt: now,
          lastError,
        },
      });
    }
    // An endpoint with two webhook deliveries waiting, one of which failed once, and an event not fanned out.
    const endpoint = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://93.184.216.34/hooks',
      events: ['import.completed'],
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    for (const lastError of [null, 'HTTP 500']) {
      await prisma.webhookDelivery.create({
        data: {
          id: randomUUID(),
          endpointId: endpoint.json.id,
          accountId: account.accountId,
          eventId: randomUUID(),
          eventType: 'import.completed',
          payload: '{}',
          nextAttemptAt: now,
          giveUpAt: now,
          createdAt: now,
          lastError,
        },
      });
    }
    await prisma.domainEvent.create({
      data: { id: randomUUID(), accountId: account.accountId, type: 'import.completed', payload: {}, createdAt: now },
    });
    // A batch stored 90 s ago and not applied: its queue job was never sent (nothing runs it).
    const batchId = randomUUID();
    await server.service.services.db.sql.query(
      `INSERT INTO "ImportBatch" ("id", "accountId", "userId", "kind", "payload", "createdAt") SELECT $1::uuid, "accountId", "id", 'bulk-update', '{}'::jsonb, $2 FROM "User" WHERE "accountId" = $3::uuid`,
      [batchId, new Date(now.getTime() - 90_000), account.accountId],
    );
    const busy = await scrape();
    await server.service.services.db.sql.query(`DELETE FROM "ImportBatch" WHERE "id" = $1::uuid`, [batchId]);
    const waiting = {
      contactline_dialer_due_enrollments: 2,
      contactline_dialer_calls_in_flight: 1,
      contactline_trigger_deliveries_waiting: 2,
      contactline_trigger_deliveries_failing: 1,
      contactline_webhook_deliveries_waiting: 2,
      contactline_webhook_deliveries_failing: 1,
      contactline_webhook_events_to_fan_out: 1,
      'contactline_import_batches_waiting{kind="bulk-update"}': 1,
    };
    expect(Object.fromEntries(Object.keys(waiting).map((name) => [name, busy.get(name)]))).toEqual(waiting);
    expect(busy.get('contactline_import_batch_oldest_waiting_seconds')).toBeGreaterThanOrEqual(90);
  });

  it('serves the database pool and the process metrics, event-loop lag included', async () => {
    const samples = await scrape();
    expect(samples.get('contactline_db_pool_max_connections')).toBe(kind === 'postgres' ? 10 : 1);
    const pool =
      kind === 'postgres'
        ? [
            'contactline_db_pool_connections{state="idle"}',
            'contactline_db_pool_connections{state="in_use"}',
            'contactline_db_pool_waiting_requests',
          ]
        : [];
    for (const name of [...pool, 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds'])
      expect(samples.get(name), name).toBeGreaterThanOrEqual(0);
    expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('answers /readyz 200 when migrated, 503 while a migration is missing', async () => {
    const shipped = migrationNames();
    const ready = await server.request(null, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: 'ready', database: kind, migrations: shipped.length });

    const sql = server.service.services.db.sql;
    const last = shipped[shipped.length - 1];
    const saved = await sql.query(`SELECT * FROM "_prisma_migrations" WHERE migration_name = $1`, [last]);
    expect(saved.rows).toHaveLength(1);
    await sql.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [last]);
    try {
      const missing = await server.request(null, 'GET', '/readyz');
      expectError(missing, 503, 'unavailable');
      expect(missing.json.message).toContain(last);
      expect(missing.json.message).toMatch(/contactline migrate/);
      // Liveness is another question: the process serves.
      expect((await server.request(null, 'GET', '/healthz')).status).toBe(200);
    } finally {
      const row = saved.rows[0] as Record<string, unknown>;
      await sql.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          row.id,
          row.checksum,
          row.finished_at,
          row.migration_name,
          row.logs,
          row.rolled_back_at,
          row.started_at,
          row.applied_steps_count,
        ],
      );
    }
    expect((await server.request(null, 'GET', '/readyz')).status).toBe(200);
  });
});

describe.each(testDatabaseKinds())('readiness with the database closed on %s', (kind) => {
  it('answers /readyz 503 once the database cannot be reached, and /metrics says so', async () => {
    const server = await startTestServer(kind);
    try {
      expect((await server.request(null, 'GET', '/readyz')).status).toBe(200);
      await server.service.services.queue.stop();
      await server.service.services.db.close();
      const res = await server.request(null, 'GET', '/readyz');
      expectError(res, 503, 'unavailable');
      expect(res.json.message).toBe('The database is unreachable');
      const metrics = await server.request(ADMIN_TOKEN, 'GET', '/metrics');
      expect(metrics.status).toBe(200);
      expect(parseMetrics(metrics.text).get('contactline_database_up')).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
