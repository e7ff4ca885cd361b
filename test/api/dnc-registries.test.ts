// Do-not-call registry imports through REST on a listening server, on both databases: a US file
// for an area code makes a listed contact without written consent not callable (registry_listed)
// and with it callable (written consent lifts the registry rule); a copy older than 31 days stops calls (registry_copy_stale); a
// malformed line is a 400 naming it that changes nothing; an import replaces the copies of the
// scopes it covers; a file over several chunks, unsorted, and another registry's forms; another
// Account sees nothing; an import left unfinished is cleaned up. The clock is fixed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';

// Monday 23 November 2026, 10:00 in Chicago (UTC-6): inside every US calling window.
const MONDAY_10_CHICAGO = new Date('2026-11-23T16:00:00.000Z');
const DOWNLOADED = '2026-11-20';
/**
 * The rule set asks prior express written consent for every telemarketing call with an AI voice
 * in the US (us-consent-telemarketing), so a contact with `express` consent is refused for that
 * as well; the registry's own reasons come beside it, and written consent lifts both.
 */
const NO_WRITTEN_CONSENT = 'consent_required';

describe.each(testDatabaseKinds())('do-not-call registry imports on %s', (kind) => {
  let server: TestServer;
  const clock = { at: MONDAY_10_CHICAGO, now: () => clock.at };
  let account: { accountId: string; apiKey: string };
  let other: { accountId: string; apiKey: string };
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    account = await server.createAccount();
    other = await server.createAccount();
  });
  afterAll(() => server?.stop());
  beforeEach(() => {
    clock.at = MONDAY_10_CHICAGO;
  });

  const sql = () => server.service.services.db.sql;

  /** Sends a registry file (text) to the import endpoint. */
  async function importFile(
    key: string | null,
    registry: string,
    body: string,
    query = `downloadedAt=${DOWNLOADED}`,
    contentType = 'text/plain',
  ) {
    const response = await fetch(`${server.baseUrl}/api/v1/dnc-registries/${registry}/imports?${query}`, {
      method: 'POST',
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': contentType },
      body,
    });
    const text = await response.text();
    return { status: response.status, json: JSON.parse(text) };
  }

  /** A new contact in the Chicago area code 312 (its ten digits and id), with `express` consent. */
  async function chicagoContact(key = account.apiKey, consent: 'express' | 'express_written' | null = 'express') {
    const local = String(1000 + seq++).padStart(4, '0');
    const digits = `312555${local}`;
    const created = await server.request(key, 'PUT', '/api/v1/contacts/upsert', { phone: `+1${digits}` });
    expect(created.status, created.text).toBe(201);
    if (consent) await giveConsent(key, created.json.id, consent);
    return { digits, id: created.json.id as string };
  }

  async function giveConsent(key: string, contactId: string, kind: 'express' | 'express_written') {
    const given = await server.request(key, 'POST', `/api/v1/contacts/${contactId}/consents`, {
      kind,
      method: 'web_form',
      obtainedAt: new Date(clock.at.getTime() - 86_400_000).toISOString(),
    });
    expect(given.status, given.text).toBe(201);
  }

  async function reasons(contactId: string, key = account.apiKey) {
    const dialing = await server.request(key, 'GET', `/api/v1/contacts/${contactId}/dialing`);
    expect(dialing.status, dialing.text).toBe(200);
    return {
      callableNow: dialing.json.callableNow as boolean,
      codes: (dialing.json.reasons as Array<{ code: string }>).map((r) => r.code),
    };
  }

  const copies = async (key = account.apiKey) => {
    const answer = await server.request(key, 'GET', '/api/v1/dnc-registries');
    expect(answer.status, answer.text).toBe(200);
    return answer.json.data as Array<Record<string, unknown>>;
  };

  it('a listed contact is not called without written consent, and is with it; the copy is listed as fresh', async () => {
    const listed = await chicagoContact();
    const unlisted = await chicagoContact();
    expect(await reasons(listed.id)).toEqual({
      callableNow: false,
      codes: ['consent_required', 'registry_copy_missing'],
    });

    const file = [
      '# National Do Not Call Registry, area code 312',
      listed.digits,
      '',
      '312,5559999',
      '(312) 555-9998',
      '+1 312 555 9997',
    ].join('\n');
    const imported = await importFile(account.apiKey, 'us_national', file);
    expect(imported.status, JSON.stringify(imported.json)).toBe(201);
    expect(imported.json).toMatchObject({
      registry: 'us_national',
      downloadedAt: '2026-11-20T00:00:00.000Z',
      lines: 6,
      numbers: 4,
      scopes: ['312'],
    });
    expect(imported.json.bytesStored).toBeGreaterThan(0);
    expect(imported.json.bytesPerNumber).toBe(Math.round((imported.json.bytesStored / 4) * 100) / 100);

    expect(await reasons(listed.id)).toEqual({ callableNow: false, codes: [NO_WRITTEN_CONSENT, 'registry_listed'] });
    expect(await reasons(unlisted.id)).toEqual({ callableNow: false, codes: [NO_WRITTEN_CONSENT] });
    await giveConsent(account.apiKey, listed.id, 'express_written');
    expect(await reasons(listed.id)).toEqual({ callableNow: true, codes: [] });

    expect(await copies()).toEqual([
      {
        registry: 'us_national',
        scope: '312',
        downloadedAt: '2026-11-20T00:00:00.000Z',
        importedAt: MONDAY_10_CHICAGO.toISOString(),
        numbers: 4,
        maxCopyAgeDays: 31,
        fresh: true,
        freshUntil: '2026-12-21T00:00:00.000Z',
      },
    ]);
  });

  it('a copy older than 31 days stops every call it covers: registry_copy_stale', async () => {
    const contact = await chicagoContact();
    const imported = await importFile(account.apiKey, 'us_national', '3125550000\n');
    expect(imported.status).toBe(201);
    expect(await reasons(contact.id)).toEqual({ callableNow: false, codes: [NO_WRITTEN_CONSENT] });
    // Tuesday 22 December 2026, 10:00 in Chicago: 32 days after the download.
    clock.at = new Date('2026-12-22T16:00:00.000Z');
    expect(await reasons(contact.id)).toEqual({
      callableNow: false,
      codes: [NO_WRITTEN_CONSENT, 'registry_copy_stale'],
    });
    expect(await copies()).toMatchObject([{ scope: '312', fresh: false }]);
    // An import downloaded more than 31 days ago is stored, and stale at once.
    clock.at = MONDAY_10_CHICAGO;
    expect((await importFile(account.apiKey, 'us_national', '3125550000\n', 'downloadedAt=2026-10-01')).status).toBe(
      201,
    );
    expect(await reasons(contact.id)).toEqual({
      callableNow: false,
      codes: [NO_WRITTEN_CONSENT, 'registry_copy_stale'],
    });
    // Written consent lifts the registry rule, a stale copy included (64.1200(c)(2)(ii)).
    await giveConsent(account.apiKey, contact.id, 'express_written');
    expect(await reasons(contact.id)).toEqual({ callableNow: true, codes: [] });
  });

  it('a malformed line is a 400 naming it, and the copy stored before is unchanged', async () => {
    const listed = await chicagoContact();
    expect((await importFile(account.apiKey, 'us_national', `${listed.digits}\n`)).status).toBe(201);
    const before = await copies();
    const blocksBefore = await sql().query('SELECT count(*)::int AS n FROM "DncRegistryBlock"');

    for (const [file, line, message] of [
      ['3125550100\n3125550101\n312555010\n3125550103\n', 'line 3', /9 digits/],
      ['3125550100\n\n# comment\nnot a number\n', 'line 4', /not a phone number/],
      ['3125550100\r\n3111234567\r\n', 'line 2', /311 is not an area code/],
      [`3125550100\n${'9'.repeat(5000)}\n`, 'line 2', /longer than 64 characters/],
    ] as const) {
      const refused = await importFile(account.apiKey, 'us_national', file);
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ code: 'bad_request', issues: [{ path: line }] });
      expect(refused.json.issues[0].message).toMatch(message);
      expect(refused.json.message).toMatch(new RegExp(`^${line}: `));
    }
    // A malformed line in a later chunk (the first 50,000 lines were staged already).
    const long = Array.from({ length: 60_000 }, (_, i) => `31255${String(10000 + i).padStart(5, '0')}`);
    long[55_000] = '312-555-01';
    const late = await importFile(account.apiKey, 'us_national', long.join('\n'));
    expect({ status: late.status, path: late.json.issues?.[0]?.path }).toEqual({ status: 400, path: 'line 55001' });

    expect(await copies()).toEqual(before);
    expect(await reasons(listed.id)).toEqual({ callableNow: false, codes: [NO_WRITTEN_CONSENT, 'registry_listed'] });
    // Nothing staged is left behind.
    expect((await sql().query('SELECT count(*)::int AS n FROM "DncRegistryBlock"')).rows).toEqual(blocksBefore.rows);
    expect(
      (await sql().query(`SELECT count(*)::int AS n FROM "DncRegistryImport" WHERE "status" = 'staging'`)).rows,
    ).toEqual([{ n: 0 }]);
  });

  it('an import replaces the copies of the area codes it covers, and only those', async () => {
    const a = await server.createAccount();
    const first = await chicagoContact(a.apiKey);
    const second = await chicagoContact(a.apiKey);
    const imported = await importFile(a.apiKey, 'us_national', `${first.digits}\n7735550100\n`);
    expect(imported.json.scopes).toEqual(['312', '773']);
    expect(await reasons(first.id, a.apiKey)).toMatchObject({ codes: [NO_WRITTEN_CONSENT, 'registry_listed'] });

    // Area code 312 again, now listing the second contact only; 773 stays as it was.
    clock.at = new Date(MONDAY_10_CHICAGO.getTime() + 60_000);
    const again = await importFile(a.apiKey, 'us_national', `${second.digits}\n`, 'downloadedAt=2026-11-22');
    expect(again.json).toMatchObject({ numbers: 1, scopes: ['312'] });
    expect(await reasons(first.id, a.apiKey)).toMatchObject({ codes: [NO_WRITTEN_CONSENT] });
    expect(await reasons(second.id, a.apiKey)).toMatchObject({ codes: [NO_WRITTEN_CONSENT, 'registry_listed'] });
    const listed = await copies(a.apiKey);
    expect(listed.map((c) => [c.scope, c.downloadedAt, c.numbers])).toEqual([
      ['312', '2026-11-22T00:00:00.000Z', 1],
      ['773', '2026-11-20T00:00:00.000Z', 1],
    ]);

    // An area code named without numbers of its own is replaced by an empty copy.
    const emptied = await importFile(a.apiKey, 'us_national', '', 'downloadedAt=2026-11-22&areaCodes=312');
    expect(emptied.json).toMatchObject({ numbers: 0, scopes: ['312'], bytesPerNumber: null });
    expect(await reasons(second.id, a.apiKey)).toMatchObject({ codes: [NO_WRITTEN_CONSENT] });
    expect((await copies(a.apiKey)).map((c) => [c.scope, c.numbers])).toEqual([
      ['312', 0],
      ['773', 1],
    ]);
    // The first import still answers for 773; the blocks it had for 312 are gone.
    const { rows } = await sql().query<{ scope: string }>(
      `SELECT substr(b."prefix", 2, 3) AS scope FROM "DncRegistryBlock" b JOIN "DncRegistryImport" i ON i."id" = b."importId"
       WHERE i."accountId" = $1::uuid ORDER BY 1`,
      [a.accountId],
    );
    expect(rows).toEqual([{ scope: '773' }]);
  });

  it('a file over several chunks, unsorted and with repeats, dense and sparse blocks', async () => {
    const a = await server.createAccount();
    const dense = await chicagoContact(a.apiKey);
    const sparse = await chicagoContact(a.apiKey);
    // Every number of the exchange 312-556 (a full bitmap), in reverse order, twice over three
    // chunks, and one number of the sparse contact's block at the very end.
    const exchange = Array.from({ length: 10_000 }, (_, i) => `312556${String(9999 - i).padStart(4, '0')}`);
    const lines = [...exchange, ...Array.from({ length: 45_000 }, () => '# padding'), ...exchange, sparse.digits];
    const imported = await importFile(a.apiKey, 'us_national', `${lines.join('\r\n')}\r\n`);
    expect(imported.json).toMatchObject({ lines: lines.length, numbers: 10_001, scopes: ['312'] });
    // A full bitmap and one 2-byte code.
    const { rows } = await sql().query<{ prefix: string; bytes: number }>(
      `SELECT b."prefix", length(b."bits") AS bytes FROM "DncRegistryBlock" b JOIN "DncRegistryCopy" c ON c."importId" = b."importId"
       WHERE c."accountId" = $1::uuid ORDER BY 1`,
      [a.accountId],
    );
    expect(rows).toEqual([
      { prefix: '1312555', bytes: 2 },
      { prefix: '1312556', bytes: 1250 },
    ]);
    expect(await reasons(sparse.id, a.apiKey)).toMatchObject({ codes: [NO_WRITTEN_CONSENT, 'registry_listed'] });
    expect(await reasons(dense.id, a.apiKey)).toMatchObject({ codes: [NO_WRITTEN_CONSENT] });
    const inExchange = await server.request(a.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: '+13125564321' });
    await giveConsent(a.apiKey, inExchange.json.id, 'express');
    expect(await reasons(inExchange.json.id, a.apiKey)).toMatchObject({
      codes: [NO_WRITTEN_CONSENT, 'registry_listed'],
    });
  });

  it("another registry's file: national and international forms of its country", async () => {
    const a = await server.createAccount();
    const file = ['06 12 34 56 78', '+33 6 12 34 56 79', '0033612345680', '33612345681', '01 23 45 67 89'].join('\n');
    const imported = await importFile(a.apiKey, 'fr_bloctel', file, 'downloadedAt=2026-11-20T08:30:00%2B01:00');
    expect(imported.json).toMatchObject({
      registry: 'fr_bloctel',
      downloadedAt: '2026-11-20T07:30:00.000Z',
      numbers: 5,
      scopes: ['*'],
    });
    expect((await copies(a.apiKey)).map((c) => [c.registry, c.scope, c.maxCopyAgeDays])).toEqual([
      ['fr_bloctel', '*', 30],
    ]);
    const refused = await importFile(a.apiKey, 'fr_bloctel', '06 12 34 56 78\n+44 20 7946 0958\n');
    expect(refused.json).toMatchObject({ code: 'bad_request', issues: [{ path: 'line 2' }] });
    expect(refused.json.issues[0].message).toMatch(/not a valid FR phone number/);
    const empty = await importFile(a.apiKey, 'fr_bloctel', '# nothing\n');
    expect(empty.json.message).toMatch(/lists no number/);
  });

  it('another Account sees none of the copies', async () => {
    const mine = await chicagoContact();
    expect((await importFile(account.apiKey, 'us_national', `${mine.digits}\n`)).status).toBe(201);
    // The same number, a contact of the other Account.
    const theirs = await server.request(other.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: `+1${mine.digits}` });
    await giveConsent(other.apiKey, theirs.json.id, 'express');
    expect(await copies(other.apiKey)).toEqual([]);
    expect(await reasons(theirs.json.id, other.apiKey)).toEqual({
      callableNow: false,
      codes: [NO_WRITTEN_CONSENT, 'registry_copy_missing'],
    });
  });

  it('refuses from the query and the headers: unknown registry, a date in the future, area codes elsewhere, no key', async () => {
    const refusals = [
      [await importFile(account.apiKey, 'us_federal', '3125550100\n'), 400, 'registry'],
      [await importFile(account.apiKey, 'us_national', '3125550100\n', 'downloadedAt=2026-11-24'), 400, 'downloadedAt'],
      [await importFile(account.apiKey, 'us_national', '3125550100\n', 'downloadedAt=20-11-2026'), 400, 'downloadedAt'],
      [await importFile(account.apiKey, 'us_national', '3125550100\n', 'areaCodes=312'), 400, 'downloadedAt'],
      [
        await importFile(account.apiKey, 'gb_tps', '020 7946 0958\n', `downloadedAt=${DOWNLOADED}&areaCodes=312`),
        400,
        'areaCodes',
      ],
      [
        await importFile(account.apiKey, 'us_national', '', `downloadedAt=${DOWNLOADED}&areaCodes=911`),
        400,
        'areaCodes',
      ],
      [await importFile(account.apiKey, 'us_national', '', `downloadedAt=${DOWNLOADED}`), 400, 'areaCodes'],
    ] as const;
    for (const [answer, status, path] of refusals) {
      expect(answer.status, JSON.stringify(answer.json)).toBe(status);
      expect(answer.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    const json = await importFile(account.apiKey, 'us_national', '{}', undefined, 'application/json');
    expect(json).toMatchObject({ status: 400, json: { message: expect.stringMatching(/text\/plain/) } });
    expect((await importFile(null, 'us_national', '3125550100\n')).json.code).toBe('unauthenticated');
    expect((await importFile('svc_pk_unknown', 'us_national', '3125550100\n')).status).toBe(401);
    const octets = await importFile(
      account.apiKey,
      'us_national',
      '3125550100\n',
      undefined,
      'application/octet-stream',
    );
    expect(octets.status).toBe(201);
  });

  it('an import left unfinished by a crash is deleted at a later import, an hour on', async () => {
    const staleId = randomUUID();
    const hourAgo = new Date(clock.at.getTime() - 61 * 60_000);
    await sql().query(
      `INSERT INTO "DncRegistryImport" ("id", "accountId", "registry", "downloadedAt", "areaCodes", "status", "nextLine", "numbersRead", "startedAt", "touchedAt")
       VALUES ($1::uuid, $2::uuid, 'us_national', $3, '{}', 'staging', 2, 1, $3, $3)`,
      [staleId, other.accountId, hourAgo],
    );
    await sql().query(
      `INSERT INTO "DncRegistryBlock" ("importId", "prefix", "bits") VALUES ($1::uuid, '1312555', $2)`,
      [staleId, Buffer.from([0x80, 0x01])],
    );
    expect((await importFile(account.apiKey, 'us_national', '3125550100\n')).status).toBe(201);
    const left = await sql().query('SELECT count(*)::int AS n FROM "DncRegistryBlock" WHERE "importId" = $1::uuid', [
      staleId,
    ]);
    expect(left.rows).toEqual([{ n: 0 }]);
  });
});
