// The tool server's OAuth flow by hand, for the suites that attack each step (docs/oauth.md): a
// PKCE pair, a registered public client, and a signed-in person's consent in the console driven
// over plain HTTP (cookies kept, Origin sent on posts, as a browser does). The flow as an
// assistant runs it (the SDK's client, Chromium on the consent page) is test/mcp/oauth-sdk.test.ts.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { CONSOLE_PASSWORD } from './console-people.js';
import type { TestServer } from './test-server.js';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function postJson(server: TestServer, path: string, body: unknown) {
  const res = await fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

/** A form post to an OAuth endpoint (token, revoke), as a client sends it. */
export async function postForm(server: TestServer, path: string, form: Record<string, string>) {
  const res = await fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

export async function registerClient(server: TestServer, redirectUris: string[], extra: Record<string, unknown> = {}) {
  return postJson(server, '/oauth/register', { client_name: 'Test assistant', redirect_uris: redirectUris, ...extra });
}

/** A person's browser in the console: cookies by name, Origin on posts, redirects not followed. */
export function consoleBrowser(server: TestServer) {
  const jar = new Map<string, string>();
  async function go(method: 'GET' | 'POST', pathOrUrl: string, form?: Record<string, string>) {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : server.baseUrl + pathOrUrl;
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(method === 'POST' ? { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      if (/Max-Age=0/i.test(line)) jar.delete(name);
      else jar.set(name, pair.slice(name.length + 1));
    }
    return { status: res.status, headers: res.headers, location: res.headers.get('location'), html: await res.text() };
  }
  return {
    go,
    async signIn(email: string) {
      const res = await go('POST', '/console/sign-in', { email, password: CONSOLE_PASSWORD });
      expect(res.status).toBe(303);
    },
  };
}

export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** The hidden fields of the consent form, as the page carries them. */
export function consentFieldsOf(html: string): Record<string, string> {
  const form = html.slice(html.indexOf('action="/console/oauth/authorize"'));
  const fields: Record<string, string> = {};
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[match[1]] = match[2].replaceAll('&amp;', '&').replaceAll('&quot;', '"');
  return fields;
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope?: string;
  resource?: string;
  state?: string;
}

export const authorizeQuery = (p: AuthorizeParams) =>
  new URLSearchParams({
    response_type: 'code',
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
    ...(p.scope !== undefined ? { scope: p.scope } : {}),
    ...(p.resource !== undefined ? { resource: p.resource } : {}),
    ...(p.state !== undefined ? { state: p.state } : {}),
  }).toString();

/**
 * A signed-in person allows the request: the authorize endpoint sends them to the consent page,
 * they press Allow, and the application's redirect address receives the code (returned).
 */
export async function consentedCode(
  browser: ReturnType<typeof consoleBrowser>,
  params: AuthorizeParams,
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const start = await browser.go('GET', `/oauth/authorize?${authorizeQuery(params)}`);
  expect(start.status, start.html).toBe(302);
  const consent = await browser.go('GET', start.location as string);
  expect(consent.status, consent.html).toBe(200);
  const answer = await browser.go('POST', '/console/oauth/authorize', {
    ...consentFieldsOf(consent.html),
    csrf: csrfOf(consent.html),
    decision,
  });
  expect(answer.status, answer.html).toBe(303);
  return new URL(answer.location as string);
}
