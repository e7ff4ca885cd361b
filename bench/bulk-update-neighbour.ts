// What a large bulk-update does to the other requests: GET /api/v1/contacts/{id}, one at a time,
// while a bulk-update of every contact of an Account of its own (50,000, one statement to seed)
// runs in chunks, against the same request on the idle service just before. Target: the update
// adds at most 15 ms to the p50. On the embedded database a request that arrives during a chunk
// waits for the rest of it, and chunks there are sized to take about 10 ms (see
// src/domain/contacts/contacts-bulk-update.service.ts); on PostgreSQL it has its own connection.
import type { TestServer } from '../test/support/test-server.js';
import { figure, timed, type Figure } from './run.js';

export async function benchBulkUpdateNeighbour(
  server: TestServer,
  settings: { contacts: number; idleRequests: number },
  log: (message: string) => void,
): Promise<Figure> {
  log(`   GET /contacts/{id} during a bulk-update of ${settings.contacts.toLocaleString('en-US')} contacts…`);
  const { apiKey, accountId } = await server.createAccount({ defaultLocation: 'US' });
  const sql = server.service.services.db.sql;
  await sql.query(
    `INSERT INTO "Contact" ("id", "accountId", "firstName", "phone", "status", "sourceKind", "externalId", "createdAt", "updatedAt", "dedupKey", "phoneDigits")
     SELECT gen_random_uuid(), $1::uuid, 'Seed', p.phone, 'not_assigned', 'csv', 'seed-' || g, $3::timestamptz + g * interval '1 millisecond', $3::timestamptz,
            'phone=' || p.phone, substr(p.phone, 2)
       FROM generate_series(0, $2::int - 1) AS g, LATERAL (SELECT '+1919' || (2000000 + g)::text AS phone) AS p`,
    [accountId, settings.contacts, new Date(server.now().getTime() - 86_400_000)],
  );
  // The service's writers tell its statistics keeper what they wrote; this seed bypasses them, so
  // it analyzes the table itself (else the idle reads run on plans made for an empty table).
  await sql.query('ANALYZE "Contact"');
  const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
    phone: '+19195550100',
    firstName: 'Neighbour',
  });
  const path = `/api/v1/contacts/${(created.json as { id: string }).id}`;
  const get = async () => {
    const [ms, res] = await timed(() => server.request(apiKey, 'GET', path));
    if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status}`);
    return ms;
  };
  const batchDone = async () =>
    (
      await sql.query<{ status: string }>(
        `SELECT "status"::text AS "status" FROM "ImportBatch" WHERE "accountId" = $1::uuid AND "kind" = 'bulk-update'`,
        [accountId],
      )
    ).rows[0]?.status === 'done';

  // Warm-up: right after the seed's insert the first reads are slower (PostgreSQL sets hint bits, flushes).
  for (let i = 0; i < settings.idleRequests; i++) await get();
  const idle: number[] = [];
  for (let i = 0; i < settings.idleRequests; i++) idle.push(await get());
  const started = performance.now();
  const accepted = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk-update', {
    filter: {},
    data: { customFields: { wave: 'one' }, priority: 3 },
  });
  if (accepted.status !== 202) throw new Error(`bulk-update: HTTP ${accepted.status}`);
  const during: number[] = [];
  while (!(await batchDone())) during.push(await get());
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "Contact" WHERE "accountId" = $1::uuid AND "priority" = 3`,
    [accountId],
  );
  if (rows[0].n !== settings.contacts + 1)
    throw new Error(`bulk-update changed ${rows[0].n} of ${settings.contacts + 1} contacts`);
  const result = figure(during, idle, {
    id: 'bulk-update-neighbour',
    name: `GET /contacts/{id} during a bulk-update of ${settings.contacts.toLocaleString('en-US')} contacts, against the idle service`,
    target: 'adds ≤ 15 ms (p50)',
    pass: () => null,
    notes: `"raw" here is the same request on the idle service just before; the bulk-update took ${seconds} s`,
  });
  const added = Math.round((result.service.p50 - result.raw.p50) * 100) / 100;
  return { ...result, pass: added <= 15, extra: { addedP50Ms: added, bulkUpdateSeconds: seconds } };
}
