// What the console says about calling hours, against what the dialer does, with a controlled
// clock: the agent's working hours apply in each contact's zone (the agent's only for a contact
// without one), and a contact's page says when the dialer will really call. The case of issue 26:
// on a Saturday an agent that calls new contacts at once placed a first call outside its hours;
// the call asked to retry at 13:23 that Saturday, and the page said "Next call 1:23 PM" although
// the agent has no Saturday hours. The page now shows Monday's window, and the dialer agrees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser.js';
import { callingSetup } from '../support/calling-setup.js';
import { CONSOLE_PASSWORD, personWithPassword } from '../support/console-people.js';
import { testDatabaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { writtenConsent } from '../support/consent.js';

// Saturday 14 March 2026, 12:00 in New York (EDT, UTC-4).
const SATURDAY_NOON_NEW_YORK = new Date('2026-03-14T16:00:00.000Z');

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;|&rsquo;|’/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe.each(testDatabaseKinds())('console calling hours on %s', (kind) => {
  let server: TestServer;
  const clock = {
    at: SATURDAY_NOON_NEW_YORK,
    now() {
      return this.at;
    },
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(() => server?.stop());

  const prisma = () => server.service.services.db.prisma;

  /** A person signed in to a new Account with a live New York agent (Monday to Friday, 09:00–17:00) and its workflow. */
  async function setup() {
    const person = await personWithPassword(server);
    const browser = new Browser();
    const signIn = await browser.go(`${server.baseUrl}/console/sign-in`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: person.email, password: CONSOLE_PASSWORD }).toString(),
    });
    expect(signIn.status).toBe(303);
    const { workflowId, dial } = await callingSetup(server, person.accountId, {
      timezone: 'America/New_York',
      agentName: 'Demo agent',
      workflowName: 'Renewals',
    });
    const page = async (path: string) => {
      const res = await browser.go(`${server.baseUrl}${path}`);
      expect(res.status).toBe(200);
      return res.text;
    };
    return { ...person, workflowId, dial, page };
  }

  it('says the working hours apply in the contact’s zone, and the agent’s only for a contact without one', async () => {
    const { page } = await setup();
    const list = text(await page('/console/workflows'));
    expect(list).toContain(
      "Calling hours of Demo agent, in each contact's time zone (America/New_York for a contact without one)",
    );
    const form = text(await page('/console/agents/new'));
    expect(form).toContain("the windows in which the agent calls, in each contact's time zone");
    expect(form).toContain('this zone is used only for a contact without one');
    expect(form).not.toMatch(/the working hours below are in it/);
  });

  it('shows the next call when the dialer will place it, in the calling zone, and why; the dialer then calls then', async () => {
    clock.at = SATURDAY_NOON_NEW_YORK;
    const { apiKey, workflowId, dial, page } = await setup();
    const enroll = async (phone: string, timezone: string | null) => {
      const res = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone,
        ...(timezone ? { timezone } : {}),
        assignmentOptions: { workflowId },
        // A US telemarketing call needs the contact's prior express written consent.
        consent: writtenConsent(server.now()),
      });
      expect(res.status, res.text).toBeLessThan(300);
      // A New York number is given New York's zone; the first contact is one whose zone is unknown.
      if (!timezone) await prisma().contact.update({ where: { id: res.json.id }, data: { timezone: null } });
      return res.json.id as string;
    };
    const own = await enroll('+12125550181', null);
    // A Tokyo number: with a New York one, the law's hours in New York (08:00-21:00) would never
    // meet Tokyo's, and the dialer would never call it.
    const tokyo = await enroll('+81355550182', 'Asia/Tokyo');
    // The agent calls new contacts at once: both first calls are placed on Saturday, outside its
    // hours. No answer; each call (60 s) asks to try again 82 minutes after it ends: 13:23 that Saturday.
    const noAnswer = { result: 'no_answer', durationSeconds: 60, nextAttemptInMinutes: 82 } as const;
    expect(await dial({ '+12125550181': noAnswer, '+81355550182': noAnswer })).toHaveLength(2);
    const stored = await prisma().contact.findUniqueOrThrow({ where: { id: own } });
    expect(stored.nextCallAt?.toISOString()).toBe('2026-03-14T17:23:00.000Z'); // what the page used to show

    // The contact without a zone: the agent's zone; the retry time is outside the hours: Monday 09:00 New York.
    const ownPage = text(await page(`/console/contacts/${own}`));
    expect(ownPage).toContain('Next callMonday, 16 March 2026, 09:00 (America/New_York)');
    expect(ownPage).toContain(
      "Demo agent calls in its working hours, applied in the agent's time zone, America/New_York, as the contact has none.",
    );
    expect(ownPage).toContain(
      'It is due at Saturday, 14 March 2026, 13:23 (America/New_York) (the retry time the last call set), outside those hours: the call waits for the next window.',
    );
    // The contact in Tokyo: 13:23 Saturday in New York is 02:23 Sunday there; its next window is Monday 09:00 Tokyo.
    const tokyoPage = text(await page(`/console/contacts/${tokyo}`));
    expect(tokyoPage).toContain('Next callMonday, 16 March 2026, 09:00 (Asia/Tokyo)');
    expect(tokyoPage).toContain("applied in the contact's time zone, Asia/Tokyo.");
    expect(tokyoPage).toContain('It is due at Sunday, 15 March 2026, 02:23 (Asia/Tokyo)');

    // The dialer does what the pages said: nothing at the retry time, each call at its window.
    clock.at = new Date('2026-03-14T17:23:00.000Z');
    expect(await dial()).toHaveLength(0);
    clock.at = new Date('2026-03-16T00:00:00.000Z'); // Monday 09:00 Tokyo, Sunday 20:00 New York
    expect((await dial()).map((call) => call.contactId)).toEqual([tokyo]);
    clock.at = new Date('2026-03-16T13:00:00.000Z'); // Monday 09:00 New York
    expect((await dial()).map((call) => call.contactId)).toEqual([own]);
  });

  it('says why nobody calls: a first call placed at once, a paused workflow', async () => {
    clock.at = SATURDAY_NOON_NEW_YORK;
    const { apiKey, workflowId, page } = await setup();
    const res = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+12125550183',
      assignmentOptions: { workflowId },
      consent: writtenConsent(server.now()),
    });
    const id = res.json.id as string;
    // The page's next call is the dialing decision's: a US number is called only with its consent.
    const consent = await server.request(apiKey, 'POST', `/api/v1/contacts/${id}/consents`, {
      kind: 'express_written',
      method: 'web_form',
      obtainedAt: new Date(server.now().getTime() - 86_400_000).toISOString(),
    });
    expect(consent.status).toBe(201);
    await prisma().workflow.update({ where: { id: workflowId }, data: { paused: true } });
    expect(text(await page(`/console/contacts/${id}`))).toContain('Next callnone planned: its workflow is paused.');
    await prisma().workflow.update({ where: { id: workflowId }, data: { paused: false } });
    const immediate = text(await page(`/console/contacts/${id}`));
    expect(immediate).toContain('Next callSaturday, 14 March 2026, 12:00 (America/New_York)');
    expect(immediate).toContain('A first call is placed at once, even outside the working hours');
    // The console's read: an API key is refused it.
    const byKey = await server.request(apiKey, 'POST', '/graphql', {
      query: `{ accountContactNextCall(contactId: "${id}") { plannedAt } }`,
    });
    expect(byKey.json.errors[0].extensions.code).toBe('unauthenticated');
  });
});
