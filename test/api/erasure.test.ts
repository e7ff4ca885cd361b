// Erasure through a real listening server: DELETE /api/v1/contacts/{id} and by external ID
// (204, then 404; 409 when several match; another Account's contact is unknown; ?block=true),
// the GraphQL mutations, the contact.deleted event, the anonymous counts that outlive the calls,
// and a scan of every text, JSON and UUID column of every table for the erased contact's values.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, uniquePhone, upsertOk, useServerWithAccount } from '../support/api-helpers.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';
import { fanOutWebhookEvents } from '../../src/jobs/webhook-delivery.js';
import { applyTelephonyEvent } from '../../src/domain/calls/call-events.service.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/webhook-events.rules.js';

// Monday 23 November 2026, noon in Chicago, 10:00 in San Francisco (uniquePhone()'s numbers):
// inside the agent's working hours and the law's calling hours (09:00-21:00 in California).
const MONDAY_NOON_CHICAGO = new Date('2026-11-23T18:00:00.000Z');

const byExternalId = (sourceKind: string, externalId: string, query = '') =>
  `/api/v1/contacts/source/${sourceKind}/external-id/${encodeURIComponent(externalId)}${query}`;

describe.each(testDatabaseKinds())('erasure on %s', (kind) => {
  const clock = {
    at: MONDAY_NOON_CHICAGO,
    now() {
      return this.at;
    },
  };
  const { server, account } = useServerWithAccount(kind, { clock });
  const sql = () => server.service.services.db.sql;
  const del = (path: string, key = account.apiKey) => server.request(key, 'DELETE', path);
  const get = (path: string, key = account.apiKey) => server.request(key, 'GET', path);
  const graphql = async (query: string, variables: Record<string, unknown>, key = account.apiKey) => {
    const res = await server.request(key, 'POST', '/graphql', { query, variables });
    return res.json as { data?: any; errors?: Array<{ message: string; extensions: { code: string } }> };
  };
  /** An endpoint of the Account listening to every event (events are only written for a listener). */
  const listen = async (key: string) => {
    const res = await server.request(key, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://93.184.216.34/hooks',
      events: [...WEBHOOK_EVENT_TYPES],
    });
    expect(res.status, res.text).toBe(201);
  };
  const contactDeletedEvents = async (contactId: string) =>
    (
      await sql().query<{ accountId: string; payload: Record<string, unknown>; dispatchedAt: Date | null }>(
        `SELECT "accountId", "payload", "dispatchedAt" FROM "DomainEvent"
          WHERE "type" = 'contact.deleted' AND "payload"->>'contactId' = $1`,
        [contactId],
      )
    ).rows;

  describe('DELETE /api/v1/contacts/{id}', () => {
    it('answers 204 with no body, then 404 to GET and DELETE', async () => {
      const contact = await upsertOk(server, account.apiKey, { phone: uniquePhone(), firstName: 'Gone' });
      const erased = await del(`/api/v1/contacts/${contact.id}`);
      expect({ status: erased.status, text: erased.text }).toEqual({ status: 204, text: '' });
      expect(erased.headers.get('x-request-id')).toBeTruthy();
      expectError(await get(`/api/v1/contacts/${contact.id}`), 404, 'not_found');
      expectError(await del(`/api/v1/contacts/${contact.id}`), 404, 'not_found');
    });

    it("answers 404 for another Account's contact, and leaves it", async () => {
      const other = await server.createAccount();
      const theirs = await upsertOk(server, other.apiKey, { phone: uniquePhone() });
      expectError(await del(`/api/v1/contacts/${theirs.id}`), 404, 'not_found');
      expect((await get(`/api/v1/contacts/${theirs.id}`, other.apiKey)).status).toBe(200);
      expect(await contactDeletedEvents(theirs.id)).toEqual([]);
    });

    it('answers 400 to a malformed id and to a block other than true or false, 401 without a key', async () => {
      const contact = await upsertOk(server, account.apiKey, { phone: uniquePhone() });
      expectError(await del('/api/v1/contacts/not-a-uuid'), 400, 'bad_request');
      for (const block of ['yes', '1', 'TRUE', ''])
        expectError(await del(`/api/v1/contacts/${contact.id}?block=${block}`), 400, 'bad_request', ['issues']);
      expectError(await server.request(null, 'DELETE', `/api/v1/contacts/${contact.id}`), 401, 'unauthenticated');
      expect((await get(`/api/v1/contacts/${contact.id}`)).status).toBe(200);
    });

    it('needs no Idempotency-Key, and ignores one (a DELETE is not a keyed write)', async () => {
      const contact = await upsertOk(server, account.apiKey, { phone: uniquePhone() });
      const headers = { 'idempotency-key': `erase-${randomUUID()}` };
      const first = await server.request(
        account.apiKey,
        'DELETE',
        `/api/v1/contacts/${contact.id}`,
        undefined,
        headers,
      );
      expect(first.status).toBe(204);
      const again = await server.request(
        account.apiKey,
        'DELETE',
        `/api/v1/contacts/${contact.id}`,
        undefined,
        headers,
      );
      expectError(again, 404, 'not_found');
      expect(again.headers.get('idempotent-replayed')).toBeNull();
    });

    it('leaves the phone off the block list unless ?block=true', async () => {
      const phone = uniquePhone();
      const listener = await server.createAccount();
      await listen(listener.apiKey);
      const kept = await upsertOk(server, listener.apiKey, { phone });
      expect((await del(`/api/v1/contacts/${kept.id}?block=false`, listener.apiKey)).status).toBe(204);
      const again = await upsertOk(server, listener.apiKey, { phone });
      expect(again.status).toBe('not_assigned');
      expect((await contactDeletedEvents(kept.id))[0].payload.blocked).toBe(false);

      expect((await del(`/api/v1/contacts/${again.id}?block=true`, listener.apiKey)).status).toBe(204);
      const blocked = await sql().query(`SELECT "reason" FROM "BlockedPhone" WHERE "accountId" = $1 AND "phone" = $2`, [
        listener.accountId,
        phone,
      ]);
      expect(blocked.rows).toEqual([{ reason: 'erased contact' }]);
      // As with any blocked phone, a later upsert of it stores the contact as do-not-call.
      const returning = await upsertOk(server, listener.apiKey, { phone, firstName: 'Back' });
      expect(returning.status).toBe('dnc');
      expect((await contactDeletedEvents(again.id))[0].payload.blocked).toBe(true);
    });
  });

  describe('DELETE /api/v1/contacts/source/{sourceKind}/external-id/{externalId}', () => {
    it('answers 204, then 404; writes contact.deleted with the external ID', async () => {
      const externalId = `crm/${randomUUID()}`;
      const listening = await server.createAccount();
      await listen(listening.apiKey);
      const contact = await upsertOk(server, listening.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'hubspot',
        externalId,
      });
      expect((await del(byExternalId('hubspot', externalId), listening.apiKey)).status).toBe(204);
      expectError(await get(byExternalId('hubspot', externalId), listening.apiKey), 404, 'not_found');
      expectError(await get(`/api/v1/contacts/${contact.id}`, listening.apiKey), 404, 'not_found');
      expectError(await del(byExternalId('hubspot', externalId), listening.apiKey), 404, 'not_found');
      const [event] = await contactDeletedEvents(contact.id);
      expect(event).toEqual({
        accountId: listening.accountId,
        dispatchedAt: null,
        payload: {
          contactId: contact.id,
          sourceKind: 'hubspot',
          externalId,
          blocked: false,
          deletedAt: MONDAY_NOON_CHICAGO.toISOString(),
        },
      });
      // An Account with no endpoint listening keeps no trace of an erased contact.
      const quiet = await upsertOk(server, account.apiKey, { phone: uniquePhone(), sourceKind: 'hubspot', externalId });
      expect((await del(`/api/v1/contacts/${quiet.id}`)).status).toBe(204);
      expect(await contactDeletedEvents(quiet.id)).toEqual([]);
    });

    it('answers 409 listing the contacts when several have the external ID, and erases none', async () => {
      // The Account keys on phone: two contacts with other phones may share an external ID.
      const externalId = `shared-${randomUUID()}`;
      const one = await upsertOk(server, account.apiKey, { phone: uniquePhone(), sourceKind: 'csv', externalId });
      const two = await upsertOk(server, account.apiKey, { phone: uniquePhone(), sourceKind: 'csv', externalId });
      const several = await del(byExternalId('csv', externalId));
      expectError(several, 409, 'conflict', ['contacts']);
      expect(several.json.contacts.map((c: { id: string }) => c.id).sort()).toEqual([one.id, two.id].sort());
      expect((await get(`/api/v1/contacts/${one.id}`)).status).toBe(200);
      expect((await get(`/api/v1/contacts/${two.id}`)).status).toBe(200);
      // Erased by id, one at a time.
      expect((await del(`/api/v1/contacts/${one.id}`)).status).toBe(204);
      expect((await del(byExternalId('csv', externalId))).status).toBe(204);
      expectError(await get(`/api/v1/contacts/${two.id}`), 404, 'not_found');
    });

    it("answers 404 for another Account's external ID, 400 to a bad sourceKind or block", async () => {
      const other = await server.createAccount();
      const externalId = `theirs-${randomUUID()}`;
      await upsertOk(server, other.apiKey, { phone: uniquePhone(), sourceKind: 'api', externalId });
      expectError(await del(byExternalId('api', externalId)), 404, 'not_found');
      expect((await get(byExternalId('api', externalId), other.apiKey)).status).toBe(200);
      expectError(await del(byExternalId('nowhere', externalId)), 400, 'bad_request');
      expectError(await del(byExternalId('api', externalId, '?block=maybe')), 400, 'bad_request');
    });
  });

  describe('GraphQL', () => {
    it('deleteContact and deleteContactByExternalId answer { deleted, id, blocked }; the contact is then not_found', async () => {
      const first = await upsertOk(server, account.apiKey, { phone: uniquePhone() });
      const erased = await graphql(
        'mutation ($id: String!) { deleteContact(id: $id, block: true) { deleted id blocked } }',
        { id: first.id },
      );
      expect(erased).toEqual({ data: { deleteContact: { deleted: true, id: first.id, blocked: true } } });
      const read = await graphql('query ($id: String!) { contact(id: $id) { id } }', { id: first.id });
      expect(read.errors?.[0].extensions.code).toBe('not_found');
      const again = await graphql('mutation ($id: String!) { deleteContact(id: $id) { id } }', { id: first.id });
      expect(again.errors?.[0].extensions.code).toBe('not_found');

      const externalId = `gql-${randomUUID()}`;
      const second = await upsertOk(server, account.apiKey, {
        phone: uniquePhone(),
        sourceKind: 'salesforce',
        externalId,
      });
      const byKey = await graphql(
        `mutation ($s: String!, $e: String!) { deleteContactByExternalId(sourceKind: $s, externalId: $e) { deleted id blocked } }`,
        { s: 'salesforce', e: externalId },
      );
      expect(byKey).toEqual({ data: { deleteContactByExternalId: { deleted: true, id: second.id, blocked: false } } });
      const badId = await graphql('mutation { deleteContact(id: "nope") { id } }', {});
      expect(badId.errors?.[0].extensions.code).toBe('bad_request');
    });

    it("Workflow.callResults counts the workflow's calls by result, and keeps an erased contact's", async () => {
      const setup = await callingSetup(server, account.accountId);
      const [erasedPhone, keptPhone] = [uniquePhone(), uniquePhone()];
      // Each with its prior express written consent: the calling rules call no US contact without.
      const erased = await upsertOk(server, account.apiKey, {
        phone: erasedPhone,
        assignmentOptions: { workflowId: setup.workflowId },
        consent: writtenConsent(server.now()),
      });
      await upsertOk(server, account.apiKey, {
        phone: keptPhone,
        assignmentOptions: { workflowId: setup.workflowId },
        consent: writtenConsent(server.now()),
      });
      const placed = await setup.dial({
        [erasedPhone]: { result: 'converted' },
        [keptPhone]: { result: 'not_interested' },
      });
      expect(placed).toHaveLength(2);
      const RESULTS = 'query { workflows(limit: 100) { data { id callResults { result count } } } }';
      const countsOf = async () =>
        ((await graphql(RESULTS, {})).data.workflows.data as Array<{ id: string; callResults: unknown }>).find(
          (w) => w.id === setup.workflowId,
        )?.callResults;
      const before = [
        { result: 'converted', count: 1 },
        { result: 'not_interested', count: 1 },
      ];
      expect(await countsOf()).toEqual(before);
      expect((await del(`/api/v1/contacts/${erased.id}`)).status).toBe(204);
      const calls = await sql().query(`SELECT 1 FROM "Call" WHERE "contactId" = $1`, [erased.id]);
      expect(calls.rows).toEqual([]);
      expect(await countsOf()).toEqual(before);
      const tallies = await sql().query(
        `SELECT "workflowId", "agentId", "result", "count" FROM "AnonymousCallTally" WHERE "accountId" = $1`,
        [account.accountId],
      );
      expect(tallies.rows).toEqual([
        { workflowId: setup.workflowId, agentId: setup.agentId, result: 'converted', count: 1 },
      ]);
    });
  });

  describe("the workflow's enrollments", () => {
    it("keep the erased contact's enrollments, anonymous: the active one ended as contact_erased", async () => {
      const setup = await callingSetup(server, account.accountId, { attemptLimit: 1 });
      const phone = uniquePhone();
      // The second time with reEnroll (the workflow has called it), which goes with enforceCallNow.
      const enroll = (again: boolean) =>
        upsertOk(server, account.apiKey, {
          phone,
          assignmentOptions: {
            workflowId: setup.workflowId,
            ...(again ? { reEnroll: true, enforceCallNow: false } : {}),
          },
          consent: writtenConsent(server.now()),
        });
      const contact = await enroll(false);
      expect(await setup.dial({ [phone]: { result: 'converted' } })).toHaveLength(1);
      await enroll(true);
      // The active one, then the ended one (both started at the suite's one instant).
      const list = async () =>
        (
          (await get(`/api/v1/workflows/${setup.workflowId}/enrollments`)).json.data as Array<Record<string, unknown>>
        ).sort((x, y) => (x.endReason === 'final_result' ? 1 : 0) - (y.endReason === 'final_result' ? 1 : 0));
      const before = await list();
      expect(before.map((e) => [e.contactId, e.state, e.endReason])).toEqual([
        [contact.id, 'active', null],
        [contact.id, 'ended', 'final_result'],
      ]);

      expect((await del(`/api/v1/contacts/${contact.id}`)).status).toBe(204);
      const after = await list();
      expect(after).toEqual([
        {
          ...before[0],
          contactId: null,
          state: 'ended',
          endedAt: server.now().toISOString(),
          endReason: 'contact_erased',
          nextCallAt: null,
        },
        // Ended before: it keeps its reason, and loses only its contact.
        { ...before[1], contactId: null, endReason: 'final_result', finalResult: 'converted' },
      ]);
      // Nothing of the contact is left on them (its priority, a copy of the contact's, included).
      const rows = await sql().query(`SELECT "contactId", "priority" FROM "Enrollment" WHERE "id" = ANY($1::uuid[])`, [
        after.map((e) => e.id),
      ]);
      expect(rows.rows).toEqual([
        { contactId: null, priority: 0 },
        { contactId: null, priority: 0 },
      ]);
    });
  });

  describe('no personal data left', () => {
    /** Every text, JSON, UUID and array column of the public schema holding any of `values` (as text). */
    async function columnsHolding(values: string[]) {
      const { rows: columns } = await sql().query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
            AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'uuid', 'ARRAY')
          ORDER BY 1, 2`,
      );
      expect(columns.length).toBeGreaterThan(50);
      // One query over all of them: a row per (column, value) found, with the text held.
      const parts = columns.map(
        ({ table_name: table, column_name: column }) =>
          `SELECT '${table}' AS "table", '${column}' AS "column", v."value", t."${column}"::text AS "held"
            FROM "${table}" t JOIN searched v ON strpos(t."${column}"::text, v."value") > 0`,
      );
      const { rows } = await sql().query<{ table: string; column: string; value: string; held: string }>(
        `WITH searched("value") AS (SELECT unnest($1::text[])) ${parts.join('\nUNION ALL\n')}`,
        [values],
      );
      return rows;
    }

    /**
     * Every text, JSON, UUID and array column of every table of every schema (the job queue's
     * too) holding any of `values`, as `schema.table.column: value`.
     */
    async function anywhereHolding(values: string[]) {
      const { rows: columns } = await sql().query<{ schema: string; table: string; column: string }>(
        `SELECT c.table_schema AS "schema", c.table_name AS "table", c.column_name AS "column"
           FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
            AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'uuid', 'ARRAY')
          ORDER BY 1, 2, 3`,
      );
      expect(new Set(columns.map((c) => c.schema)).size).toBeGreaterThan(1);
      const parts = columns.map(
        ({ schema, table, column }) =>
          `SELECT '${schema}.${table}.${column}: ' || v."value" AS "hit"
            FROM "${schema}"."${table}" t JOIN searched v ON strpos(t."${column}"::text, v."value") > 0`,
      );
      const { rows } = await sql().query<{ hit: string }>(
        `WITH searched("value") AS (SELECT unnest($1::text[])) ${parts.join('\nUNION ALL\n')}`,
        [values],
      );
      return rows.map((row) => row.hit).sort();
    }

    it("leaves no id of the contact's calls, and no row of their events, in any table", async () => {
      const prisma = server.service.services.db.prisma;
      const { accountId, apiKey } = await server.createAccount();
      await listen(apiKey);
      const setup = await callingSetup(server, accountId);
      const phone = uniquePhone();
      const contact = await upsertOk(server, apiKey, {
        phone,
        assignmentOptions: { workflowId: setup.workflowId },
        consent: writtenConsent(server.now()),
      });
      // Its call, placed and ended by the simulator: events `<callId>:started`, `:ended`, `:report`.
      expect((await setup.dial({ [phone]: { result: 'converted' } })).map((p) => p.contactId)).toEqual([contact.id]);
      const [call] = await prisma.call.findMany({ where: { contactId: contact.id } });
      const providerCallId = `provider-${randomUUID()}`;
      await prisma.call.update({ where: { id: call.id }, data: { providerCallId } });
      // An event whose id (chosen by an integrator's own telephony adapter) does not contain the call's.
      const opaqueEventId = `evt-${randomUUID()}`;
      expect(
        await applyTelephonyEvent(server.service.services, {
          type: 'call.started',
          eventId: opaqueEventId,
          callId: call.id,
          occurredAt: server.now().toISOString(),
        }),
      ).toBe('applied');
      const { db, clock: serviceClock, webhooks } = server.service.services;
      while ((await fanOutWebhookEvents({ db, clock: serviceClock, webhooks: webhooks! })) > 0);

      const searched = [call.id, providerCallId, opaqueEventId];
      const before = await anywhereHolding(searched);
      for (const hit of [
        `public.ProcessedEvent.eventId: ${call.id}`,
        `public.ProcessedEvent.eventId: ${opaqueEventId}`,
        `public.Call.id: ${call.id}`,
        `public.Call.providerCallId: ${providerCallId}`,
        `public.DomainEvent.payload: ${call.id}`,
        `public.WebhookDelivery.payload: ${call.id}`,
      ])
        expect(before).toContain(hit);
      const events = () =>
        sql().query(`SELECT "eventId", "receivedAt" FROM "ProcessedEvent" WHERE "eventId" = ANY($1::text[])`, [
          [`${call.id}:started`, `${call.id}:ended`, `${call.id}:report`, opaqueEventId],
        ]);
      expect((await events()).rows).toHaveLength(4);

      expect((await server.request(apiKey, 'DELETE', `/api/v1/contacts/${contact.id}`)).status).toBe(204);

      expect(await anywhereHolding(searched)).toEqual([]);
      // Their times went with them.
      expect((await events()).rows).toEqual([]);
      // A provider's late retry of an event of the erased call changes nothing, and is not recorded.
      await expect(
        applyTelephonyEvent(server.service.services, {
          type: 'call.started',
          eventId: `${call.id}:started`,
          callId: call.id,
          occurredAt: server.now().toISOString(),
        }),
      ).rejects.toMatchObject({ code: 'not_found' });
      expect((await events()).rows).toEqual([]);
    });

    it('erases every trace of the contact but the contact.deleted event, in one DELETE', async () => {
      const prisma = server.service.services.db.prisma;
      const { accountId, apiKey } = await server.createAccount();
      await listen(apiKey);
      const setup = await callingSetup(server, accountId);
      const mark = randomUUID().slice(0, 8);
      const phone = uniquePhone();
      const values = {
        firstName: `Zebulon${mark}`,
        lastName: `Quillfeather${mark}`,
        externalId: `crm-erase-${mark}`,
        custom: `allergic-to-${mark}`,
        recording: `https://recordings.example/${mark}.mp3`,
        transcript: `my secret word is ${mark}`,
        providerCallId: `provider-call-${mark}`,
        consentEvidence: `signed up at example.com/form/${mark}`,
      };
      // Written as a client would: a keyed upsert with an enrollment, then a bulk import of the same contact.
      const upsert = await server.request(
        apiKey,
        'PUT',
        '/api/v1/contacts/upsert',
        {
          phone,
          firstName: values.firstName,
          lastName: values.lastName,
          location: 'US-IL',
          sourceKind: 'hubspot',
          externalId: values.externalId,
          customFields: { note: values.custom },
          assignmentOptions: { workflowId: setup.workflowId },
          // Its consent to be called (the calling rules call no US contact without), with its evidence.
          consent: { ...writtenConsent(server.now()), evidence: values.consentEvidence },
        },
        { 'idempotency-key': `upsert-${mark}` },
      );
      expect(upsert.status).toBe(201);
      const contactId = upsert.json.id as string;
      const imported = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk', {
        contacts: [{ sourceKind: 'hubspot', externalId: values.externalId, phone, lastName: values.lastName }],
      });
      expect(imported.status).toBe(202);
      await server.eventually(
        async () =>
          (await server.request(apiKey, 'GET', `/api/v1/imports/${imported.json.importId}`)).json.status === 'done',
      );
      // Its call: dialed, ended (call.ended event), reported (transcript), with a recording.
      const placed = await setup.dial({ [phone]: { result: 'converted' } });
      expect(placed.map((p) => p.contactId)).toEqual([contactId]);
      const [call] = await prisma.call.findMany({ where: { contactId } });
      await prisma.call.update({
        where: { id: call.id },
        data: { recordingUrl: values.recording, providerCallId: values.providerCallId },
      });
      await prisma.callUtterance.create({
        data: { callId: call.id, seq: 99, speaker: 'user', content: values.transcript, timestamp: server.now() },
      });
      // What the board app and the bulk-update write about a contact (their own suites cover how).
      await prisma.mondayItemLink.create({
        data: { contactId, accountId, boardId: '1001', itemId: '2002', updatedAt: server.now() },
      });
      await prisma.mondayTriggerDelivery.create({
        data: {
          webhookId: `hook-${mark}`,
          callId: call.id,
          payload: { trigger: { outputFields: { itemId: '2002', callResult: 'converted', contactId } } },
          nextAttemptAt: server.now(),
          createdAt: server.now(),
        },
      });
      await prisma.mondayActionRun.create({
        data: {
          actionUuid: `run-${mark}`,
          accountId,
          kind: 'enroll',
          status: 200,
          response: { outputFields: { contactId, workflowId: setup.workflowId, created: true } },
          createdAt: server.now(),
        },
      });
      const other = await upsertOk(server, apiKey, { phone: uniquePhone() });
      await prisma.bulkUpdateJob.create({
        data: {
          id: randomUUID(),
          accountId,
          status: 'done',
          skippedCount: 2,
          skipped: [
            { contactId, reason: 'dedup-conflict', conflictsWith: other.id },
            { contactId: other.id, reason: 'dedup-conflict', conflictsWith: contactId },
          ],
          createdAt: server.now(),
        },
      });

      // The webhooks' deliveries of its events (contact.created, contact.updated, call.ended) hold its data.
      const { db, clock: serviceClock, webhooks } = server.service.services;
      while ((await fanOutWebhookEvents({ db, clock: serviceClock, webhooks: webhooks! })) > 0);
      expect(await prisma.webhookDelivery.count({ where: { accountId, contactId } })).toBeGreaterThanOrEqual(3);

      const searched = [contactId, phone, ...Object.values(values)];
      // The scan finds what is there: every value is held somewhere before the erasure.
      const before = await columnsHolding(searched);
      for (const value of searched) expect(before.map((hit) => hit.value)).toContain(value);
      expect(new Set(before.map((hit) => `${hit.table}.${hit.column}`))).toEqual(
        new Set([
          'Contact.id',
          'Contact.phone',
          'Contact.firstName',
          'Contact.lastName',
          'Contact.fullName',
          'Contact.externalId',
          'Contact.customFields',
          'Contact.dedupKey',
          'Consent.contactId',
          'Consent.evidence',
          'Enrollment.contactId',
          'Call.contactId',
          'Call.recordingUrl',
          'Call.providerCallId',
          'CallUtterance.content',
          'DomainEvent.payload',
          'IdempotencyKey.body',
          'MondayItemLink.contactId',
          'MondayTriggerDelivery.payload',
          'MondayActionRun.response',
          'BulkUpdateJob.skipped',
          'WebhookDelivery.contactId',
          'WebhookDelivery.payload',
        ]),
      );

      expect((await server.request(apiKey, 'DELETE', `/api/v1/contacts/${contactId}`)).status).toBe(204);

      // Only the contact.deleted event names it, by its id and its source's external ID.
      const after = await columnsHolding(searched);
      const found = after.map(({ table, column, value }) => `${table}.${column}: ${value}`).sort();
      expect(found).toEqual([`DomainEvent.payload: ${contactId}`, `DomainEvent.payload: ${values.externalId}`].sort());
      expect(await contactDeletedEvents(contactId)).toHaveLength(1);
      expect(JSON.parse(after[0].held)).toEqual({
        contactId,
        sourceKind: 'hubspot',
        externalId: values.externalId,
        blocked: false,
        deletedAt: MONDAY_NOON_CHICAGO.toISOString(),
      });
      // The rows that named it are gone or scrubbed; the other contact's report entry stays, without it.
      const remaining = await sql().query<{ skipped: unknown; skippedCount: number }>(
        `SELECT "skipped", "skippedCount" FROM "BulkUpdateJob" WHERE "accountId" = $1`,
        [accountId],
      );
      expect(remaining.rows).toEqual([
        { skipped: [{ contactId: other.id, reason: 'dedup-conflict' }], skippedCount: 2 },
      ]);
      for (const table of ['Call', 'Enrollment', 'Consent']) {
        const { rows } = await sql().query(`SELECT 1 FROM "${table}" WHERE "accountId" = $1 AND "contactId" = $2`, [
          accountId,
          contactId,
        ]);
        expect(rows, table).toEqual([]);
      }
      const utterances = await sql().query(`SELECT 1 FROM "CallUtterance" WHERE "callId" = $1`, [call.id]);
      expect(utterances.rows).toEqual([]);
      // The call's result remains as a count; the phone is not blocked (not asked).
      expect(
        await sql().query(`SELECT "result", "count" FROM "AnonymousCallTally" WHERE "accountId" = $1`, [accountId]),
      ).toMatchObject({ rows: [{ result: 'converted', count: 1 }] });
      const blocked = await sql().query(`SELECT 1 FROM "BlockedPhone" WHERE "accountId" = $1`, [accountId]);
      expect(blocked.rows).toEqual([]);
    });
  });
});
