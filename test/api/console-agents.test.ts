// The console's agent pages over HTTP, as a browser without scripts sends them (plain forms,
// the week as time inputs): an agent created with its week, listed with it, edited; refusals
// (the domain's) shown next to the field or the day they name, with what was typed kept;
// another Account's agent not found; the CSRF token required. And the console's agent
// mutations refused to an API key and to the operator token. On each database.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { CONSOLE_PASSWORD, personWithPassword } from '../support/console-people.js';
import { testDatabaseKinds } from '../support/databases.js';

const PASSWORD = CONSOLE_PASSWORD;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The agent form's fields other than the week, as a person leaves them by default. */
const AGENT_FIELDS = {
  name: 'Ava',
  status: 'live',
  provider: 'simulator',
  providerAgentId: '',
  providerPhoneNumber: '',
  phoneNumber: '',
  timezone: 'Europe/Paris',
  defaultLanguage: 'fr-FR',
  attemptLimit: '4',
  retryDelayMinutes: '90',
  maxConcurrentCalls: '',
  callNewContactsImmediately: 'true',
};

/** The week's fields as the form posts them: each day's rows, then its empty row. */
function week(hours: Partial<Record<string, Array<[string, string]>>>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const day of ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']) {
    const rows = [...(hours[day] ?? []), ['', ''] as [string, string]];
    rows.forEach(([start, end], i) => {
      fields[`${day}.${i}.start`] = start;
      fields[`${day}.${i}.end`] = end;
    });
  }
  return fields;
}

describe.each(testDatabaseKinds())('console agents on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());
  const prisma = () => server.service.services.db.prisma;

  /** A browser: keeps the console cookie, sends its own Origin on posts. */
  function browser() {
    let cookie: string | undefined;
    async function go(method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
      const res = await fetch(server.baseUrl + path, {
        method,
        redirect: 'manual',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(method === 'POST' ? { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
      const set = res.headers.get('set-cookie');
      if (set) cookie = /Max-Age=0/i.test(set) ? undefined : set.split(';')[0];
      return { status: res.status, location: res.headers.get('location'), html: await res.text() };
    }
    return { go };
  }
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const decoded = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  /** The text of the error shown under the element `id` names (its `-error` paragraph). */
  const errorOf = (html: string, id: string) => {
    const text = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
    return text === undefined ? undefined : decoded(text);
  };
  /** The value of the input named `name` ('' for an empty one, which is rendered as a bare `value`). */
  const inputValue = (html: string, name: string) => {
    const input = new RegExp(`<input[^>]*name="${name.replace(/\./g, '\\.')}"[^>]*>`).exec(html)?.[0];
    if (!input) return undefined;
    return decoded(/ value="([^"]*)"/.exec(input)?.[1] ?? '');
  };

  async function signedIn() {
    const { accountId, apiKey, email } = await personWithPassword(server);
    const b = browser();
    expect((await b.go('POST', '/console/sign-in', { email, password: PASSWORD })).status).toBe(303);
    return { accountId, apiKey, b };
  }

  /** A person signed in, and the agent Ava they created through the form. */
  async function withAgent() {
    const person = await signedIn();
    const form = await person.b.go('GET', '/console/agents/new');
    const created = await person.b.go('POST', '/console/agents/new', {
      csrf: csrfOf(form.html),
      ...AGENT_FIELDS,
      ...week({
        mon: [
          ['09:00', '12:00'],
          ['14:00', '18:00'],
        ],
        fri: [['10:00', '16:00']],
      }),
    });
    expect(created.status).toBe(303);
    const id = new RegExp(`^/console/workflows\\?created=(${UUID})$`).exec(created.location ?? '')?.[1] as string;
    expect(id).toBeDefined();
    return { ...person, id, csrf: csrfOf(form.html), created };
  }

  it('creates an agent through the form (two windows on Monday, one on Friday); the list shows it with its week', async () => {
    const { id, accountId, b, created } = await withAgent();
    const list = await b.go('GET', '/console/workflows');
    expect(list.html).toContain('href="/console/agents/new"');
    const form = await b.go('GET', '/console/agents/new');
    expect(form.status).toBe(200);
    // Without a script: each weekday's window rows are two time inputs, plus an empty row.
    expect(form.html).toMatch(/<input type="time" id="hours-mon-0-start" name="mon\.0\.start" value="09:00"/);
    expect(form.html).toMatch(/<input type="time" id="hours-sat-0-start" name="sat\.0\.start" value\/>/);
    expect(form.html).toContain('<option value="Europe/Paris">');

    expect(created.location).toBe(`/console/workflows?created=${id}`);
    const stored = await prisma().agent.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({
      accountId,
      name: 'Ava',
      status: 'live',
      provider: 'simulator',
      timezone: 'Europe/Paris',
      defaultLanguage: 'fr-FR',
      attemptLimit: 4,
      retryDelayMinutes: 90,
      callNewContactsImmediately: true,
      maxConcurrentCalls: null,
      phoneNumber: null,
      workingHours: {
        mon: [
          { start: '09:00', end: '12:00' },
          { start: '14:00', end: '18:00' },
        ],
        fri: [{ start: '10:00', end: '16:00' }],
      },
    });

    const shown = await b.go('GET', created.location as string);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('Agent “Ava” created.');
    expect(shown.html).toContain(
      "Calling hours of Ava, in each contact's time zone (Europe/Paris for a contact without one)",
    );
    expect(shown.html).toMatch(/<th scope="row">Monday<\/th><td>.*?09:00–12:00, 14:00–18:00<\/span>/);
    expect(shown.html).toMatch(/<th scope="row">Friday<\/th><td>.*?10:00–16:00<\/span>/);
    expect(shown.html).toMatch(/<th scope="row">Tuesday<\/th><td>.*?no calls<\/span>/);
    // Two bars on Monday: 09:00 is 37.5% of the day.
    expect(shown.html).toMatch(/class="window" style="left:37\.5%;width:12\.5%;"/);
    expect(shown.html).toContain(`href="/console/agents/${id}"`);
  });

  it('edits it: the form is prefilled; a new time zone and new hours are saved and shown', async () => {
    const { b, id } = await withAgent();
    const page = await b.go('GET', `/console/agents/${id}`);
    expect(page.status).toBe(200);
    expect(inputValue(page.html, 'name')).toBe('Ava');
    expect(inputValue(page.html, 'timezone')).toBe('Europe/Paris');
    expect(inputValue(page.html, 'mon.1.start')).toBe('14:00');
    expect(inputValue(page.html, 'fri.0.end')).toBe('16:00');
    expect(inputValue(page.html, 'mon.2.start')).toBe('');
    expect(page.html).toMatch(/<option value="live" selected>/);
    expect(page.html).toMatch(/<option value="fr-FR" selected>/);
    expect(page.html).toMatch(/name="callNewContactsImmediately" value="true" checked/);

    const saved = await b.go('POST', `/console/agents/${id}`, {
      csrf: csrfOf(page.html),
      ...AGENT_FIELDS,
      timezone: 'america/new_york',
      callNewContactsImmediately: '',
      ...week({
        // A Monday window removed (its times left empty), one changed; Friday's removed; Wednesday
        // to midnight (a time input's 00:00).
        mon: [
          ['08:00', '12:00'],
          ['', ''],
        ],
        wed: [['13:00', '00:00']],
      }),
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/console/workflows?saved=${id}`);
    const stored = await prisma().agent.findUniqueOrThrow({ where: { id } });
    expect(stored.timezone).toBe('America/New_York');
    expect(stored.callNewContactsImmediately).toBe(false);
    expect(stored.workingHours).toEqual({
      mon: [{ start: '08:00', end: '12:00' }],
      wed: [{ start: '13:00', end: '24:00' }],
    });

    const list = await b.go('GET', saved.location as string);
    expect(list.html).toContain('Agent “Ava” saved.');
    expect(list.html).toContain(
      "Calling hours of Ava, in each contact's time zone (America/New_York for a contact without one)",
    );
    expect(list.html).toMatch(/<th scope="row">Wednesday<\/th><td>.*?13:00–24:00<\/span>/);
    expect(list.html).toMatch(/<th scope="row">Friday<\/th><td>.*?no calls<\/span>/);
    // The end of the day is 00:00 in a time input.
    const again = await b.go('GET', `/console/agents/${id}`);
    expect(inputValue(again.html, 'wed.0.end')).toBe('00:00');
  });

  it('a refused form comes back (400) with what was typed, each error next to its field or day', async () => {
    const { b, accountId, id, csrf } = await withAgent();
    const refused = await b.go('POST', '/console/agents/new', {
      csrf,
      ...AGENT_FIELDS,
      name: 'Bea',
      timezone: 'Mars/Olympus',
      ...week({
        mon: [
          ['09:00', '12:00'],
          ['11:00', '13:00'],
        ],
        tue: [['17:00', '09:00']],
      }),
    });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.html, 'hours-tue')).toBe('window 1: start 17:00 must be before end 09:00');
    expect(errorOf(refused.html, 'hours-mon')).toBe('window 2: window 11:00–13:00 overlaps window 09:00–12:00');
    expect(errorOf(refused.html, 'hours-wed')).toBeUndefined();
    expect(errorOf(refused.html, 'timezone')).toBe('"Mars/Olympus" is not an IANA time zone (e.g. America/New_York)');
    // The day's fieldset and the rows it names point at the day's error.
    expect(refused.html).toMatch(/<fieldset class="day" data-day="tue" aria-describedby="hours-tue-error">/);
    expect(refused.html).toMatch(
      /name="tue\.0\.start" value="17:00" aria-invalid="true" aria-describedby="hours-tue-error"/,
    );
    expect(refused.html).toMatch(/name="mon\.0\.start" value="09:00"\/>/);
    expect(refused.html).toMatch(/id="timezone" name="timezone" value="Mars\/Olympus"[^>]*aria-invalid="true"/);
    expect(inputValue(refused.html, 'name')).toBe('Bea');
    expect(inputValue(refused.html, 'mon.1.end')).toBe('13:00');
    expect(await prisma().agent.count({ where: { accountId } })).toBe(1);

    // On the agent's page too: the provider's references (the domain's rule), a bound, a number
    // the form cannot send; the stored agent does not change.
    const edit = await b.go('POST', `/console/agents/${id}`, {
      csrf,
      ...AGENT_FIELDS,
      provider: 'retell',
      attemptLimit: '99',
      ...week({ thu: [['10:00', '']] }),
    });
    expect(edit.status).toBe(400);
    expect(errorOf(edit.html, 'providerAgentId')).toBe('a retell agent needs the Retell agent id and from-number');
    expect(errorOf(edit.html, 'attemptLimit')).toMatch(/50/);
    expect(errorOf(edit.html, 'hours-thu')).toMatch(/^window 1 to: must be a time HH:MM/);
    expect(edit.html).toMatch(/<option value="retell" selected>/);
    const notNumber = await b.go('POST', `/console/agents/${id}`, {
      csrf,
      ...AGENT_FIELDS,
      retryDelayMinutes: 'often',
      ...week({}),
    });
    expect(notNumber.status).toBe(400);
    expect(errorOf(notNumber.html, 'retryDelayMinutes')).toBe('"often" is not a whole number');
    const stored = await prisma().agent.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ provider: 'simulator', attemptLimit: 4, retryDelayMinutes: 90 });
    expect(Object.keys(stored.workingHours as object).sort()).toEqual(['fri', 'mon']);
  });

  it("another Account's agent is not found (404), nor an id that is not one; nothing changes", async () => {
    const { b, csrf } = await withAgent();
    const other = await server.createAccount();
    const foreign = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
      query: 'mutation ($input: JSON!) { createAgent(input: $input) { id } }',
      variables: { input: { accountId: other.accountId, name: 'Theirs' } },
    });
    const foreignId = foreign.json.data.createAgent.id as string;
    expect((await b.go('GET', `/console/agents/${foreignId}`)).status).toBe(404);
    const post = await b.go('POST', `/console/agents/${foreignId}`, { csrf, ...AGENT_FIELDS, ...week({}) });
    expect(post.status).toBe(404);
    expect(post.html).toContain('No such agent in your Account.');
    expect((await prisma().agent.findUniqueOrThrow({ where: { id: foreignId } })).name).toBe('Theirs');
    expect((await b.go('GET', '/console/agents/not-an-id')).status).toBe(404);
    expect((await b.go('GET', '/console/agents/%00')).status).toBe(404);
    expect((await b.go('GET', `/console/agents/${randomUUID()}`)).status).toBe(404);
    expect((await b.go('POST', '/console/agents/not-an-id', { csrf, ...AGENT_FIELDS })).status).toBe(404);
  });

  it('refuses a form without the session CSRF token (403) before acting', async () => {
    const { b, accountId, id } = await withAgent();
    const create = await b.go('POST', '/console/agents/new', { ...AGENT_FIELDS, name: 'Forged', ...week({}) });
    expect(create.status).toBe(403);
    const edit = await b.go('POST', `/console/agents/${id}`, { ...AGENT_FIELDS, name: 'Forged', ...week({}) });
    expect(edit.status).toBe(403);
    expect(await prisma().agent.count({ where: { accountId } })).toBe(1);
    expect((await prisma().agent.findUniqueOrThrow({ where: { id } })).name).toBe('Ava');
  });

  it("the agent's own number is stored in international format; another agent's number is a 409 at the field", async () => {
    const { b, csrf, id } = await withAgent();
    const number = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const spaced = `${number.slice(0, 2)} ${number.slice(2, 5)} ${number.slice(5, 8)} ${number.slice(8)}`;
    const saved = await b.go('POST', `/console/agents/${id}`, {
      csrf,
      ...AGENT_FIELDS,
      phoneNumber: spaced,
      ...week({}),
    });
    expect(saved.status).toBe(303);
    expect((await prisma().agent.findUniqueOrThrow({ where: { id } })).phoneNumber).toBe(number);

    const other = await withAgent();
    const taken = await other.b.go('POST', `/console/agents/${other.id}`, {
      csrf: other.csrf,
      ...AGENT_FIELDS,
      phoneNumber: number,
      ...week({}),
    });
    expect(taken.status).toBe(409);
    expect(errorOf(taken.html, 'phoneNumber')).toBe(`${number} is already another agent's number`);
    expect(inputValue(taken.html, 'phoneNumber')).toBe(number);
    expect((await prisma().agent.findUniqueOrThrow({ where: { id: other.id } })).phoneNumber).toBeNull();
  });

  it('a week of many windows fits in one form', async () => {
    const { b, csrf, id } = await withAgent();
    const hours = Array.from({ length: 8 }, (_, i): [string, string] => [`0${i}:00`, `0${i}:30`]);
    const saved = await b.go('POST', `/console/agents/${id}`, {
      csrf,
      ...AGENT_FIELDS,
      ...week({ mon: hours, tue: hours, wed: hours, thu: hours, fri: hours, sat: hours, sun: hours }),
    });
    expect(saved.status).toBe(303);
    const stored = await prisma().agent.findUniqueOrThrow({ where: { id } });
    expect((stored.workingHours as Record<string, unknown[]>).sun).toHaveLength(8);
  });

  it("the console's agent mutations are refused to an API key and to the operator token", async () => {
    const { apiKey, id } = await withAgent();
    const create = `mutation ($input: CreateAccountAgentInput!) { createAccountAgent(input: $input) { id } }`;
    const update = `mutation ($id: String!, $input: UpdateAgentInput!) { updateAccountAgent(id: $id, input: $input) { id } }`;
    for (const token of [apiKey, ADMIN_TOKEN]) {
      const created = await server.request(token, 'POST', '/graphql', {
        query: create,
        variables: { input: { name: 'By key' } },
      });
      expect(created.status).toBe(200);
      expect(created.json.errors?.[0]?.extensions?.code).toBe('unauthenticated');
      expect(created.json.errors?.[0]?.message).toContain("console's");
      const updated = await server.request(token, 'POST', '/graphql', {
        query: update,
        variables: { id, input: { name: 'Renamed by key' } },
      });
      expect(updated.json.errors?.[0]?.extensions?.code).toBe('unauthenticated');
    }
    expect(await prisma().agent.count({ where: { name: { in: ['By key', 'Renamed by key'] } } })).toBe(0);
    // An API key still reads its Account's agent.
    const read = await server.request(apiKey, 'POST', '/graphql', {
      query: 'query ($id: String!) { accountAgent(id: $id) { id name } }',
      variables: { id },
    });
    expect(read.json.data.accountAgent).toEqual({ id, name: 'Ava' });
  });
});
