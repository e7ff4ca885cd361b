// Call reads through a real listening server: a contact's calls by external ID (oldest first,
// paged) and one call's transcript. Calls and utterances are written straight to the database.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { expectContactShape, expectError, uniquePhone, upsertOk, UUID_RE } from '../support/api-helpers.js';

/** DESIGN: "Call record". */
const CALL_FIELDS = [
  'id',
  'contactId',
  'workflowId',
  'agentId',
  'direction',
  'status',
  'result',
  'endReason',
  'startedAt',
  'endedAt',
  'durationSeconds',
  'language',
  'lastCall',
  'transcriptAvailable',
  'recordingUrl',
];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const callsPath = (sourceKind: string, externalId: string, query = '') =>
  `/api/v1/contacts/source/${sourceKind}/external-id/${encodeURIComponent(externalId)}/calls${query ? `?${query}` : ''}`;
const transcriptPath = (id: string) => `/api/v1/calls/${id}/transcript`;

describe.each(testDatabaseKinds())('call reads on %s', (kind) => {
  let server: TestServer;
  let apiKey: string;
  let accountId: string;
  let other: { apiKey: string; accountId: string };
  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ apiKey, accountId } = await server.createAccount());
    other = await server.createAccount();
  });
  afterAll(() => server?.stop());

  const get = (path: string, key: string | null = apiKey) => server.request(key, 'GET', path);
  const prisma = () => server.service.services.db.prisma;

  /** A contact of the account, created through the upsert API. */
  async function contact(sourceKind: string, externalId: string, key = apiKey) {
    return upsertOk(server, key, { phone: uniquePhone(), sourceKind, externalId });
  }

  /** One Call row; startedAt sets the list order (the record is written at the server's clock time). */
  async function call(owner: string, contactId: string, startedAt: Date, data: Record<string, unknown> = {}) {
    const id = randomUUID();
    await prisma().call.create({
      data: { id, accountId: owner, contactId, startedAt, createdAt: server.now(), ...data },
    });
    return id;
  }

  async function utterances(
    callId: string,
    rows: Array<{ seq: number; speaker: string | null; content: string | null; timestamp: Date | null }>,
  ) {
    await prisma().callUtterance.createMany({ data: rows.map((r) => ({ callId, ...r })) });
  }

  describe('GET /api/v1/contacts/source/{sourceKind}/external-id/{externalId}/calls', () => {
    it("lists the contact's calls oldest first, each with exactly the record fields", async () => {
      const c = await contact('hubspot', 'calls-order');
      const workflowId = await server.createWorkflow(accountId);
      const t0 = Date.parse('2026-03-01T10:00:00.000Z');
      // Inserted out of order; two share a startedAt (the id breaks the tie).
      const third = await call(accountId, c.id, new Date(t0 + 3000));
      const first = await call(accountId, c.id, new Date(t0), {
        workflowId,
        direction: 'outbound',
        status: 'completed',
        result: 'converted',
        endReason: 'customer-ended-call',
        startedAt: new Date(t0 + 5),
        endedAt: new Date(t0 + 65_005),
        durationSeconds: 65,
        language: 'en-US',
        lastCall: true,
        reportReady: true,
      });
      const tieA = await call(accountId, c.id, new Date(t0 + 1000));
      const tieB = await call(accountId, c.id, new Date(t0 + 1000), { direction: 'inbound' });
      await utterances(first, [{ seq: 1, speaker: 'assistant', content: 'Hello', timestamp: new Date(t0 + 1000) }]);
      // Another contact's call never shows.
      const d = await contact('hubspot', 'calls-order-other');
      await call(accountId, d.id, new Date(t0 + 500));

      const res = await get(callsPath('hubspot', 'calls-order'));
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(Object.keys(res.json)).toEqual(['data']);
      expect(res.json.data.map((r: { id: string }) => r.id)).toEqual([first, ...[tieA, tieB].sort(), third]);
      for (const record of res.json.data) {
        expect(Object.keys(record).sort()).toEqual([...CALL_FIELDS].sort());
        expect(record.id).toMatch(UUID_RE);
        expect(record.contactId).toBe(c.id);
      }
      expect(res.json.data[0]).toEqual({
        id: first,
        contactId: c.id,
        workflowId,
        agentId: null,
        direction: 'outbound',
        status: 'completed',
        result: 'converted',
        endReason: 'customer-ended-call',
        startedAt: new Date(t0 + 5).toISOString(),
        endedAt: new Date(t0 + 65_005).toISOString(),
        durationSeconds: 65,
        language: 'en-US',
        lastCall: true,
        transcriptAvailable: true,
        recordingUrl: null,
      });
      expect(res.json.data[0].startedAt).toMatch(ISO_MS);
      const tie = res.json.data.find((r: { id: string }) => r.id === tieB);
      expect(tie).toMatchObject({
        direction: 'inbound',
        status: 'queued',
        result: null,
        endReason: null,
        startedAt: new Date(t0 + 1000).toISOString(),
        endedAt: null,
        durationSeconds: null,
        language: null,
        lastCall: false,
        transcriptAvailable: false,
        workflowId: null,
      });
    });

    it('transcriptAvailable needs both a ready report and at least one utterance', async () => {
      const c = await contact('salesforce', 'calls-transcripts');
      const t0 = Date.parse('2026-03-02T10:00:00.000Z');
      const readyWith = await call(accountId, c.id, new Date(t0), { reportReady: true });
      const readyEmpty = await call(accountId, c.id, new Date(t0 + 1), { reportReady: true });
      const notReadyWith = await call(accountId, c.id, new Date(t0 + 2), { reportReady: false });
      await utterances(readyWith, [{ seq: 0, speaker: 'user', content: 'Hi', timestamp: null }]);
      await utterances(notReadyWith, [{ seq: 0, speaker: 'user', content: 'Hi', timestamp: null }]);
      const res = await get(callsPath('salesforce', 'calls-transcripts'));
      expect(res.status, res.text).toBe(200);
      expect(
        res.json.data.map((r: { id: string; transcriptAvailable: boolean }) => [r.id, r.transcriptAvailable]),
      ).toEqual([
        [readyWith, true],
        [readyEmpty, false],
        [notReadyWith, false],
      ]);
    });

    it('lists calls in call order (startedAt, then id) when their records were written in another order, page by page', async () => {
      const c = await contact('api', 'calls-late-reports');
      const day = Date.parse('2026-03-02T00:00:00.000Z');
      // Written first: the call that started at 00:40. Written 10 minutes later (a late report,
      // a late inbound call): the one that started at 00:30, then one at 00:35.
      const at0040 = await call(accountId, c.id, new Date(day + 40 * 60_000), {
        createdAt: new Date(day + 41 * 60_000),
      });
      const at0030 = await call(accountId, c.id, new Date(day + 30 * 60_000), {
        createdAt: new Date(day + 51 * 60_000),
        direction: 'inbound',
      });
      const at0035 = await call(accountId, c.id, new Date(day + 35 * 60_000), {
        createdAt: new Date(day + 52 * 60_000),
      });
      const all = await get(callsPath('api', 'calls-late-reports'));
      expect(all.status, all.text).toBe(200);
      expect(all.json.data.map((r: { id: string }) => r.id)).toEqual([at0030, at0035, at0040]);
      expect(all.json.data.map((r: { startedAt: string }) => r.startedAt)).toEqual([
        '2026-03-02T00:30:00.000Z',
        '2026-03-02T00:35:00.000Z',
        '2026-03-02T00:40:00.000Z',
      ]);
      const seen: string[] = [];
      let token: string | undefined;
      do {
        const res = await get(
          callsPath('api', 'calls-late-reports', `limit=1${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`),
        );
        expect(res.status, res.text).toBe(200);
        seen.push(...res.json.data.map((r: { id: string }) => r.id));
        token = res.json.nextToken;
      } while (token && seen.length < 10);
      expect(seen).toEqual([at0030, at0035, at0040]);
    });

    it('has an index that serves the call order (contactId, startedAt, id)', async () => {
      const { rows } = await server.service.services.db.sql.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 'Call'`,
      );
      expect(rows.map((r) => r.indexdef)).toContainEqual(expect.stringMatching(/\("contactId", "startedAt", id\)/));
    });

    it('pages through with limit and nextToken, without overlap; the last page has no nextToken', async () => {
      const c = await contact('csv', 'calls-paging');
      const t0 = Date.parse('2026-03-03T10:00:00.000Z');
      const ids: string[] = [];
      // Seven calls, two pairs sharing a startedAt, so that a page boundary falls inside a tie.
      const offsets = [0, 1000, 1000, 2000, 3000, 3000, 4000];
      for (const ms of offsets) ids.push(await call(accountId, c.id, new Date(t0 + ms)));
      const expected = offsets
        .map((ms, i) => ({ ms, id: ids[i] }))
        .sort((a, b) => a.ms - b.ms || (a.id < b.id ? -1 : 1))
        .map((r) => r.id);

      for (const limit of [1, 2, 3, 7, 100]) {
        const seen: string[] = [];
        let token: string | undefined;
        for (let pageNo = 0; pageNo < 20; pageNo++) {
          const query = [`limit=${limit}`, token ? `nextToken=${encodeURIComponent(token)}` : '']
            .filter(Boolean)
            .join('&');
          const res = await get(callsPath('csv', 'calls-paging', query));
          expect(res.status, res.text).toBe(200);
          expect(res.json.data.length).toBeLessThanOrEqual(limit);
          seen.push(...res.json.data.map((r: { id: string }) => r.id));
          if (!('nextToken' in res.json)) break;
          expect(typeof res.json.nextToken).toBe('string');
          expect(res.json.data.length).toBe(limit);
          token = res.json.nextToken;
        }
        expect(seen, `limit ${limit}`).toEqual(expected);
      }
      // A full last page (exactly limit rows left) carries no token either.
      const all = await get(callsPath('csv', 'calls-paging', 'limit=7'));
      expect(all.json.data).toHaveLength(7);
      expect(all.json).not.toHaveProperty('nextToken');
      // Default page size 50 covers them all.
      expect((await get(callsPath('csv', 'calls-paging'))).json.data).toHaveLength(7);
    });

    it('a bad limit or nextToken is a 400', async () => {
      await contact('api', 'calls-bad-query');
      for (const limit of ['0', '101', 'x', '-1', '1.5', '', '1000000000000', '-3000000000']) {
        expectError(await get(callsPath('api', 'calls-bad-query', `limit=${limit}`)), 400, 'bad_request');
      }
      for (const token of [
        'garbage',
        Buffer.from('["2026-01-01T00:00:00.000Z","not-a-uuid"]').toString('base64url'),
        'x'.repeat(600),
      ]) {
        expectError(
          await get(callsPath('api', 'calls-bad-query', `nextToken=${encodeURIComponent(token)}`)),
          400,
          'bad_request',
        );
      }
      expect((await get(callsPath('api', 'calls-bad-query', 'limit=1'))).status).toBe(200);
      expect((await get(callsPath('api', 'calls-bad-query', 'limit=100'))).status).toBe(200);
    });

    it('bad path values are a 400', async () => {
      expectError(await get(callsPath('zapier', 'x')), 400, 'bad_request');
      expectError(await get(callsPath('hubspot', 'e'.repeat(257))), 400, 'bad_request');
    });

    it('a contact without calls has an empty list', async () => {
      await contact('manual', 'calls-none');
      const res = await get(callsPath('manual', 'calls-none'));
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ data: [] });
    });

    it('finds the contact as GET by external ID does (trailing spaces ignored, reserved characters encoded)', async () => {
      const c = await contact('monday', 'a/b c?d#e%f');
      const id = await call(accountId, c.id, new Date('2026-03-04T00:00:00.000Z'));
      expect((await get(callsPath('monday', 'a/b c?d#e%f  '))).json.data.map((r: { id: string }) => r.id)).toEqual([
        id,
      ]);
    });

    it("404 for an unknown external ID, or another Account's contact", async () => {
      expectError(await get(callsPath('hubspot', 'calls-nobody')), 404, 'not_found');
      const theirs = await contact('hubspot', 'calls-theirs', other.apiKey);
      await call(other.accountId, theirs.id, new Date('2026-03-05T00:00:00.000Z'));
      expectError(await get(callsPath('hubspot', 'calls-theirs')), 404, 'not_found');
      // The owner sees it.
      expect((await get(callsPath('hubspot', 'calls-theirs'), other.apiKey)).json.data).toHaveLength(1);
    });

    it('409 with every matching contact when several share the external ID', async () => {
      const a = await contact('csv', 'calls-dup');
      const b = await contact('csv', 'calls-dup');
      expect(a.id).not.toBe(b.id);
      const res = await get(callsPath('csv', 'calls-dup'));
      expectError(res, 409, 'conflict', ['contacts']);
      expect(res.json.contacts.map((c: { id: string }) => c.id).sort()).toEqual([a.id, b.id].sort());
      for (const c of res.json.contacts) expectContactShape(c);
    });

    it('401 without a key', async () => {
      await contact('hubspot', 'calls-auth');
      expectError(await get(callsPath('hubspot', 'calls-auth'), null), 401, 'unauthenticated');
      expectError(await get(callsPath('hubspot', 'calls-auth'), 'svc_pk_unknown'), 401, 'unauthenticated');
    });
  });

  describe('GET /api/v1/calls/{id}/transcript', () => {
    it('returns the utterances in seq order, each with only speaker, content and timestamp', async () => {
      const c = await contact('api', 'transcript-1');
      const id = await call(accountId, c.id, new Date('2026-03-06T00:00:00.000Z'), { reportReady: true });
      const t0 = Date.parse('2026-03-06T00:00:10.000Z');
      // Inserted out of order, with a gap in seq.
      await utterances(id, [
        { seq: 10, speaker: 'user', content: 'Yes, tomorrow works.', timestamp: new Date(t0 + 9000) },
        { seq: 1, speaker: 'assistant', content: 'Hi, this is Dana.', timestamp: new Date(t0) },
        { seq: 2, speaker: 'user', content: null, timestamp: null },
        { seq: 5, speaker: null, content: 'Can we book a visit?', timestamp: new Date(t0 + 4321) },
      ]);
      const res = await get(transcriptPath(id));
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.json).toEqual({
        utterances: [
          { speaker: 'assistant', content: 'Hi, this is Dana.', timestamp: new Date(t0).toISOString() },
          { speaker: 'user', content: null, timestamp: null },
          { speaker: null, content: 'Can we book a visit?', timestamp: new Date(t0 + 4321).toISOString() },
          { speaker: 'user', content: 'Yes, tomorrow works.', timestamp: new Date(t0 + 9000).toISOString() },
        ],
      });
      expect(res.json.utterances[0].timestamp).toMatch(ISO_MS);
      // An upper-case id is the same UUID.
      expect((await get(transcriptPath(id.toUpperCase()))).json).toEqual(res.json);
    });

    it('is empty until the report is ready, even when utterances exist', async () => {
      const c = await contact('api', 'transcript-pending');
      const id = await call(accountId, c.id, new Date('2026-03-07T00:00:00.000Z'), { reportReady: false });
      await utterances(id, [{ seq: 0, speaker: 'assistant', content: 'Hello', timestamp: new Date() }]);
      const res = await get(transcriptPath(id));
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ utterances: [] });
    });

    it('is empty for a ready call without utterances', async () => {
      const c = await contact('api', 'transcript-empty');
      const id = await call(accountId, c.id, new Date('2026-03-08T00:00:00.000Z'), { reportReady: true });
      const res = await get(transcriptPath(id));
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ utterances: [] });
    });

    it("400 for a malformed id, 404 for an unknown one or another Account's call", async () => {
      expectError(await get(transcriptPath('not-a-uuid')), 400, 'bad_request');
      expectError(await get(transcriptPath('6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4fz')), 400, 'bad_request');
      expectError(await get(transcriptPath(randomUUID())), 404, 'not_found');
      const theirs = await contact('api', 'transcript-theirs', other.apiKey);
      const id = await call(other.accountId, theirs.id, new Date('2026-03-09T00:00:00.000Z'), { reportReady: true });
      await utterances(id, [{ seq: 0, speaker: 'user', content: 'secret', timestamp: null }]);
      expectError(await get(transcriptPath(id)), 404, 'not_found');
      expect((await get(transcriptPath(id), other.apiKey)).json.utterances).toHaveLength(1);
    });

    it('401 without a key', async () => {
      expectError(await get(transcriptPath(randomUUID()), null), 401, 'unauthenticated');
      expectError(await get(transcriptPath('not-a-uuid'), null), 401, 'unauthenticated');
    });
  });
});
