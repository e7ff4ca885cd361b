// Webhooks across a SIGKILL: the service (a child process, as in production) is killed while it
// is sending an import's contact.created deliveries, then started again while the receiver
// fails its first answers. Every event reaches the receiver with a 2xx, each under exactly one
// webhook-id (a delivery in flight at the kill may arrive twice, with the same id, which is what
// receivers drop duplicates by), and the log says delivered. On PGlite (a data directory) and
// PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, type DatabaseKind } from '../support/databases.js';
import { databaseForServiceProcesses, killService, startServiceProcess } from '../support/service-process.js';
import { TEST_WEBHOOK_SECRETS_KEY } from '../support/test-server.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const CONTACTS = 300;

describe.each(testDatabaseKinds())('webhooks across a SIGKILL on %s', (kind: DatabaseKind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it(`delivers each of ${CONTACTS} events under one webhook-id across a kill and a failing receiver`, async () => {
    const { env, apiKey: key } = await databaseForServiceProcesses(kind, cleanups, 'webhooks');
    env.WEBHOOK_SECRETS_KEY = TEST_WEBHOOK_SECRETS_KEY;
    env.WEBHOOKS_ALLOW_HTTP_LOOPBACK = 'true';

    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    // Slow answers: deliveries are in flight when the kill comes.
    receiver.delayMs = 150;
    const api = async (baseUrl: string, method: string, route: string, body?: unknown) => {
      const res = await fetch(`${baseUrl}${route}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as any };
    };

    let service = await startServiceProcess(env);
    cleanups.push(() => killService(service.child));
    const endpoint = await api(service.baseUrl, 'POST', '/api/v1/webhook-endpoints', {
      url: receiver.url,
      events: ['contact.created'],
    });
    expect(endpoint.status).toBe(201);
    receiver.secrets.push(endpoint.json.secret);
    const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
      sourceKind: 'csv',
      externalId: `w-${i}`,
      phone: `+1415777${String(i).padStart(4, '0')}`,
    }));
    const imported = await api(service.baseUrl, 'POST', '/api/v1/contacts/bulk', { contacts });
    expect(imported.status).toBe(202);

    await receiver.waitFor((all) => all.length >= 40, 60_000);
    await killService(service.child);
    const beforeKill = receiver.received.length;
    expect(beforeKill).toBeLessThan(CONTACTS);

    // The receiver fails its next answers: they are retried after the restart too.
    receiver.failNext(15, 503);
    service = await startServiceProcess(env);
    const delivered = (all: typeof receiver.received) =>
      new Set(all.filter((r) => r.answered < 300).map((r) => r.payload.data.id)).size;
    await receiver.waitFor((all) => delivered(all) === CONTACTS, 90_000);

    const received = receiver.received;
    // Every event once, under one webhook-id, signed.
    const idsByContact = new Map<string, Set<string>>();
    for (const r of received) {
      expect(r.payload.type).toBe('contact.created');
      expect(r.verifiedWith, r.webhookId).toEqual([endpoint.json.secret]);
      const ids = idsByContact.get(r.payload.data.id) ?? new Set();
      ids.add(r.webhookId);
      idsByContact.set(r.payload.data.id, ids);
    }
    expect(idsByContact.size).toBe(CONTACTS);
    for (const [contact, ids] of idsByContact) expect(ids.size, contact).toBe(1);
    expect(new Set(received.map((r) => r.payload.data.externalId))).toEqual(new Set(contacts.map((c) => c.externalId)));
    // Sent twice with a 2xx: only what was in flight at the kill (a lease's batch at most).
    const okTwice = [...idsByContact.keys()].filter(
      (id) => received.filter((r) => r.payload.data.id === id && r.answered < 300).length > 1,
    );
    expect(okTwice.length).toBeLessThanOrEqual(50);
    // The failing answers after the restart were retried.
    expect(received.filter((r) => r.answered === 503)).toHaveLength(15);

    // The log agrees: every delivery delivered.
    const statuses = new Map<string, number>();
    let token: string | undefined;
    do {
      const page = await api(
        service.baseUrl,
        'GET',
        `/api/v1/webhook-endpoints/${endpoint.json.id}/deliveries?limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
      );
      for (const d of page.json.data) statuses.set(d.status, (statuses.get(d.status) ?? 0) + 1);
      token = page.json.nextToken;
    } while (token);
    await receiver.waitFor(() => true);
    const settled = async () => {
      const page = await api(
        service.baseUrl,
        'GET',
        `/api/v1/webhook-endpoints/${endpoint.json.id}/deliveries?status=pending&limit=1`,
      );
      return page.json.data.length === 0;
    };
    for (let i = 0; i < 100 && !(await settled()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await settled()).toBe(true);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(CONTACTS);
  }, 180_000);
});
