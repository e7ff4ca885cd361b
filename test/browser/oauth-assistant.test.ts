// An assistant connects to the tool server by OAuth as assistants do (docs/oauth.md): the
// official MCP SDK's client with an OAuthClientProvider discovers the authorization server from
// the tool server's 401, registers itself and sends the person to the authorization address; the
// person signs in and allows it on the console's consent page in Chromium; the client finishes
// with the code its redirect address received, then lists and calls tools. Its access token
// expires and the SDK refreshes it; the person revokes it under Connected apps and it is refused.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone } from '../support/api-helpers.js';
import { launchChromium, photograph } from '../support/chromium.js';
import { readerPage } from '../support/console-browser.js';
import { CONSOLE_PASSWORD, personWithPassword } from '../support/console-people.js';
import { testDatabaseKinds } from '../support/databases.js';
import { handClock } from '../support/clocks.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { callOk, MCP_PATH } from '../mcp/mcp-helpers.js';

/** What an assistant keeps between runs: its registration, its tokens, the PKCE verifier of a sign-in under way. */
class RememberingProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Assistant in a test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  /** What the SDK forgets when the server refuses it (a revoked grant: the tokens). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.information = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no sign-in under way');
    return this.verifier;
  }
}

describe.each(testDatabaseKinds())('an assistant connects by OAuth, consent in Chromium, on %s', (kind) => {
  let server: TestServer;
  let browser: Browser;
  let callback: Server;
  const contexts: BrowserContext[] = [];
  const clock = handClock();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(kind, { clock }), launchChromium()]);
    // The assistant's redirect address: a local listener, as a desktop assistant runs one.
    callback = createServer((_req, res) => res.end('Signed in: you can close this window.'));
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => callback?.close(resolve));
  });

  it('signs in, allows, lists and calls tools, refreshes, and is refused once revoked', async () => {
    const person = await personWithPassword(server);
    const phone = uniquePhone();
    expect(
      (await server.request(person.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone, firstName: 'Oauthia' })).status,
    ).toBeLessThan(300);
    const redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    const provider = new RememberingProvider(redirectUrl);
    const toolServer = new URL(MCP_PATH, server.baseUrl);

    // 1. Without tokens the tool server answers 401; the SDK discovers, registers, and asks for a sign-in.
    const first = new Client({ name: 'assistant', version: '1.0.0' });
    await expect(
      first.connect(new StreamableHTTPClientTransport(toolServer, { authProvider: provider })),
    ).rejects.toThrow(UnauthorizedError);
    expect(provider.information?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl as URL;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${server.baseUrl}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('resource')).toBe(toolServer.href);

    // 2. The person, not signed in, signs in and lands on the consent page; it lists the scopes.
    const { page } = await readerPage(browser, server.baseUrl, contexts);
    await page.goto(authorizationUrl.href);
    await page.waitForURL('**/console/sign-in?next=**');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console/oauth/authorize?**');
    await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toContain('Assistant in a test');
    for (const scope of ['contacts:read', 'calls:read', 'workflows:read'])
      expect(await page.locator('ul.scopes').textContent()).toContain(scope);
    // Readable at a phone's width and a laptop's, with no serious accessibility violation.
    expect(await photograph(page, 'oauth-consent')).toEqual({ violations: [], overflow: [] });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${redirectUrl}?**`);
    const answer = new URL(page.url());
    expect(answer.searchParams.get('iss')).toBe(server.baseUrl);

    // 3. The assistant finishes with the code, then connects and works.
    const finishing = new StreamableHTTPClientTransport(toolServer, { authProvider: provider });
    await finishing.finishAuth(answer.searchParams.get('code') as string);
    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(toolServer, { authProvider: provider }));
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('contacts_search');
    const found = await callOk(client, 'contacts_search', { searchTerm: 'Oauthia' });
    expect(found.data.map((c: { phone: string }) => c.phone)).toEqual([phone]);

    // 4. The access token expires; the SDK refreshes it on the 401 and the call goes through.
    const before = provider.saved as OAuthTokens;
    clock.advance(16 * 60_000);
    await callOk(client, 'contacts_search', { searchTerm: 'Oauthia' });
    expect(provider.saved?.access_token).not.toBe(before.access_token);
    expect(provider.saved?.refresh_token).not.toBe(before.refresh_token);

    // 5. The person revokes it under Connected apps; the assistant is refused from then on.
    await page.goto('/console/connected-apps');
    expect(await photograph(page, 'connected-apps')).toEqual({ violations: [], overflow: [] });
    await page.getByRole('button', { name: 'Revoke Assistant in a test' }).click();
    await page.waitForURL('**/console/connected-apps?done=revoked');
    expect(await page.getByText('No application is connected.').count()).toBe(1);
    // The SDK's refresh is refused (invalid_grant): it forgets the tokens and asks for a new sign-in.
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: 'contacts_search', arguments: { searchTerm: 'Oauthia' } })).rejects.toThrow(
      UnauthorizedError,
    );
    expect(provider.saved).toBeUndefined();
    expect((provider.authorizationUrl as URL | undefined)?.pathname).toBe('/oauth/authorize');
    await client.close();
  });
});
