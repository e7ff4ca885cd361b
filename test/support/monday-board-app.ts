// The board-app suites' fixtures (a test server whose board app trusts the monday emulator, and a
// Contactline account linked to a monday account with an agent, a workflow and a "Leads" board),
// so that each suite does not seed the same rows and columns again.
import { randomBytes } from 'node:crypto';
import { encryptToken } from '../../integration/monday/token-crypto.js';
import type { MondayConfig } from '../../integration/monday/config.js';
import { DEFAULT_WORKING_HOURS, type WorkingHours } from '../../src/domain/calls/calling-hours.rules.js';
import {
  startMondayEmulator,
  type AddColumnInput,
  type MondayEmulator,
  type RetryPolicy,
} from './monday-emulator/index.js';
import { startTestServer, type TestAccount, type TestServer, type TestServerOptions } from './test-server.js';
import type { DatabaseKind } from './databases.js';
import type { Clock } from '../../src/domain/shared/clock.js';

/** The "Leads" board's columns: names, phone, both kinds of timezone column, company, a stage and the call outcome. */
export const LEADS_COLUMNS: readonly AddColumnInput[] = [
  { id: 'first', type: 'text', title: 'First name' },
  { id: 'last', type: 'text', title: 'Last name' },
  { id: 'phone', type: 'phone', title: 'Phone' },
  { id: 'tz', type: 'world_clock', title: 'Timezone' },
  { id: 'tz_text', type: 'text', title: 'Timezone (text)' },
  { id: 'company', type: 'text', title: 'Company' },
  { id: 'stage', type: 'status', title: 'Stage', labels: ['New', 'Enroll'] },
  {
    id: 'outcome',
    type: 'status',
    title: 'Call outcome',
    labels: ['Booked', 'Unqualified', 'Not interested', 'Answered', 'Busy'],
  },
];

/**
 * The monday emulator and a test server with the board app configured against it. monday signs
 * `aud` = the URL it calls, so the app checks it against the server's own URL once it listens.
 * `clock`: the server's and the emulator's (default: the real time), for suites that dial.
 */
export async function startBoardApp(
  kind: DatabaseKind,
  options: { signingSecret: string; appId: number; tokenKey: Buffer; retry?: Partial<RetryPolicy>; clock?: Clock },
): Promise<{ monday: MondayEmulator; server: TestServer }> {
  const clock = options.clock;
  const monday = await startMondayEmulator({
    signingSecret: options.signingSecret,
    appId: options.appId,
    retry: options.retry,
    ...(clock ? { now: () => clock.now().getTime() } : {}),
  });
  const config: MondayConfig = {
    signingSecret: options.signingSecret,
    appId: options.appId,
    apiUrl: monday.url,
    apiVersion: '2026-10',
    publicBaseUrl: null,
    tokenKey: options.tokenKey,
  };
  const server = await startTestServer(kind, { monday: config, clock });
  config.publicBaseUrl = server.baseUrl;
  return { monday, server };
}

/**
 * The monday emulator with its OAuth server, and a test server whose board app links through it
 * (the console's Link button): monday's consent page approves at once as `approveAs` says.
 */
export async function startBoardAppWithOAuth(
  kind: DatabaseKind,
  options: {
    clientId: string;
    clientSecret: string;
    signingSecret: string;
    server?: Omit<TestServerOptions, 'monday'>;
  },
): Promise<{ monday: MondayEmulator; server: TestServer }> {
  const monday = await startMondayEmulator({
    clientSecret: options.clientSecret,
    oauth: { clientId: options.clientId, clientSecret: options.clientSecret },
  });
  const config: MondayConfig = {
    signingSecret: options.signingSecret,
    appId: 10155,
    apiUrl: monday.url,
    apiVersion: '2026-10',
    publicBaseUrl: null,
    oauthClientId: options.clientId,
    oauthClientSecret: options.clientSecret,
    oauthUrl: monday.origin,
    tokenKey: randomBytes(32),
  };
  const server = await startTestServer(kind, { ...options.server, monday: config });
  // The Redirect URL monday is told is built from the public base URL, known once listening.
  config.publicBaseUrl = server.baseUrl;
  return { monday, server };
}

export interface LinkedBoardAccount extends TestAccount {
  mondayAccountId: number;
  mondayUserId: number;
  agentId: string;
  workflowId: string;
  boardId: string;
}

export interface SeedLinkedBoardAccountOptions {
  tokenKey: Buffer;
  mondayAccountId: number;
  /** Default 42. */
  mondayUserId?: number;
  workflowName: string;
  /** Default Ava. */
  agentName?: string;
  /** Defaults: 1 attempt, DEFAULT_WORKING_HOURS, calls new contacts at once. */
  agent?: { attemptLimit?: number; workingHours?: WorkingHours; callNewContactsImmediately?: boolean };
}

/**
 * A new Contactline Account linked to monday account `mondayAccountId` (its token encrypted with
 * `tokenKey`), with a live agent (Ava unless named), a published workflow on it, and a "Leads"
 * board (LEADS_COLUMNS) in that monday account.
 */
export async function seedLinkedBoardAccount(
  server: TestServer,
  monday: MondayEmulator,
  options: SeedLinkedBoardAccountOptions,
): Promise<LinkedBoardAccount> {
  const prisma = server.service.services.db.prisma;
  const { mondayAccountId, mondayUserId = 42 } = options;
  const account = await server.createAccount();
  await prisma.mondayLink.create({
    data: {
      createdAt: server.now(),
      updatedAt: server.now(),
      accountId: account.accountId,
      userId: account.userId,
      mondayAccountId: String(mondayAccountId),
      mondayUserId: String(mondayUserId),
      accessTokenEncrypted: encryptToken(monday.issueToken(mondayAccountId, mondayUserId, null), options.tokenKey),
    },
  });
  const agent = await prisma.agent.create({
    data: {
      createdAt: server.now(),
      updatedAt: server.now(),
      accountId: account.accountId,
      name: options.agentName ?? 'Ava',
      status: 'live',
      timezone: 'America/Chicago',
      defaultLanguage: 'en-US',
      attemptLimit: options.agent?.attemptLimit ?? 1,
      workingHours: (options.agent?.workingHours ?? DEFAULT_WORKING_HOURS) as object,
      retryDelayMinutes: 60,
      callNewContactsImmediately: options.agent?.callNewContactsImmediately ?? true,
    },
  });
  const workflow = await prisma.workflow.create({
    data: {
      createdAt: server.now(),
      updatedAt: server.now(),
      accountId: account.accountId,
      agentId: agent.id,
      name: options.workflowName,
      status: 'published',
    },
  });
  const board = monday.addBoard({ accountId: mondayAccountId, name: 'Leads', columns: [...LEADS_COLUMNS] });
  return {
    ...account,
    mondayAccountId,
    mondayUserId,
    agentId: agent.id,
    workflowId: workflow.id,
    boardId: String(board.id),
  };
}
