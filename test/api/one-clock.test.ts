// One clock: every timestamp the service writes comes from its injected Clock, never from the
// database's now() (column defaults included) or the process clock. The service runs here on
// a clock years away from the real date; after every writer has run (operator GraphQL, REST
// writes, bulk import and update, enrollment, the dialer, call events, the unreported-call
// sweep, the block list), every timestamp column of every table must hold a time of that
// clock. A single value stamped by another clock lands years away and fails the test.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { createSimulatedTelephony, type SimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { applyTelephonyEvent } from '../../src/domain/calls/call-events.service.js';
import { recoverUnreportedCalls, runDialerOnce, UNREPORTED_PLACED_MS } from '../../src/jobs/dialer.js';
import { writtenConsent } from '../support/consent.js';

/**
 * A Monday, 14:00 UTC (10:00 in Washington, the contacts' zone: inside the law's calling hours),
 * about five years from when this was written; any far date will do.
 */
const CLOCK_START = new Date('2031-06-02T14:00:00.000Z');
/** Every service timestamp must fall in this span (the test advances the clock by under a day). */
const LATEST = new Date(CLOCK_START.getTime() + 2 * 86_400_000);

describe.each(testDatabaseKinds())('one clock on %s', (kind) => {
  let server: TestServer;
  const clock = {
    at: CLOCK_START,
    now() {
      return this.at;
    },
    advance(ms: number) {
      this.at = new Date(this.at.getTime() + ms);
    },
  };
  let telephony: SimulatedTelephony;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    telephony = createSimulatedTelephony({
      sink: (event) => applyTelephonyEvent(server.service.services, event).then(() => undefined),
      clock,
      delayMs: 0,
    });
  });
  afterAll(() => server?.stop());

  const graphql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables });
    expect(res.json.errors, JSON.stringify(res.json.errors)).toBeUndefined();
    return res.json.data as T;
  };

  it('has no column default that reads the database clock', async () => {
    const { rows } = await server.service.services.db.sql.query<{ column: string; fallback: string }>(
      `SELECT table_name || '.' || column_name AS column, column_default AS fallback FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
          AND column_default ~* '(now\\(|current_timestamp|localtimestamp|clock_timestamp|statement_timestamp|transaction_timestamp)'`,
    );
    expect(rows).toEqual([]);
  });

  it('stamps every row it writes with its injected clock, through every writer', async () => {
    // Operator set-up through GraphQL: account, user, key, agent, workflow, block list.
    const { createAccount } = await graphql<{ createAccount: { id: string } }>(
      'mutation { createAccount(name: "Clocked", defaultLocation: "US") { id } }',
    );
    const accountId = createAccount.id;
    const { createUser } = await graphql<{ createUser: { id: string } }>(
      'mutation ($a: String!) { createUser(accountId: $a, email: "clock@example.com") { id } }',
      { a: accountId },
    );
    const { createApiKey } = await graphql<{ createApiKey: { secret: string } }>(
      'mutation ($u: String!) { createApiKey(userId: $u, name: "clock") { secret } }',
      { u: createUser.id },
    );
    const apiKey = createApiKey.secret;
    const { createAgent } = await graphql<{ createAgent: { id: string } }>(
      'mutation ($i: JSON!) { createAgent(input: $i) { id } }',
      {
        i: {
          accountId,
          name: 'Ava',
          status: 'live',
          timezone: 'America/New_York',
          callNewContactsImmediately: true,
          phoneNumber: '+12025550100',
        },
      },
    );
    await graphql('mutation ($id: String!) { updateAgent(id: $id, input: { attemptLimit: 3 }) { id } }', {
      id: createAgent.id,
    });
    const { createWorkflow } = await graphql<{ createWorkflow: { id: string } }>(
      'mutation ($a: String!, $g: String!) { createWorkflow(accountId: $a, agentId: $g, name: "W", status: published) { id } }',
      { a: accountId, g: createAgent.id },
    );
    const workflowId = createWorkflow.id;
    await graphql('mutation ($id: String!) { updateWorkflow(id: $id, paused: false) { id } }', { id: workflowId });
    await graphql('mutation ($a: String!) { blockPhone(accountId: $a, phone: "+12025550199") { phone } }', {
      a: accountId,
    });

    // REST writes: upsert with enrollment, bulk import, PATCH, bulk update. Each enrolled contact
    // carries its prior express written consent (the calling rules call no US contact without).
    telephony.setScript('+12025550111', { result: 'answered' });
    telephony.setScript('+12025550112', { result: 'do_not_call' });
    for (const phone of ['+12025550111', '+12025550112', '+12025550199']) {
      const res = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone,
        firstName: 'Ada',
        externalId: `x-${phone}`,
        assignmentOptions: { workflowId },
        consent: writtenConsent(clock.now()),
      });
      expect(res.status).toBe(201);
    }
    const bulk = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: [
        { phone: '+12025550121', sourceKind: 'csv', externalId: 'b-1', consent: writtenConsent(clock.now()) },
        { phone: '+12025550122', sourceKind: 'csv', externalId: 'b-2', consent: writtenConsent(clock.now()) },
      ],
      assignmentOptions: { workflowId },
    });
    expect(bulk.status).toBe(202);
    await server.eventually(
      async () =>
        (await server.service.services.db.prisma.importBatch.count({ where: { accountId, status: 'done' } })) === 1,
    );
    const patch = await server.request(apiKey, 'PATCH', '/api/v1/contacts/source/csv/external-id/b-1', {
      lastName: 'Byron',
    });
    expect(patch.status).toBe(200);
    const update = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk-update', {
      filter: { sourceKind: 'csv', externalId: 'b-2' },
      data: { priority: 7 },
    });
    expect(update.status).toBe(202);
    await server.eventually(
      async () =>
        (await server.service.services.db.prisma.importBatch.count({ where: { accountId, status: 'done' } })) === 2,
    );

    // The dialer places the due calls (the blocked phone is skipped); their events apply.
    clock.advance(60_000);
    const placed = await runDialerOnce(server.service.services, telephony);
    await telephony.settled();
    expect(placed.placed.length).toBe(4);
    // A call nobody reports on: placed, then swept as unreported 31 minutes later.
    const lost = createSimulatedTelephony({ sink: async () => {}, clock, delayMs: 0 });
    const reEnroll = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+12025550131',
      externalId: 'lost',
      assignmentOptions: { workflowId, reEnroll: true, enforceCallNow: true },
      consent: writtenConsent(clock.now()),
    });
    expect(reEnroll.status).toBe(201);
    expect((await runDialerOnce(server.service.services, lost)).placed.length).toBe(1);
    clock.advance(UNREPORTED_PLACED_MS + 60_000);
    expect(await recoverUnreportedCalls(server.service.services)).toBe(1);
    // An inbound call from an unknown number creates a contact.
    await telephony.simulateInbound({ callId: randomUUID(), from: '+12025550141', to: '+12025550100' });
    await server.request(apiKey, 'GET', '/api/v1/workflows'); // the key's last use
    await graphql('mutation ($u: String!) { createApiKey(userId: $u, name: "second") { key { id } } }', {
      u: createUser.id,
    }).then(async (data) => {
      const id = (data as { createApiKey: { key: { id: string } } }).createApiKey.key.id;
      await graphql('mutation ($id: String!) { revokeApiKey(id: $id) { id } }', { id });
    });

    // Every timestamp in every table of the service's schema.
    const sql = server.service.services.db.sql;
    const { rows: columns } = await sql.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type LIKE 'timestamp%' AND table_name <> '_prisma_migrations' ORDER BY 1, 2`,
    );
    expect(columns.length).toBeGreaterThan(30);
    const outside: string[] = [];
    const filled = new Set<string>();
    for (const { table_name: table, column_name: column } of columns) {
      const { rows } = await sql.query<{ value: Date | string }>(
        `SELECT "${column}" AS value FROM "${table}" WHERE "${column}" IS NOT NULL`,
      );
      for (const { value } of rows) {
        const time = new Date(value).getTime();
        filled.add(`${table}.${column}`);
        // Transcript lines and reported next attempts derive from the call's start: clock times too.
        if (time < CLOCK_START.getTime() - 86_400_000 || time > LATEST.getTime())
          outside.push(`${table}.${column} = ${new Date(value).toISOString()}`);
      }
    }
    expect(outside).toEqual([]);
    // The writers above really wrote these (so the scan above covered them).
    for (const column of [
      'Account.createdAt',
      'User.createdAt',
      'ApiKey.createdAt',
      'ApiKey.lastUsedAt',
      'ApiKey.revokedAt',
      'Agent.createdAt',
      'Agent.updatedAt',
      'Workflow.createdAt',
      'Workflow.updatedAt',
      'BlockedPhone.createdAt',
      'Contact.createdAt',
      'Contact.updatedAt',
      'Contact.lastCallAt',
      'Enrollment.createdAt',
      'Enrollment.nextAttemptAt',
      'Enrollment.endedAt',
      'ImportBatch.createdAt',
      'ImportBatch.doneAt',
      'Call.createdAt',
      'Call.startedAt',
      'Call.endedAt',
      'CallUtterance.timestamp',
      'ProcessedEvent.receivedAt',
      'DomainEvent.createdAt',
      // Consents sent with the writes; the do-not-call result revoked its contact's.
      'Consent.obtainedAt',
      'Consent.createdAt',
      'Consent.revokedAt',
    ]) {
      expect(filled, column).toContain(column);
    }
  });
});
