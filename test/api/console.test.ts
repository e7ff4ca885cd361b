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
import { ALWAYS_OPEN } from '../support/working-hours.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import { createSimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { clockFrom } from '../support/clocks.js';
import { writtenConsent } from '../support/consent.js';

const PASSWORD = CONSOLE_PASSWORD;

describe.each(testDatabaseKinds())('console over HTTP on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    // A test here dials a San Francisco number (uniquePhone()): the service's time starts on
    // Monday 23 November 2026, 10:00 in Los Angeles, inside the law's calling hours there, and
    // moves on with the real time (sessions and lockouts last as long as they do).
    server = await startTestServer(kind, { clock: clockFrom(new Date('2026-11-23T18:00:00.000Z')) });
  });
  afterAll(() => server?.stop());

  /** A browser: keeps the console's cookies (by name), sends Origin on posts (unless told otherwise). */
  function browser() {
    const jar = new Map<string, string>();
    const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ') || undefined;
    async function go(method: 'GET' | 'POST', path: string, form?: Record<string, string>, origin = server.baseUrl) {
      const sent = cookie();
      const res = await fetch(server.baseUrl + path, {
        method,
        redirect: 'manual',
        headers: {
          ...(sent ? { cookie: sent } : {}),
          ...(method === 'POST' ? { origin, 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const name = pair.slice(0, pair.indexOf('='));
        if (/Max-Age=0/i.test(line)) jar.delete(name);
        else jar.set(name, pair.slice(name.length + 1));
      }
      const set = res.headers.getSetCookie().find((line) => line.startsWith('contactline_console=')) ?? null;
      return {
        status: res.status,
        headers: res.headers,
        location: res.headers.get('location'),
        html: await res.text(),
        setCookie: set,
      };
    }
    return {
      go,
      cookie: () =>
        jar.has('contactline_console') ? `contactline_console=${jar.get('contactline_console')}` : undefined,
    };
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
    expect(keys.html).toMatch(/<th scope="row">[^<]+<\/th><td data-label="Key"><code>svc_pk_…[0-9A-Za-z]{4}<\/code>/);
    expect(keys.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(keys.headers.get('cache-control')).toBe('no-store');
  });

  it('a key created in the console works against the API until it is revoked there; each post redirects, so a reload changes nothing', async () => {
    const { b, accountId } = await signedIn();
    const keyCount = () => server.service.services.db.prisma.apiKey.count({ where: { accountId } });
    const page = await b.go('GET', '/console/api-keys');
    const before = await keyCount();
    const created = await b.go('POST', '/console/api-keys', { csrf: csrfOf(page.html), name: 'CRM sync' });
    // Post/redirect/get: the secret is not in the address; a one-time flash cookie carries it to the list.
    expect(created.status).toBe(303);
    expect(created.location).toBe('/console/api-keys');
    expect(created.html).not.toMatch(/svc_pk_/);
    const flash = created.headers.getSetCookie().find((line) => line.startsWith('contactline_console_flash='));
    expect(flash).toMatch(/; Max-Age=120; Path=\/console\/api-keys; HttpOnly; SameSite=Strict$/);
    expect(flash).not.toMatch(/svc_pk_/);
    const shown = await b.go('GET', created.location as string);
    expect(shown.status).toBe(200);
    const secret = /id="new-secret">(svc_pk_[0-9A-Za-z]+)</.exec(shown.html)?.[1];
    expect(secret).toBeDefined();
    expect(await keyCount()).toBe(before + 1);
    expect((await server.request(secret as string, 'GET', '/api/v1/workflows')).status).toBe(200);
    // Shown once: reloading the list shows only its last four characters, and creates no other key.
    const again = await b.go('GET', '/console/api-keys');
    expect(again.html).not.toContain(secret);
    expect(again.html).toContain(`svc_pk_…${(secret as string).slice(-4)}`);
    expect(await keyCount()).toBe(before + 1);
    // Another session cannot read the flash (it is sealed with the session's own key).
    const other = await signedIn();
    const stolen = await fetch(`${server.baseUrl}/console/api-keys`, {
      headers: { cookie: `${other.b.cookie()}; ${(flash as string).split(';')[0]}` },
    });
    expect(await stolen.text()).not.toMatch(/id="new-secret"/);

    // Revoke is a link to a confirmation page; only its form revokes.
    const id = /CRM sync<\/th>.*?href="\/console\/api-keys\/([0-9a-f-]{36})\/revoke"/.exec(again.html)?.[1];
    expect(again.html).not.toMatch(/<form[^>]*action="\/console\/api-keys\/[0-9a-f-]{36}\/revoke"/);
    const confirm = await b.go('GET', `/console/api-keys/${id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('<h1>Revoke an API key</h1>');
    expect(confirm.html).toContain(`<form method="post" action="/console/api-keys/${id}/revoke" class="confirm">`);
    expect(confirm.html).toContain('Cancel: keep the key');
    expect((await server.request(secret as string, 'GET', '/api/v1/workflows')).status).toBe(200);
    const revoked = await b.go('POST', `/console/api-keys/${id}/revoke`, { csrf: csrfOf(confirm.html) });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe('/console/api-keys?done=revoked');
    const list = await b.go('GET', revoked.location as string);
    expect(list.status).toBe(200);
    expect(list.html).toContain('The key is revoked');
    const refused = await server.request(secret as string, 'GET', '/api/v1/workflows');
    expect(refused.status).toBe(401);
    // The revoke address again (a reload, a bookmark): a console page saying the key is revoked.
    const reloaded = await b.go('GET', `/console/api-keys/${id}/revoke`);
    expect(reloaded.status).toBe(200);
    expect(reloaded.html).toContain('This key is already revoked');
    expect(reloaded.html).not.toContain('class="confirm"');
    const unknown = await b.go('GET', `/console/api-keys/${randomUUID()}/revoke`);
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('No such key in your Account.');

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
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/console/settings?done=saved');
    expect((await b.go('GET', saved.location as string)).html).toContain('Settings saved.');
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

    // Every bad field at once, each next to its own field.
    const both = await b.go('POST', '/console/settings', {
      csrf,
      defaultLocation: 'Atlantis',
      dedupFields: 'phone, email',
    });
    expect(both.status).toBe(400);
    expect(both.html).toMatch(/id="defaultLocation-error"[^>]*>[^<]*Atlantis/);
    expect(both.html).toMatch(/id="dedupFields-error"[^>]*>[^<]*email/);
    expect(both.html).toContain('Nothing was saved: 2 fields need a change, marked below.');
    expect(both.html).toContain('value="Atlantis"');

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
    const posted = await b.go('POST', '/console/workflows', { csrf, name: 'Renewals', agentId });
    expect(posted.status).toBe(303);
    const id = /^\/console\/workflows\?done=workflow-created&workflow=([0-9a-f-]{36})$/.exec(
      posted.location as string,
    )?.[1] as string;
    expect(id).toBeDefined();
    const created = await b.go('GET', posted.location as string);
    expect(created.html).toContain('Workflow “Renewals” created as a draft.');
    expect(created.html).toMatch(
      new RegExp(
        `<th scope="row"><a href="/console/workflows/${id}">Renewals</a></th><td data-label="Agent"><form[^>]*><input[^>]*/><label[^>]*>Agent of Renewals</label><select[^>]*><optgroup label="Live agents"><option value="${agentId}" selected>Ava</option></optgroup></select>`,
      ),
    );
    expect(created.html).toMatch(/<td data-label="Status">draft<\/td>/);
    // Reloading the page the post led to creates nothing more.
    await b.go('GET', posted.location as string);
    expect(await server.service.services.db.prisma.workflow.count({ where: { accountId, name: 'Renewals' } })).toBe(1);
    /** Posts a change; it redirects to the list, which is returned. */
    const change = async (form: Record<string, string>) => {
      const res = await b.go('POST', `/console/workflows/${id}`, { csrf, ...form });
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/console/workflows?done=workflow-changed&workflow=${id}`);
      return b.go('GET', res.location as string);
    };
    const enroll = () =>
      server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        assignmentOptions: { workflowId: id },
      });
    expect((await enroll()).status).toBe(400);

    const published = await change({ status: 'published' });
    expect(published.html).toContain('Workflow “Renewals” is published.');
    expect((await enroll()).status).toBe(201);
    const paused = await change({ paused: 'true' });
    expect(paused.html).toMatch(/<td data-label="Status">published, paused<\/td>/);
    expect(paused.html).toContain('Workflow “Renewals” is paused.');
    expect((await enroll()).status).toBe(400);
    const archived = await change({ status: 'archived' });
    expect(archived.html).toContain('Workflow “Renewals” is archived.');

    const foreign = await server.createWorkflow((await server.createAccount()).accountId);
    expect((await b.go('POST', `/console/workflows/${foreign}`, { csrf, status: 'archived' })).status).toBe(404);
  });

  it('answers an unknown console address, and a request that fails, with a console page (HTML), not JSON', async () => {
    const isConsolePage = (res: { status: number; headers: Headers; html: string }) => {
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.html).toMatch(/^<!doctype html><html lang="en">/);
      expect(res.html).toContain('<link rel="stylesheet" href="/console/assets/console.css"/>');
    };
    // Signed out: the page without the navigation.
    const stranger = await browser().go('GET', '/console/x');
    expect(stranger.status).toBe(404);
    isConsolePage(stranger);
    expect(stranger.html).toContain('<h1>Not found</h1>');
    expect(stranger.html).toContain('There is no console page at this address.');
    expect(stranger.html).not.toContain('Sign out');

    const { b } = await signedIn();
    const page = await b.go('GET', '/console/api-keys');
    for (const [method, path] of [
      ['GET', '/console/x'],
      ['GET', '/console/contacts/x/y'],
      ['GET', `/console/workflows/${randomUUID()}/x`],
      ['POST', '/console/x'],
      ['GET', '/console/assets/missing.css'],
    ] as const) {
      const res = await b.go(method, path, method === 'POST' ? { csrf: csrfOf(page.html) } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
      isConsolePage(res);
      expect(res.html).toContain('There is no console page at this address.');
      // Signed in: the console's navigation, to go on from there.
      expect(res.html).toContain('Sign out');
    }
    // A form larger than a console form holds: the console's page says so.
    const huge = await b.go('POST', '/console/settings', { csrf: csrfOf(page.html), dedupFields: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
    isConsolePage(huge);
    expect(huge.html).toContain('The form sent more than a console form holds.');
  });

  it("defaults a new workflow's agent to the Account's agent, and sets a draft's agent later; its contacts are then called", async () => {
    const { b, apiKey, accountId } = await signedIn();
    const none = await b.go('GET', '/console/workflows');
    // No agent yet: "none yet" is all there is.
    expect(/<select id="agentId"[^>]*>(.*?)<\/select>/.exec(none.html)?.[1]).toBe(
      '<option value selected>none yet</option>',
    );
    const createAgent = (name: string, forAccount = accountId) =>
      server
        .request(ADMIN_TOKEN, 'POST', '/graphql', {
          query: 'mutation ($input: JSON!) { createAgent(input: $input) { id } }',
          variables: { input: { accountId: forAccount, name, status: 'live', workingHours: ALWAYS_OPEN } },
        })
        .then((res) => res.json.data.createAgent.id as string);
    const ava = await createAgent('Ava');
    const page = await b.go('GET', '/console/workflows');
    const picker = /<select id="agentId"[^>]*>(.*?)<\/select>/.exec(page.html)?.[1];
    expect(picker).toContain(`<option value="${ava}" selected>Ava</option>`);
    expect(picker).toMatch(/<option value>none \(nobody calls its contacts until one is set\)<\/option>/);
    const csrf = csrfOf(page.html);

    // A draft made without an agent (as before this default): its agent is set from the list.
    const posted = await b.go('POST', '/console/workflows', { csrf, name: 'Orphan', agentId: '' });
    const id = new URL(posted.location as string, server.baseUrl).searchParams.get('workflow') as string;
    const prisma = server.service.services.db.prisma;
    expect((await prisma.workflow.findUniqueOrThrow({ where: { id } })).agentId).toBeNull();
    const list = await b.go('GET', posted.location as string);
    expect(list.html).toContain(`action="/console/workflows/${id}/agent"`);
    expect(list.html).toContain('<option value selected>none yet: choose one</option>');

    // Refused: no choice, and another Account's agent (said next to the picker, nothing changed).
    const empty = await b.go('POST', `/console/workflows/${id}/agent`, { csrf, agentId: '' });
    expect(empty.status).toBe(400);
    expect(empty.html).toMatch(new RegExp(`id="agent-of-${id}-error"[^>]*>choose the agent`));
    expect(empty.html).toContain(`aria-describedby="agent-of-${id}-error"`);
    const foreign = await createAgent('Theirs', (await server.createAccount()).accountId);
    const stranger = await b.go('POST', `/console/workflows/${id}/agent`, { csrf, agentId: foreign });
    expect(stranger.status).toBe(400);
    expect(stranger.html).toMatch(new RegExp(`id="agent-of-${id}-error"[^>]*>no agent ${foreign}`));
    expect((await prisma.workflow.findUniqueOrThrow({ where: { id } })).agentId).toBeNull();

    const set = await b.go('POST', `/console/workflows/${id}/agent`, { csrf, agentId: ava });
    expect(set.status).toBe(303);
    expect(set.location).toBe(`/console/workflows?done=workflow-agent&workflow=${id}`);
    expect((await b.go('GET', set.location as string)).html).toContain(
      'Workflow “Orphan” is called by “Ava” from now on.',
    );
    expect((await prisma.workflow.findUniqueOrThrow({ where: { id } })).agentId).toBe(ava);

    // Published, it takes a contact, and the dialer calls it with Ava.
    expect((await b.go('POST', `/console/workflows/${id}`, { csrf, status: 'published' })).status).toBe(303);
    const contact = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      assignmentOptions: { workflowId: id },
      // A US telemarketing call needs the contact's prior express written consent.
      consent: writtenConsent(server.now()),
    });
    expect(contact.status, contact.text).toBe(201);
    const telephony = createSimulatedTelephony({ sink: async () => {}, delayMs: 0 });
    const run = await runDialerOnce(server.service.services, telephony);
    expect(run.placed.filter((call) => call.contactId === contact.json.id)).toEqual([
      expect.objectContaining({ agentId: ava, workflowId: id }),
    ]);
    await telephony.settled();
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
    expect(other.headers.get('location')).toBe('/console/sign-in?next=%2Fconsole%2Fapi-keys');
  });
});
