// The console in a real Chromium (Debian's package, driven by playwright-core), on each database:
// what a person does in it, clicked and typed as a person would. Each page is photographed at
// phone and desktop widths into test-output/screenshots/ and checked by axe-core (no serious
// or critical violation) and for sideways scrolling at 360 px.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_AFTER_FAILURES } from '../../src/domain/users/sign-in.rules.js';
import { uniquePhone } from '../support/api-helpers.js';
import { launchChromium, photograph, seriousViolations, WIDTHS } from '../support/chromium.js';
import { testDatabaseKinds } from '../support/databases.js';
import { LEADS_COLUMNS, startBoardAppWithOAuth } from '../support/monday-board-app.js';
import type { MondayEmulator } from '../support/monday-emulator/index.js';
import type { TestServer } from '../support/test-server.js';
import { CONSOLE_PASSWORD, invitedPerson } from '../support/console-people.js';

const PASSWORD = CONSOLE_PASSWORD;
const CLIENT_ID = 'contactline-console-browser-client';
const CLIENT_SECRET = 'contactline-console-browser-client-secret';
let nextMondayAccount = 7_000_000 + Math.floor(Math.random() * 1_000_000);

describe.each(testDatabaseKinds())('the console in Chromium on %s', (kind) => {
  let server: TestServer;
  let browser: Browser;
  let monday: MondayEmulator;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const started = await Promise.all([
      startBoardAppWithOAuth(kind, {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        signingSecret: 'monday-signing-secret-console-browser',
      }),
      launchChromium(),
    ]);
    ({ monday, server } = started[0]);
    browser = started[1];
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await monday?.close();
  });

  /** What a page loaded besides itself that failed (a favicon, a stylesheet, a script), by page. */
  const failedLoads = new WeakMap<Page, string[]>();

  /** A new browser profile (no cookies), reading times in Tokyo's zone. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-GB', baseURL: server.baseUrl });
    contexts.push(context);
    // A missing element fails the test in seconds, with Playwright's message, not at vitest's timeout.
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const failed: string[] = [];
    failedLoads.set(page, failed);
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'document' && response.status() >= 400)
        failed.push(`${response.status()} ${response.url()}`);
    });
    // A page without an icon of its own makes the browser ask for /favicon.ico (the API's 404).
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/favicon.ico') failed.push(`asked for ${request.url()}`);
    });
    return page;
  }

  /**
   * Asserts the page has no serious accessibility violation, fits 360 px, has no boxes that touch,
   * and loaded everything it asked for; a console page names its icon, which is served. Writes its
   * screenshots.
   */
  async function checkPage(page: Page, name: string) {
    const { violations, overflow } = await photograph(page, name);
    expect(violations, `axe on ${name}`).toEqual([]);
    expect(overflow, `sideways scroll or touching boxes on ${name}`).toEqual([]);
    expect(failedLoads.get(page), `failed loads on ${name}`).toEqual([]);
    if (!new URL(page.url()).pathname.startsWith('/console/')) return;
    const icon = await page.evaluate(() => document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? null);
    expect(icon, `icon of ${name}`).toBe('/console/assets/favicon.svg');
    const served = await page.context().request.get(icon as string);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  }

  /**
   * At 360 px the control is in the window as the page lays it out (measured before anything is
   * scrolled: a control inside a table that scrolls sideways is past the right edge), and a
   * person can click it.
   */
  async function reachableAtPhoneWidth(page: Page, control: Locator, what: string) {
    await page.setViewportSize(WIDTHS.phone);
    const box = await control.evaluate((el) => {
      const rect = el.getBoundingClientRect();
      return { left: rect.left, right: rect.right, width: rect.width };
    });
    expect(box.width, `${what} is drawn`).toBeGreaterThan(0);
    expect(box.left, `${what} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(box.right, `${what} ends inside the 360 px window`).toBeLessThanOrEqual(WIDTHS.phone.width);
    await control.click({ trial: true });
    await page.setViewportSize(WIDTHS.desktop);
  }

  /** An invited person who set a password on the invitation page and signed in. */
  async function signedIn(shots = false) {
    const person = await invitedPerson(server);
    const page = await newPage();
    await page.goto(person.path);
    await expect(page.getByText(person.email)).toBeTruthy();
    if (shots) await checkPage(page, 'invitation');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: /set password/i }).click();
    await page.waitForURL(/\/console\/sign-in\?done=password$/);
    if (shots) await checkPage(page, 'sign-in');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console/contacts');
    return { ...person, page };
  }

  it('the accessibility check finds what it should (an unlabelled field, unreadable contrast)', async () => {
    const page = await newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><title>t</title><main><input id="q">' +
        '<p style="color:#bbb;background:#fff">faint</p></main></html>',
    );
    const found = (await seriousViolations(page)).map((v) => v.split(':')[0]);
    expect(found).toEqual(expect.arrayContaining(['label', 'color-contrast']));
  });

  it('an invited person sets a password, signs in, and signs out', async () => {
    const { page } = await signedIn(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Contacts');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/console/sign-in');
    await page.goto('/console/api-keys');
    expect(page.url()).toMatch(/\/console\/sign-in\?next=%2Fconsole%2Fapi-keys$/);
  });

  it('creates an API key (shown once), the API takes it, revokes it, and the API refuses it', async () => {
    const { page } = await signedIn();
    await page.goto('/console/api-keys');
    await page.getByLabel('Name').fill('Warehouse sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('#new-secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(20);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await checkPage(page, 'api-keys');

    expect((await server.request(secret, 'GET', '/api/v1/contacts?limit=1')).status).toBe(200);
    // The form's post ended with a redirect to the list: reloading it sends nothing again, and the
    // secret is shown once: the list has the key's name but not its secret.
    expect(new URL(page.url()).pathname).toBe('/console/api-keys');
    await page.reload();
    expect(await page.locator('#new-secret').count()).toBe(0);
    expect(await page.getByRole('row').filter({ hasText: 'Warehouse sync' }).count()).toBe(1);
    const revoke = page.getByRole('link', { name: 'Revoke Warehouse sync' });
    await reachableAtPhoneWidth(page, revoke, 'Revoke');
    // Revoking asks first, on a page of its own (no script needed); Cancel keeps the key.
    await revoke.click();
    await page.waitForURL(/\/console\/api-keys\/[0-9a-f-]{36}\/revoke$/);
    await checkPage(page, 'api-key-revoke');
    await page.getByRole('link', { name: 'Cancel: keep the key' }).click();
    await page.waitForURL(/\/console\/api-keys$/);
    expect((await server.request(secret, 'GET', '/api/v1/contacts?limit=1')).status).toBe(200);
    await page.getByRole('link', { name: 'Revoke Warehouse sync' }).click();
    await page.getByRole('button', { name: 'Revoke “Warehouse sync”' }).click();
    await page.getByText('The key is revoked').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/api-keys');
    await page.reload();
    expect(await page.getByRole('row').filter({ hasText: 'Warehouse sync' }).count()).toBe(1);
    const refused = await server.request(secret, 'GET', '/api/v1/contacts?limit=1');
    expect(refused.status).toBe(401);
  });

  it('creates a key with scopes and an expiry: the list shows them, and the API holds the key to them', async () => {
    const { page } = await signedIn();
    await page.goto('/console/api-keys');
    await page.getByLabel('Name').fill('Read-only assistant');
    await page.getByLabel('contacts:read').check();
    // A day after the service's today: the key is refused from 00:00 UTC that day.
    const tomorrow = new Date(server.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Expires on').fill(tomorrow);
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('#new-secret').textContent()) ?? '';
    const row = page.getByRole('row').filter({ hasText: 'Read-only assistant' });
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('contacts:read');
    expect(await row.getByRole('cell').nth(4).textContent()).not.toBe('never');
    expect((await server.request(secret, 'GET', '/api/v1/contacts?limit=1')).status).toBe(200);
    const refused = await server.request(secret, 'PUT', '/api/v1/contacts/upsert', { phone: '+14155550123' });
    expect(refused.status).toBe(403);
    expect(refused.json.scope).toBe('contacts:write');
    // A date in the past is refused on the form, which keeps what was ticked.
    await page.getByLabel('Name').fill('Too late');
    await page.getByLabel('calls:read').check();
    await page.getByLabel('Expires on').fill('2000-01-01');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('must be in the future').waitFor();
    expect(await page.getByLabel('calls:read').isChecked()).toBe(true);
    expect(await page.getByRole('row').filter({ hasText: 'Too late' }).count()).toBe(0);
  });

  it('shows the console’s own page for an unknown address', async () => {
    const { page } = await signedIn();
    const answer = await page.goto('/console/no-such-page');
    expect(answer?.status()).toBe(404);
    expect(answer?.headers()['content-type']).toBe('text/html; charset=utf-8');
    await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    await page.getByText('There is no console page at this address.').waitFor();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Contacts' }).waitFor();
    await checkPage(page, 'not-found');
  });

  it('creates an agent with its week on the grid (a bad window refused at its day), then a workflow it calls', async () => {
    const { page } = await signedIn();
    await page.goto('/console/workflows');
    await page.getByText(/No agents yet/).waitFor();
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.waitForURL(/\/console\/agents\/new$/);
    await page.getByLabel('Name', { exact: true }).fill('Ava');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    // Live, so that the new-workflow form below picks it (it offers the live agents first).
    await page.getByLabel('Status', { exact: true }).selectOption('live');
    const monday = page.getByRole('group', { name: 'Monday' });
    await monday.getByLabel('Window 1 from').fill('09:00');
    await monday.getByLabel('Window 1 to').fill('12:00');
    // The script's Add button gives Monday a second window.
    await monday.getByRole('button', { name: 'Add a window on Monday' }).click();
    await monday.getByLabel('Window 3 from').fill('13:30');
    await monday.getByLabel('Window 3 to').fill('17:00');
    const tuesday = page.getByRole('group', { name: 'Tuesday' });
    await tuesday.getByLabel('Window 1 from').fill('18:00');
    await tuesday.getByLabel('Window 1 to').fill('10:00');
    await checkPage(page, 'agent');
    await page.getByRole('button', { name: 'Create the agent' }).click();

    // Refused at Tuesday, with what was typed kept.
    const tuesdayError = page.locator('#hours-tue-error');
    await tuesdayError.waitFor();
    expect(await tuesday.getByLabel('Window 1 from').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Ava');
    await tuesday.getByLabel('Window 1 to').fill('20:00');
    await page.getByRole('button', { name: 'Create the agent' }).click();
    await page.getByText('Agent “Ava” created.').waitFor();
    const week = page.getByRole('table', { name: /Calling hours of Ava/ });
    expect(await week.getByRole('row', { name: /Monday/ }).textContent()).toContain('09:00–12:00, 13:30–17:00');
    expect(await week.getByRole('row', { name: /Tuesday/ }).textContent()).toContain('18:00–20:00');

    await page.getByLabel('Name', { exact: true }).fill('Spring renewals');
    // The Account's one live agent is chosen already: a workflow without one would never be dialled.
    const agentId = await page.getByLabel('Agent', { exact: true }).inputValue();
    expect(await page.getByLabel('Agent', { exact: true }).locator('option:checked').textContent()).toBe('Ava');
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByText('Workflow “Spring renewals” created as a draft.').waitFor();
    expect(await page.getByLabel('Agent of Spring renewals', { exact: true }).inputValue()).toBe(agentId);
    await page.getByRole('button', { name: 'Publish Spring renewals' }).click();
    await page.getByRole('button', { name: 'Pause Spring renewals' }).click();
    await page.getByRole('button', { name: 'Resume Spring renewals' }).click();
    await page.getByText('Workflow “Spring renewals” is published.').waitFor();
    await checkPage(page, 'workflows');
    // On a phone each workflow is a card: its agent picker and its buttons are in the window.
    for (const name of ['Pause Spring renewals', 'Archive Spring renewals', 'Set the agent of Spring renewals'])
      await reachableAtPhoneWidth(page, page.getByRole('button', { name, exact: true }), name);
  });

  it('searches contacts, opens one, and reads its transcript with times in the reader’s zone', async () => {
    const { page, apiKey, accountId } = await signedIn();
    await page.goto('/console/contacts');
    await page.getByText(/no contacts yet/i).waitFor();
    await checkPage(page, 'contacts-empty');

    const surname = `Vaughan${randomUUID().slice(0, 6)}`;
    const dorothy = (
      await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone: uniquePhone(),
        firstName: 'Dorothy',
        lastName: surname,
        customFields: { team: 'west computing' },
      })
    ).json;
    await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: uniquePhone(), firstName: 'Mary' });
    const startedAt = new Date('2026-03-01T10:00:00.000Z');
    const prisma = server.service.services.db.prisma;
    const call = await prisma.call.create({
      data: {
        id: randomUUID(),
        accountId,
        contactId: dorothy.id,
        startedAt,
        createdAt: server.now(),
        status: 'completed' as const,
        result: 'converted' as const,
        reportReady: true,
        recordingUrl: 'https://recordings.example/r1.mp3',
      },
    });
    await prisma.callUtterance.createMany({
      data: [
        { callId: call.id, seq: 1, speaker: 'assistant', content: 'Hello Dorothy.', timestamp: startedAt },
        { callId: call.id, seq: 2, speaker: 'user', content: 'Hello! Tell me more.', timestamp: startedAt },
      ],
    });

    await page.goto('/console/contacts');
    await page.getByLabel('Search').fill(surname);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/searchTerm=/);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    await checkPage(page, 'contacts');
    await page.getByRole('link', { name: `Dorothy ${surname}` }).click();
    await page.getByRole('heading', { level: 1, name: `Dorothy ${surname}` }).waitFor();
    expect(await page.locator('.turn.agent').textContent()).toContain('Hello Dorothy.');
    expect(await page.locator('.turn.contact').textContent()).toContain('Hello! Tell me more.');
    expect(await page.locator('audio').getAttribute('src')).toBe('https://recordings.example/r1.mp3');
    // 10:00 UTC is 19:00 in Tokyo: the script rewrote the UTC time into the reader's zone.
    const shown = await page.locator(`time[datetime="${startedAt.toISOString()}"]`).first().textContent();
    expect(shown).toMatch(/19:00/);
    await checkPage(page, 'contact');
  });

  it('shows the settings, refuses a bad default location next to its field, and saves a good one', async () => {
    const { page } = await signedIn();
    await page.goto('/console/settings');
    await page.getByLabel('Default location').fill('Atlantis');
    await page.getByRole('button', { name: /save/i }).click();
    const field = page.getByLabel('Default location');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain('defaultLocation-error');
    expect(await page.locator('#defaultLocation-error').textContent()).toMatch(/Atlantis|location/i);
    // Two bad fields: both refusals are shown at once, each next to its field.
    await page.getByLabel('Dedup fields, in order').fill('phone, email');
    await page.getByRole('button', { name: /save/i }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing was saved: 2 fields need a change' }).waitFor();
    expect(await page.locator('#defaultLocation-error').textContent()).toMatch(/Atlantis/);
    expect(await page.locator('#dedupFields-error').textContent()).toMatch(/email/);
    for (const label of ['Default location', 'Dedup fields, in order'])
      expect(await page.getByLabel(label).getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'settings-refused');
    await page.getByLabel('Dedup fields, in order').fill('phone');
    await field.fill('US');
    await page.getByRole('button', { name: /save/i }).click();
    await page.getByText('Settings saved.').waitFor();
    await checkPage(page, 'settings');
  });

  it('locks sign-in after repeated failures, and says so on the page', async () => {
    const { email } = await (async () => {
      const person = await invitedPerson(server);
      const page = await newPage();
      await page.goto(person.path);
      await page.getByLabel('New password').fill(PASSWORD);
      await page.getByRole('button', { name: /set password/i }).click();
      await page.waitForURL(/\/console\/sign-in\?done=password$/);
      return person;
    })();
    // All but the last failure at once over HTTP (each waits out its slow-down concurrently) …
    await Promise.all(
      Array.from({ length: LOCK_AFTER_FAILURES - 1 }, () =>
        fetch(`${server.baseUrl}/console/sign-in`, {
          method: 'POST',
          headers: { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email, password: 'not the password' }).toString(),
        }),
      ),
    );
    // … then the person types a wrong password once more, and even the right one after it.
    const page = await newPage();
    await page.goto('/console/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('still not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /locked for \d+ more minutes/ })
      .waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /locked/ })
      .waitFor();
    expect(page.url()).toMatch(/\/console\/sign-in$/);
    // Nine password checks at production cost and their slow-downs (up to 4 s): about 14 s beside
    // another file, and past 30 s on a machine that also runs an install.
  }, 60_000);

  it('imports a CSV: preview, a mapping changed, a progress bar, and the bad row reported by its line', async () => {
    const { page, apiKey } = await signedIn();
    await page.goto('/console/imports');
    await checkPage(page, 'imports-empty');
    const tag = `Fam${randomUUID().slice(0, 6)}`;
    const csv = [
      'First Name,Last Name,Mobile,Company,Notes',
      `Ada,${tag},${uniquePhone()},Analytical,first`,
      `Bad,${tag},not-a-phone,Nowhere,second`,
      `Grace,${tag},${uniquePhone()},Navy,third`,
    ].join('\n');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload and preview' }).click();
    await page.waitForURL(/\/console\/imports\/[0-9a-f-]{36}$/);
    // The CLI's rules chose the fields; the person skips the Notes column.
    expect(await page.getByLabel('Column Mobile', { exact: true }).inputValue()).toBe('phone');
    expect(await page.getByLabel('Column First Name', { exact: true }).inputValue()).toBe('firstName');
    await page.getByLabel('Column Notes', { exact: true }).selectOption('skip');
    expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
    await checkPage(page, 'imports-preview');
    // Each step of the import is held back a little, so the progress bar can be seen.
    await page.route(/\/console\/imports\/[0-9a-f-]{36}/, async (route) => {
      if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.getByRole('button', { name: /^Import 3 rows$/ }).click();
    await page.getByLabel('Import progress').waitFor();
    await page.getByText('2 of 3 rows accepted; 1 not imported.').waitFor();
    const refused = page.getByRole('row').filter({ hasText: 'invalid-field' });
    expect(await refused.locator('th, td').first().textContent()).toBe('3');
    // On a phone the refused row is a card: why it was refused is in the window, not past a scroll.
    await reachableAtPhoneWidth(page, refused.locator('td.why'), 'Why');
    await checkPage(page, 'imports-result');

    const found = await server.eventually(async () => {
      const res = await server.request(apiKey, 'GET', `/api/v1/contacts?searchTerm=${tag}&limit=10`);
      return res.json.data.length === 2 ? res.json.data : null;
    });
    expect(found.map((c: { firstName: string }) => c.firstName).sort()).toEqual(['Ada', 'Grace']);
    expect(found.every((c: { customFields?: Record<string, unknown> }) => !('Notes' in (c.customFields ?? {})))).toBe(
      true,
    );
    expect(found.find((c: { firstName: string }) => c.firstName === 'Ada').customFields).toMatchObject({
      Company: 'Analytical',
    });
  });

  it('links monday through its consent page, maps a board with the pickers, and picks status labels', async () => {
    const { page, apiKey, accountId } = await signedIn();
    const mondayAccount = ++nextMondayAccount;
    const leads = monday.addBoard({ accountId: mondayAccount, name: 'Leads', columns: [...LEADS_COLUMNS] });
    monday.oauth?.approveAs(mondayAccount, 77);
    await page.goto('/console/board');
    await checkPage(page, 'board-unlinked');
    await page.getByRole('button', { name: 'Link monday account' }).click();
    // The console → monday's authorize page (the emulator approves at once) → the app's Redirect URL → the console.
    await page.waitForURL(/\/console\/board\?done=linked$/);
    await page.getByRole('combobox', { name: 'Board', exact: true }).selectOption({ label: 'Leads' });
    await page.getByRole('button', { name: 'Show columns' }).click();
    // Only compatible columns are offered: a text column is not a phone.
    const phoneOptions = await page.getByLabel('Phone', { exact: true }).locator('option').allTextContents();
    expect(phoneOptions).toContain('Phone (phone)');
    expect(phoneOptions).not.toContain('First name (text)');
    await page.getByLabel('Phone', { exact: true }).selectOption({ label: 'Phone (phone)' });
    await page.getByLabel('First name').selectOption({ label: 'First name (text)' });
    await page.getByLabel('Timezone').selectOption({ label: 'Timezone (world_clock)' });
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await page.getByText('The mapping is saved.').waitFor();
    await page.getByLabel('Status column').selectOption({ label: 'Call outcome' });
    await page.getByRole('button', { name: 'Show its labels' }).click();
    const converted = page.locator('#label_converted');
    expect(await converted.locator('option').allTextContents()).toEqual(expect.arrayContaining(['Booked', 'Busy']));
    await converted.selectOption({ label: 'Booked' });
    await page.getByRole('button', { name: 'Save status labels' }).click();
    await page.getByText('The status labels are saved.').waitFor();
    await checkPage(page, 'board');

    const read = await server.request(apiKey, 'POST', '/graphql', {
      query: '{ boardMapping { phoneColumnId timezoneColumnType statusLabels } }',
    });
    expect(read.json.data.boardMapping).toMatchObject({ phoneColumnId: 'phone', timezoneColumnType: 'world_clock' });
    expect(read.json.data.boardMapping.statusLabels.converted).toBe('Booked');

    // A contact enrolled from one of the board's items, and called.
    const contact = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      firstName: 'Jane',
      lastName: 'Doe',
    });
    const prisma = server.service.services.db.prisma;
    const now = server.now();
    await prisma.mondayItemLink.create({
      data: {
        contactId: contact.json.id,
        accountId,
        boardId: String(leads.id),
        itemId: '987654',
        updatedAt: now,
      },
    });
    await prisma.call.create({
      data: {
        id: randomUUID(),
        accountId,
        contactId: contact.json.id,
        startedAt: now,
        endedAt: now,
        createdAt: now,
        status: 'completed',
        result: 'converted',
        durationSeconds: 42,
      },
    });

    // The same board inside monday: the board view, with monday's signed sessionToken; a forged one shows nothing.
    const iat = Math.floor(server.now().getTime() / 1000);
    const view = await newPage();
    await view.goto(
      `/integrations/monday/views/board?sessionToken=${monday.mintSessionToken({ accountId: mondayAccount, userId: 77, iat })}`,
    );
    await view.getByRole('heading', { name: 'Mapping of Leads' }).waitFor();
    await view.getByRole('heading', { name: 'Recent calls' }).waitFor();
    expect(await view.getByRole('row').filter({ hasText: '987654' }).textContent()).toMatch(/Jane Doe.*converted/);
    await checkPage(view, 'board-view');
    const forged = await view.goto(
      `/integrations/monday/views/board?sessionToken=${monday.mintSessionToken({ accountId: mondayAccount, userId: 77, iat, secret: 'not the client secret' })}`,
    );
    expect(forged?.status()).toBe(401);
    expect(await view.getByText('Leads').count()).toBe(0);

    await page.getByRole('button', { name: 'Unlink monday account' }).click();
    await page.getByRole('button', { name: 'Link monday account' }).waitFor();
  });

  describe('CSRF', () => {
    let attacker: Server;
    let attackerUrl: string;
    beforeAll(async () => {
      // Another site, whose page posts a form to the console in the signed-in person's browser.
      attacker = createServer((req, res) => {
        const target = new URL(req.url ?? '/', 'http://x').searchParams.get('target') ?? '';
        res.setHeader('content-type', 'text/html');
        res.end(
          `<!doctype html><form method="post" action="${target}"><input name="name" value="stolen">` +
            '<button>go</button></form>',
        );
      });
      await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
      attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

    it('refuses a form posted from another site, and a form whose token was altered', async () => {
      const { page } = await signedIn();
      await page.goto(`${attackerUrl}/?target=${encodeURIComponent(`${server.baseUrl}/console/api-keys`)}`);
      await page.getByRole('button', { name: 'go' }).click();
      await page.getByText('This form was not sent from a Contactline console page.').waitFor();

      await page.goto('/console/api-keys');
      await page.locator('form[action="/console/api-keys"] input[name="csrf"]').evaluate((input) => {
        (input as HTMLInputElement).value = 'forged';
      });
      await page.getByLabel('Name').fill('Should not exist');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByText(/This form expired or was not sent from this console/).waitFor();
      await checkPage(page, 'forbidden');
      await page.goto('/console/api-keys');
      expect(await page.getByText('Should not exist').count()).toBe(0);
      expect(await page.getByText('stolen').count()).toBe(0);
    });
  });
});
