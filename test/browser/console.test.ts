// The console in a real Chromium (Debian's package, driven by playwright-core), on each database:
// what a person does in it, clicked and typed as a person would. Each page is photographed at
// phone and desktop widths into test-output/screenshots/ and checked by axe-core (no serious
// or critical violation) and for sideways scrolling at 360 px.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_AFTER_FAILURES } from '../../src/domain/users/sign-in.rules.js';
import { uniquePhone } from '../support/api-helpers.js';
import { launchChromium, photograph, seriousViolations } from '../support/chromium.js';
import { testDatabaseKinds } from '../support/databases.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'a console password, long enough';

describe.each(testDatabaseKinds())('the console in Chromium on %s', (kind) => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(kind), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A new browser profile (no cookies), reading times in Tokyo's zone. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-GB', baseURL: server.baseUrl });
    contexts.push(context);
    // A missing element fails the test in seconds, with Playwright's message, not at vitest's timeout.
    context.setDefaultTimeout(10_000);
    return context.newPage();
  }

  /** Asserts the page has no serious accessibility violation and fits 360 px; writes its screenshots. */
  async function checkPage(page: Page, name: string) {
    const { violations, overflow } = await photograph(page, name);
    expect(violations, `axe on ${name}`).toEqual([]);
    expect(overflow, `sideways scroll on ${name}`).toEqual([]);
  }

  async function invitation() {
    const { accountId, apiKey } = await server.createAccount();
    const email = `p${randomUUID().slice(0, 8)}@example.com`;
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
      query: 'mutation ($a: String!, $e: String!) { inviteUser(accountId: $a, email: $e) { path } }',
      variables: { a: accountId, e: email },
    });
    return { accountId, apiKey, email, path: res.json.data.inviteUser.path as string };
  }

  /** An invited person who set a password on the invitation page and signed in. */
  async function signedIn(shots = false) {
    const person = await invitation();
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
    expect(page.url()).toMatch(/\/console\/sign-in$/);
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
    // Shown once: the list page, opened again, has the key's name but not its secret.
    await page.goto('/console/api-keys');
    expect(await page.locator('#new-secret').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke Warehouse sync' }).click();
    await page.getByText('The key is revoked').waitFor();
    const refused = await server.request(secret, 'GET', '/api/v1/contacts?limit=1');
    expect(refused.status).toBe(401);
  });

  it('creates a workflow as a draft, publishes, pauses and resumes it', async () => {
    const { page } = await signedIn();
    await page.goto('/console/workflows');
    await page.getByLabel('Name').fill('Spring renewals');
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByText('Workflow “Spring renewals” created as a draft.').waitFor();
    await page.getByRole('button', { name: 'Publish Spring renewals' }).click();
    await page.getByRole('button', { name: 'Pause Spring renewals' }).click();
    await page.getByRole('button', { name: 'Resume Spring renewals' }).click();
    await page.getByText('The workflow is published.').waitFor();
    await checkPage(page, 'workflows');
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
    await field.fill('US');
    await page.getByRole('button', { name: /save/i }).click();
    await page.getByText('Settings saved.').waitFor();
    await checkPage(page, 'settings');
  });

  it('locks sign-in after repeated failures, and says so on the page', async () => {
    const { email } = await (async () => {
      const person = await invitation();
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
