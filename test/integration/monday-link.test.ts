// Linking a monday account to a Contactline Account: the install page, monday's OAuth consent
// (the emulator), the callback storing the encrypted token, the sentence builder's
// Authorization URL, and showing/removing the link through GraphQL and the CLI.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { createTestDatabase, testDatabaseKinds, type DatabaseKind } from '../support/databases.js';
import { startMondayEmulator, type MondayEmulator } from '../support/monday-emulator/index.js';
import { Browser } from '../support/browser.js';
import { runProcess, type ProcessRun } from '../support/child-process.js';
import { decryptToken } from '../../integration/monday/token-crypto.js';
import type { MondayConfig } from '../../integration/monday/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';

const SECRET = 'monday-signing-secret-for-link-tests';
const CLIENT_ID = 'contactline-test-client';
const CLIENT_SECRET = 'contactline-test-client-secret';
const BASE = '/integrations/monday';

let nextMondayId = 3_000_000 + Math.floor(Math.random() * 1_000_000);
const mondayId = () => ++nextMondayId;

const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];

describe.each(testDatabaseKinds())('monday linking (OAuth install) on %s', (kind) => {
  let server: TestServer;
  let monday: MondayEmulator;
  let config: MondayConfig;
  let offsetMs = 0;
  const tokenKey = randomBytes(32);

  beforeAll(async () => {
    monday = await startMondayEmulator({ oauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } });
    config = {
      signingSecret: SECRET,
      appId: 10155,
      apiUrl: monday.url,
      apiVersion: '2026-10',
      publicBaseUrl: null,
      oauthClientId: CLIENT_ID,
      oauthClientSecret: CLIENT_SECRET,
      oauthUrl: monday.origin,
      oauthScopes: 'me:read boards:read',
      tokenKey,
    };
    server = await startTestServer(kind, { monday: config, clock: { now: () => new Date(Date.now() + offsetMs) } });
  });
  afterAll(async () => {
    await server?.stop();
    await monday?.close();
  });

  const prisma = () => server.service.services.db.prisma;
  const url = (p: string) => `${server.baseUrl}${BASE}${p}`;

  /** Install page → POST the key → monday's consent (as `mondayUser`) → our callback. */
  async function install(
    apiKey: string,
    mondayUser: { accountId: number; userId: number },
    options: { browser?: Browser; start?: string; beforeCallback?: () => void } = {},
  ) {
    const browser = options.browser ?? new Browser();
    const page = await browser.go(options.start ?? url('/install'));
    expect(page.status, page.text).toBe(200);
    const form = new URLSearchParams({ apiKey, form: hidden(page.text, 'form')! });
    const backTo = hidden(page.text, 'backTo');
    if (backTo) form.set('backTo', backTo);
    const posted = await browser.go(url('/install'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(posted.status, posted.text).toBe(302);
    monday.oauth!.approveAs(mondayUser.accountId, mondayUser.userId);
    const consent = await fetch(posted.location!, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callbackUrl = consent.headers.get('location')!;
    options.beforeCallback?.();
    const cookieAtCallback = browser.cookie;
    const callback = await browser.go(callbackUrl);
    return { page, posted, callbackUrl, callback, browser, cookieAtCallback };
  }

  async function linkedAccount() {
    const account = await server.createAccount();
    const mondayUser = { accountId: mondayId(), userId: mondayId() };
    const { callback } = await install(account.apiKey, mondayUser);
    expect(callback.status, callback.text).toBe(200);
    return { account, mondayUser };
  }

  const mondayJwt = (claims: Record<string, unknown>, secret = SECRET) =>
    jwt.sign({ userId: 4012689, ...claims }, secret, { expiresIn: 300 });
  const boardAppOptions = (mondayAccountId: number) =>
    server.request(
      null,
      'POST',
      `${BASE}/options/workflows`,
      { payload: { pageRequestData: {} } },
      { authorization: mondayJwt({ accountId: mondayAccountId, shortLivedToken: 'slt' }) },
    );
  const graphql = (key: string | null, query: string, variables: Record<string, unknown> = {}) =>
    server.request(key, 'POST', '/graphql', { query, variables });

  it("links through the install page, monday's consent and the callback; the token is stored encrypted", async () => {
    const account = await server.createAccount();
    const mondayUser = { accountId: mondayId(), userId: mondayId() };
    expect((await boardAppOptions(mondayUser.accountId)).status).toBe(403);

    const { page, posted, callback } = await install(account.apiKey, mondayUser);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(page.text).toMatch(/type="password"/);
    const authorize = new URL(posted.location!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${monday.origin}/oauth2/authorize`);
    expect(authorize.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(authorize.searchParams.get('redirect_uri')).toBe(url('/oauth/callback'));
    expect(authorize.searchParams.get('scope')).toBe('me:read boards:read');
    expect(posted.location).not.toContain(account.apiKey);

    expect(callback.status, callback.text).toBe(200);
    expect(callback.text).toContain(`monday account ${mondayUser.accountId} is now linked`);
    const link = await prisma().mondayLink.findUniqueOrThrow({ where: { accountId: account.accountId } });
    expect(link).toMatchObject({
      mondayAccountId: String(mondayUser.accountId),
      mondayUserId: String(mondayUser.userId),
      userId: account.userId,
    });
    const token = monday.oauth!.issuedTokens.at(-1)!;
    expect(link.accessTokenEncrypted).not.toContain(token);
    expect(decryptToken(link.accessTokenEncrypted, tokenKey)).toBe(token);
    expect(monday.oauth!.tokenRequests.at(-1)).toMatchObject({
      status: 200,
      clientId: CLIENT_ID,
      redirectUri: url('/oauth/callback'),
    });
    expect(monday.requests.at(-1)).toMatchObject({ apiVersion: '2026-10', authorization: token });

    expect((await boardAppOptions(mondayUser.accountId)).status).toBe(200);
  });

  it("re-renders the page with 401 for a bad key (never echoing it), and refuses posts without the page's cookie and token", async () => {
    const browser = new Browser();
    const page = await browser.go(url('/install'));
    const badKey = `svc_pk_${'x'.repeat(43)}`;
    const form = hidden(page.text, 'form')!;
    const post = (body: Record<string, string>, b = browser) =>
      b.go(url('/install'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
    const bad = await post({ apiKey: badKey, form });
    expect(bad.status).toBe(401);
    expect(bad.text).toMatch(/not valid/);
    expect(bad.text).not.toContain(badKey);
    expect(bad.text).toContain('name="apiKey"');
    expect((await post({ apiKey: 'not even a key', form })).status).toBe(401);

    const account = await server.createAccount();
    expect((await post({ apiKey: account.apiKey, form: 'forged' })).status).toBe(403);
    const crossSite = await post({ apiKey: account.apiKey, form }, new Browser());
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).not.toContain(account.apiKey);
    expect(await prisma().mondayLink.findUnique({ where: { accountId: account.accountId } })).toBeNull();

    // A key with scopes cannot link: the board app would then act for the whole Account.
    const scoped = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
      query: `mutation ($u: String!) { createApiKey(userId: $u, name: "read only", scopes: ["contacts:read", "boards:manage"]) { secret } }`,
      variables: { u: account.userId },
    });
    const scopedKey = scoped.json.data.createApiKey.secret as string;
    const refused = await post({ apiKey: scopedKey, form });
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/needs a key with every scope/);
    expect(refused.text).not.toContain(scopedKey);
    expect(await prisma().mondayLink.findUnique({ where: { accountId: account.accountId } })).toBeNull();
  });

  it("refuses a forged or expired state, a callback in another browser, and shows monday's denial escaped", async () => {
    const account = await server.createAccount();
    const mondayUser = { accountId: mondayId(), userId: mondayId() };
    const forgedState = jwt.sign(
      { purpose: 'contactline.monday.install', accountId: account.accountId, userId: account.userId },
      'not-our-key',
      { expiresIn: 600 },
    );
    const forged = await new Browser().go(url(`/oauth/callback?code=abc&state=${encodeURIComponent(forgedState)}`));
    expect(forged.status).toBe(400);
    expect(forged.text).toMatch(/not issued by this Contactline server/);
    // A monday-signed JWT is not a state either.
    expect((await new Browser().go(url(`/oauth/callback?code=abc&state=${mondayJwt({ accountId: 1 })}`))).status).toBe(
      400,
    );

    const expired = await install(account.apiKey, mondayUser, { beforeCallback: () => (offsetMs = 11 * 60_000) });
    offsetMs = 0;
    expect(expired.callback.status).toBe(400);
    expect(expired.callback.text).toMatch(/expired/);

    // A callback opened in a browser that did not start the install (no cookie).
    const started = new Browser();
    const page = await started.go(url('/install'));
    const posted = await started.go(url('/install'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ apiKey: account.apiKey, form: hidden(page.text, 'form')! }).toString(),
    });
    const consent = await fetch(posted.location!, { redirect: 'manual' });
    const otherBrowser = await new Browser().go(consent.headers.get('location')!);
    expect(otherBrowser.status).toBe(400);
    expect(otherBrowser.text).toMatch(/another browser/);
    expect(await prisma().mondayLink.findUnique({ where: { accountId: account.accountId } })).toBeNull();

    monday.oauth!.denyNext();
    const denied = await started.go(url('/install'));
    const deniedPost = await started.go(url('/install'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ apiKey: account.apiKey, form: hidden(denied.text, 'form')! }).toString(),
    });
    const deniedConsent = await fetch(deniedPost.location!, { redirect: 'manual' });
    expect(new URL(deniedConsent.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    expect((await started.go(deniedConsent.headers.get('location')!)).status).toBe(400);
    const injected = await started.go(
      url(`/oauth/callback?error=x&error_description=${encodeURIComponent('<script>alert(1)</script>')}`),
    );
    expect(injected.status).toBe(400);
    expect(injected.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(injected.text).not.toContain('<script>');
  });

  it('uses an authorization code once: replaying the callback is refused and changes nothing', async () => {
    const account = await server.createAccount();
    const mondayUser = { accountId: mondayId(), userId: mondayId() };
    const first = await install(account.apiKey, mondayUser);
    expect(first.callback.status).toBe(200);
    const stored = await prisma().mondayLink.findUniqueOrThrow({ where: { accountId: account.accountId } });
    expect(first.browser.cookie).toBe(''); // the success cleared the install cookie
    // Even with the old cookie, the replayed callback fails at monday: the code is spent.
    const replay = await fetch(first.callbackUrl, { redirect: 'manual', headers: { cookie: first.cookieAtCallback } });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/already used or has expired/);
    expect(monday.oauth!.tokenRequests.at(-1)).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect(await prisma().mondayLink.findUniqueOrThrow({ where: { accountId: account.accountId } })).toEqual(stored);
  });

  it('refuses to move a monday account linked to another Contactline account (409); re-linking the same pair refreshes the token', async () => {
    const { account, mondayUser } = await linkedAccount();
    const before = await prisma().mondayLink.findUniqueOrThrow({ where: { accountId: account.accountId } });
    const intruder = await server.createAccount();
    const attempt = await install(intruder.apiKey, mondayUser);
    expect(attempt.callback.status).toBe(409);
    expect(attempt.callback.text).toMatch(/already linked to another Contactline account/);
    expect(await prisma().mondayLink.findUnique({ where: { accountId: intruder.accountId } })).toBeNull();
    expect(
      (await prisma().mondayLink.findUniqueOrThrow({ where: { mondayAccountId: String(mondayUser.accountId) } }))
        .accountId,
    ).toBe(account.accountId);

    const again = await install(account.apiKey, mondayUser);
    expect(again.callback.status).toBe(200);
    const after = await prisma().mondayLink.findUniqueOrThrow({ where: { accountId: account.accountId } });
    expect(after.accessTokenEncrypted).not.toBe(before.accessTokenEncrypted);
    expect(decryptToken(after.accessTokenEncrypted, tokenKey)).toBe(monday.oauth!.issuedTokens.at(-1));
  });

  it('Authorization URL: a linked account goes straight back to monday; an unlinked one installs, then goes back', async () => {
    const { mondayUser } = await linkedAccount();
    const backToUrl = `${monday.origin}/recipes/back?recipe=1&x="<y>"`;
    const linked = await new Browser().go(
      url(`/authorize?token=${mondayJwt({ accountId: mondayUser.accountId, backToUrl })}`),
    );
    expect(linked.status).toBe(302);
    expect(linked.location).toBe(new URL(backToUrl).toString());
    expect(
      (
        await new Browser().go(
          url(`/authorize?token=${mondayJwt({ accountId: mondayUser.accountId, backToUrl }, 'another-secret')}`),
        )
      ).status,
    ).toBe(401);
    expect((await new Browser().go(url('/authorize'))).status).toBe(401);

    const account = await server.createAccount();
    const newcomer = { accountId: mondayId(), userId: mondayId() };
    const start = url(
      `/authorize?token=${mondayJwt({ accountId: newcomer.accountId, userId: newcomer.userId, backToUrl })}`,
    );
    const flow = await install(account.apiKey, newcomer, { start });
    expect(flow.page.text).toMatch(/not connected to Contactline yet/);
    expect(flow.page.text).not.toContain('"<y>"');
    expect(flow.callback.status).toBe(302);
    expect(flow.callback.location).toBe(new URL(backToUrl).toString());
    expect(
      (await prisma().mondayLink.findUniqueOrThrow({ where: { accountId: account.accountId } })).mondayAccountId,
    ).toBe(String(newcomer.accountId));

    // A plain install link may return only to monday (or the configured OAuth server), never elsewhere.
    expect(
      (await new Browser().go(url(`/install?backToUrl=${encodeURIComponent('https://evil.example/steal')}`))).status,
    ).toBe(400);
    expect(
      (await new Browser().go(url(`/install?backToUrl=${encodeURIComponent('https://acme.monday.com/boards/1')}`)))
        .status,
    ).toBe(200);
  });

  it('answers 503 naming the missing settings, and uses PUBLIC_BASE_URL for the redirect URI', async () => {
    const saved = { ...config };
    try {
      config.tokenKey = null;
      const noKey = await new Browser().go(url('/install'));
      expect(noKey.status).toBe(503);
      expect(noKey.text).toContain('MONDAY_TOKEN_KEY');
      config.tokenKey = saved.tokenKey;
      config.oauthClientId = null;
      expect((await new Browser().go(url('/install'))).text).toContain('MONDAY_CLIENT_ID');
      config.oauthClientId = saved.oauthClientId;

      config.publicBaseUrl = 'https://contactline.example';
      const account = await server.createAccount();
      const browser = new Browser();
      const page = await browser.go(url('/install'));
      expect(page.headers.getSetCookie()[0]).toMatch(/Secure/);
      const posted = await fetch(url('/install'), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.cookie },
        body: new URLSearchParams({ apiKey: account.apiKey, form: hidden(page.text, 'form')! }).toString(),
      });
      expect(new URL(posted.headers.get('location')!).searchParams.get('redirect_uri')).toBe(
        `https://contactline.example${BASE}/oauth/callback`,
      );
    } finally {
      Object.assign(config, saved);
    }
  });

  it('GraphQL: a key sees and removes only its own link; the operator names the Account; unlinking stops subscriptions and board-app access', async () => {
    const a = await linkedAccount();
    const b = await server.createAccount();
    const FIELDS = 'accountId mondayAccountId mondayUserId userId createdAt updatedAt';
    const own = await graphql(a.account.apiKey, `{ mondayLink { ${FIELDS} } }`);
    expect(own.json.data.mondayLink).toMatchObject({
      accountId: a.account.accountId,
      mondayAccountId: String(a.mondayUser.accountId),
      userId: a.account.userId,
    });
    expect((await graphql(b.apiKey, '{ mondayLink { accountId } }')).json.data.mondayLink).toBeNull();
    const peek = await graphql(b.apiKey, 'query ($id: String) { mondayLink(accountId: $id) { accountId } }', {
      id: a.account.accountId,
    });
    expect(peek.json.errors[0].extensions.code).toBe('not_found');
    const steal = await graphql(b.apiKey, 'mutation ($id: String) { unlinkMonday(accountId: $id) { accountId } }', {
      id: a.account.accountId,
    });
    expect(steal.json.errors[0].extensions.code).toBe('not_found');
    expect((await graphql(b.apiKey, '{ mondayLinks { data { accountId } } }')).json.errors[0].extensions.code).toBe(
      'unauthenticated',
    );
    // Without a credential /graphql refuses the request itself, before reading it (401, error body).
    const anonymous = await graphql(null, '{ mondayLink { accountId } }');
    expect({ status: anonymous.status, code: anonymous.json.code }).toEqual({ status: 401, code: 'unauthenticated' });
    expect((await graphql(a.account.apiKey, '{ mondayLink { accessTokenEncrypted } }')).json.errors[0].message).toMatch(
      /Cannot query field "accessTokenEncrypted"/,
    );

    const admin = await graphql(ADMIN_TOKEN, `query ($id: String) { mondayLink(accountId: $id) { ${FIELDS} } }`, {
      id: a.account.accountId,
    });
    expect(admin.json.data.mondayLink).toEqual(own.json.data.mondayLink);
    expect((await graphql(ADMIN_TOKEN, '{ mondayLink { accountId } }')).json.errors[0].extensions.code).toBe(
      'bad_request',
    );
    expect(
      (
        await graphql(ADMIN_TOKEN, 'query ($id: String) { mondayLink(accountId: $id) { accountId } }', {
          id: randomUUID(),
        })
      ).json.errors[0].extensions.code,
    ).toBe('not_found');
    expect(
      (await graphql(ADMIN_TOKEN, 'query ($id: String) { mondayLink(accountId: $id) { accountId } }', { id: 'nope' }))
        .json.errors[0].extensions.code,
    ).toBe('bad_request');
    const all: string[] = [];
    for (let nextToken: string | null = null, pages = 0; pages === 0 || nextToken; pages++) {
      const page: any = await graphql(
        ADMIN_TOKEN,
        'query ($t: String) { mondayLinks(limit: 2, nextToken: $t) { data { accountId } nextToken } }',
        { t: nextToken },
      );
      all.push(...page.json.data.mondayLinks.data.map((l: { accountId: string }) => l.accountId));
      nextToken = page.json.data.mondayLinks.nextToken;
    }
    expect(all).toContain(a.account.accountId);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(await prisma().mondayLink.count());

    const subscription = (webhookId: string, deletedAt: Date | null = null) => ({
      webhookId,
      accountId: a.account.accountId,
      mondayAccountId: String(a.mondayUser.accountId),
      webhookUrl: `${monday.origin}/automations/apps-events/${webhookId}`,
      deletedAt,
      createdAt: server.now(),
    });
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await prisma().mondayTriggerSubscription.createMany({
      data: [
        subscription(ids[0]),
        subscription(ids[1]),
        subscription(ids[2], new Date(server.now().getTime() - 60_000)),
      ],
    });
    const oldDeletion = (await prisma().mondayTriggerSubscription.findUniqueOrThrow({ where: { webhookId: ids[2] } }))
      .deletedAt;

    const unlinked = await graphql(
      a.account.apiKey,
      `mutation { unlinkMonday { accountId subscriptionsRemoved removedLink { ${FIELDS} } } }`,
    );
    expect(unlinked.json.data.unlinkMonday).toEqual({
      accountId: a.account.accountId,
      subscriptionsRemoved: 2,
      removedLink: own.json.data.mondayLink,
    });
    expect(await prisma().mondayLink.findUnique({ where: { accountId: a.account.accountId } })).toBeNull();
    const subs = await prisma().mondayTriggerSubscription.findMany({ where: { webhookId: { in: ids } } });
    expect(subs.every((s) => s.deletedAt !== null)).toBe(true);
    expect(subs.find((s) => s.webhookId === ids[2])!.deletedAt).toEqual(oldDeletion);

    const refused = await boardAppOptions(a.mondayUser.accountId);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toMatch(/not linked/);
    const subscribe = await server.request(
      null,
      'POST',
      `${BASE}/trigger/subscribe`,
      { payload: { webhookUrl: 'http://127.0.0.1:9/x', subscriptionId: 5 } },
      { authorization: mondayJwt({ accountId: a.mondayUser.accountId }) },
    );
    expect(subscribe.status).toBe(403);

    const again = await graphql(
      a.account.apiKey,
      'mutation { unlinkMonday { accountId subscriptionsRemoved removedLink { accountId } } }',
    );
    expect(again.json.data.unlinkMonday).toEqual({
      accountId: a.account.accountId,
      subscriptionsRemoved: 0,
      removedLink: null,
    });

    const c = await linkedAccount();
    const byOperator = await graphql(
      ADMIN_TOKEN,
      'mutation ($id: String) { unlinkMonday(accountId: $id) { removedLink { mondayAccountId } } }',
      { id: c.account.accountId },
    );
    expect(byOperator.json.data.unlinkMonday.removedLink.mondayAccountId).toBe(String(c.mondayUser.accountId));
    expect(
      (
        await graphql(ADMIN_TOKEN, 'mutation ($id: String) { unlinkMonday(accountId: $id) { accountId } }', {
          id: randomUUID(),
        })
      ).json.errors[0].extensions.code,
    ).toBe('not_found');
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI runs the operator operations in-process against the database the environment names.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function cli(args: string[], env: Record<string, string>): Promise<ProcessRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return runProcess(process.execPath, [path.join(ROOT, 'bin/contactline.js'), ...args], { env: childEnv });
}

describe.each(testDatabaseKinds())('contactline monday show / unlink on %s', (kind: DatabaseKind) => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let open: () => Promise<{ prisma: any; close: () => Promise<void> }>;

  beforeAll(async () => {
    if (kind === 'postgres') {
      const database = await createTestDatabase('postgres');
      env = { DATABASE_URL: database.url! };
      open = async () => ({ prisma: database.db.prisma, close: async () => {} });
      cleanup = () => database.drop();
    } else {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contactline-monday-cli-'));
      env = { DATA_DIR: dataDir };
      open = async () => {
        const db = await openDatabase({ dataDir });
        return { prisma: db.prisma, close: () => db.close() };
      };
      cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
      const db = await openDatabase({ dataDir });
      await migrate(db.sql);
      await db.close();
    }
  });
  afterAll(() => cleanup?.());

  it("shows and removes an Account's link; bad arguments exit 2", async () => {
    let seeded: { accountId: string; userId: string; mondayAccountId: string };
    {
      const { prisma, close } = await open();
      // The CLI runs on the system clock: so do these rows.
      const now = new Date();
      const account = await prisma.account.create({ data: { name: 'CLI monday', createdAt: now } });
      const user = await prisma.user.create({
        data: { accountId: account.id, email: `${randomUUID()}@example.com`, createdAt: now },
      });
      const mondayAccountId = String(mondayId());
      await prisma.mondayLink.create({
        data: {
          accountId: account.id,
          userId: user.id,
          mondayAccountId,
          mondayUserId: '77',
          accessTokenEncrypted: 'v1.a.b.c',
          createdAt: now,
          updatedAt: now,
        },
      });
      await prisma.mondayTriggerSubscription.create({
        data: {
          webhookId: randomUUID(),
          accountId: account.id,
          mondayAccountId,
          webhookUrl: 'http://127.0.0.1:9/x',
          createdAt: now,
        },
      });
      seeded = { accountId: account.id, userId: user.id, mondayAccountId };
      await close();
    }
    // Argument errors never open the database, so they run beside the first real command
    // (an embedded data directory admits one process at a time).
    const [shown, badId, missing] = await Promise.all([
      cli(['monday', 'show', '--account', seeded.accountId, '--json'], env),
      cli(['monday', 'show', '--account', 'not-a-uuid', '--json'], env),
      cli(['monday', 'unlink'], env),
    ]);
    expect(shown.code, shown.stderr).toBe(0);
    const shownJson = JSON.parse(shown.stdout);
    expect(shownJson).toMatchObject({
      ok: true,
      accountId: seeded.accountId,
      link: { mondayAccountId: seeded.mondayAccountId, mondayUserId: '77', userId: seeded.userId },
    });
    expect(shown.stdout).not.toContain('v1.a.b.c');
    expect(badId.code).toBe(2);
    expect(JSON.parse(badId.stdout).error.code).toBe('usage');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--account/);

    const unlinked = await cli(['monday', 'unlink', '--account', seeded.accountId], env);
    expect(unlinked.code, unlinked.stderr).toBe(0);
    expect(unlinked.stdout).toContain(
      `Unlinked account ${seeded.accountId} from monday account ${seeded.mondayAccountId}; 1 trigger subscription(s) stopped.`,
    );
    const unknown = await cli(['monday', 'unlink', '--account', randomUUID(), '--json'], env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('not_found');

    const { prisma, close } = await open();
    expect(await prisma.mondayLink.findUnique({ where: { accountId: seeded.accountId } })).toBeNull();
    expect(
      (await prisma.mondayTriggerSubscription.findMany({ where: { accountId: seeded.accountId } })).every(
        (s: { deletedAt: Date | null }) => s.deletedAt,
      ),
    ).toBe(true);
    await close();
    // Five CLI processes, each starting the runtime and opening the embedded database: under a
    // loaded CI machine that is more than the default 30 s, as the CLI suites allow.
  }, 120_000);
});
