// Console users: the operator's invitation (GraphQL), accepting it, signing in with the lockout,
// sessions that end on sign-out, idle time and a new password. On each database, through the
// service's own domain functions as the console calls them; the clock is the suite's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { acceptInvitation, openInvitation } from '../../src/domain/users/invitations.service.js';
import { authenticateSession, SESSION_IDLE_MS, signIn, signOut } from '../../src/domain/users/sessions.service.js';
import { LOCK_AFTER_FAILURES, LOCK_MS } from '../../src/domain/users/sign-in.rules.js';
import { DomainError } from '../../src/domain/errors.js';

const PASSWORD = 'correct horse battery staple';

describe.each(testDatabaseKinds())('console users on %s', (kind) => {
  let server: TestServer;
  let now = new Date('2026-03-02T10:00:00.000Z');
  const clock = { now: () => now };
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(() => server?.stop());

  const services = () => server.service.services;
  let emails = 0;
  const uniqueEmail = () => `person${++emails}.${Math.random().toString(36).slice(2, 8)}@Example.com`;

  async function invite(accountId: string, email: string) {
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
      query: `mutation ($accountId: String!, $email: String!) {
        inviteUser(accountId: $accountId, email: $email) { path expiresAt user { id accountId email } }
      }`,
      variables: { accountId, email },
    });
    return res.json;
  }
  const tokenOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

  async function signedUpUser() {
    const { accountId } = await server.createAccount();
    const email = uniqueEmail();
    const { data } = await invite(accountId, email);
    await acceptInvitation(services(), { token: tokenOf(data.inviteUser.path), password: PASSWORD });
    return { accountId, email, userId: data.inviteUser.user.id as string };
  }

  it('an operator invites by email; the link sets a password once, and then signs in', async () => {
    const { accountId } = await server.createAccount();
    const email = uniqueEmail();
    const { data, errors } = await invite(accountId, email);
    expect(errors).toBeUndefined();
    expect(data.inviteUser.path).toMatch(/^\/console\/invitation\/[A-Za-z0-9_-]{43}$/);
    expect(data.inviteUser.user).toMatchObject({ accountId, email: email.toLowerCase() });
    expect(new Date(data.inviteUser.expiresAt).getTime() - now.getTime()).toBe(7 * 24 * 3600_000);
    const token = tokenOf(data.inviteUser.path);
    expect(await openInvitation(services(), token)).toMatchObject({ email: email.toLowerCase() });
    // Only the token's hash is stored.
    const stored = await services().db.prisma.userInvitation.findMany({ where: { userId: data.inviteUser.user.id } });
    expect(JSON.stringify(stored)).not.toContain(token);

    await expect(acceptInvitation(services(), { token, password: 'short' })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('password'),
    });
    await acceptInvitation(services(), { token, password: PASSWORD });
    await expect(acceptInvitation(services(), { token, password: PASSWORD })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await openInvitation(services(), token)).toBeNull();

    const user = await services().db.prisma.user.findUniqueOrThrow({ where: { id: data.inviteUser.user.id } });
    expect(user.passwordHash).toMatch(/^scrypt\$15\$8\$3\$/);
    expect(user.passwordHash).not.toContain(PASSWORD);

    // The email signs in whatever its case.
    const signedIn = await signIn(services(), { email: email.toUpperCase(), password: PASSWORD });
    expect(signedIn).toMatchObject({ ok: true, userId: user.id });
  });

  it('a new invitation voids the earlier link, and an expired link does nothing', async () => {
    const { accountId } = await server.createAccount();
    const email = uniqueEmail();
    const first = tokenOf((await invite(accountId, email)).data.inviteUser.path);
    const second = tokenOf((await invite(accountId, email)).data.inviteUser.path);
    expect(await openInvitation(services(), first)).toBeNull();
    expect(await openInvitation(services(), second)).not.toBeNull();
    advance(7 * 24 * 3600_000);
    expect(await openInvitation(services(), second)).toBeNull();
    await expect(acceptInvitation(services(), { token: second, password: PASSWORD })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('an email signs in to one Account: inviting it to a second is a conflict', async () => {
    const { email } = await signedUpUser();
    const other = await server.createAccount();
    const { errors } = await invite(other.accountId, email);
    expect(errors[0].extensions.code).toBe('conflict');
  });

  it('refuses an invitation without the operator token, and bad input by field', async () => {
    const { accountId, apiKey } = await server.createAccount();
    const asKey = await server.request(apiKey, 'POST', '/graphql', {
      query: `mutation { inviteUser(accountId: "${accountId}", email: "a@example.com") { path } }`,
    });
    expect(asKey.json.errors[0].extensions.code).toBe('unauthenticated');
    const bad = await invite(accountId, 'not an email');
    expect(bad.errors[0].extensions.code).toBe('bad_request');
    expect(bad.errors[0].message).toContain('email');
  });

  it('a wrong password and an unknown email answer alike; failures are slowed, then locked', async () => {
    const { email } = await signedUpUser();
    expect(await signIn(services(), { email: 'nobody@example.com', password: PASSWORD })).toEqual({
      ok: false,
      reason: 'wrong_credentials',
      waitMs: 0,
    });
    const waits: number[] = [];
    for (let i = 1; i < LOCK_AFTER_FAILURES; i++) {
      const result = await signIn(services(), { email, password: 'wrong password!!' });
      expect(result).toMatchObject({ ok: false, reason: 'wrong_credentials' });
      waits.push((result as { waitMs: number }).waitMs);
    }
    expect(waits).toEqual([0, 0, 0, 250, 500, 1000, 2000, 4000, 4000]);
    const locked = await signIn(services(), { email, password: 'wrong password!!' });
    expect(locked).toEqual({ ok: false, reason: 'locked', lockedUntil: new Date(now.getTime() + LOCK_MS) });
    // Locked: even the right password is refused until the lock ends.
    expect(await signIn(services(), { email, password: PASSWORD })).toMatchObject({ ok: false, reason: 'locked' });
    advance(LOCK_MS);
    expect(await signIn(services(), { email, password: PASSWORD })).toMatchObject({ ok: true });
  });

  it('a session is the user in their Account until sign-out, idle time or a new password ends it', async () => {
    const { accountId, email, userId } = await signedUpUser();
    const first = await signIn(services(), { email, password: PASSWORD });
    if (!first.ok) throw new Error('sign-in failed');
    const actor = await authenticateSession(services(), first.token);
    expect(actor).toMatchObject({ accountId, userId, apiKeyId: null, email: email.toLowerCase() });
    // Only the token's hash is stored.
    const rows = await services().db.prisma.consoleSession.findMany({ where: { userId } });
    expect(JSON.stringify(rows)).not.toContain(first.token);

    await signOut(services(), first.token);
    await expect(authenticateSession(services(), first.token)).rejects.toBeInstanceOf(DomainError);

    const second = await signIn(services(), { email, password: PASSWORD });
    if (!second.ok) throw new Error('sign-in failed');
    advance(SESSION_IDLE_MS - 1000);
    await authenticateSession(services(), second.token);
    advance(SESSION_IDLE_MS - 1000);
    await authenticateSession(services(), second.token);
    advance(SESSION_IDLE_MS);
    await expect(authenticateSession(services(), second.token)).rejects.toMatchObject({ code: 'unauthenticated' });

    const third = await signIn(services(), { email, password: PASSWORD });
    if (!third.ok) throw new Error('sign-in failed');
    const { data } = await invite(accountId, email);
    await acceptInvitation(services(), { token: tokenOf(data.inviteUser.path), password: `${PASSWORD} again` });
    await expect(authenticateSession(services(), third.token)).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(await signIn(services(), { email, password: PASSWORD })).toMatchObject({ ok: false });
    expect(await signIn(services(), { email, password: `${PASSWORD} again` })).toMatchObject({ ok: true });
  });
});
