// The calling rules in the console, in a real Chromium (Debian's package, driven by playwright-core),
// on each database: the Account's calling policy on Settings (a refused cap shown next to its
// field, a change saved and in the history with who made it), and a contact's Calling section (the
// dialer's own reasons, a consent recorded on the reader's clock, the reasons gone, the enrollment's
// next call agreeing with the decision, and the consent revoked). Pages are checked by axe-core and
// at 360 px, as test/browser/console.test.ts does.
//
// The service's clock is fixed at noon in Los Angeles on the day the test runs: a California
// number is inside every hours rule that binds it then (the US's 08:00–21:00, California's
// 09:00–21:00), whatever the date, so the reasons left are the ones the test acts on. The
// browser's cookies expire by that clock, which is within a day of the real one.
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone } from '../support/api-helpers.js';
import { callingSetup } from '../support/calling-setup.js';
import { noonInLosAngeles } from '../support/clocks.js';
import { launchChromium } from '../support/chromium.js';
import { checkPage, READER_ZONE, readerPage, signIn } from '../support/console-browser.js';
import { personWithPassword } from '../support/console-people.js';
import { testDatabaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A datetime-local value: the instant on the clock of `zone`, to the minute. */
function localValue(at: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

describe.each(testDatabaseKinds())('the calling rules in the console, in Chromium, on %s', (kind) => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const clock = { at: noonInLosAngeles(), now: () => clock.at };
  const noon = clock.at;

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
    const person = await personWithPassword(server);
    const { page, failed } = await readerPage(browser, server.baseUrl, contexts);
    await signIn(page, person.email);
    return { ...person, page, failed };
  }

  it('changes the calling policy on Settings: a refused cap next to its field, then saved and in the history', async () => {
    const { page, failed, apiKey, email } = await signedIn();
    await page.goto('/console/settings');
    const section = page.locator('#calling-policy');
    await section.getByText('The Account has the default policy: every rule on.').waitFor();
    await section.getByText('No changes yet.').waitFor();
    expect(await page.getByLabel('Telemarketing').isChecked()).toBe(true);
    // The warning that turning a law off is the Account's responsibility, read with the checkboxes.
    const warning = page.locator('#jurisdictions-warning');
    expect(await warning.textContent()).toMatch(/the Account’s responsibility, not Contactline’s/);
    expect(await section.getByRole('group', { name: 'Jurisdictions whose rules are off' }).count()).toBe(1);
    expect(await page.getByLabel('Florida (US-FL)').isChecked()).toBe(false);

    // A cap over a period of more than a year: the domain refuses it, shown next to the field, with
    // what was typed kept.
    await page.getByLabel('At most').fill('3');
    await page.getByLabel('calls to a contact in any').fill('9000');
    await page.getByLabel('Informational').check();
    await page.getByRole('button', { name: 'Update the calling policy' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The calling policy was not changed: one field needs a change' })
      .waitFor();
    const period = page.getByLabel('calls to a contact in any');
    expect(await period.getAttribute('aria-invalid')).toBe('true');
    expect((await period.getAttribute('aria-describedby'))?.split(' ')).toContain('attemptCapPeriodHours-error');
    expect(await page.locator('#attemptCapPeriodHours-error').textContent()).toMatch(/8784/);
    expect(await page.getByLabel('Informational').isChecked()).toBe(true);
    expect(await page.getByLabel('At most').inputValue()).toBe('3');
    await checkPage(page, failed, 'settings-calling-policy-refused');

    await period.fill('24');
    await page.getByLabel('Require prior express written consent before any call').check();
    await page.getByLabel('Florida (US-FL)').check();
    await page.getByRole('button', { name: 'Update the calling policy' }).click();
    await page.getByText('Calling policy updated.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/settings');
    expect(await page.getByLabel('Informational').isChecked()).toBe(true);
    expect(await page.getByLabel('Require prior express written consent before any call').isChecked()).toBe(true);
    expect(await page.getByLabel('At most').inputValue()).toBe('3');
    expect(await page.getByLabel('calls to a contact in any').inputValue()).toBe('24');
    expect(await page.getByLabel('Florida (US-FL)').isChecked()).toBe(true);
    const history = page.getByRole('table', { name: 'Changes to the calling policy' });
    const first = history.locator('tbody tr');
    expect(await first.count()).toBe(1);
    const row = (await first.first().textContent()) ?? '';
    expect(row).toContain(`you (${email})`);
    for (const line of [
      'Purpose: telemarketing → informational',
      'Written consent before any call: off → on',
      'Own attempt cap: none → 3 calls in any 24 hours',
      'Rules turned off: US-FL',
    ])
      expect(row).toContain(line);
    // When: the service's time, shown in the reader's zone (Tokyo).
    const when = await first.first().locator('time').getAttribute('datetime');
    expect(when).toBe(server.now().toISOString());
    await checkPage(page, failed, 'settings-calling-policy');

    // What the console saved is what the API reads, with the person as who made the change.
    const policy = await server.request(apiKey, 'GET', '/api/v1/calling-policy');
    expect(policy.json).toMatchObject({
      purpose: 'informational',
      requireWrittenConsent: true,
      attemptCap: { max: 3, periodHours: 24 },
      disabledJurisdictions: [{ jurisdiction: 'US-FL' }],
    });
    expect(policy.json.updatedBy).toMatch(/^user:/);

    // Florida back on a minute later: a second change, newest first.
    clock.at = new Date(clock.at.getTime() + 60_000);
    await page.getByLabel('Florida (US-FL)').uncheck();
    await page.getByRole('button', { name: 'Update the calling policy' }).click();
    await page.getByText('Calling policy updated.').waitFor();
    expect(await history.locator('tbody tr').count()).toBe(2);
    expect(await history.locator('tbody tr').first().textContent()).toContain('Rules turned back on: US-FL');
    expect(await page.locator('#calling-policy').textContent()).toContain('Every jurisdiction’s rules are on.');
  }, 60_000);

  it('shows why a contact is not called, records a consent on the reader’s clock, and the reasons go', async () => {
    clock.at = noon;
    const { page, failed, apiKey, accountId } = await signedIn();
    const { workflowId } = await callingSetup(server, accountId, { workflowName: 'Spring renewals' });
    const surname = `Parks${randomUUID().slice(0, 6)}`;
    // A California number, enrolled in a workflow whose agent calls new contacts at once.
    const contact = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      firstName: 'Rosa',
      lastName: surname,
      assignmentOptions: { workflowId },
    });
    expect(contact.status).toBeLessThan(300);
    const id = contact.json.id as string;

    await page.goto(`/console/contacts/${id}`);
    await page.getByRole('heading', { level: 2, name: 'Calling' }).waitFor();
    expect(await page.locator('#callable').textContent()).toBe('Not callable now');
    expect(await page.locator('#next-callable').textContent()).toBe('not until someone acts on a reason below');
    const reasons = page.getByRole('table', { name: 'Why not now' });
    const federal = reasons.locator('tr[data-reason="consent_required"]').filter({ hasText: 'United States (US)' });
    expect(await federal.count()).toBe(1);
    expect(await federal.textContent()).toMatch(
      /prior express written consent.*47 U\.S\.C\. § 227\(b\)\(1\).*until someone acts/,
    );
    expect(await reasons.locator('tr[data-reason="registry_copy_missing"]').count()).toBe(1);
    const facts = (await page.locator('#calling .card').first().textContent()) ?? '';
    expect(facts).toContain('America/Los_Angeles');
    expect(facts).toContain('California (US-CA)');
    expect(facts).toContain('the enrollment in Spring renewals');
    // The enrollment's next call agrees with the decision: none, for want of a consent.
    const nextCall = page.locator('dt:text-is("Next call") + dd');
    expect(await nextCall.textContent()).toBe(
      'none planned: the calling rules hold it until someone acts (see Calling below).',
    );
    await checkPage(page, failed, 'contact-calling-blocked');

    // A consent obtained "in the future" is refused next to its field, with what was typed kept.
    const obtainedAt = page.getByLabel('Obtained at');
    await page.getByLabel('Method').selectOption({ label: 'Recorded call' });
    await page.getByLabel('Evidence').fill('Call recording rec-1942, minute 2');
    await obtainedAt.fill(localValue(new Date(server.now().getTime() + 2 * 3_600_000), READER_ZONE));
    await page.getByRole('button', { name: 'Record the consent' }).click();
    await page.locator('#obtainedAt-error').filter({ hasText: 'must not be in the future' }).waitFor();
    expect(await page.getByLabel('Obtained at').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Evidence').inputValue()).toBe('Call recording rec-1942, minute 2');
    expect(await page.locator('#calling').getByText(READER_ZONE).count()).toBeGreaterThan(0);

    // An hour before the service's now, typed on Tokyo's clock.
    const given = new Date(server.now().getTime() - 3_600_000);
    given.setUTCSeconds(0, 0);
    await page.getByLabel('Obtained at').fill(localValue(given, READER_ZONE));
    await page.getByRole('button', { name: 'Record the consent' }).click();
    await page.getByText('Consent recorded.').waitFor();
    const consents = page.getByRole('table', { name: 'Consents' });
    const recorded = consents.locator('tbody tr');
    expect(await recorded.count()).toBe(1);
    const consentRow = (await recorded.first().textContent()) ?? '';
    for (const text of [
      'Prior express written consent',
      'every call of the Account',
      'Recorded call',
      'Call recording rec-1942',
      'active',
    ])
      expect(consentRow).toContain(text);
    expect(await recorded.first().locator('time').getAttribute('datetime')).toBe(given.toISOString());
    expect(await page.locator('#callable').textContent()).toBe('Callable now');
    expect(await page.getByRole('table', { name: 'Why not now' }).count()).toBe(0);
    expect(await page.locator('#calling .card').first().textContent()).toContain(
      'Consent usedPrior express written consent',
    );
    // The agent calls new contacts at once: the next call is now, as the decision says.
    expect(await nextCall.locator('time').first().getAttribute('datetime')).toBe(server.now().toISOString());
    await checkPage(page, failed, 'contact-calling');

    // The API reads the same consent, and the same decision.
    const listed = await server.request(apiKey, 'GET', `/api/v1/contacts/${id}/consents`);
    expect(listed.json.data).toEqual([
      expect.objectContaining({ kind: 'express_written', method: 'recorded_call', obtainedAt: given.toISOString() }),
    ]);
    const dialing = await server.request(apiKey, 'GET', `/api/v1/contacts/${id}/dialing`);
    expect(dialing.json).toMatchObject({ callableNow: true, reasons: [], consentUsed: { kind: 'express_written' } });

    // Revoked: listed as revoked, and the reason is back.
    await page.getByRole('button', { name: 'Revoke the consents for every call of the Account' }).click();
    await page.getByText('1 consent revoked.').waitFor();
    expect(await consents.locator('tbody tr').first().textContent()).toMatch(/revoked.*through the API or the console/);
    expect(await page.locator('#callable').textContent()).toBe('Not callable now');
    expect(
      await page.getByRole('table', { name: 'Why not now' }).locator('tr[data-reason="consent_required"]').count(),
    ).toBeGreaterThan(0);
  }, 60_000);
});
