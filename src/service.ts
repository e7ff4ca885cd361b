// Starts the service in one process: database, migrations (embedded default), the job queue,
// and by its role the public HTTP server, the background work, or both (docs/decisions/0043).
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { Env } from './config/env.js';
import { openDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { startJobQueue } from './jobs/queue.js';
import { systemClock, type Clock } from './domain/shared/clock.js';
import type { VoiceProviders, WebhookSettings } from './domain/context.js';
import { webhookSettingsFrom } from './config/webhook-settings.js';
import { startWebhookDelivery } from './jobs/webhook-delivery.js';
import { voiceProvidersFromEnv } from './calls/telephony/voice-providers.js';
import type { Services } from './domain/context.js';
import { startBatchWorker } from './jobs/import-batches.js';
import { createApp } from './app.js';
import { MCP_PATH } from './mcp/mcp.route.js';
import { seedDemoAccount, type DemoAccount } from './demo.js';
import { startDialer } from './jobs/dialer.js';
import { createSimulatedTelephony } from './calls/telephony/simulator.adapter.js';
import type { Telephony } from './calls/telephony/telephony.port.js';
import { applyTelephonyEvent } from './domain/calls/call-events.service.js';
import { loadMondayConfig, type MondayConfig } from '../integration/monday/config.js';
import { mondayBoardDirectory } from '../integration/monday/board-directory.js';
import { mondayConsoleAuthorization } from '../integration/monday/console-link.js';
import { callEndedTrigger } from '../integration/monday/call-ended-trigger.js';
import { startTriggerDelivery } from './jobs/trigger-delivery.js';
import type { PeriodicWorker } from './jobs/periodic.js';
import { startStatisticsKeeper } from './jobs/table-statistics.js';
import type { HttpEdgeEnv } from './config/http-edge-env.js';
import { answerClientError } from './http/edge/client-errors.js';
import { listenForChanges, type ChangeNotices } from './db/change-notices.js';
import { activeKeyCache, AUTH_CHANNEL } from './domain/api-keys/active-keys.cache.js';
import { logger } from './logger.js';
import type { ServiceRole } from './config/service-role.js';

export { SERVICE_ROLES, type ServiceRole } from './config/service-role.js';

export interface RunningService {
  services: Services;
  telephony: Telephony;
  server: Server;
  baseUrl: string;
  demo: DemoAccount | null;
  /** What this process runs. */
  role: ServiceRole;
  /** The board app's call-ended trigger delivery (null without the board app). */
  triggerDelivery: PeriodicWorker | null;
  /** Outgoing webhook delivery (null when this process does not deliver them). */
  webhookDelivery: PeriodicWorker | null;
  /**
   * Stops the server, the jobs and the queue, then closes the database. Requests in flight are
   * cut at once, unless `drainMs`: then they are given that long to finish (idle connections
   * close at once, new ones are refused).
   */
  stop(options?: { drainMs?: number }): Promise<void>;
}

export interface StartOptions {
  env: Pick<
    Env,
    'DATABASE_URL' | 'DATA_DIR' | 'PORT' | 'HOST' | 'REGION' | 'ADMIN_TOKEN' | 'TELEPHONY_WEBHOOK_SECRETS'
  > &
    Partial<
      Pick<
        Env,
        | 'SIMULATED_OUTCOMES'
        | 'SIMULATED_CALL_SPEED'
        | 'PROVIDER_CREDENTIALS_KEY'
        | 'VAPI_API_URL'
        | 'RETELL_API_URL'
        | 'PUBLIC_BASE_URL'
        | 'WEBHOOK_SECRETS_KEY'
        | 'WEBHOOKS_ALLOW_HTTP_LOOPBACK'
        | 'PGLITE_SHARED_BUFFERS'
        | 'DATABASE_READ_URL'
        | 'DATABASE_DIRECT_URL'
      >
    > &
    Partial<HttpEdgeEnv>;
  /** An already-open database (tests); otherwise opened from env. */
  db?: Database;
  inMemory?: boolean;
  clock?: Clock;
  /**
   * What this process runs (default `all`). `api` runs no background work whatever the
   * options below say; `worker` serves the probes only. The options below turn single jobs off.
   */
  role?: ServiceRole;
  /** Create the demo account on a brand-new embedded database (the CLI's serve does). */
  seedDemo?: boolean;
  /** Run the dialer in this process (default true; tests that drive it themselves pass false). */
  dialer?: boolean;
  /** The telephony adapter; the simulator (events applied in-process) by default. */
  telephony?: Telephony;
  /**
   * The board app's configuration; by default read from the environment (MONDAY_SIGNING_SECRET …),
   * with env.PUBLIC_BASE_URL.
   */
  monday?: MondayConfig | null;
  /** With the board app on, deliver its call-ended triggers from this process (default true). */
  triggerDelivery?: boolean;
  /** The Vapi and Retell adapters (default: both, on their official SDKs). */
  voiceAdapters?: VoiceProviders['adapters'];
  /** Deliver outgoing webhooks from this process (default true). */
  webhookDelivery?: boolean;
  /**
   * Webhook settings over those of `env` (tests: host names of their own in `lookup`, or no
   * secrets key).
   */
  webhookSettings?: Partial<WebhookSettings>;
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const { env } = options;
  const role = options.role ?? 'all';
  const background = role !== 'api';
  const db =
    options.db ??
    (await openDatabase({
      databaseUrl: env.DATABASE_URL,
      readUrl: env.DATABASE_READ_URL,
      directUrl: env.DATABASE_DIRECT_URL,
      dataDir: env.DATA_DIR,
      inMemory: options.inMemory,
      pgliteSharedBuffers: env.PGLITE_SHARED_BUFFERS,
    }));
  const clock = options.clock ?? systemClock;
  try {
    if (db.kind === 'pglite') {
      // The embedded default migrates itself; PostgreSQL is migrated by `contactline migrate`.
      await migrate(db.sql);
    } else {
      await assertMigrated(db);
    }
  } catch (error) {
    await db.close();
    throw error;
  }
  // What has started so far, stopped in this order by stop() and by a start that fails part way
  // (a port in use must not leave the queue and the workers running, holding the process open).
  let server: Server | undefined;
  let queue: Awaited<ReturnType<typeof startJobQueue>> | undefined;
  let statistics: ReturnType<typeof startStatisticsKeeper> | undefined;
  let batches: PeriodicWorker | undefined;
  let dialer: PeriodicWorker | null = null;
  let triggers: PeriodicWorker | null = null;
  let webhookDelivery: PeriodicWorker | null = null;
  let authNotices: ChangeNotices | null = null;
  const stopAll = async ({ drainMs = 0 }: { drainMs?: number } = {}) => {
    const listener = server;
    if (listener?.listening) {
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      let cut: NodeJS.Timeout | undefined;
      if (drainMs > 0) {
        listener.closeIdleConnections();
        cut = setTimeout(() => listener.closeAllConnections(), drainMs);
      } else listener.closeAllConnections();
      await closed;
      clearTimeout(cut);
    }
    await dialer?.stop();
    await triggers?.stop();
    await webhookDelivery?.stop();
    await statistics?.stop();
    await batches?.stop();
    await queue?.stop();
    await authNotices?.close();
    await db.close();
  };
  try {
    // An api process only sends jobs: pg-boss's maintenance (expiring, archiving) is the workers'.
    queue = await startJobQueue(db, { supervise: background });
    // The board app gets the service's public base URL from here (validated in src/config/env.ts).
    const monday =
      options.monday !== undefined ? options.monday : await loadMondayConfig({ publicBaseUrl: env.PUBLIC_BASE_URL });
    // The public base URL is known once the server listens, unless configured.
    const voice = voiceProvidersFromEnv(env, options.voiceAdapters);
    statistics = background ? startStatisticsKeeper(db) : undefined;
    const boards = monday ? mondayBoardDirectory(monday) : undefined;
    const mondayAuthorization = monday ? mondayConsoleAuthorization(monday, clock) : undefined;
    const webhooks = {
      ...webhookSettingsFrom(env, { kind: db.kind, inMemory: options.inMemory ?? false }),
      ...options.webhookSettings,
    };
    // Keys are kept in memory only while this process hears of their changes (docs/decisions/0045).
    authNotices = await listenForChanges(db, AUTH_CHANNEL).catch((error: unknown) => {
      logger.warn({ err: error }, 'cannot listen for key changes: every request looks its key up');
      return null;
    });
    const services: Services = {
      db,
      ...(authNotices ? { activeKeys: activeKeyCache(authNotices) } : {}),
      queue,
      clock,
      region: env.REGION,
      boards,
      mondayAuthorization,
      voice,
      statistics,
      webhooks,
      // The OAuth issuer: the public address, else the one the server comes to listen on.
      oauth: { issuer: env.PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? '', resourcePath: MCP_PATH },
    };
    // Without a handler of its own, an api process's `send(…, { runHere })` only queues the job:
    // a worker's queue poll (every 500 ms) or its stored-work sweeper (every second) takes it.
    batches = background ? await startBatchWorker(services) : undefined;
    const telephony =
      options.telephony ??
      createSimulatedTelephony({
        sink: (event) => applyTelephonyEvent(services, event).then(() => undefined),
        clock,
        delayMs: 200,
        callSpeed: env.SIMULATED_CALL_SPEED,
        script: env.SIMULATED_OUTCOMES,
      });
    dialer = !background || options.dialer === false ? null : startDialer(services, telephony);
    const telephonySecrets = env.TELEPHONY_WEBHOOK_SECRETS?.split(',').map((secret) => secret.trim());
    // The board app's "when a call ends" deliveries: the job, sending through the app's channel.
    triggers =
      background && monday && options.triggerDelivery !== false
        ? startTriggerDelivery(services, callEndedTrigger(monday))
        : null;
    webhookDelivery =
      !background || options.webhookDelivery === false ? null : startWebhookDelivery({ db, clock, webhooks });
    const app = createApp({
      services,
      adminToken: env.ADMIN_TOKEN,
      telephonySecrets,
      monday,
      edge: env,
      surface: role === 'worker' ? 'probes' : 'public',
      role,
    });
    server = await listen(app, env.HOST, env.PORT);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    const baseUrl = `http://${hostAndPort(env.HOST, port)}`;
    voice.publicBaseUrl ||= baseUrl;
    if (services.oauth) services.oauth.issuer ||= baseUrl;
    if (role === 'worker' && !env.PUBLIC_BASE_URL && env.PROVIDER_CREDENTIALS_KEY)
      logger.warn(
        { baseUrl },
        "a worker without PUBLIC_BASE_URL tells Vapi and Retell to send their webhooks to its own address, which serves the probes only: set PUBLIC_BASE_URL to the api processes' address",
      );
    // The demo account only once the server listens: its key and password are shown once, by
    // the start that created it, so a start that cannot listen (a port in use) must not create
    // it. A brand-new embedded database (no Account yet, even if `migrate` ran first) gets it.
    const demo =
      options.seedDemo && db.kind === 'pglite' && (await db.prisma.account.count()) === 0
        ? await seedDemoAccount({ db, clock })
        : null;
    return {
      services,
      telephony,
      server,
      baseUrl,
      demo,
      role,
      triggerDelivery: triggers,
      webhookDelivery,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A failure to listen (a port in use, not allowed, an address not of this machine), said plainly. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

/** `host:port` as a URL writes it (an IPv6 address in brackets). */
const hostAndPort = (host: string, port: number) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Listens on host:port; refusals come back as a ListenError that says what to change. */
async function listen(app: ReturnType<typeof createApp>, host: string, port: number): Promise<Server> {
  const server = createServer(app).listen(port, host);
  // Requests Node's parser refuses (headers over its limit, not HTTP) get the error body too.
  server.on('clientError', answerClientError);
  try {
    await once(server, 'listening');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const where = hostAndPort(host, port);
    if (code === 'EADDRINUSE')
      throw new ListenError(
        `cannot listen on ${where}: the port is in use by another process (stop it, or set PORT to a free port)`,
        code,
      );
    if (code === 'EACCES')
      throw new ListenError(
        `cannot listen on ${where}: not allowed (ports below 1024 need privileges; set PORT to 1024 or above)`,
        code,
      );
    if (code === 'EADDRNOTAVAIL')
      throw new ListenError(`cannot listen on ${where}: ${host} is not an address of this machine (set HOST)`, code);
    throw error;
  }
  return server;
}

async function assertMigrated(db: Database): Promise<void> {
  const rows = await db.sql.query<{ ok: boolean }>(`SELECT to_regclass('"Contact"') IS NOT NULL AS ok`);
  if (!rows.rows[0]?.ok)
    throw new Error('The PostgreSQL database has no Contactline tables yet: run `contactline migrate` first.');
}
