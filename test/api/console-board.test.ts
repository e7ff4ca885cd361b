// The console's Board app page over HTTP, as a browser sends it, against the monday emulator
// (its OAuth server and its GraphQL API, read by the official @mondaydotcomorg/api client):
// linking from the console (no API key), choosing a board, mapping its columns (an incompatible
// column refused next to its field), mapping call results to the status column's own labels,
// unlinking; and the board view monday frames, with a valid, forged, expired or missing
// sessionToken. On each database.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone } from '../support/api-helpers.js';
import { Browser } from '../support/browser.js';
import { testDatabaseKinds } from '../support/databases.js';
import { LEADS_COLUMNS, startBoardAppWithOAuth } from '../support/monday-board-app.js';
import type { MondayEmulator } from '../support/monday-emulator/index.js';
import { CONSOLE_PASSWORD, personWithPassword } from '../support/console-people.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = CONSOLE_PASSWORD;
const CLIENT_ID = 'contactline-board-page-client';
const CLIENT_SECRET = 'contactline-board-page-client-secret';

let nextMondayId = 5_000_000 + Math.floor(Math.random() * 1_000_000);
const mondayId = () => ++nextMondayId;

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
/** The <select> of a field, as the page renders it. */
const selectOf = (html: string, id: string) =>
  new RegExp(`<select id="${id}"[^>]*>(.*?)</select>`, 's').exec(html)?.[0];

describe.each(testDatabaseKinds())('the console Board app page on %s', (kind) => {
  let server: TestServer;
  let monday: MondayEmulator;

  beforeAll(async () => {
    ({ monday, server } = await startBoardAppWithOAuth(kind, {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      signingSecret: 'monday-signing-secret-board-page',
    }));
  });
  afterAll(async () => {
    await server?.stop();
    await monday?.close();
  });

  const url = (path: string) => server.baseUrl + path;

  /** A person invited into a new Account, signed in to the console in their own browser. */
  async function signedIn() {
    const { accountId, apiKey, email } = await personWithPassword(server);
    const browser = new Browser();
    const post = (to: string, form: Record<string, string>) =>
      browser.go(url(to), {
        method: 'POST',
        headers: { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
    expect((await post('/console/sign-in', { email, password: PASSWORD })).status).toBe(303);
    const get = (to: string) => browser.go(url(to));
    return { accountId, apiKey, email, browser, get, post };
  }

  /** Link → monday's consent (as `mondayUser`) → monday's redirect: the console callback's URL. */
  async function startLink(person: Awaited<ReturnType<typeof signedIn>>, mondayUser: { accountId: number }) {
    const page = await person.get('/console/board');
    const started = await person.post('/console/board/link', { csrf: csrfOf(page.text) });
    expect(started.status, started.text).toBe(303);
    const authorize = new URL(started.location as string);
    expect(authorize.origin).toBe(monday.origin);
    expect(authorize.searchParams.get('redirect_uri')).toBe(url('/integrations/monday/oauth/callback'));
    monday.oauth?.approveAs(mondayUser.accountId, 77);
    const consent = await fetch(authorize, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    // The app's one registered Redirect URL hands a console link on to the console.
    const handedOn = await person.browser.go(consent.headers.get('location') as string);
    expect(handedOn.status).toBe(302);
    expect(handedOn.location).toMatch(/^\/console\/board\/oauth\/callback\?code=/);
    return handedOn.location as string;
  }

  async function linkedPerson() {
    const person = await signedIn();
    const mondayAccount = mondayId();
    const leads = monday.addBoard({ accountId: mondayAccount, name: 'Leads', columns: [...LEADS_COLUMNS] });
    monday.addBoard({ accountId: mondayAccount, name: 'Suppliers', columns: [{ id: 'tel', type: 'phone' }] });
    const callback = await startLink(person, { accountId: mondayAccount });
    const done = await person.get(callback);
    expect(done.status, done.text).toBe(303);
    expect(done.location).toBe('/console/board?done=linked');
    return { ...person, mondayAccount, boardId: String(leads.id) };
  }

  it('shows "not linked", then links through monday\'s OAuth from the console (no API key asked)', async () => {
    const person = await signedIn();
    const before = await person.get('/console/board');
    expect(before.status).toBe(200);
    expect(before.text).toContain('Not linked');
    expect(before.text).toContain('>Link monday account</button>');
    expect(before.text).not.toMatch(/apiKey|API key<\/label>/);
    // The Link form leads to monday's OAuth pages: the page allows them as a form-action.
    expect(before.headers.get('content-security-policy')).toContain(`form-action 'self' ${monday.origin}`);
    expect(before.text).toContain('href="/console/board" aria-current="page">Board app</a>');

    const mondayAccount = mondayId();
    monday.addBoard({ accountId: mondayAccount, name: 'Leads', columns: [...LEADS_COLUMNS] });
    const done = await person.get(await startLink(person, { accountId: mondayAccount }));
    expect(done.location).toBe('/console/board?done=linked');
    const page = await person.get('/console/board?done=linked');
    expect(page.text).toContain('Your monday account is linked.');
    expect(page.text).toContain(`<dd>${mondayAccount}</dd>`);
    expect(page.text).toContain(`<dd>${person.email}</dd>`);
    expect(page.text).toContain('>Unlink monday account</button>');
    expect(page.text).toMatch(/<option value="\d+">Leads<\/option>/);
    const link = await server.service.services.db.prisma.mondayLink.findUnique({
      where: { accountId: person.accountId },
    });
    expect(link?.mondayAccountId).toBe(String(mondayAccount));
    expect(link?.accessTokenEncrypted).not.toContain('emu_oauth_');
  });

  it('refuses to complete a link in another session than the one that started it', async () => {
    const starter = await signedIn();
    const callback = await startLink(starter, { accountId: mondayId() });
    const stranger = await signedIn();
    const refused = await stranger.get(callback);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('started in another console session');
    const prisma = server.service.services.db.prisma;
    expect(await prisma.mondayLink.findUnique({ where: { accountId: stranger.accountId } })).toBeNull();
    expect(await prisma.mondayLink.findUnique({ where: { accountId: starter.accountId } })).toBeNull();
  });

  it('refuses a change without the CSRF token (403) before acting', async () => {
    const person = await linkedPerson();
    expect((await person.post('/console/board/link', {})).status).toBe(403);
    expect((await person.post('/console/board/unlink', {})).status).toBe(403);
    expect(
      (await person.post('/console/board/mapping', { boardId: person.boardId, phoneColumnId: 'phone' })).status,
    ).toBe(403);
    const prisma = server.service.services.db.prisma;
    expect(await prisma.mondayLink.findUnique({ where: { accountId: person.accountId } })).not.toBeNull();
    expect(await prisma.boardMapping.findUnique({ where: { accountId: person.accountId } })).toBeNull();
  });

  it('picks a board, maps compatible columns (an incompatible one refused next to its field), then status labels from the board', async () => {
    const person = await linkedPerson();
    const page = await person.get(`/console/board?boardId=${person.boardId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Columns of “Leads”');
    // Each picker offers the columns the domain's rules allow for its field, by name and type.
    const phone = selectOf(page.text, 'phoneColumnId') as string;
    expect(phone).toContain('<option value="phone">Phone (phone)</option>');
    expect(phone).not.toContain('First name');
    const timezone = selectOf(page.text, 'timezoneColumnId') as string;
    expect(timezone).toContain('Timezone (world_clock)');
    expect(timezone).toContain('Timezone (text) (text)');
    expect(timezone).not.toContain('Phone (phone)');
    expect(selectOf(page.text, 'firstNameColumnId')).toContain('First name (text)');

    const refused = await person.post('/console/board/mapping', {
      csrf: csrfOf(page.text),
      boardId: person.boardId,
      phoneColumnId: 'first',
      firstNameColumnId: 'first',
      timezoneColumnId: 'tz',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(
      /<p class="field-error" id="phoneColumnId-error">phone: column &quot;First name&quot; is a text column; it must be a phone column<\/p>/,
    );
    expect(selectOf(refused.text, 'phoneColumnId')).toMatch(
      /aria-invalid="true" aria-describedby="phoneColumnId-error"/,
    );
    expect(refused.text).not.toContain('id="firstNameColumnId-error"');

    const saved = await person.post('/console/board/mapping', {
      csrf: csrfOf(page.text),
      boardId: person.boardId,
      phoneColumnId: 'phone',
      firstNameColumnId: 'first',
      lastNameColumnId: 'last',
      timezoneColumnId: 'tz',
    });
    expect(saved.status, saved.text).toBe(303);
    const mapped = await person.get(saved.location as string);
    expect(mapped.text).toContain('The mapping is saved.');
    expect(selectOf(mapped.text, 'phoneColumnId')).toContain('<option value="phone" selected>');
    // The label pickers offer the status column's own labels.
    const statusPicker = selectOf(mapped.text, 'statusColumnId') as string;
    expect(statusPicker).toContain('Stage');
    const outcome = await person.get(`/console/board?boardId=${person.boardId}&statusColumnId=outcome`);
    const converted = selectOf(outcome.text, 'label_converted') as string;
    for (const label of ['Booked', 'Unqualified', 'Not interested', 'Answered', 'Busy'])
      expect(converted).toContain(`>${label}</option>`);
    expect(converted).not.toContain('Enroll');

    const labels = await person.post('/console/board/status-labels', {
      csrf: csrfOf(outcome.text),
      boardId: person.boardId,
      statusColumnId: 'outcome',
      label_converted: 'Booked',
      label_busy: 'Busy',
      label_answered: '',
    });
    expect(labels.status, labels.text).toBe(303);
    expect((await person.get(labels.location as string)).text).toContain('The status labels are saved.');
    const overLong = await person.post('/console/board/status-labels', {
      csrf: csrfOf(outcome.text),
      boardId: person.boardId,
      label_busy: 'x'.repeat(256),
    });
    expect(overLong.status).toBe(400);
    expect(overLong.text).toMatch(/id="label_busy-error">the label for busy must be 1 to 255 characters/);

    // The same mapping as every surface reads it.
    const read = await server.request(person.apiKey, 'POST', '/graphql', {
      query: '{ boardMapping { boardId phoneColumnId timezoneColumnType statusLabels } }',
    });
    const mapping = read.json.data.boardMapping;
    expect(mapping).toMatchObject({
      boardId: person.boardId,
      phoneColumnId: 'phone',
      timezoneColumnType: 'world_clock',
    });
    expect(mapping.statusLabels).toMatchObject({ converted: 'Booked', busy: 'Busy', answered: null });
  });

  it("lists the linked user's boards page by page, as monday pages them", async () => {
    const person = await linkedPerson();
    const read = await server.request(person.apiKey, 'POST', '/graphql', {
      query:
        '{ first: mondayBoards(limit: 1) { data { name } page nextPage } second: mondayBoards(page: 2, limit: 1) { data { name } nextPage } third: mondayBoards(page: 3, limit: 1) { data { name } nextPage } }',
    });
    expect(read.json.data.first).toEqual({ data: [{ name: 'Leads' }], page: 1, nextPage: 2 });
    expect(read.json.data.second).toEqual({ data: [{ name: 'Suppliers' }], nextPage: 3 });
    expect(read.json.data.third).toEqual({ data: [], nextPage: null });
  });

  it('the board view: the mapping and recent calls with a valid sessionToken; 401 and no data when forged, expired or missing', async () => {
    const person = await linkedPerson();
    const page = await person.get(`/console/board?boardId=${person.boardId}`);
    const saved = await person.post('/console/board/mapping', {
      csrf: csrfOf(page.text),
      boardId: person.boardId,
      phoneColumnId: 'phone',
      itemNameIsFullName: 'true',
    });
    expect(saved.status).toBe(303);
    // A contact enrolled from item 987654 and called.
    const contact = await server.request(person.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      firstName: 'Jane',
      lastName: 'Doe',
    });
    expect(contact.status).toBe(201);
    const prisma = server.service.services.db.prisma;
    const now = server.now();
    await prisma.mondayItemLink.create({
      data: {
        contactId: contact.json.id,
        accountId: person.accountId,
        boardId: person.boardId,
        itemId: '987654',
        updatedAt: now,
      },
    });
    await prisma.call.create({
      data: {
        id: randomUUID(),
        accountId: person.accountId,
        contactId: contact.json.id,
        startedAt: now,
        endedAt: now,
        createdAt: now,
        status: 'completed',
        result: 'converted',
        durationSeconds: 42,
      },
    });

    const iat = Math.floor(server.now().getTime() / 1000);
    const view = (token?: string) =>
      fetch(
        url(
          `/integrations/monday/views/board${token === undefined ? '' : `?sessionToken=${encodeURIComponent(token)}`}`,
        ),
      );
    const valid = await view(monday.mintSessionToken({ accountId: person.mondayAccount, userId: 77, iat }));
    const html = await valid.text();
    expect(valid.status, html).toBe(200);
    expect(html).toContain('Mapping of Leads');
    expect(html).toContain('Phone (phone)');
    expect(html).toContain('the item name');
    expect(html).toMatch(/<th scope="row">converted<\/th><td>Booked<\/td>/);
    expect(html).toContain('<td>987654</td><td>Jane Doe</td><td>converted</td>');
    expect(html).toContain('42 s');
    const csp = valid.headers.get('content-security-policy') as string;
    expect(csp).toContain('frame-ancestors https://*.monday.com');
    expect(csp).toContain("script-src 'self';");
    expect(valid.headers.get('x-frame-options')).toBeNull();
    expect(valid.headers.get('referrer-policy')).toBe('no-referrer');
    expect(html).toContain('src="/integrations/monday/views/assets/monday-sdk.js"');

    const forged = await view(
      monday.mintSessionToken({ accountId: person.mondayAccount, userId: 77, iat, secret: 'not-the-client-secret' }),
    );
    const expired = await view(
      monday.mintSessionToken({ accountId: person.mondayAccount, userId: 77, iat: iat - 600, expiresInSeconds: 300 }),
    );
    const missing = await view();
    for (const refused of [forged, expired, missing]) {
      const text = await refused.text();
      expect(refused.status).toBe(401);
      expect(text).not.toContain('987654');
      expect(text).not.toContain('Booked');
      expect(text).not.toContain(String(person.mondayAccount));
    }

    // monday's own SDK, served from node_modules, not a CDN.
    const sdk = await fetch(url('/integrations/monday/views/assets/monday-sdk.js'));
    expect(sdk.status).toBe(200);
    expect(await sdk.text()).toContain('mondaySdk');
    expect((await fetch(url('/integrations/monday/views/assets/board-view.js'))).status).toBe(200);

    // Unlinked: the page says so, and the view shows nothing of the Account any more.
    const posted = await person.post('/console/board/unlink', { csrf: csrfOf(page.text) });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/console/board?done=unlinked&mondayAccount=${person.mondayAccount}`);
    const unlinked = await person.get(posted.location as string);
    expect(unlinked.text).toContain(`monday account ${person.mondayAccount} is unlinked`);
    expect(unlinked.text).toContain('>Link monday account</button>');
    const after = await view(monday.mintSessionToken({ accountId: person.mondayAccount, userId: 77, iat }));
    expect(after.status).toBe(403);
    expect(await after.text()).not.toContain('987654');
  });
});

describe.each(testDatabaseKinds())('the console Board app page with the board app off on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  it('says the board app is off and how to turn it on; linking is refused with that sentence', async () => {
    const { email } = await personWithPassword(server);
    const browser = new Browser();
    const post = (to: string, form: Record<string, string>) =>
      browser.go(server.baseUrl + to, {
        method: 'POST',
        headers: { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
    await post('/console/sign-in', { email, password: PASSWORD });
    const page = await browser.go(`${server.baseUrl}/console/board`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('The board app is off on this server');
    expect(page.text).toContain('<code>MONDAY_SIGNING_SECRET</code>');
    expect(page.text).not.toContain('>Link monday account</button>');
    const refused = await post('/console/board/link', { csrf: csrfOf(page.text) });
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('MONDAY_SIGNING_SECRET');
  });
});
