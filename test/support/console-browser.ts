// A person in the console in Chromium, as the console's browser suites meet one: a fresh browser
// profile reading times in Tokyo's zone (not the server's zone, so a page that prints a time in
// the wrong zone shows it), signed in through the sign-in page, and each page checked the same way.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { photograph } from './chromium.js';
import { CONSOLE_PASSWORD } from './console-people.js';

/** The zone the console's reader is in. */
export const READER_ZONE = 'Asia/Tokyo';

/**
 * A page in a new browser profile (pushed to `contexts`, for the suite to close), and the loads
 * besides the page itself that failed on it (a stylesheet, a script, an icon).
 */
export async function readerPage(
  browser: Browser,
  baseURL: string,
  contexts: BrowserContext[],
): Promise<{ page: Page; failed: string[] }> {
  const context = await browser.newContext({ timezoneId: READER_ZONE, locale: 'en-GB', baseURL });
  contexts.push(context);
  // A missing element fails the test in seconds, with Playwright's message, not at vitest's timeout.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'document' && response.status() >= 400)
      failed.push(`${response.status()} ${response.url()}`);
  });
  return { page, failed };
}

/** Signs in with CONSOLE_PASSWORD on the sign-in page; the page ends on Contacts. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/console/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/console/contacts');
}

/** No serious accessibility violation, nothing past 360 px or touching, nothing that failed to load. */
export async function checkPage(page: Page, failed: string[], name: string): Promise<void> {
  const { violations, overflow } = await photograph(page, name);
  expect(violations, `axe on ${name}`).toEqual([]);
  expect(overflow, `sideways scroll or touching boxes on ${name}`).toEqual([]);
  expect(failed, `failed loads on ${name}`).toEqual([]);
}
