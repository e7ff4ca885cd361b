// Outgoing webhook delivery (src/jobs/webhook-delivery.ts): 1,000 call.ended events of 1,000 ended
// calls, written to the outbox at once for an Account with one endpoint, then fanned out, signed
// and sent to a receiver on loopback (a plain node:http server answering 204), by the worker's own
// pass (fan-out, then the due deliveries, again while there is work) until the receiver has them all.
//
// Figures: the time until the receiver has every event, with deliveries sent 50 at a time as the
// worker sends them (target: under 10 s on PostgreSQL); and the service's own work per delivery
// (target: under 2 ms p50), measured on another 1,000 events sent one at a time, so that no
// delivery's time includes waiting behind the others of its batch: its share of the fan-out
// transaction (rendering the body, inserting the rows), its lease, signing and settling, without
// the time the receiver takes to answer. Raw: the driver writing the same delivery row and marking
// it delivered, one INSERT and one UPDATE per delivery.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { TestServer } from '../test/support/test-server.js';
import { deliverDueWebhooks, fanOutWebhookEvents } from '../src/jobs/webhook-delivery.js';
import { webhookSender } from '../src/jobs/webhook-sender.js';
import { figure, type Figure } from './run.js';

export interface WebhookSettings {
  events: number;
}

export async function benchWebhooks(
  server: TestServer,
  settings: WebhookSettings,
  log: (message: string) => void,
): Promise<Figure> {
  log(`   webhooks: ${settings.events} call.ended events to a receiver on loopback…`);
  const services = server.service.services;
  const webhooks = services.webhooks;
  if (!webhooks?.allowHttpLoopback) throw new Error('the bench server must allow http to loopback receivers');
  const prisma = services.db.prisma;
  const account = await server.createAccount();

  const seen = new Set<string>();
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.add(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const address = receiver.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
  const sender = webhookSender(webhooks);
  try {
    const created = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', {
      url,
      events: ['call.ended'],
    });
    if (created.status !== 201) throw new Error(`endpoint: HTTP ${created.status} ${created.text}`);

    // The calls that ended: contacts imported through the API, their calls and events written directly.
    const contacts = Array.from({ length: 2 * settings.events }, (_, i) => ({
      sourceKind: 'csv',
      externalId: `wh-${i}`,
      firstName: 'Hook',
      phone: `+1415888${String(i).padStart(4, '0')}`,
    }));
    // Imports take 1,000 contacts at most.
    for (let from = 0; from < contacts.length; from += 1000) {
      const imported = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk', {
        contacts: contacts.slice(from, from + 1000),
      });
      if (imported.status !== 202) throw new Error(`import: HTTP ${imported.status} ${imported.text}`);
      await server.eventually(
        async () =>
          (await server.request(account.apiKey, 'GET', `/api/v1/imports/${imported.json.importId}`)).json.status ===
          'done',
        60_000,
      );
    }
    const stored = await prisma.contact.findMany({ where: { accountId: account.accountId }, select: { id: true } });
    const job = { db: services.db, clock: services.clock, webhooks };

    // 1. As the worker sends them: the time until the receiver has all.
    await endedCalls(stored.slice(0, settings.events));
    let started = performance.now();
    while (seen.size < settings.events) {
      const events = await fanOutWebhookEvents(job);
      const sent = await deliverDueWebhooks(job, sender);
      if (events === 0 && sent === 0) await new Promise((r) => setTimeout(r, 5));
      if (performance.now() - started > 120_000) throw new Error(`webhooks: ${seen.size} delivered in 120 s`);
    }
    const deliveredInMs = performance.now() - started;

    // 2. One at a time: each delivery's own work.
    await endedCalls(stored.slice(settings.events));
    const perDelivery: number[] = [];
    // Fanned out first (500 events a transaction, as the worker does), then sent one at a time.
    let fanOutMs = 0;
    let fanned = 0;
    for (;;) {
      const t0 = performance.now();
      const events = await fanOutWebhookEvents(job);
      if (events === 0) break;
      fanOutMs += performance.now() - t0;
      fanned += events;
    }
    started = performance.now();
    while (seen.size < 2 * settings.events) {
      const sent = await deliverDueWebhooks(job, sender, {
        limit: 1,
        observe: ({ serviceMs }) => perDelivery.push(serviceMs),
      });
      if (sent === 0) await new Promise((r) => setTimeout(r, 5));
      if (performance.now() - started > 120_000) throw new Error(`webhooks: ${seen.size} delivered in 120 s`);
    }
    // Each delivery's service work: its share of the fan-out, plus what deliverDueWebhooks observed.
    const fanOutShare = fanOutMs / Math.max(fanned, 1);
    const serviceMs = perDelivery.map((ms) => ms + fanOutShare);

    const raw = await rawDeliveryWrites(server, settings.events);
    const result = figure(serviceMs, raw, {
      id: 'webhook-delivery',
      name: `${settings.events} call.ended webhooks: fan-out, sign, send, settle (service work per delivery)`,
      target: `all delivered < 10 s on PostgreSQL; service work < 2 ms p50`,
      pass: () => null,
      notes:
        "service: per delivery (sent one at a time), its share of the fan-out transaction, its lease, signing and settling (the receiver's answer time excluded); raw: the driver's INSERT of the delivery row and UPDATE to delivered",
    });
    const delivered = await prisma.webhookDelivery.count({
      where: { accountId: account.accountId, status: 'delivered' },
    });
    if (delivered !== 2 * settings.events)
      throw new Error(`webhooks: ${delivered} delivered, ${2 * settings.events} sent`);
    return {
      ...result,
      pass: deliveredInMs < 10_000 && result.service.p50 < 2,
      extra: {
        events: settings.events,
        deliveredInMs: Math.round(deliveredInMs),
        fanOutShareMs: Math.round(fanOutShare * 1000) / 1000,
      },
    };
  } finally {
    sender.close();
    receiver.closeAllConnections();
    receiver.close();
  }

  /** Ended calls of these contacts, with their call.ended events in the outbox (written directly). */
  async function endedCalls(of: Array<{ id: string }>) {
    const now = server.now();
    const calls = of.map((c) => ({
      id: randomUUID(),
      accountId: account.accountId,
      contactId: c.id,
      status: 'ended',
      result: 'converted',
      endReason: 'customer-ended-call',
      startedAt: new Date(now.getTime() - 60_000),
      endedAt: now,
      durationSeconds: 60,
      lastCall: true,
      reportReady: true,
      createdAt: now,
    }));
    await prisma.call.createMany({ data: calls });
    await prisma.domainEvent.createMany({
      data: calls.map((call) => ({
        id: randomUUID(),
        accountId: account.accountId,
        type: 'call.ended',
        payload: {
          callId: call.id,
          contactId: call.contactId,
          accountId: account.accountId,
          workflowId: null,
          agentId: null,
          result: 'converted',
          endReason: 'customer-ended-call',
          durationSeconds: 60,
          lastCall: true,
          transferred: false,
          testCall: false,
          endedAt: now.toISOString(),
        },
        createdAt: now,
        // The board app's trigger is not part of this figure.
        dispatchedAt: now,
      })),
    });
  }
}

/** The raw driver's writes of the same deliveries, one at a time: INSERT, then UPDATE to delivered. */
async function rawDeliveryWrites(server: TestServer, n: number): Promise<number[]> {
  const sql = server.service.services.db.sql;
  await sql.query(`CREATE TABLE IF NOT EXISTS "BenchRawDelivery" (id uuid PRIMARY KEY, payload text, status text)`);
  const payload = JSON.stringify({
    type: 'call.ended',
    timestamp: new Date(0).toISOString(),
    data: { x: 'y'.repeat(600) },
  });
  const samples: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      const t0 = performance.now();
      await sql.query(`INSERT INTO "BenchRawDelivery" (id, payload, status) VALUES ($1, $2, 'pending')`, [id, payload]);
      await sql.query(`UPDATE "BenchRawDelivery" SET status = 'delivered' WHERE id = $1`, [id]);
      samples.push(performance.now() - t0);
    }
  } finally {
    await sql.query(`DROP TABLE IF EXISTS "BenchRawDelivery"`);
  }
  return samples;
}
