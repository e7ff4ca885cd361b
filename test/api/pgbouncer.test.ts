// The service through PgBouncer in transaction pooling mode (1.18: no prepared statements across
// transactions), with 5 server connections: DATABASE_URL is the pooler, DATABASE_DIRECT_URL the
// database itself (the process-liveness lock). Upserts, a bulk import to done, lists, an
// enrollment job and the dialer placing its calls, and the webhook outbox fanned out and
// delivered all work, with 20 requests at once. PostgreSQL only; skipped without
// /usr/sbin/pgbouncer, except under CI (which installs it), where its absence fails.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { startPgBouncer, PGBOUNCER, type PgBouncer } from '../support/pgbouncer.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';
import { listOk } from '../support/api-helpers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const POOL_SIZE = 5;
const AT_ONCE = 20;
const MONDAY_10_CHICAGO = new Date('2026-11-30T16:00:00.000Z');
const ALWAYS = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
);

const HAVE_PGBOUNCER = fs.existsSync(PGBOUNCER);
const POSTGRES = !!process.env.TEST_DATABASE_URL;

if (process.env.CI && POSTGRES && !HAVE_PGBOUNCER)
  throw new Error(`${PGBOUNCER} is missing: CI installs Debian's pgbouncer (.ci/run)`);

describe.skipIf(!POSTGRES || !HAVE_PGBOUNCER)(
  `through PgBouncer, transaction pooling, ${POOL_SIZE} server connections (skipped without TEST_DATABASE_URL or ${PGBOUNCER})`,
  () => {
    let server: TestServer;
    let bouncer: PgBouncer | undefined;
    let receiver: WebhookReceiver;
    let account: TestAccount;
    let seq = 0;
    const phone = () => `+1312559${String(1000 + seq++).padStart(4, '0')}`;
    const clock = { now: () => MONDAY_10_CHICAGO };

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startTestServer('postgres', {
        clock,
        webhooks: { deliver: true, allowHttpLoopback: true },
        pooler: async (name, directUrl) => {
          bouncer = await startPgBouncer(name, directUrl, POOL_SIZE);
          return bouncer.url;
        },
      });
      account = await server.createAccount();
    }, 30_000);
    afterAll(async () => {
      await server?.stop();
      await bouncer?.stop();
      await receiver?.close();
    });

    it('runs on the pooler with unnamed statements, the liveness lock on the direct connection', () => {
      const { db } = server.service.services;
      expect(db.pooled).toBe(true);
      expect(db.connectionString).toBe(bouncer!.url);
      expect(db.directConnectionString).not.toBe(bouncer!.url);
    });

    it(`${AT_ONCE} upserts at once, each its own contact, each announced to a webhook endpoint`, async () => {
      const endpoint = await server.request(account.apiKey, 'POST', '/api/v1/webhook-endpoints', {
        url: receiver.url,
        events: ['contact.created'],
      });
      expect(endpoint.status, endpoint.text).toBe(201);
      const phones = Array.from({ length: AT_ONCE }, phone);
      const answers = await Promise.all(
        phones.map((p, i) =>
          server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
            phone: p,
            firstName: `Ann${i}`,
            consent: writtenConsent(MONDAY_10_CHICAGO),
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(phones.map(() => 201));
      // The outbox fanned out and the deliveries made, through the pooler (their leases'
      // owner checked on the direct connection).
      const received = await receiver.waitFor(
        (all) => all.filter((w) => w.payload.type === 'contact.created').length >= AT_ONCE,
        20_000,
      );
      expect(new Set(received.map((w) => w.payload.data.id)).size).toBe(AT_ONCE);
      expect(await bouncer!.serverConnections()).toBeLessThanOrEqual(POOL_SIZE);
    });

    it(`${AT_ONCE} lists and searches at once`, async () => {
      const pages = await Promise.all(
        Array.from({ length: AT_ONCE }, (_, i) =>
          listOk(server, account.apiKey, i % 2 ? 'limit=5' : `searchTerm=Ann${i}`),
        ),
      );
      for (const [i, page] of pages.entries()) {
        if (i % 2) expect(page.data).toHaveLength(5);
        else expect(page.data.map((c) => c.firstName)).toContain(`Ann${i}`);
      }
    });

    it('a bulk import runs to done through the job queue', async () => {
      const contacts = Array.from({ length: 50 }, () => ({ sourceKind: 'api', externalId: null, phone: phone() }));
      const started = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk', { contacts });
      expect(started.status, started.text).toBe(202);
      const job = await server.eventually(async () => {
        const res = await server.request(account.apiKey, 'GET', `/api/v1/imports/${started.json.importId}`);
        expect(res.status, res.text).toBe(200);
        return res.json.status === 'done' ? res.json : undefined;
      }, 20_000);
      expect(job).toMatchObject({ status: 'done' });
    });

    it('an enrollment job enrolls by filter, and the dialer claims and places the calls', async () => {
      const calling = await callingSetup(server, account.accountId, { workingHours: ALWAYS });
      const started = await server.request(
        account.apiKey,
        'POST',
        `/api/v1/workflows/${calling.workflowId}/enrollments`,
        {
          filter: { searchTerm: 'Ann1' },
        },
      );
      expect(started.status, started.text).toBe(202);
      const job = await server.eventually(async () => {
        const res = await server.request(account.apiKey, 'GET', `/api/v1/enrollment-jobs/${started.json.id}`);
        expect(res.status, res.text).toBe(200);
        return res.json.status === 'done' ? res.json : undefined;
      }, 20_000);
      // Ann1 and Ann10…Ann19.
      expect(job.enrolled).toBe(11);
      expect(await calling.dial()).toHaveLength(11);
    });
  },
);
