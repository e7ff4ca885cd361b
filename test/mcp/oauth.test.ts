// OAuth 2.1 for the tool server (docs/oauth.md), step by step through a listening server: the
// discovery documents, registration, the consent, the code and refresh exchanges, revocation,
// and each attack on them refused with the right status and nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import { handClock } from '../support/clocks.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { personWithPassword } from '../support/console-people.js';
import {
  authorizeQuery,
  consentedCode,
  consoleBrowser,
  pkcePair,
  postForm,
  registerClient,
} from '../support/oauth-flow.js';
import { callError, callOk, connect, MCP_PATH } from './mcp-helpers.js';
import { uniquePhone } from '../support/api-helpers.js';

const MINUTE = 60_000;
const REDIRECT = 'http://127.0.0.1:43123/callback';

describe.each(testDatabaseKinds())('OAuth for the tool server on %s', (kind) => {
  let server: TestServer;
  const clock = handClock();
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(() => server?.stop());

  const resource = () => `${server.baseUrl}${MCP_PATH}`;
  const rows = () => server.service.services.db.prisma;

  type Person = { person: Awaited<ReturnType<typeof personWithPassword>>; browser: ReturnType<typeof consoleBrowser> };
  let shared: Promise<Person> | undefined;
  /** A person of a new Account, signed in in their own console browser (a password costs a hash on purpose). */
  async function signedInPerson(): Promise<Person> {
    const person = await personWithPassword(server);
    const browser = consoleBrowser(server);
    await browser.signIn(person.email);
    return { person, browser };
  }

  /**
   * A signed-in person and a newly registered client. The person is the suite's shared one unless
   * `fresh` (a test that removes them, or reads the Account's whole list of connections).
   */
  async function setUp({ fresh = false }: { fresh?: boolean } = {}) {
    if (!fresh && !shared) shared = signedInPerson();
    const { person, browser } = await (fresh ? signedInPerson() : (shared as Promise<Person>));
    const registered = await registerClient(server, [REDIRECT]);
    expect(registered.status, JSON.stringify(registered.json)).toBe(201);
    return { person, browser, clientId: registered.json.client_id as string };
  }

  /** Consent, then the code's exchange: the first tokens of a new grant. */
  async function tokensFor(scope?: string, { fresh = false }: { fresh?: boolean } = {}) {
    const s = await setUp({ fresh });
    const { verifier, challenge } = pkcePair();
    const answer = await consentedCode(s.browser, {
      clientId: s.clientId,
      redirectUri: REDIRECT,
      challenge,
      scope,
      resource: resource(),
      state: 'st-1',
    });
    const code = answer.searchParams.get('code') as string;
    const tokens = await postForm(server, '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: s.clientId,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      resource: resource(),
    });
    expect(tokens.status, JSON.stringify(tokens.json)).toBe(200);
    return { ...s, code, verifier, tokens: tokens.json };
  }

  /** A tools/list with this bearer: the status and the WWW-Authenticate header. */
  async function toolsList(bearer: string | null, headers: Record<string, string> = {}) {
    const res = await fetch(server.baseUrl + MCP_PATH, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    return { status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.text() };
  }

  it('publishes the resource and authorization server metadata, and names them in a 401', async () => {
    const unauthenticated = await toolsList(null);
    expect(unauthenticated.status).toBe(401);
    const metadataUrl = `${server.baseUrl}/.well-known/oauth-protected-resource${MCP_PATH}`;
    expect(unauthenticated.challenge).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="contacts:read calls:read workflows:read webhooks:manage"`,
    );
    const prm = await (await fetch(metadataUrl)).json();
    expect(prm).toMatchObject({
      resource: resource(),
      authorization_servers: [expect.stringContaining(server.baseUrl)],
    });
    const as = await (await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: server.baseUrl,
      authorization_endpoint: `${server.baseUrl}/oauth/authorize`,
      token_endpoint: `${server.baseUrl}/oauth/token`,
      registration_endpoint: `${server.baseUrl}/oauth/register`,
      revocation_endpoint: `${server.baseUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    // A bearer that is not valid is told so (RFC 6750 §3.1).
    expect((await toolsList('svc_at_nothing')).challenge).toContain('error="invalid_token"');
  });

  it('registers every client as public, and refuses a redirect address that is neither https nor loopback', async () => {
    const confidential = await registerClient(server, ['https://assistant.example/cb'], {
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(confidential.status).toBe(201);
    expect(confidential.json.token_endpoint_auth_method).toBe('none');
    expect(confidential.json.client_secret).toBeUndefined();
    const before = await rows().oAuthClient.count();
    for (const uri of ['http://assistant.example/cb', 'https://assistant.example/cb#frag', 'javascript:alert(1)']) {
      const refused = await registerClient(server, [uri]);
      expect(refused.status, uri).toBe(400);
      expect(['invalid_redirect_uri', 'invalid_client_metadata']).toContain(refused.json.error);
    }
    // A body that is not JSON, or too large, is refused in OAuth's error body too.
    for (const body of [
      '{not json',
      JSON.stringify({ redirect_uris: ['https://a.example/cb'], client_name: 'x'.repeat(20_000) }),
    ]) {
      const res = await fetch(`${server.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect([400, 413]).toContain(res.status);
      expect((await res.json()).error).toBe('invalid_client_metadata');
    }
    expect(await rows().oAuthClient.count()).toBe(before);
  });

  it('issues tokens that read through the tool server as the person who consented, in their Account', async () => {
    const { tokens, person, code } = await tokensFor();
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(tokens.scope).toBe('contacts:read calls:read workflows:read webhooks:manage');
    const mcp = await connect(server, tokens.access_token);
    const phone = uniquePhone();
    const created = await server.request(person.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      firstName: 'Adalind',
    });
    expect(created.status, created.text).toBe(201);
    const found = await callOk(mcp.client, 'contacts_search', { searchTerm: 'Adalind' });
    expect(found.data.map((c: { phone: string }) => c.phone)).toEqual([phone]);
    await mcp.close();
    // Nothing is stored that could be used: codes and tokens only as hashes.
    const stored = JSON.stringify([await rows().oAuthCode.findMany(), await rows().oAuthToken.findMany()]);
    for (const secret of [code, tokens.access_token, tokens.refresh_token]) expect(stored).not.toContain(secret);
    // A request carrying an Origin is refused, token or not.
    expect((await toolsList(tokens.access_token, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('limits a token to the scopes consented to', async () => {
    const { tokens } = await tokensFor('contacts:read');
    expect(tokens.scope).toBe('contacts:read');
    const mcp = await connect(server, tokens.access_token);
    await callOk(mcp.client, 'contacts_search', { searchTerm: 'x' });
    const refused = await callError(mcp.client, 'workflows_list', {});
    expect(refused).toMatchObject({ code: 'forbidden', scope: 'workflows:read' });
    await mcp.close();
  });

  it('refuses a wrong or missing PKCE verifier, and the code still works after', async () => {
    const s = await setUp();
    const { verifier, challenge } = pkcePair();
    const answer = await consentedCode(s.browser, { clientId: s.clientId, redirectUri: REDIRECT, challenge });
    const code = answer.searchParams.get('code') as string;
    expect(answer.searchParams.get('iss')).toBe(server.baseUrl);
    const exchange = (extra: Record<string, string>) =>
      postForm(server, '/oauth/token', { grant_type: 'authorization_code', client_id: s.clientId, code, ...extra });
    const wrong = await exchange({ code_verifier: pkcePair().verifier });
    expect(wrong).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    const missing = await exchange({});
    expect(missing).toMatchObject({ status: 400, json: { error: 'invalid_request' } });
    expect(await rows().oAuthGrant.count({ where: { clientId: s.clientId } })).toBe(0);
    expect((await exchange({ code_verifier: verifier })).status).toBe(200);
  });

  it('refuses a redirect address that differs by one character, or by its port, without redirecting', async () => {
    const s = await setUp();
    const { challenge } = pkcePair();
    for (const redirectUri of ['http://127.0.0.1:43123/callbacK', 'http://127.0.0.1:43124/callback']) {
      const res = await s.browser.go(
        'GET',
        `/oauth/authorize?${authorizeQuery({ clientId: s.clientId, redirectUri, challenge })}`,
      );
      expect(res.status, redirectUri).toBe(400);
      expect(res.location).toBeNull();
      // Nor does the consent page take it, if its address is edited.
      const page = await s.browser.go(
        'GET',
        `/console/oauth/authorize?${new URLSearchParams({ client_id: s.clientId, redirect_uri: redirectUri, code_challenge: challenge, scope: '' })}`,
      );
      expect(page.status).toBe(400);
      expect(page.location).toBeNull();
    }
    expect(await rows().oAuthCode.count({ where: { clientId: s.clientId } })).toBe(0);
  });

  it('refuses a code used twice, and revokes the tokens the first use issued', async () => {
    const { clientId, code, verifier, tokens } = await tokensFor();
    const again = await postForm(server, '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
    });
    expect(again).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    expect((await toolsList(tokens.access_token)).status).toBe(401);
    const refresh = await postForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: tokens.refresh_token,
    });
    expect(refresh).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
  });

  it('refuses a code that expired, and a code of another client', async () => {
    const s = await setUp();
    const other = await registerClient(server, [REDIRECT]);
    const { verifier, challenge } = pkcePair();
    const code = (
      await consentedCode(s.browser, { clientId: s.clientId, redirectUri: REDIRECT, challenge })
    ).searchParams.get('code') as string;
    const byOther = await postForm(server, '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: other.json.client_id,
      code,
      code_verifier: verifier,
    });
    expect(byOther).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    clock.advance(6 * MINUTE);
    const late = await postForm(server, '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: s.clientId,
      code,
      code_verifier: verifier,
    });
    expect(late).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
  });

  it('binds tokens to the tool server: another resource is refused at every step', async () => {
    const s = await setUp();
    const { verifier, challenge } = pkcePair();
    const elsewhere = 'https://other.example/api/mcp';
    const start = await s.browser.go(
      'GET',
      `/oauth/authorize?${authorizeQuery({ clientId: s.clientId, redirectUri: REDIRECT, challenge, resource: elsewhere, state: 's' })}`,
    );
    expect(start.status).toBe(302);
    const told = new URL(start.location as string);
    expect(told.origin + told.pathname).toBe(REDIRECT);
    expect(told.searchParams.get('error')).toBe('invalid_target');
    expect(told.searchParams.get('state')).toBe('s');
    // A code for this resource, exchanged for another.
    const code = (
      await consentedCode(s.browser, { clientId: s.clientId, redirectUri: REDIRECT, challenge })
    ).searchParams.get('code') as string;
    const exchange = await postForm(server, '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: s.clientId,
      code,
      code_verifier: verifier,
      resource: elsewhere,
    });
    expect(exchange).toMatchObject({ status: 400, json: { error: 'invalid_target' } });
    // A token whose grant is for another resource is not taken here.
    const { tokens, clientId } = await tokensFor();
    await rows().oAuthGrant.updateMany({ where: { clientId }, data: { resource: elsewhere } });
    expect((await toolsList(tokens.access_token)).status).toBe(401);
  });

  it('rotates refresh tokens: a new pair each time, a reused one revokes the grant', async () => {
    const { clientId, tokens } = await tokensFor();
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      postForm(server, '/oauth/token', {
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: token,
        ...extra,
      });
    const wider = await refresh(tokens.refresh_token, { scope: 'contacts:read contacts:write' });
    expect(wider).toMatchObject({ status: 400, json: { error: 'invalid_scope' } });
    const next = await refresh(tokens.refresh_token, { scope: 'contacts:read' });
    expect(next.status, JSON.stringify(next.json)).toBe(200);
    expect(next.json.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.json.scope).toBe('contacts:read');
    expect((await toolsList(next.json.access_token)).status).toBe(200);
    // The first refresh token again: someone else holds it; the whole grant ends.
    expect(await refresh(tokens.refresh_token)).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    expect((await toolsList(next.json.access_token)).status).toBe(401);
    expect((await refresh(next.json.refresh_token)).status).toBe(400);
  });

  it('refuses an expired access token, and a refreshed one works', async () => {
    const { clientId, tokens } = await tokensFor();
    clock.advance(16 * MINUTE);
    const expired = await toolsList(tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.challenge).toContain('error="invalid_token"');
    const next = await postForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: tokens.refresh_token,
    });
    expect((await toolsList(next.json.access_token)).status).toBe(200);
  });

  it('revokes by RFC 7009: a refresh token ends its grant; another client cannot revoke it', async () => {
    const { clientId, tokens } = await tokensFor();
    const other = await registerClient(server, [REDIRECT]);
    const byOther = await postForm(server, '/oauth/revoke', {
      client_id: other.json.client_id,
      token: tokens.refresh_token,
    });
    expect(byOther.status).toBe(200);
    expect((await toolsList(tokens.access_token)).status).toBe(200);
    const revoked = await postForm(server, '/oauth/revoke', { client_id: clientId, token: tokens.refresh_token });
    expect(revoked.status).toBe(200);
    expect((await toolsList(tokens.access_token)).status).toBe(401);
  });

  it('ends every token of a person removed from the Account', async () => {
    const { clientId, tokens, person, browser } = await tokensFor(undefined, { fresh: true });
    const operator = (query: string, variables: Record<string, unknown>) =>
      server.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables });
    const userId = (await rows().user.findFirstOrThrow({ where: { email: person.email } })).id;
    const key = await operator('mutation ($u: String!) { createApiKey(userId: $u, name: "theirs") { secret } }', {
      u: userId,
    });
    const theirKey = key.json.data.createApiKey.secret as string;
    expect((await server.request(theirKey, 'GET', '/api/v1/contacts')).status).toBe(200);
    const removed = await operator('mutation ($id: String!) { removeUser(id: $id) { id removedAt } }', { id: userId });
    expect(removed.json.data.removeUser.removedAt).not.toBeNull();
    expect((await toolsList(tokens.access_token)).status).toBe(401);
    const refresh = await postForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: tokens.refresh_token,
    });
    expect(refresh).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    // Their console session ended too, and their API key.
    expect((await browser.go('GET', '/console/connected-apps')).status).toBe(303);
    expect((await server.request(theirKey, 'GET', '/api/v1/contacts')).status).toBe(401);
    // No new key can be made for them.
    const again = await operator('mutation ($u: String!) { createApiKey(userId: $u, name: "again") { secret } }', {
      u: userId,
    });
    expect(again.json.errors?.[0]?.extensions?.code, again.text).toBe('conflict');
    // The Account's other people keep theirs.
    expect((await server.request(person.apiKey, 'GET', '/api/v1/contacts')).status).toBe(200);
  });

  it('lists connected applications in the console, and Revoke ends their tokens', async () => {
    const { tokens, browser } = await tokensFor(undefined, { fresh: true });
    const page = await browser.go('GET', '/console/connected-apps');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Test assistant');
    const id = /action="\/console\/connected-apps\/([^/]+)\/revoke"/.exec(page.html)?.[1] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)?.[1] as string;
    const revoked = await browser.go('POST', `/console/connected-apps/${id}/revoke`, { csrf });
    expect(revoked).toMatchObject({ status: 303, location: '/console/connected-apps?done=revoked' });
    expect((await toolsList(tokens.access_token)).status).toBe(401);
    expect((await browser.go('GET', '/console/connected-apps')).html).not.toContain('Test assistant');
  });

  it('sends a person who is not signed in to sign in, then back to the consent page; Deny tells the application', async () => {
    const person = await personWithPassword(server);
    const registered = await registerClient(server, [REDIRECT]);
    const browser = consoleBrowser(server);
    const { challenge } = pkcePair();
    const start = await browser.go(
      'GET',
      `/oauth/authorize?${authorizeQuery({ clientId: registered.json.client_id, redirectUri: REDIRECT, challenge, state: 'z' })}`,
    );
    const consentAddress = start.location as string;
    const toSignIn = await browser.go('GET', consentAddress);
    expect(toSignIn.location).toBe(`/console/sign-in?next=${encodeURIComponent(consentAddress)}`);
    const signInPage = await browser.go('GET', toSignIn.location as string);
    const next = /name="next" value="([^"]+)"/.exec(signInPage.html)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toBe(consentAddress);
    const signedIn = await browser.go('POST', '/console/sign-in', {
      email: person.email,
      password: 'a console password, long enough',
      next: next as string,
    });
    expect(signedIn.location).toBe(consentAddress);
    // Sign-in never returns to another site.
    const elsewhere = await browser.go('POST', '/console/sign-in', {
      email: person.email,
      password: 'a console password, long enough',
      next: '//evil.example/console/',
    });
    expect(elsewhere.location).toBe('/console/');
    const denied = await consentedCode(
      browser,
      { clientId: registered.json.client_id, redirectUri: REDIRECT, challenge, state: 'z' },
      'deny',
    );
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('z');
    expect(denied.searchParams.get('code')).toBeNull();
  });

  it('keeps API keys on the tool server exactly as before', async () => {
    const { apiKey } = await server.createAccount();
    expect((await toolsList(apiKey)).status).toBe(200);
    expect((await toolsList('svc_pk_unknown')).status).toBe(401);
  });
});
