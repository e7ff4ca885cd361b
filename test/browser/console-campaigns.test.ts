// Campaigns in the console, in a real Chromium (Debian's package, driven by playwright-core), on
// each database: a workflow's page (its results over a date range drawn as charts with their
// tables, the outcome table, the results as CSV, its enrollments and a Stop button), the Contacts
// page's bulk actions (Stop calling the rows ticked, or all the search matches) and its CSV
// export with progress, and the new-workflow form's agents. Pages are checked by axe-core and at
// 360 px, as test/browser/console.test.ts does.
//
// The service's clock is fixed at noon in Los Angeles on the day the test runs (and the day
// before, for the first calls): every date the test reads is computed from that clock, never
// from a fixed day.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAll, uniquePhone, upsertOk } from '../support/api-helpers.js';
import { callingSetup } from '../support/calling-setup.js';
import { launchChromium, WIDTHS } from '../support/chromium.js';
import { noonInLosAngeles } from '../support/clocks.js';
import { writtenConsent } from '../support/consent.js';
import { checkPage, readerPage, signIn } from '../support/console-browser.js';
import { personWithPassword } from '../support/console-people.js';
import { testDatabaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ZONE = 'America/Los_Angeles';
const ALL_DAY = { start: '00:00', end: '24:00' };
const EVERY_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [ALL_DAY]]));
const DAY_MS = 86_400_000;

/** The date of an instant in Los Angeles, YYYY-MM-DD. */
const dateThere = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(at);

describe.each(testDatabaseKinds())('campaigns in the console, in Chromium, on %s', (kind) => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const clock = { at: noonInLosAngeles(), now: () => clock.at };
  const today = clock.at;
  const yesterday = new Date(today.getTime() - DAY_MS);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(kind, { clock }), launchChromium()]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  /** A person of a new Account, signed in, in a browser reading times in Tokyo's zone. */
  async function signedIn() {
    clock.at = today;
    const person = await personWithPassword(server);
    const { page, failed } = await readerPage(browser, server.baseUrl, contexts);
    await signIn(page, person.email);
    return { ...person, page, failed };
  }

  /** A contact enrolled in the workflow, with written consent, at the clock's time. */
  async function enrolled(apiKey: string, workflowId: string, firstName: string, lastName: string, phone: string) {
    return upsertOk(server, apiKey, {
      phone,
      firstName,
      lastName,
      assignmentOptions: { workflowId },
      consent: writtenConsent(server.now()),
    });
  }

  it('shows a workflow’s results over a date range as charts and tables, its CSV, and stops an enrollment', async () => {
    const { page, failed, apiKey, accountId } = await signedIn();
    clock.at = yesterday;
    const setup = await callingSetup(server, accountId, {
      workingHours: EVERY_DAY,
      timezone: ZONE,
      workflowName: 'Spring renewals',
    });
    const surname = `Results${randomUUID().slice(0, 6)}`;
    const [ana, ben, cleo, dan] = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    const ids: Record<string, string> = {};
    for (const [name, phone] of [
      ['Ana', ana],
      ['Ben', ben],
      ['Cleo', cleo],
      ['Dan', dan],
    ])
      ids[name] = (await enrolled(apiKey, setup.workflowId, name, surname, phone)).id;
    expect(
      await setup.dial({
        [ana]: { result: 'no_answer', durationSeconds: 0, nextAttemptInMinutes: 60 },
        [ben]: { result: 'converted', durationSeconds: 120 },
        [cleo]: { result: 'not_interested', durationSeconds: 60 },
        [dan]: { result: 'voicemail', durationSeconds: 20, nextAttemptInMinutes: 60 },
      }),
    ).toHaveLength(4);
    clock.at = today;
    expect(
      await setup.dial({
        [ana]: { result: 'converted', durationSeconds: 210 },
        [dan]: { result: 'no_answer', durationSeconds: 0, nextAttemptInMinutes: 60 },
      }),
    ).toHaveLength(2);
    // Enrolled today, after the dialer ran: active, not called yet.
    const eve = await enrolled(apiKey, setup.workflowId, 'Eve', surname, uniquePhone());

    // From the workflows list to the workflow's page, by its name.
    await page.goto('/console/workflows');
    await page.getByRole('link', { name: 'Spring renewals' }).click();
    await page.waitForURL(`**/console/workflows/${setup.workflowId}`);
    await page.getByRole('heading', { level: 1, name: 'Workflow “Spring renewals”' }).waitFor();
    // The default range: the 30 days up to today on the service's clock, in the agent's zone.
    expect(await page.getByLabel('To (included)').inputValue()).toBe(dateThere(today));
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(
      dateThere(new Date(today.getTime() - 29 * DAY_MS)),
    );
    expect(await page.getByLabel('Days in time zone').inputValue()).toBe(ZONE);

    const funnel = page.locator('ol.funnel');
    const step = async (name: string) => (await funnel.locator(`li[data-step="${name}"] .count`).textContent())?.trim();
    expect([await step('enrolled'), await step('attempted'), await step('reached'), await step('converted')]).toEqual([
      '5',
      '4',
      '3',
      '2',
    ]);
    expect(await funnel.locator('li[data-step="converted"] .share').textContent()).toBe('67% of reached');
    // Calls per day: one bar segment per result of each day, and the same as a table.
    const perDay = page.getByRole('figure', { name: /Calls per day/ });
    expect(await perDay.locator('svg.bars rect').count()).toBe(6);
    expect(await perDay.locator('.chart-summary').textContent()).toBe(
      `6 calls from ${dateThere(new Date(today.getTime() - 29 * DAY_MS))} to ${dateThere(today)} (${ZONE}); the busiest day, ${dateThere(yesterday)}, had 4.`,
    );
    await perDay.getByText('Calls per day as a table').click();
    const dayRow = (date: string) => perDay.getByRole('row', { name: new RegExp(`^${date}`) });
    expect(await dayRow(dateThere(yesterday)).locator('td').allTextContents()).toEqual([
      '4',
      '1 converted, 1 not interested, 1 no answer, 1 voicemail',
    ]);
    expect(await dayRow(dateThere(today)).locator('td').allTextContents()).toEqual(['2', '1 converted, 1 no answer']);
    const outcomes = page.getByRole('table', { name: 'Calls by result' });
    expect(await outcomes.locator('tbody th').allTextContents()).toEqual([
      'converted',
      'no answer',
      'not interested',
      'voicemail',
    ]);
    expect(
      await outcomes
        .getByRole('row', { name: /^converted/ })
        .locator('td')
        .allTextContents(),
    ).toEqual(['Converted', '2', '33.3%']);
    // At 360 px every day's bar is drawn, at least a few pixels wide, and the axis text is full size.
    await page.setViewportSize(WIDTHS.phone);
    const bars = await perDay
      .locator('svg.bars rect')
      .evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().width));
    expect(Math.min(...bars)).toBeGreaterThanOrEqual(4);
    const axisFont = await perDay
      .locator('.x-axis span')
      .first()
      .evaluate((el) => getComputedStyle(el).fontSize);
    expect(Number.parseFloat(axisFont)).toBeGreaterThanOrEqual(12);
    await page.setViewportSize(WIDTHS.desktop);
    await checkPage(page, failed, 'workflow');

    // Yesterday alone: Eve was enrolled today and Ana converted today.
    await page.getByLabel('From', { exact: true }).fill(dateThere(yesterday));
    await page.getByLabel('To (included)').fill(dateThere(yesterday));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/from=/);
    expect([await step('enrolled'), await step('attempted'), await step('reached'), await step('converted')]).toEqual([
      '4',
      '4',
      '2',
      '1',
    ]);
    // The results of that range as CSV: a row per day, a column per result.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the results per day (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(
      `spring-renewals-results-${dateThere(yesterday)}-to-${dateThere(yesterday)}.csv`,
    );
    const rows = parse(await readFile(await download.path(), 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      date: dateThere(yesterday),
      calls: '4',
      converted: '1',
      not_interested: '1',
      no_answer: '1',
      voicemail: '1',
      qualified: '0',
    });

    // A range that ends before it starts is refused next to its field, with what was typed kept.
    await page.getByLabel('From', { exact: true }).fill(dateThere(today));
    await page.getByLabel('To (included)').fill(dateThere(yesterday));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#to-error').waitFor();
    expect(await page.locator('#to-error').textContent()).toBe('the last day is before the first');
    expect(await page.getByLabel('To (included)').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(dateThere(today));
    expect(await page.locator('ol.funnel').count()).toBe(0);

    // The enrollments: the active ones (Dan, due again; Eve) each with a Stop button.
    await page.goto(`/console/workflows/${setup.workflowId}`);
    const enrollments = page.getByRole('table', { name: 'Enrollments, newest first' });
    expect(await enrollments.locator('tbody th').allTextContents()).toEqual([`Eve ${surname}`, `Dan ${surname}`]);
    await page.getByRole('button', { name: `Stop calling Eve ${surname}` }).click();
    await page.getByText(`Eve ${surname} is no longer called for this workflow.`).waitFor();
    expect(await enrollments.locator('tbody th').allTextContents()).toEqual([`Dan ${surname}`]);
    const active = await server.request(
      apiKey,
      'GET',
      `/api/v1/workflows/${setup.workflowId}/enrollments?state=active`,
    );
    expect(active.json.data.map((e: { contactId: string }) => e.contactId)).not.toContain(eve.id);
    await page.getByRole('link', { name: 'Ended' }).click();
    await page.waitForURL(/state=ended/);
    const ended = page.getByRole('row', { name: new RegExp(`^Eve ${surname}`) });
    expect(await ended.textContent()).toMatch(/stopped/);
    expect(await page.getByRole('row', { name: new RegExp(`^Ben ${surname}`) }).textContent()).toMatch(
      /ended by a call: converted/,
    );
    // An erased contact's enrollment stays in the list, without a name, a link or a Stop button.
    expect((await server.request(apiKey, 'DELETE', `/api/v1/contacts/${ids.Dan}`)).status).toBe(204);
    await page.reload();
    const erased = page.getByRole('row', { name: /^\(erased\)/ });
    expect(await erased.textContent()).toMatch(/the contact was erased/);
    expect(await erased.getByRole('link').count()).toBe(0);
    await checkPage(page, failed, 'workflow-enrollments');

    // Another Account's workflow, or none, is the console's 404.
    const missing = await page.goto(`/console/workflows/${randomUUID()}`);
    expect(missing?.status()).toBe(404);
  });

  it('answers bad input on these pages with a 4xx page that says what is wrong, never a 500', async () => {
    const { page, accountId } = await signedIn();
    const workflowId = await server.createWorkflow(accountId, { name: 'Checks' });
    const request = page.context().request;
    const refused = async (path: string, status: number, text: RegExp) => {
      const answer = await request.get(path);
      expect(answer.status(), path).toBe(status);
      expect(answer.headers()['content-type'], path).toBe('text/html; charset=utf-8');
      expect(await answer.text(), path).toMatch(text);
    };
    const base = `/console/workflows/${workflowId}`;
    await refused(`${base}?from=2026-02-30`, 400, /enter the first day as a date/);
    await refused(`${base}?timeZone=Mars%2FOlympus`, 400, /is not an IANA time zone/);
    // Longer than the operation allows: its own rule, said against From.
    const longAgo = dateThere(new Date(today.getTime() - 400 * DAY_MS));
    await refused(`${base}?from=${longAgo}`, 400, /the window is at most 367 days/);
    await refused(`${base}/results.csv?to=someday`, 400, /enter the last day as a date/);
    await refused(`${base}?state=sleeping`, 400, /state/);
    await refused('/console/workflows/not-a-workflow', 404, /No such workflow in your Account/);
    await refused(`/console/workflows/${randomUUID()}/results.csv`, 404, /No such workflow in your Account/);

    // Forms with values no page offers (a forged contact id, another Account's workflow).
    await page.goto(base);
    const csrf = (await page.locator('input[name="csrf"]').first().inputValue()) as string;
    const post = (path: string, form: Record<string, string>) =>
      request.post(path, { form: { csrf, ...form }, headers: { origin: server.baseUrl } });
    const forged = await post(`${base}/enrollments/stop`, { contactId: 'not-a-contact' });
    expect(forged.status()).toBe(400);
    expect(await forged.text()).toMatch(/UUID/);
    const elsewhere = await post('/console/contacts/stop', { scope: 'all', workflowId: randomUUID() });
    expect(elsewhere.status()).toBe(400);
    expect(await elsewhere.text()).toMatch(/choose one of the Account’s workflows/);
  });

  it('stops calling the contacts ticked, then all a search matches, and says who was not being called', async () => {
    const { page, failed, apiKey, accountId } = await signedIn();
    const setup = await callingSetup(server, accountId, { workingHours: EVERY_DAY, workflowName: 'Winter leads' });
    const surname = `Stop${randomUUID().slice(0, 6)}`;
    const [ann, bob, cat] = [
      await enrolled(apiKey, setup.workflowId, 'Ann', surname, uniquePhone()),
      await enrolled(apiKey, setup.workflowId, 'Bob', surname, uniquePhone()),
      await enrolled(apiKey, setup.workflowId, 'Cat', surname, uniquePhone()),
    ];
    await upsertOk(server, apiKey, { phone: uniquePhone(), firstName: 'Dee', lastName: surname });
    const activeIds = async () =>
      (
        await server.request(apiKey, 'GET', `/api/v1/workflows/${setup.workflowId}/enrollments?state=active`)
      ).json.data.map((e: { contactId: string }) => e.contactId);
    expect((await activeIds()).sort()).toEqual([ann.id, bob.id, cat.id].sort());

    await page.goto(`/console/contacts?searchTerm=${surname}`);
    expect(await page.locator('tbody tr').count()).toBe(4);
    // Nothing ticked: refused, nothing stopped.
    await page.getByRole('button', { name: 'Stop calling' }).click();
    await page.locator('#contactId-error').waitFor();
    expect(await page.locator('#contactId-error').textContent()).toMatch(/tick the contacts/);
    expect(await activeIds()).toHaveLength(3);

    await page.getByLabel(`Tick Ann ${surname}`).check();
    await page.getByLabel(`Tick Bob ${surname}`).check();
    await page.getByLabel(`Tick Dee ${surname}`).check();
    // In every workflow (the default).
    await page.getByRole('button', { name: 'Stop calling' }).click();
    await page.getByText('2 contacts are no longer called for any workflow; 1 contact was not being called.').waitFor();
    const notStopped = page.getByRole('table', { name: 'Contacts not stopped, with why' });
    expect(await notStopped.locator('tbody th').allTextContents()).toEqual([`Dee ${surname}`]);
    expect(await notStopped.locator('td.why').textContent()).toMatch(/^not_active: no active enrollment/);
    expect(await activeIds()).toEqual([cat.id]);
    await checkPage(page, failed, 'contacts-stopped');

    // All the search matches, in the one workflow: Cat is the one still called.
    await page.getByLabel('All 4 contacts matching this search').check();
    await page.getByLabel('Stop calling in workflow').selectOption({ label: 'Winter leads' });
    await page.getByRole('button', { name: 'Stop calling' }).click();
    await page.getByText('1 contact is no longer called for “Winter leads”.').waitFor();
    expect(await activeIds()).toEqual([]);
  });

  it('enrolls the contacts ticked, then all a search matches, in a published workflow, with each one not enrolled and why', async () => {
    const { page, failed, apiKey, accountId } = await signedIn();
    const setup = await callingSetup(server, accountId, { workingHours: EVERY_DAY, workflowName: 'Summer list' });
    await server.createWorkflow(accountId, { status: 'draft', name: 'Draft list' });
    const surname = `Enroll${randomUUID().slice(0, 6)}`;
    const contact = (firstName: string, fields: Record<string, unknown> = {}) =>
      upsertOk(server, apiKey, { phone: uniquePhone(), firstName, lastName: surname, ...fields });
    const amy = await contact('Amy', { consent: writtenConsent(server.now()) });
    const bo = await contact('Bo', {
      consent: writtenConsent(server.now()),
      assignmentOptions: { workflowId: setup.workflowId },
    });
    await contact('Cy');
    const activeIds = async () =>
      (
        await server.request(apiKey, 'GET', `/api/v1/workflows/${setup.workflowId}/enrollments?state=active`)
      ).json.data.map((e: { contactId: string }) => e.contactId);
    expect(await activeIds()).toEqual([bo.id]);

    await page.goto(`/console/contacts?searchTerm=${surname}`);
    for (const name of ['Amy', 'Bo', 'Cy']) await page.getByLabel(`Tick ${name} ${surname}`).check();
    await page.getByRole('button', { name: 'Enroll in workflow…' }).click();
    await page.getByRole('heading', { level: 1, name: 'Enroll in a workflow' }).waitFor();
    await page.getByText('The 3 contacts ticked.').waitFor();
    // Only the workflows that take enrollments: not the draft.
    expect(await page.getByLabel('Workflow', { exact: true }).locator('option').allTextContents()).toEqual([
      'Summer list',
    ]);
    await checkPage(page, failed, 'enroll-choose');
    await page.getByRole('button', { name: 'Enroll', exact: true }).click();
    await page.waitForURL(/\/console\/enrollment-jobs\/[0-9a-f-]{36}$/);
    await page.getByText('1 of 3 contacts enrolled in “Summer list”; 2 not enrolled.').waitFor();
    const notEnrolled = page.getByRole('table', { name: 'Contacts not enrolled, with why' });
    const reasonOf = async (name: string) =>
      await notEnrolled
        .getByRole('row', { name: new RegExp(`^${name} ${surname}`) })
        .locator('td code')
        .textContent();
    expect(await reasonOf('Bo')).toBe('already_enrolled');
    expect(await reasonOf('Cy')).toBe('no_consent');
    expect(await notEnrolled.locator('tbody tr').count()).toBe(2);
    await checkPage(page, failed, 'enrollment-job');
    expect((await activeIds()).sort()).toEqual([amy.id, bo.id].sort());

    // All the search matches; the workflow is paused before the form is sent: refused, and none is offered.
    await page.goto(`/console/contacts?searchTerm=${surname}`);
    await page.getByLabel('All 3 contacts matching this search').check();
    await page.getByRole('button', { name: 'Enroll in workflow…' }).click();
    await page.getByText(`All the contacts this search matches (“${surname}”).`).waitFor();
    const prisma = server.service.services.db.prisma;
    await prisma.workflow.update({ where: { id: setup.workflowId }, data: { paused: true } });
    await page.getByRole('button', { name: 'Enroll', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'workflow "Summer list" is paused' }).waitFor();
    await page.getByText(/No workflow takes enrollments now/).waitFor();
    expect(await activeIds()).toHaveLength(2);
    await prisma.workflow.update({ where: { id: setup.workflowId }, data: { paused: false } });
    await page.goto(`/console/contacts?searchTerm=${surname}`);
    await page.getByLabel('All 3 contacts matching this search').check();
    await page.getByRole('button', { name: 'Enroll in workflow…' }).click();
    await page.getByRole('button', { name: 'Enroll', exact: true }).click();
    await page.getByText('0 of 3 contacts enrolled in “Summer list”; 3 not enrolled.').waitFor();
    expect(await page.locator('li').filter({ hasText: 'already_enrolled' }).textContent()).toMatch(
      /^already_enrolled: 2 /,
    );
    expect(await page.locator('li').filter({ hasText: 'no_consent' }).textContent()).toMatch(/^no_consent: 1 /);
  });

  it('exports the search as CSV, every page, with its progress; the plain link gives the same file', async () => {
    const { page, failed, apiKey } = await signedIn();
    const surname = `Export${randomUUID().slice(0, 6)}`;
    // More than one page of the list operation (100).
    const contacts = Array.from({ length: 130 }, (_, i) => ({
      sourceKind: 'api',
      externalId: `${surname}-${i}`,
      phone: uniquePhone(),
      firstName: `P${i}`,
      lastName: surname,
    }));
    const accepted = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk', { contacts });
    expect(accepted.status, accepted.text).toBe(202);
    await server.eventually(async () =>
      (await listAll(server, apiKey, `searchTerm=${surname}`)).length === contacts.length ? true : null,
    );

    await page.goto(`/console/contacts?searchTerm=${surname}`);
    await page.getByLabel('All contacts matching this search (more than one page)').waitFor();
    // The second page is held until the test has read the progress of the first.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/console\/contacts\/export\.csv/, async (route) => {
      if (new URL(route.request().url()).searchParams.has('nextToken')) await held;
      await route.continue();
    });
    const downloaded = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    await page.getByLabel('Export progress').waitFor();
    await page.getByText('100 contacts exported, reading more…').waitFor();
    release();
    const download = await downloaded;
    await page.getByText('130 contacts exported to contacts.csv.').waitFor();
    expect(download.suggestedFilename()).toBe('contacts.csv');
    const exported = parse(await readFile(await download.path(), 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(exported).toHaveLength(130);
    expect(new Set(exported.map((row) => row.externalId))).toEqual(new Set(contacts.map((c) => c.externalId)));
    await checkPage(page, failed, 'contacts-export');

    // Without the script, the link's answer is the whole search in one file.
    const href = (await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')) as string;
    const plain = await page.context().request.get(href);
    expect(plain.status()).toBe(200);
    expect(plain.headers()['content-disposition']).toBe('attachment; filename="contacts.csv"');
    const plainRows = parse(await plain.text(), { columns: true }) as Array<Record<string, string>>;
    expect(plainRows.map((row) => row.id).sort()).toEqual(exported.map((row) => row.id).sort());
    // A filter the list operation refuses is the console's 400 page, not half a file.
    const refused = await page.context().request.get('/console/contacts/export.csv?status=nonsense');
    expect(refused.status()).toBe(400);
    expect(refused.headers()['content-type']).toBe('text/html; charset=utf-8');
  });

  it('offers the live agents first for a new workflow, picks the first, and sets and changes a draft’s agent', async () => {
    const { page, failed, accountId } = await signedIn();
    const prisma = server.service.services.db.prisma;
    const agent = (name: string, status: 'live' | 'draft') =>
      prisma.agent.create({
        data: {
          createdAt: server.now(),
          updatedAt: server.now(),
          accountId,
          name,
          status,
          timezone: 'America/Chicago',
          defaultLanguage: 'en-US',
          attemptLimit: 3,
          workingHours: EVERY_DAY,
          retryDelayMinutes: 60,
          callNewContactsImmediately: true,
        },
      });
    const drafted = await agent('Bea', 'draft');
    const [ava, cid] = [await agent('Ava', 'live'), await agent('Cid', 'live')];
    await page.goto('/console/workflows');
    const picker = page.getByLabel('Agent', { exact: true });
    const live = await picker
      .locator('optgroup[label="Live agents"] option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(live.sort()).toEqual([ava.id, cid.id].sort());
    expect(await picker.locator('optgroup[label="Not live: they call nobody yet"] option').allTextContents()).toEqual([
      'Bea (draft)',
    ]);
    // The first live agent is chosen.
    const firstLive = await picker.locator('optgroup[label="Live agents"] option').first().getAttribute('value');
    expect(await picker.inputValue()).toBe(firstLive);

    // A draft without an agent, then its agent set, then changed.
    await page.getByLabel('Name', { exact: true }).fill('Autumn callbacks');
    await picker.selectOption('');
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByText('Workflow “Autumn callbacks” created as a draft.').waitFor();
    const rowPicker = page.getByLabel('Agent of Autumn callbacks', { exact: true });
    expect(await rowPicker.inputValue()).toBe('');
    await rowPicker.selectOption(drafted.id);
    await page.getByRole('button', { name: 'Set the agent of Autumn callbacks' }).click();
    await page.getByText('Workflow “Autumn callbacks” is called by “Bea” from now on.').waitFor();
    await page.getByLabel('Agent of Autumn callbacks', { exact: true }).selectOption(cid.id);
    await page.getByRole('button', { name: 'Set the agent of Autumn callbacks' }).click();
    await page.getByText('Workflow “Autumn callbacks” is called by “Cid” from now on.').waitFor();
    const stored = await prisma.workflow.findFirstOrThrow({ where: { accountId, name: 'Autumn callbacks' } });
    expect(stored).toMatchObject({ agentId: cid.id, status: 'draft' });
    await checkPage(page, failed, 'workflows-agents');
  });
});
