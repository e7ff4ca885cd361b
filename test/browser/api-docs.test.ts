// /docs in a real Chromium (Debian's package, driven by playwright-core): Redoc renders the
// operation list from /openapi.json with the page's strict CSP in force, and nothing is asked of
// another origin, so the page works offline. Redoc 2's sidebar footer always asks for its logo at
// cdn.redoc.ly (no option turns it off): the service serves the bundle with that address emptied,
// so no request is made and the CSP reports no violation.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('/docs in Chromium', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer('pglite'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('renders every operation, from this service alone, without errors', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const origin = new URL(server.baseUrl).origin;
    const outside = (url: string) => !url.startsWith(origin) && !/^(data|blob):/.test(url);
    const attempted: string[] = [];
    const answeredFromOutside: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      if (outside(request.url())) attempted.push(request.url());
    });
    page.on('response', (response) => {
      if (outside(response.url())) answeredFromOutside.push(response.url());
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    // A CSP violation is a console error (and a requestfailed when a request was attempted).
    page.on('console', (message) => {
      if (message.type() === 'error' || message.text().includes('Content Security Policy'))
        problems.push(message.text());
    });
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto('/docs');
    // Each operation is a heading of the middle panel; the menu keeps all but one tag folded.
    await page.getByRole('heading', { name: 'Import up to 1000 contacts (queued)' }).waitFor();
    const document = (await (await context.request.get('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const menu = await page.locator('.menu-content').textContent();
    for (const item of Object.values(document.paths))
      for (const operation of Object.values(item)) expect(menu).toContain(operation.summary);

    // The sidebar's footer is there, without the logo it used to fetch.
    await page.getByRole('link', { name: 'API docs by Redocly' }).waitFor();
    expect(answeredFromOutside).toEqual([]);
    expect(attempted).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
