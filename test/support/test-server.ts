// A real listening service on a fresh database, plus factories that make unique data.
import { randomUUID } from 'node:crypto';
import { startService, type RunningService, type StartOptions } from '../../src/service.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { generateSecret, hashSecret } from '../../src/domain/api-keys/api-keys.service.js';
import type { Clock } from '../../src/domain/shared/clock.js';
import type { MondayConfig } from '../../integration/monday/config.js';
import type { HttpEdgeEnv } from '../../src/config/http-edge-env.js';
import type { HostLookup } from '../../src/domain/context.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
/** The key of voice provider credentials at rest in every test server (32 bytes, base64). */
export const TEST_CREDENTIALS_KEY = Buffer.alloc(32, 7).toString('base64');

export interface TestAccount {
  accountId: string;
  userId: string;
  apiKey: string;
  apiKeyId: string;
}

export interface TestServer {
  kind: DatabaseKind;
  baseUrl: string;
  service: RunningService;
  /** Creates an Account with a user and an API key (directly in the database). */
  createAccount(options?: { defaultLocation?: string | null; dedupFields?: string[] }): Promise<TestAccount>;
  createWorkflow(
    accountId: string,
    options?: { status?: 'published' | 'draft' | 'archived'; paused?: boolean; name?: string },
  ): Promise<string>;
  /** fetch against the server with the key as bearer; JSON body when given. */
  request(
    apiKey: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; text: string; json: any }>;
  /** Polls until `check` returns a truthy value (bulk writes land within seconds). */
  eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs?: number): Promise<T>;
  /** The service's clock (the suite's own when it passed one): fixtures stamp rows with it. */
  now(): Date;
  /** The database standing in for the read replica (DATABASE_READ_URL), with options.readDatabase. */
  readDatabase?: TestDatabase;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  clock?: Clock;
  /** PUBLIC_BASE_URL (default: none, so the service's own address is its public one). */
  publicBaseUrl?: string;
  dialer?: boolean;
  telephonyWebhookSecrets?: string;
  monday?: MondayConfig;
  triggerDelivery?: boolean;
  /** Provider API base URLs (the emulators) and adapters; default: the service's own adapters. */
  voice?: { VAPI_API_URL?: string; RETELL_API_URL?: string; adapters?: StartOptions['voiceAdapters'] };
  /** Rate limits, GraphQL limits, CORS origins (default: the service's defaults). */
  edge?: Partial<HttpEdgeEnv>;
  /**
   * Outgoing webhooks: delivered by the service's worker only when `deliver` is set (suites
   * that test delivery); plain http to loopback receivers when `allowHttpLoopback`; host names
   * resolved by `lookup` (default: the system's resolver); `noSecretsKey`: as a service without
   * WEBHOOK_SECRETS_KEY on PostgreSQL.
   */
  webhooks?: { deliver?: boolean; allowHttpLoopback?: boolean; lookup?: HostLookup; noSecretsKey?: boolean };
  /**
   * PostgreSQL only: a second new database as DATABASE_READ_URL (server.readDatabase), standing
   * in for a read replica; a suite writes to it what the "replica" holds. `through`: the URL
   * the service reads it at instead (a proxy the suite can cut), given its own.
   */
  readDatabase?: boolean | { through?: (url: string) => Promise<string> };
  /**
   * PostgreSQL only: DATABASE_URL through a pooler the suite starts in front of the new database
   * (given its name and direct URL, it answers the pooler's URL); DATABASE_DIRECT_URL is the direct one.
   */
  pooler?: (name: string, directUrl: string) => Promise<string>;
}

/** The key of webhook secrets at rest in every test server (32 bytes, base64). */
export const TEST_WEBHOOK_SECRETS_KEY = Buffer.alloc(32, 9).toString('base64');

/** Options that switch on every surface the service can serve (telephony events, the board app), for suites that walk all of them. */
export function everySurface(): TestServerOptions {
  return {
    telephonyWebhookSecrets: 'telephony-secret-0123456789',
    monday: {
      signingSecret: 'monday-signing-secret-0123',
      appId: 10155,
      apiUrl: 'http://127.0.0.1:1/v2',
      apiVersion: '2026-10',
      publicBaseUrl: null,
    },
  };
}

export async function startTestServer(kind: DatabaseKind, options: TestServerOptions = {}): Promise<TestServer> {
  if ((options.readDatabase || options.pooler) && kind !== 'postgres')
    throw new Error('readDatabase and pooler need PostgreSQL');
  const readDatabase = options.readDatabase ? await createTestDatabase(kind) : undefined;
  const readThrough = typeof options.readDatabase === 'object' ? options.readDatabase.through : undefined;
  const readUrl = readDatabase?.url && readThrough ? await readThrough(readDatabase.url) : readDatabase?.url;
  const database = await createTestDatabase(kind, { readUrl, through: options.pooler });
  const service = await startService({
    env: {
      PORT: 0,
      HOST: '127.0.0.1',
      REGION: 'us',
      DATA_DIR: '',
      ADMIN_TOKEN,
      DATABASE_URL: database.url,
      TELEPHONY_WEBHOOK_SECRETS: options.telephonyWebhookSecrets,
      PROVIDER_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
      WEBHOOK_SECRETS_KEY: TEST_WEBHOOK_SECRETS_KEY,
      WEBHOOKS_ALLOW_HTTP_LOOPBACK: options.webhooks?.allowHttpLoopback ?? false,
      VAPI_API_URL: options.voice?.VAPI_API_URL,
      RETELL_API_URL: options.voice?.RETELL_API_URL,
      PUBLIC_BASE_URL: options.publicBaseUrl,
      ...options.edge,
    },
    voiceAdapters: options.voice?.adapters,
    db: database.db,
    clock: options.clock,
    // Suites drive the dialer themselves (runDialerOnce) unless they ask for the background one.
    dialer: options.dialer ?? false,
    // The board app only where a suite configures it (never from the machine's environment).
    monday: options.monday ?? null,
    triggerDelivery: options.triggerDelivery,
    webhookDelivery: options.webhooks?.deliver ?? false,
    webhookSettings: {
      ...(options.webhooks?.lookup ? { lookup: options.webhooks.lookup } : {}),
      ...(options.webhooks?.noSecretsKey ? { secretsKey: null } : {}),
    },
  });
  const prisma = service.services.db.prisma;
  const server: TestServer = {
    kind,
    baseUrl: service.baseUrl,
    service,
    async createAccount(opts = {}) {
      const account = await prisma.account.create({
        data: {
          createdAt: service.services.clock.now(),
          name: `Account ${randomUUID().slice(0, 8)}`,
          defaultLocation: opts.defaultLocation ?? null,
          ...(opts.dedupFields ? { dedupFields: opts.dedupFields } : {}),
        },
      });
      const user = await prisma.user.create({
        data: { createdAt: service.services.clock.now(), accountId: account.id, email: `${randomUUID()}@example.com` },
      });
      const apiKey = generateSecret();
      const key = await prisma.apiKey.create({
        data: {
          createdAt: service.services.clock.now(),
          accountId: account.id,
          userId: user.id,
          name: 'test',
          secretHash: hashSecret(apiKey),
          lastFour: apiKey.slice(-4),
        },
      });
      return { accountId: account.id, userId: user.id, apiKey, apiKeyId: key.id };
    },
    async createWorkflow(accountId, opts = {}) {
      const wf = await prisma.workflow.create({
        data: {
          createdAt: service.services.clock.now(),
          updatedAt: service.services.clock.now(),
          accountId,
          name: opts.name ?? 'Workflow',
          status: opts.status ?? 'published',
          paused: opts.paused ?? false,
        },
      });
      return wf.id;
    },
    async request(apiKey, method, path, body, headers = {}) {
      const response = await fetch(service.baseUrl + path, {
        method,
        headers: {
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    async eventually(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await check();
        if (value) return value as never;
        if (Date.now() > deadline) throw new Error('condition not met in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    now: () => service.services.clock.now(),
    readDatabase,
    async stop() {
      await service.stop().catch(() => {});
      await database.drop().catch(() => {});
      await readDatabase?.drop().catch(() => {});
    },
  };
  return server;
}
