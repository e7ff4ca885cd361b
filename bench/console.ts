// Console page figures (called from bench/run.ts after the contact figures, on the same seeded
// account): each page, signed in, rendered on the server end to end (session check, the
// page's GraphQL operations in-process, HTML), against the REST request for the same data,
// alternating, in the same run. Target: every page under 300 ms (p95) on the seeded account.
//
//   console-contacts     GET /console/contacts                        vs GET /api/v1/contacts?limit=50
//   console-search       GET /console/contacts?searchTerm=john        vs GET /api/v1/contacts?searchTerm=john&limit=50
//   console-contact      GET /console/contacts/{id}                   vs GET /api/v1/contacts/{id}
//   console-workflows    GET /console/workflows                       vs GET /api/v1/workflows
//   console-settings     GET /console/settings                        vs GET /api/v1/workflows (a small read)
//   console-api-keys     GET /console/api-keys                        vs GET /api/v1/workflows (a small read)
//   BENCH_ONLY=console   seed, then only these figures
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../test/support/test-server.js';
import { hashPassword } from '../src/domain/users/password-hash.js';
import { signIn } from '../src/domain/users/sessions.service.js';
import { SESSION_COOKIE } from '../src/console/console-session.js';
import { figure, timed, type Figure } from './run.js';

export interface ConsoleSettings {
  /** Timed requests per figure, each side. */
  requests: number;
  warmup: number;
}

/** The console's target: a page answers within this (p95). */
const PAGE_TARGET_MS = 300;

export async function benchConsole(
  server: TestServer,
  account: { accountId: string; apiKey: string },
  settings: ConsoleSettings,
  log: (message: string) => void,
): Promise<Figure[]> {
  const services = server.service.services;
  const prisma = services.db.prisma;
  const password = randomBytes(12).toString('base64url');
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const now = services.clock.now();
  await prisma.user.create({
    data: { accountId: account.accountId, email, createdAt: now, passwordHash: await hashPassword(password) },
  });
  const session = await signIn(services, { email, password });
  if (!session.ok) throw new Error('the bench could not sign in to the console');
  const cookie = `${SESSION_COOKIE}=${session.token}`;
  const newest = await prisma.contact.findFirst({
    where: { accountId: account.accountId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  if (!newest) throw new Error('the console figures need the seeded contacts');

  const get = async (path: string, headers: Record<string, string>) => {
    const response = await fetch(server.baseUrl + path, { headers, redirect: 'manual' });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: HTTP ${response.status}: ${text.slice(0, 300)}`);
    return text;
  };
  const page = (path: string) => get(path, { cookie });
  const rest = (path: string) => get(path, { authorization: `Bearer ${account.apiKey}` });

  const cases = [
    {
      id: 'console-contacts',
      name: 'Console: Contacts page (GET /console/contacts, 50 rows)',
      page: '/console/contacts',
      rest: '/api/v1/contacts?limit=50',
    },
    {
      id: 'console-search',
      name: 'Console: Contacts page searching "john"',
      page: '/console/contacts?searchTerm=john',
      rest: '/api/v1/contacts?searchTerm=john&limit=50',
    },
    {
      id: 'console-contact',
      name: "Console: a contact's page",
      page: `/console/contacts/${newest.id}`,
      rest: `/api/v1/contacts/${newest.id}`,
    },
    {
      id: 'console-workflows',
      name: 'Console: Agents and workflows page',
      page: '/console/workflows',
      rest: '/api/v1/workflows',
    },
    { id: 'console-settings', name: 'Console: Settings page', page: '/console/settings', rest: '/api/v1/workflows' },
    { id: 'console-api-keys', name: 'Console: API keys page', page: '/console/api-keys', rest: '/api/v1/workflows' },
    {
      id: 'console-agent-new',
      name: 'Console: New agent form',
      page: '/console/agents/new',
      rest: '/api/v1/workflows',
    },
    { id: 'console-imports', name: 'Console: Imports page', page: '/console/imports', rest: '/api/v1/workflows' },
    {
      id: 'console-board',
      name: 'Console: Board app page (no monday link)',
      page: '/console/board',
      rest: '/api/v1/workflows',
    },
  ];

  const figures: Figure[] = [];
  for (const c of cases) {
    log(`   console: ${c.id}…`);
    for (let i = 0; i < settings.warmup; i++) {
      await page(c.page);
      await rest(c.rest);
    }
    const viaPage: number[] = [];
    const viaRest: number[] = [];
    for (let i = 0; i < settings.requests; i++) {
      // Alternate which goes first, so neither always runs on a warmer cache.
      const runPage = async () => viaPage.push((await timed(() => page(c.page)))[0]);
      const runRest = async () => viaRest.push((await timed(() => rest(c.rest)))[0]);
      if (i % 2 === 0) {
        await runPage();
        await runRest();
      } else {
        await runRest();
        await runPage();
      }
    }
    figures.push(
      figure(viaPage, viaRest, {
        id: c.id,
        name: c.name,
        target: `p95 < ${PAGE_TARGET_MS} ms`,
        pass: (s) => s.p95 < PAGE_TARGET_MS,
        notes: `"service" is the console page (signed in, rendered on the server), "raw" the REST request for the same data (${c.rest}); ${settings.requests} of each, alternating`,
      }),
    );
  }
  return figures;
}
