// Sign-in cannot starve the service: every password hash runs on one bounded lane (a full lane
// refuses with 503 and Retry-After, a known email as an unknown one), and password checks are
// limited per client address (429 with Retry-After; shared by every process on PostgreSQL).
// Over HTTP as a browser posts the forms, on each database. How much a flood moves the API's
// latency is measured in the benchmark (bench/sign-in.ts), not asserted here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { CONSOLE_PASSWORD, invitedPerson, personWithPassword } from '../support/console-people.js';
import { testDatabaseKinds } from '../support/databases.js';
import { fillHashingLane } from '../support/hashing-lane.js';

describe.each(testDatabaseKinds())('sign-in limits on %s', (kind) => {
  /** A server whose per-address sign-in limit is `perAddress` (0: off), with X-Forwarded-For trusted from loopback. */
  function useServer(perAddress: number) {
    const server = {} as TestServer;
    beforeAll(async () => {
      Object.assign(
        server,
        await startTestServer(kind, { edge: { RATE_LIMIT_SIGN_IN_PER_ADDRESS: perAddress, TRUST_PROXY: 'loopback' } }),
      );
    });
    afterAll(() => server.stop?.());
    return server;
  }

  const post = async (server: TestServer, path: string, form: Record<string, string>, from?: string) => {
    const res = await fetch(server.baseUrl + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: server.baseUrl,
        'content-type': 'application/x-www-form-urlencoded',
        ...(from ? { 'x-forwarded-for': from } : {}),
      },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.status, headers: res.headers, html: await res.text() };
  };
  const nobody = (n: number) => ({ email: `nobody-${n}-${Math.random()}@example.com`, password: 'a wrong guess' });

  // Hashes run at the lowest CPU priority: beside another busy test file a sign-in takes seconds.
  describe('the hashing lane', () => {
    const server = useServer(0);

    it('refuses while it is full, a known email as an unknown one (503, Retry-After), then checks again', async () => {
      const person = await personWithPassword(server);
      const invited = await invitedPerson(server);
      // The lane filled from this process (the test server runs in it): one more hash would wait too long.
      const filling = fillHashingLane();
      try {
        const known = await post(server, '/console/sign-in', { email: person.email, password: CONSOLE_PASSWORD });
        const unknown = await post(server, '/console/sign-in', nobody(0));
        for (const answer of [known, unknown]) {
          expect(answer.status).toBe(503);
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
          expect(answer.html).toMatch(/Too many sign-ins are being checked right now: try again in \d+ s/);
        }
        // The two pages differ only in the email typed back into the form.
        expect(known.html.replace(person.email, '')).toBe(unknown.html.replace(/nobody-0-[\d.]+@example.com/, ''));
        // An invitation link setting a password hashes too: refused alike, its form kept.
        const accept = await post(server, invited.path, { password: CONSOLE_PASSWORD });
        expect(accept.status).toBe(503);
        expect(accept.html).toContain(invited.email);
      } finally {
        await filling;
      }
      const after = await post(server, '/console/sign-in', { email: person.email, password: CONSOLE_PASSWORD });
      expect(after.status).toBe(303);
    }, 120_000);

    it('answers a flood of parallel sign-ins: some refused with Retry-After, the rest checked, none failed', async () => {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, n) => post(server, '/console/sign-in', nobody(n))),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s !== 401 && s !== 503)).toEqual([]);
      const refused = answers.filter((a) => a.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
      for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      for (const answer of answers.filter((a) => a.status === 401))
        expect(answer.html).toContain('That email and password do not match.');
      // The lane's hashes run one at a time, at the lowest priority: on a busy machine, a while.
    }, 180_000);
  });

  describe('the per-address limit', () => {
    const LIMIT = 3;
    const server = useServer(LIMIT);

    it('refuses the password checks of an address over its limit (429, Retry-After), not its other requests nor other addresses', async () => {
      const from = '203.0.113.7';
      for (let n = 0; n < LIMIT; n++) {
        const answer = await post(server, '/console/sign-in', nobody(n), from);
        expect(answer.status).toBe(401);
        expect(answer.headers.get('ratelimit-policy')).toContain(`"sign-in";q=${LIMIT};w=60`);
      }
      const over = await post(server, '/console/sign-in', nobody(LIMIT), from);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.headers.get('ratelimit')).toMatch(/"sign-in";r=0;t=\d+/);
      expect(over.headers.get('content-type')).toMatch(/^text\/html/);
      expect(over.html).toContain(`Too many sign-ins from this client address: at most ${LIMIT} every 60 s`);
      // An invitation link setting a password counts as a password check.
      const invited = await invitedPerson(server);
      const accept = await post(server, invited.path, { password: CONSOLE_PASSWORD }, from);
      expect(accept.status).toBe(429);
      expect(accept.html).toContain(invited.email);
      // The address's other requests, and the sign-ins of another address, are not limited by it.
      const page = await fetch(`${server.baseUrl}/console/sign-in`, { headers: { 'x-forwarded-for': from } });
      expect(page.status).toBe(200);
      expect((await post(server, '/console/sign-in', nobody(99), '203.0.113.8')).status).toBe(401);
    }, 120_000);
  });
});
