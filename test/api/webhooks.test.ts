// Outgoing webhooks through a real listening service and a real receiver that verifies every
// delivery with the `standardwebhooks` package: endpoints' CRUD and their refusals, each event
// type with the data the REST API answers for the same thing, retries across a failing receiver
// (same webhook-id each time), the deliveries log and a retry by hand, secret rotation (both
// signatures for 24 hours, then the new one only), 3 days of retries then failed, an endpoint
// disabled after failing for 5 days with a notice in its log, redirects not followed, and the
// SSRF refusals (private, link-local and loopback addresses, names resolving to them, at save
// time and at connection time). On PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, uniquePhone, upsertOk, UUID_RE } from '../support/api-helpers.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.js';
import { ALWAYS_OPEN } from '../support/working-hours.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';
import type { HostLookup } from '../../src/domain/context.js';

/** The service's clock: the real time, moved ahead by the tests that wait out a backoff. */
function shiftableClock() {
  return {
    offsetMs: 0,
    now() {
      return new Date(Date.now() + this.offsetMs);
    },
  };
}

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  disabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
  secret?: string;
}

async function createEndpoint(
  server: TestServer,
  account: TestAccount,
  body: Record<string, unknown>,
  receiver?: WebhookReceiver,
): Promise<Endpoint> {
  const res = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', body);
  expect(res.status, res.text).toBe(201);
  if (receiver) receiver.secrets.push(res.json.secret);
  return res.json;
}

const deliveries = async (server: TestServer, account: TestAccount, endpointId: string, query = '') => {
  const res = await server.request(account.apiKey, 'GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data as Array<Record<string, any>>;
};

/**
 * The delivery log once no attempt is in flight. A receiver hears an attempt before the service
 * records its answer; meanwhile the row is leased and shows `nextAttemptAt: null` while pending.
 */
const settledDeliveries = (server: TestServer, account: TestAccount, endpointId: string) =>
  server.eventually(async () => {
    const log = await deliveries(server, account, endpointId);
    return log.every((d) => !(d.status === 'pending' && d.nextAttemptAt === null)) ? log : undefined;
  });

const ofType = (received: ReceivedWebhook[], type: string) => received.filter((r) => r.payload.type === type);

/**
 * Whether a delivery is signed with `secret`, checked with the package's sign() against the
 * header's own timestamp: for a service whose clock is not the real time (verify() also checks
 * that timestamp against the real time).
 */
const signedWith = (delivery: ReceivedWebhook, secret: string) => {
  const at = new Date(Number(delivery.headers['webhook-timestamp']) * 1000);
  const expected = new Webhook(secret).sign(delivery.webhookId, at, delivery.body);
  return String(delivery.headers['webhook-signature']).split(' ').includes(expected);
};

describe.each(testDatabaseKinds())('webhooks on %s', (kind) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  const clock = shiftableClock();

  beforeAll(async () => {
    server = await startTestServer(kind, { clock, webhooks: { deliver: true, allowHttpLoopback: true } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.stop();
  });

  it('creates, reads, lists, changes and deletes endpoints; the secret is shown once and kept encrypted', async () => {
    const account = await server.createAccount();
    const created = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', {
      url: receiver.url,
      events: ['contact.created', 'call.ended'],
      description: 'CRM sync',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      id: expect.stringMatching(UUID_RE),
      url: receiver.url,
      events: ['contact.created', 'call.ended'],
      description: 'CRM sync',
      disabled: false,
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(created.headers.get('location')).toBe(`/api/v1/webhook-endpoints/${created.json.id}`);
    const { id, secret } = created.json;

    const read = await server.request(account.apiKey, 'GET', `/api/v1/webhook-endpoints/${id}`);
    expect(read.status).toBe(200);
    expect(read.json).not.toHaveProperty('secret');
    expect(read.text).not.toContain(secret.slice(6));
    const { secret: _shown, ...withoutSecret } = created.json;
    expect(read.json).toEqual(withoutSecret);

    // At rest: encrypted, not the secret.
    const row = await server.service.services.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row.secretEncrypted).toMatch(/^v1\./);
    expect(row.secretEncrypted).not.toContain(secret.slice(6, 20));

    const second = await createEndpoint(server, account, {
      url: `${receiver.url}?second`,
      events: ['import.completed'],
    });
    const list = await server.request(account.apiKey, 'GET', '/api/v1/webhook-endpoints?limit=1');
    expect(list.status).toBe(200);
    expect(list.json.data.map((e: Endpoint) => e.id)).toEqual([second.id]);
    const next = await server.request(
      account.apiKey,
      'GET',
      `/api/v1/webhook-endpoints?limit=1&nextToken=${encodeURIComponent(list.json.nextToken)}`,
    );
    expect(next.json.data.map((e: Endpoint) => e.id)).toEqual([id]);
    expect(next.json.nextToken ?? null).toBeNull();

    const patched = await server.request(account.apiKey, 'PATCH', `/api/v1/webhook-endpoints/${id}`, {
      events: ['contact.updated'],
      description: null,
      disabled: true,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({
      events: ['contact.updated'],
      description: null,
      disabled: true,
      disabledReason: 'disabled through the API',
    });
    const enabled = await server.request(account.apiKey, 'PATCH', `/api/v1/webhook-endpoints/${id}`, {
      disabled: false,
    });
    expect(enabled.json).toMatchObject({ disabled: false, disabledReason: null });

    // Another Account sees nothing of it.
    const other = await server.createAccount();
    expectError(await server.request(other.apiKey, 'GET', `/api/v1/webhook-endpoints/${id}`), 404, 'not_found');
    expectError(await server.request(other.apiKey, 'DELETE', `/api/v1/webhook-endpoints/${id}`), 404, 'not_found');

    const deleted = await server.request(account.apiKey, 'DELETE', `/api/v1/webhook-endpoints/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await server.request(account.apiKey, 'GET', `/api/v1/webhook-endpoints/${id}`), 404, 'not_found');
    expectError(await server.request(account.apiKey, 'DELETE', `/api/v1/webhook-endpoints/${id}`), 404, 'not_found');
  });

  it('refuses bad endpoint bodies with the error body, naming the field', async () => {
    const account = await server.createAccount();
    const post = (body: unknown) => server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', body);
    for (const [body, field] of [
      [{ events: ['call.ended'] }, 'url'],
      [{ url: 'not a url', events: ['call.ended'] }, 'url'],
      [{ url: 'ftp://example.com/x', events: ['call.ended'] }, 'url'],
      [{ url: 'https://user:pw@example.com/x', events: ['call.ended'] }, 'url'],
      [{ url: `https://example.com/${'a'.repeat(2100)}`, events: ['call.ended'] }, 'url'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url, events: ['call.started'] }, 'events[0]'],
      [{ url: receiver.url, events: ['call.ended', 'call.ended'] }, 'events'],
      [{ url: receiver.url, events: ['call.ended'], extra: 1 }, 'extra'],
      [{ url: receiver.url, events: ['call.ended'], description: 'x'.repeat(501) }, 'description'],
    ] as const) {
      const res = await post(body);
      expectError(res, 400, 'bad_request');
      expect(res.json.message, JSON.stringify(body)).toContain(field);
    }
    expectError(await post('[1'), 400, 'bad_request');
    expectError(
      await server.request(account.apiKey, 'PATCH', `/api/v1/webhook-endpoints/${randomUUID()}`, { disabled: 'yes' }),
      400,
      'bad_request',
    );
    expectError(
      await server.request(account.apiKey, 'GET', '/api/v1/webhook-endpoints/not-a-uuid'),
      400,
      'bad_request',
    );
    expectError(await server.request(null, 'GET', '/api/v1/webhook-endpoints'), 401, 'unauthenticated');
    const endpoint = await createEndpoint(server, account, { url: receiver.url, events: ['call.ended'] });
    expectError(
      await server.request(account.apiKey, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?status=lost`),
      400,
      'bad_request',
    );
    // Nothing was stored by the refused requests.
    const list = await server.request(account.apiKey, 'GET', '/api/v1/webhook-endpoints');
    expect(list.json.data).toHaveLength(1);
  });

  it('sends contact.created and contact.updated, signed, with the contact as GET /contacts/{id} answers', async () => {
    const account = await server.createAccount();
    const endpoint = await createEndpoint(
      server,
      account,
      { url: receiver.url, events: ['contact.created', 'contact.updated'] },
      receiver,
    );
    const externalId = `crm-${randomUUID()}`;
    const created = await upsertOk(server, account.apiKey, {
      sourceKind: 'api',
      externalId,
      firstName: 'Ada',
      phone: uniquePhone(),
    });
    const mine = (r: ReceivedWebhook) => r.payload.data?.id === created.id;
    const [first] = await receiver.waitFor((all) => all.some(mine));
    const delivery = receiver.received.find(mine)!;
    expect(first).toBeDefined();
    expect(delivery.payload.type).toBe('contact.created');
    const stored = await server.request(account.apiKey, 'GET', `/api/v1/contacts/${created.id}`);
    expect(delivery.payload.data).toEqual(stored.json);
    expect(delivery.verifiedWith).toEqual([endpoint.secret]);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.webhookId).toMatch(/^msg_[0-9a-f-]{36}$/);
    expect(Number(delivery.headers['webhook-timestamp'])).toBeGreaterThan(0);
    expect(new Date(delivery.payload.timestamp).toISOString()).toBe(delivery.payload.timestamp);

    const patched = await server.request(
      account.apiKey,
      'PATCH',
      `/api/v1/contacts/source/api/external-id/${externalId}`,
      { lastName: 'Lovelace' },
    );
    expect(patched.status, patched.text).toBe(200);
    await receiver.waitFor((all) => all.some((r) => mine(r) && r.payload.type === 'contact.updated'));
    const updated = receiver.received.find((r) => mine(r) && r.payload.type === 'contact.updated')!;
    expect(updated.payload.data).toMatchObject({ id: created.id, firstName: 'Ada', lastName: 'Lovelace' });
    expect(updated.webhookId).not.toBe(delivery.webhookId);

    const log = await settledDeliveries(server, account, endpoint.id);
    expect(log.map((d) => d.eventType).sort()).toEqual(['contact.created', 'contact.updated']);
    for (const d of log)
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 204, nextAttemptAt: null });
    expect(log.find((d) => d.eventType === 'contact.created')!.webhookId).toBe(delivery.webhookId);
  });

  it('sends contact.deleted when a contact is erased; its earlier deliveries leave the log', async () => {
    const account = await server.createAccount();
    const endpoint = await createEndpoint(
      server,
      account,
      { url: receiver.url, events: ['contact.created', 'contact.deleted'] },
      receiver,
    );
    const externalId = `erased-${randomUUID()}`;
    const contact = await upsertOk(server, account.apiKey, { sourceKind: 'hubspot', externalId, phone: uniquePhone() });
    await receiver.waitFor((all) =>
      all.some((r) => r.payload.type === 'contact.created' && r.payload.data.id === contact.id),
    );
    const erased = await server.request(account.apiKey, 'DELETE', `/api/v1/contacts/${contact.id}?block=true`);
    expect(erased.status).toBe(204);
    await receiver.waitFor((all) =>
      all.some((r) => r.payload.type === 'contact.deleted' && r.payload.data.id === contact.id),
    );
    const deleted = receiver.received.find(
      (r) => r.payload.type === 'contact.deleted' && r.payload.data.id === contact.id,
    )!;
    expect(deleted.payload.data).toEqual({
      id: contact.id,
      sourceKind: 'hubspot',
      externalId,
      blocked: true,
      deletedAt: deleted.payload.timestamp,
    });
    expect(deleted.verifiedWith).toEqual([endpoint.secret]);
    const log = await deliveries(server, account, endpoint.id);
    expect(log.map((d) => d.eventType)).toEqual(['contact.deleted']);
  });

  it('writes no events an Account does not listen to', async () => {
    const account = await server.createAccount();
    await createEndpoint(server, account, { url: receiver.url, events: ['import.completed'] }, receiver);
    await upsertOk(server, account.apiKey, { sourceKind: 'api', externalId: 'quiet', phone: uniquePhone() });
    const events = await server.service.services.db.prisma.domainEvent.count({
      where: { accountId: account.accountId, type: { in: ['contact.created', 'contact.updated'] } },
    });
    expect(events).toBe(0);
  });

  it('sends import.completed and bulk_update.completed with the jobs as their GETs answer', async () => {
    const account = await server.createAccount();
    await createEndpoint(
      server,
      account,
      { url: receiver.url, events: ['import.completed', 'bulk_update.completed', 'contact.created'] },
      receiver,
    );
    const imported = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: [
        { sourceKind: 'csv', externalId: 'a', phone: uniquePhone(), customFields: { batch: 'w' } },
        { sourceKind: 'csv', externalId: 'b', phone: '+1 123', customFields: { batch: 'w' } },
        { sourceKind: 'csv', externalId: 'c', phone: uniquePhone(), priority: 3, customFields: { batch: 'w' } },
      ],
    });
    expect(imported.status, imported.text).toBe(202);
    const importId = imported.json.importId;
    await receiver.waitFor((all) => all.some((r) => r.payload.data?.id === importId));
    const job = receiver.received.find((r) => r.payload.data?.id === importId)!;
    expect(job.payload.type).toBe('import.completed');
    const read = await server.request(account.apiKey, 'GET', `/api/v1/imports/${importId}`);
    expect(job.payload.data).toEqual(read.json);
    expect(job.payload.data).toMatchObject({ status: 'done', created: 2 });
    // One contact.created per contact the import created.
    await receiver.waitFor(
      (all) =>
        ofType(all, 'contact.created').filter((r) => r.payload.data.accountId === account.accountId).length === 2,
    );

    const update = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk-update', {
      filter: { customFields: [{ key: 'batch', value: 'w' }] },
      data: { priority: 7 },
    });
    expect(update.status, update.text).toBe(202);
    const updateId = update.json.updateId;
    await receiver.waitFor((all) => all.some((r) => r.payload.data?.id === updateId));
    const done = receiver.received.find((r) => r.payload.data?.id === updateId)!;
    expect(done.payload.type).toBe('bulk_update.completed');
    const readUpdate = await server.request(account.apiKey, 'GET', `/api/v1/bulk-updates/${updateId}`);
    expect(done.payload.data).toEqual(readUpdate.json);
    expect(done.payload.data).toMatchObject({ status: 'done', matched: 2, changed: 2 });
  });

  it('retries a failing receiver with backoff under the same webhook-id until it answers, then a retry by hand sends it again', async () => {
    const account = await server.createAccount();
    const endpoint = await createEndpoint(
      server,
      account,
      { url: receiver.url, events: ['contact.created'] },
      receiver,
    );
    receiver.failNext(2, 503);
    const contact = await upsertOk(server, account.apiKey, {
      sourceKind: 'api',
      externalId: 'r',
      phone: uniquePhone(),
    });
    const mine = (all: ReceivedWebhook[]) => all.filter((r) => r.payload.data?.id === contact.id);
    await receiver.waitFor((all) => mine(all).length === 1);
    let [log] = await settledDeliveries(server, account, endpoint.id);
    expect(log).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503 });
    expect(log.lastError).toContain('HTTP 503');
    // The first retry is 5 s later by the service's clock, the next 15 s after that.
    const gap = (d: Record<string, any>) => new Date(d.nextAttemptAt).getTime() - new Date(d.lastAttemptAt).getTime();
    expect(gap(log)).toBeGreaterThanOrEqual(5_000);
    expect(gap(log)).toBeLessThan(6_000);
    expect(
      (await server.request(account.apiKey, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json.failingSince,
    ).not.toBeNull();
    clock.offsetMs += 6_000;
    await receiver.waitFor((all) => mine(all).length === 2);
    [log] = await settledDeliveries(server, account, endpoint.id);
    expect(log).toMatchObject({ status: 'pending', attempts: 2 });
    expect(gap(log)).toBeGreaterThanOrEqual(15_000);
    expect(gap(log)).toBeLessThan(16_000);
    clock.offsetMs += 16_000;
    await receiver.waitFor((all) => mine(all).length === 3);
    await server.eventually(async () => (await deliveries(server, account, endpoint.id))[0].status === 'delivered');
    [log] = await deliveries(server, account, endpoint.id);
    expect(log).toMatchObject({ status: 'delivered', attempts: 3, responseStatus: 204, lastError: null });
    const attempts = mine(receiver.received);
    expect(new Set(attempts.map((a) => a.webhookId))).toEqual(new Set([log.webhookId]));
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(attempts.map((a) => a.answered)).toEqual([503, 503, 204]);
    for (const a of attempts) expect(a.verifiedWith).toEqual([endpoint.secret]);
    expect(
      (await server.request(account.apiKey, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json.failingSince,
    ).toBeNull();

    const retried = await server.request(
      account.apiKey,
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${log.id}/retry`,
    );
    expect(retried.status, retried.text).toBe(202);
    expect(retried.json).toMatchObject({ id: log.id, status: 'pending', webhookId: log.webhookId });
    await receiver.waitFor((all) => mine(all).length === 4);
    expect(mine(receiver.received)[3].webhookId).toBe(log.webhookId);
    expectError(
      await server.request(
        account.apiKey,
        'POST',
        `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${randomUUID()}/retry`,
      ),
      404,
      'not_found',
    );
    const filtered = await deliveries(server, account, endpoint.id, '?status=failed');
    expect(filtered).toEqual([]);
  });

  it('does not follow a redirect: the attempt fails and the other address hears nothing', async () => {
    const account = await server.createAccount();
    const elsewhere = await startWebhookReceiver();
    const redirecting = await startWebhookReceiver();
    try {
      redirecting.answerAlways(307, { location: elsewhere.url });
      const endpoint = await createEndpoint(server, account, { url: redirecting.url, events: ['contact.created'] });
      await upsertOk(server, account.apiKey, { sourceKind: 'api', externalId: 'redir', phone: uniquePhone() });
      await redirecting.waitFor((all) => all.length === 1);
      await server.eventually(async () => (await deliveries(server, account, endpoint.id))[0].responseStatus === 307);
      const [log] = await deliveries(server, account, endpoint.id);
      expect(log).toMatchObject({ status: 'pending', responseStatus: 307 });
      expect(log.lastError).toContain('redirects are not followed');
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
      await redirecting.close();
    }
  });

  it('keeps an idempotent create answer encrypted, and replays it with the same secret', async () => {
    const account = await server.createAccount();
    const key = `create-${randomUUID()}`;
    const body = { url: receiver.url, events: ['call.ended'] };
    const first = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', body, {
      'idempotency-key': key,
    });
    expect(first.status).toBe(201);
    const again = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', body, {
      'idempotency-key': key,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    const stored = await server.service.services.db.prisma.idempotencyKey.findFirstOrThrow({
      where: { accountId: account.accountId, key },
    });
    expect(stored.body).not.toContain(first.json.secret.slice(6, 20));
    expect(stored.body).toMatch(/^v1\./);
  });
});

describe.each(testDatabaseKinds())('call webhooks on %s', (kind) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  // A call is placed only inside the law's calling hours where the contact is (uniquePhone() is a
  // San Francisco number): Monday 23 November 2026, 10:00 in Los Angeles, whatever the real time.
  const clock = {
    at: new Date('2026-11-23T18:00:00.000Z'),
    now() {
      return this.at;
    },
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { clock, webhooks: { deliver: true, allowHttpLoopback: true } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.stop();
  });

  it("sends call.ended with the trigger's outputs and the call as the contact's calls list shows it", async () => {
    const account = await server.createAccount();
    const { agentId, workflowId, dial } = await callingSetup(server, account.accountId, {
      workingHours: ALWAYS_OPEN,
      attemptLimit: 1,
    });
    const endpoint = await createEndpoint(server, account, { url: receiver.url, events: ['call.ended'] });
    const phone = uniquePhone();
    const contact = await upsertOk(server, account.apiKey, {
      sourceKind: 'api',
      externalId: `call-${randomUUID()}`,
      phone,
      assignmentOptions: { workflowId },
      // A US telemarketing call needs the contact's prior express written consent.
      consent: writtenConsent(server.now()),
    });
    const placed = await dial({ [phone]: { result: 'converted', durationSeconds: 42 } });
    expect(placed.map((p) => p.contactId)).toEqual([contact.id]);

    await receiver.waitFor((all) =>
      all.some((r) => r.payload.type === 'call.ended' && r.payload.data.contactId === contact.id),
    );
    const ended = receiver.received.find(
      (r) => r.payload.type === 'call.ended' && r.payload.data.contactId === contact.id,
    )!;
    const calls = await server.request(
      account.apiKey,
      'GET',
      `/api/v1/contacts/source/api/external-id/${contact.externalId}/calls`,
    );
    expect(calls.json.data).toHaveLength(1);
    expect(ended.payload.data).toMatchObject({
      callResult: 'converted',
      durationSeconds: 42,
      isLastCall: true,
      callId: calls.json.data[0].id,
      contactId: contact.id,
      agentId,
      workflowId,
      itemId: null,
      boardId: null,
    });
    expect(ended.payload.data.call).toEqual(calls.json.data[0]);
    expect(signedWith(ended, endpoint.secret!)).toBe(true);
  });
});

describe.each(testDatabaseKinds())('webhook rotation, give-up and disabling on %s', (kind) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  // Moved ahead by days here, so these deliveries are checked with the package's sign() against
  // the header's own timestamp (its verify() also checks that timestamp against the real time).
  const clock = shiftableClock();

  beforeAll(async () => {
    server = await startTestServer(kind, { clock, webhooks: { deliver: true, allowHttpLoopback: true } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.stop();
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const account = await server.createAccount();
    const endpoint = await createEndpoint(server, account, { url: receiver.url, events: ['contact.created'] });
    const rotated = await server.request(
      account.apiKey,
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
    );
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret: string = rotated.json.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    const expires = new Date(rotated.json.previousSecretExpiresAt).getTime();
    expect(expires - clock.now().getTime()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires - clock.now().getTime()).toBeLessThanOrEqual(24 * 3600_000);

    const during = await upsertOk(server, account.apiKey, { sourceKind: 'api', externalId: 'd', phone: uniquePhone() });
    await receiver.waitFor((all) => all.some((r) => r.payload.data?.id === during.id));
    const first = receiver.received.find((r) => r.payload.data?.id === during.id)!;
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(signedWith(first, newSecret)).toBe(true);
    expect(signedWith(first, endpoint.secret!)).toBe(true);
    // The official verify() accepts it with either secret (the clock has not moved yet).
    expect(() => new Webhook(newSecret).verify(first.body, first.headers as Record<string, string>)).not.toThrow();
    expect(() =>
      new Webhook(endpoint.secret!).verify(first.body, first.headers as Record<string, string>),
    ).not.toThrow();

    clock.offsetMs += 24 * 3600_000 + 60_000;
    const after = await upsertOk(server, account.apiKey, { sourceKind: 'api', externalId: 'e', phone: uniquePhone() });
    await receiver.waitFor((all) => all.some((r) => r.payload.data?.id === after.id));
    const second = receiver.received.find((r) => r.payload.data?.id === after.id)!;
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(signedWith(second, newSecret)).toBe(true);
    expect(signedWith(second, endpoint.secret!)).toBe(false);
  });

  it('retries for 3 days then fails; an endpoint failing for 5 days is disabled with a notice in its log', async () => {
    const account = await server.createAccount();
    const failing = await startWebhookReceiver();
    try {
      failing.answerAlways(500);
      const endpoint = await createEndpoint(server, account, { url: failing.url, events: ['contact.created'] });
      const started = clock.now().getTime();
      await upsertOk(server, account.apiKey, { sourceKind: 'api', externalId: 'f1', phone: uniquePhone() });
      // Move the clock to each next attempt until the delivery gives up.
      let log = (await deliveries(server, account, endpoint.id))[0];
      for (let step = 0; step < 40; step++) {
        log = await server.eventually(async () => {
          const [d] = await deliveries(server, account, endpoint.id);
          return d && d.attempts > 0 && d.lastAttemptAt && (d.status !== 'pending' || d.nextAttemptAt) ? d : undefined;
        });
        if (log.status !== 'pending') break;
        const attempts = log.attempts;
        clock.offsetMs += new Date(log.nextAttemptAt).getTime() - clock.now().getTime() + 1;
        await server.eventually(async () => (await deliveries(server, account, endpoint.id))[0].attempts > attempts);
      }
      expect(log.status).toBe('failed');
      expect(log.responseStatus).toBe(500);
      const gaveUpAfter = new Date(log.lastAttemptAt).getTime() - started;
      expect(gaveUpAfter).toBeLessThanOrEqual(3 * 24 * 3600_000 + 5_000);
      expect(gaveUpAfter).toBeGreaterThan(2 * 24 * 3600_000);
      // Exponential: the attempts grew apart (5 s, 15 s, …, at most 12 h).
      expect(log.attempts).toBeGreaterThanOrEqual(10);
      expect(log.attempts).toBeLessThanOrEqual(20);
      let current = (await server.request(account.apiKey, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json;
      expect(current.disabled).toBe(false);
      expect(new Date(current.failingSince).getTime()).toBeLessThan(started + 1000);

      // Five days after the first failure, the next failed attempt disables it.
      clock.offsetMs += started + 5 * 24 * 3600_000 + 1000 - clock.now().getTime();
      await upsertOk(server, account.apiKey, { sourceKind: 'api', externalId: 'f2', phone: uniquePhone() });
      current = await server.eventually(async () => {
        const res = await server.request(account.apiKey, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`);
        return res.json.disabled ? res.json : undefined;
      });
      expect(current.disabledReason).toContain('5 days');
      const entries = await deliveries(server, account, endpoint.id);
      expect(entries[0]).toMatchObject({ eventType: 'webhook_endpoint.disabled', status: 'notice', attempts: 0 });
      expect(entries[0].payload).toMatchObject({
        type: 'webhook_endpoint.disabled',
        data: { endpointId: endpoint.id },
      });
      // Disabled: a new event is not sent, a retry by hand is refused until it is switched on.
      const heard = failing.received.length;
      await upsertOk(server, account.apiKey, { sourceKind: 'api', externalId: 'f3', phone: uniquePhone() });
      const pending = entries.find((e) => e.eventType === 'contact.created')!;
      expectError(
        await server.request(
          account.apiKey,
          'POST',
          `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${pending.id}/retry`,
        ),
        409,
        'conflict',
      );
      await new Promise((r) => setTimeout(r, 1000));
      expect(failing.received.length).toBe(heard);
    } finally {
      await failing.close();
    }
  });
});

describe.each(testDatabaseKinds())('webhook addresses (SSRF) on %s', (kind) => {
  let server: TestServer;
  // Names of the tests' own: what each resolves to, changeable (DNS rebinding).
  const names = new Map<string, string>([
    ['hooks.public.test', '93.184.216.34'],
    ['intranet.example.test', '10.1.2.3'],
    ['metadata.example.test', '169.254.169.254'],
    ['v6local.example.test', 'fd00::1'],
  ]);
  const lookup: HostLookup = async (hostname) => {
    const address = names.get(hostname);
    if (!address) throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

  beforeAll(async () => {
    // As in production: no plain http, no loopback.
    server = await startTestServer(kind, { webhooks: { deliver: true, allowHttpLoopback: false, lookup } });
  });
  afterAll(() => server?.stop());

  it('refuses loopback, private and link-local addresses, by literal or by name, when an endpoint is saved', async () => {
    const account = await server.createAccount();
    const refused = [
      'http://127.0.0.1:8080/hooks',
      'http://hooks.public.test/x',
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://[::1]/hooks',
      'https://10.0.0.5/hooks',
      'https://192.168.1.10/hooks',
      'https://172.16.0.1/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hooks',
      'https://[fd00::1]/hooks',
      'https://[::ffff:10.0.0.1]/hooks',
      'https://0.0.0.0/hooks',
      'https://intranet.example.test/hooks',
      'https://metadata.example.test/hooks',
      'https://v6local.example.test/hooks',
      'https://nowhere.example.test/hooks',
    ];
    for (const url of refused) {
      const res = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', {
        url,
        events: ['contact.created'],
      });
      expectError(res, 400, 'bad_request');
      expect(res.json.message, url).toMatch(/^url: /);
    }
    const ok = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://hooks.public.test/x',
      events: ['contact.created'],
    });
    expect(ok.status, ok.text).toBe(201);
    expect((await server.request(account.apiKey, 'GET', '/api/v1/webhook-endpoints')).json.data).toHaveLength(1);
  });

  it('refuses at connection time a name that resolves to a private address after it was saved (DNS rebinding)', async () => {
    const account = await server.createAccount();
    names.set('rebind.example.test', '93.184.216.35');
    const endpoint = await createEndpoint(server, account, {
      url: 'https://rebind.example.test/hooks',
      events: ['contact.created'],
    });
    names.set('rebind.example.test', '10.9.8.7');
    await upsertOk(server, account.apiKey, { sourceKind: 'api', externalId: 'rb', phone: uniquePhone() });
    const log = await server.eventually(async () => {
      const [d] = await deliveries(server, account, endpoint.id);
      return d?.lastError ? d : undefined;
    });
    expect(log).toMatchObject({ status: 'pending', responseStatus: null, attempts: 1 });
    expect(log.lastError).toMatch(/^refused: .*10\.9\.8\.7.*private/);
  });
});
