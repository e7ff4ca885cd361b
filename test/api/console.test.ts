// The console over HTTP, as a browser sends it (forms, cookies, Origin): sign-in, the invitation
// link, API keys created and revoked with the API refusing the revoked key, CSRF and cross-site
// refusals, the lockout's 429, sign-out. On each database. (Pages in a real browser: later.)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { CONSOLE_PASSWORD, invitedPerson, personWithPassword } from '../support/console-people.js';
import { testDatabaseKinds } from '../support/databases.js';
import { LOCK_AFTER_FAILURES } from '../../src/domain/users/sign-in.rules.js';
import { uniquePhone } from '../support/api-helpers.js';

const PASSWORD = CONSOLE_PASSWORD;

describe.each(testDatabaseKinds())('console over HTTP on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  /** A browser: keeps the console cookie, sends Origin on posts (unless told otherwise). */
  function browser() {
    let cookie: string | undefined;
    async function go(method: 'GET' | 'POST', path: string, form?: Record<string, string>, origin = server.baseUrl) {
      const res = await fetch(server.baseUrl + path, {
        method,
        redirect: 'manual',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(method === 'POST' ? { origin, 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
      const set = res.headers.get('set-cookie');
      if (set) cookie = /Max-Age=0/i.test(set) ? undefined : set.split(';')[0];
      return { status: res.status, headers: res.headers, html: await res.text(), setCookie: set };
    }
    return { go, cookie: () => cookie };
  }
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  async function signedIn() {
    const person = await personWithPassword(server);
    const b = browser();
    const res = await b.go('POST', '/console/sign-in', { email: person.email, password: PASSWORD });
    expect(res.status).toBe(303);
    return { ...person, b };
  }

  it('the invitation link sets a password (too short: said next to the field), then the person signs in', async () => {
    const person = await invitedPerson(server);
    const b = browser();
    const page = await b.go('GET', person.path);
    expect(page.status).toBe(200);
    expect(page.html).toContain(person.email);
    const short = await b.go('POST', person.path, { password: 'short' });
    expect(short.status).toBe(400);
    expect(short.html).toMatch(/id="password-error"[^>]*>[^<]*at least 12 characters/);
    expect(short.html).toContain('aria-describedby="password-error"');
    const set = await b.go('POST', person.path, { password: PASSWORD });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/console/sign-in?done=password');
    expect((await b.go('GET', person.path)).status).toBe(404);

    const signIn = await b.go('POST', '/console/sign-in', { email: person.email, password: PASSWORD });
    expect(signIn.status).toBe(303);
    expect(signIn.setCookie).toMatch(
      /^contactline_console=[A-Za-z0-9_-]{43}; Path=\/console; Expires=.*; HttpOnly; SameSite=Lax$/,
    );
    const keys = await b.go('GET', '/console/api-keys');
    expect(keys.status).toBe(200);
    // The Account's one key (made with it by the test server), by name and last four characters only.
    expect(keys.html).toMatch(/<th scope="row">[^<]+<\/th><td><code>svc_pk_…[0-9A-Za-z]{4}<\/code>/);
    expect(keys.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(keys.headers.get('cache-control')).toBe('no-store');
  });

  it('a key created in the console works against the API until it is revoked there', async () => {
    const { b } = await signedIn();
    const page = await b.go('GET', '/console/api-keys');
    const created = await b.go('POST', '/console/api-keys', { csrf: csrfOf(page.html), name: 'CRM sync' });
    expect(created.status).toBe(201);
    const secret = /id="new-secret">(svc_pk_[0-9A-Za-z]+)</.exec(created.html)?.[1];
    expect(secret).toBeDefined();
    expect((await server.request(secret as string, 'GET', '/api/v1/workflows')).status).toBe(200);
    // Shown once: the list shows only its last four characters.
    const again = await b.go('GET', '/console/api-keys');
    expect(again.html).not.toContain(secret);
    expect(again.html).toContain(`svc_pk_…${(secret as string).slice(-4)}`);

    const id = /CRM sync<\/th>.*?action="\/console\/api-keys\/([0-9a-f-]{36})\/revoke"/.exec(again.html)?.[1];
    const revoked = await b.go('POST', `/console/api-keys/${id}/revoke`, { csrf: csrfOf(again.html) });
    expect(revoked.status).toBe(200);
    expect(revoked.html).toContain('The key is revoked');
    const refused = await server.request(secret as string, 'GET', '/api/v1/workflows');
    expect(refused.status).toBe(401);

    const empty = await b.go('POST', '/console/api-keys', { csrf: csrfOf(again.html), name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.html).toMatch(/id="name-error"/);
  });

  it('refuses a change without the session CSRF token, and a post from another site, before acting', async () => {
    const { b, accountId } = await signedIn();
    const before = await server.service.services.db.prisma.apiKey.count({ where: { accountId } });
    const noToken = await b.go('POST', '/console/api-keys', { name: 'forged' });
    expect(noToken.status).toBe(403);
    const otherSite = await b.go('POST', '/console/api-keys', { name: 'forged', csrf: 'x' }, 'https://evil.example');
    expect(otherSite.status).toBe(403);
    const page = await b.go('GET', '/console/api-keys');
    const crossSiteWithToken = await b.go(
      'POST',
      '/console/api-keys',
      { name: 'forged', csrf: csrfOf(page.html) },
      'https://evil.example',
    );
    expect(crossSiteWithToken.status).toBe(403);
    expect(await server.service.services.db.prisma.apiKey.count({ where: { accountId } })).toBe(before);
  });

  it('a wrong password is a 401 on the form; many in a row lock the sign-in (429, Retry-After)', async () => {
    const person = await personWithPassword(server);
    const b = browser();
    const wrong = await b.go('POST', '/console/sign-in', { email: person.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('That email and password do not match.');
    // The rest at once: each waits its own delay, in parallel.
    const answers = await Promise.all(
      Array.from({ length: LOCK_AFTER_FAILURES - 1 }, () =>
        browser().go('POST', '/console/sign-in', { email: person.email, password: 'not the password' }),
      ),
    );
    const locked = answers.filter((a) => a.status === 429);
    expect(locked).toHaveLength(1);
    expect(Number(locked[0].headers.get('retry-after'))).toBeGreaterThan(0);
    const right = await b.go('POST', '/console/sign-in', { email: person.email, password: PASSWORD });
    expect(right.status).toBe(429);
  });

  it('lists, searches and filters contacts as the list API does; a bad filter is said next to its field', async () => {
    const { b, apiKey } = await signedIn();
    const empty = await b.go('GET', '/console/contacts');
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('No contacts yet');
    for (const [firstName, lastName, status] of [
      ['Ada', 'Lovelace', 'new'],
      ['Grace', 'Hopper', 'qualified'],
      ['Alan', 'Turing', 'new'],
    ]) {
      const res = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        firstName,
        lastName,
        status,
      });
      expect(res.status).toBe(201);
    }
    const all = await b.go('GET', '/console/contacts');
    const names = [...all.html.matchAll(/href="\/console\/contacts\/[0-9a-f-]{36}">([^<]+)</g)].map((m) => m[1]);
    expect(names).toEqual(['Alan Turing', 'Grace Hopper', 'Ada Lovelace']);
    const searched = await b.go('GET', '/console/contacts?searchTerm=gra');
    expect([...searched.html.matchAll(/href="\/console\/contacts\/[0-9a-f-]{36}">([^<]+)</g)].map((m) => m[1])).toEqual(
      ['Grace Hopper'],
    );
    const byStatus = await b.go('GET', '/console/contacts?status=new&searchTerm=');
    expect(byStatus.html).toContain('Ada Lovelace');
    expect(byStatus.html).not.toContain('Grace Hopper');
    expect(byStatus.html).toMatch(/<option value="new" selected/);
    const none = await b.go('GET', '/console/contacts?searchTerm=zzzq');
    expect(none.html).toContain('No contact matches these filters');
    const bad = await b.go('GET', '/console/contacts?status=nonsense');
    expect(bad.status).toBe(400);
    expect(bad.html).toMatch(/id="status-error"[^>]*>[^<]+/);
    expect(bad.html).toContain('aria-describedby="status-error"');
  });

  it('opens a contact: its fields and its calls oldest first, each transcript as a conversation', async () => {
    const { b, apiKey, accountId } = await signedIn();
    const contact = (
      await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        firstName: 'Katherine',
        lastName: 'Johnson',
        customFields: { plan: 'gold' },
      })
    ).json;
    const prisma = server.service.services.db.prisma;
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    const later = await prisma.call.create({
      data: {
        id: randomUUID(),
        accountId,
        contactId: contact.id,
        startedAt: new Date(t0 + 60_000),
        createdAt: server.now(),
        status: 'completed' as const,
        result: 'converted' as const,
        reportReady: true,
        recordingUrl: 'https://recordings.example/r1.mp3',
      },
    });
    await prisma.call.create({
      data: {
        id: randomUUID(),
        accountId,
        contactId: contact.id,
        startedAt: new Date(t0),
        createdAt: server.now(),
        status: 'completed' as const,
        result: 'no_answer' as const,
        reportReady: true,
      },
    });
    await prisma.callUtterance.createMany({
      data: [
        {
          callId: later.id,
          seq: 1,
          speaker: 'assistant',
          content: 'Hello Katherine, this is Contactline.',
          timestamp: new Date(t0 + 61_000),
        },
        {
          callId: later.id,
          seq: 2,
          speaker: 'user',
          content: 'Hi! Yes, sign me up.',
          timestamp: new Date(t0 + 63_000),
        },
      ],
    });
    const page = await b.go('GET', `/console/contacts/${contact.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Katherine Johnson</h1>');
    expect(page.html).toMatch(/<dt>plan<\/dt><dd>gold<\/dd>/);
    expect(page.html.indexOf('no_answer')).toBeLessThan(page.html.indexOf('converted'));
    expect(page.html).toMatch(
      /class="turn agent"><span class="speaker">Agent<\/span><p>Hello Katherine, this is Contactline.<\/p>/,
    );
    expect(page.html).toMatch(/class="turn contact"><span class="speaker">Contact<\/span><p>Hi! Yes, sign me up.<\/p>/);
    expect(page.html).toContain('<audio controls preload="none" src="https://recordings.example/r1.mp3">');

    // Another Account's contact is not found.
    const other = await server.createAccount();
    const foreign = (await server.request(other.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: uniquePhone() }))
      .json;
    expect((await b.go('GET', `/console/contacts/${foreign.id}`)).status).toBe(404);
    expect((await b.go('GET', '/console/contacts/not-a-uuid')).status).toBe(404);
  });

  it("changes the Account's default location and dedup fields, with every refusal next to its field", async () => {
    const { b, apiKey, accountId } = await signedIn();
    const page = await b.go('GET', '/console/settings');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<dt>Region<\/dt><dd>us /);
    const csrf = csrfOf(page.html);
    const saved = await b.go('POST', '/console/settings', {
      csrf,
      defaultLocation: 'gb',
      dedupFields: 'phone, externalId',
    });
    expect(saved.status).toBe(200);
    expect(saved.html).toContain('Settings saved.');
    const account = await server.service.services.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(account.defaultLocation).toBe('GB');
    expect(account.dedupFields).toEqual(['phone', 'externalId']);

    const badField = await b.go('POST', '/console/settings', {
      csrf,
      defaultLocation: '',
      dedupFields: 'phone, email',
    });
    expect(badField.status).toBe(400);
    expect(badField.html).toMatch(/id="dedupFields-error"[^>]*>[^<]*email/);
    expect(badField.html).toContain('value="phone, email"');

    // Two contacts that one dedup field would merge: refused, nothing changes, said at the field.
    for (const externalId of ['a-1', 'a-2'])
      await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        externalId,
        customFields: { crm: 'same' },
      });
    const clash = await b.go('POST', '/console/settings', {
      csrf,
      defaultLocation: 'GB',
      dedupFields: 'customFields.crm',
    });
    expect(clash.status).toBe(409);
    expect(clash.html).toMatch(/id="dedupFields-error"[^>]*>[^<]+/);
    const after = await server.service.services.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(after.dedupFields).toEqual(['phone', 'externalId']);
  });

  it("shows the agents' calling weeks; creates a workflow as a draft, publishes, pauses and archives it", async () => {
    const { b, apiKey, accountId } = await signedIn();
    const agent = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
      query: 'mutation ($input: JSON!) { createAgent(input: $input) { id } }',
      variables: {
        input: {
          accountId,
          name: 'Ava',
          status: 'live',
          timezone: 'Europe/Paris',
          workingHours: {
            mon: [
              { start: '09:00', end: '12:00' },
              { start: '14:00', end: '18:00' },
            ],
          },
        },
      },
    });
    const agentId = agent.json.data.createAgent.id as string;
    const page = await b.go('GET', '/console/workflows');
    expect(page.status).toBe(200);
    expect(page.html).toContain('No workflows yet');
    expect(page.html).toContain(
      "Calling hours of Ava, in each contact's time zone (Europe/Paris for a contact without one)",
    );
    expect(page.html).toMatch(/<th scope="row">Monday<\/th><td>.*09:00–12:00, 14:00–18:00<\/span>/);
    expect(page.html).toMatch(/<th scope="row">Tuesday<\/th><td>.*no calls<\/span>/);
    const csrf = csrfOf(page.html);

    const unnamed = await b.go('POST', '/console/workflows', { csrf, name: '  ', agentId });
    expect(unnamed.status).toBe(400);
    expect(unnamed.html).toMatch(/id="name-error"/);
    const created = await b.go('POST', '/console/workflows', { csrf, name: 'Renewals', agentId });
    expect(created.status).toBe(201);
    expect(created.html).toMatch(/<th scope="row">Renewals<\/th><td>Ava<\/td><td>draft<\/td>/);
    const id = /action="\/console\/workflows\/([0-9a-f-]{36})"/.exec(created.html)?.[1] as string;
    const enroll = () =>
      server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        assignmentOptions: { workflowId: id },
      });
    expect((await enroll()).status).toBe(400);

    const published = await b.go('POST', `/console/workflows/${id}`, { csrf, status: 'published' });
    expect(published.html).toContain('The workflow is published.');
    expect((await enroll()).status).toBe(201);
    const paused = await b.go('POST', `/console/workflows/${id}`, { csrf, paused: 'true' });
    expect(paused.html).toMatch(/<td>published, paused<\/td>/);
    expect((await enroll()).status).toBe(400);
    const archived = await b.go('POST', `/console/workflows/${id}`, { csrf, status: 'archived' });
    expect(archived.html).toContain('The workflow is archived.');

    const foreign = await server.createWorkflow((await server.createAccount()).accountId);
    expect((await b.go('POST', `/console/workflows/${foreign}`, { csrf, status: 'archived' })).status).toBe(404);
  });

  it('sign-out ends the session for every browser holding its cookie', async () => {
    const { b } = await signedIn();
    const stolen = b.cookie() as string;
    const page = await b.go('GET', '/console/api-keys');
    const out = await b.go('POST', '/console/sign-out', { csrf: csrfOf(page.html) });
    expect(out.status).toBe(303);
    expect(out.setCookie).toMatch(/Max-Age=0/);
    const other = await fetch(`${server.baseUrl}/console/api-keys`, {
      headers: { cookie: stolen },
      redirect: 'manual',
    });
    expect(other.status).toBe(303);
    expect(other.headers.get('location')).toBe('/console/sign-in');
  });
});
