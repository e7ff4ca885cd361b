// The request context every domain operation runs with: who is acting, where, and the
// infrastructure the services use. Built once per request by the surface's auth step.
import type { ActiveKeyCache } from './api-keys/active-keys.cache.js';
import type { KeyScope } from './api-keys/key-scopes.js';
import type { Database } from '../db/database.js';
import type { Clock } from './shared/clock.js';
import { DomainError } from './errors.js';
import type { AccountRules } from './contacts/contacts.rules.js';
import type { BoardColumn } from './boards/board-mapping.rules.js';
import type { RemoteVoiceProvider, VoiceProviderAdapter } from '../calls/telephony/voice-provider.port.js';
import type { WebhookUrlPolicy } from './webhooks/webhook-url.rules.js';

export interface Actor {
  accountId: string;
  userId: string;
  apiKeyId: string | null;
  /**
   * The key's scopes (src/domain/api-keys/key-scopes.ts); null when it has every scope, as a key
   * created without scopes has, and for those who act without a key (the console, the board app).
   */
  scopes: readonly KeyScope[] | null;
  /** The Account's contact rules (default location, dedup fields), read with the key. */
  account: AccountRules;
}

/**
 * The durable job queue, as the domain sends work to it (src/jobs/queue.ts implements it on
 * pg-boss). A job carries ids only: its work is stored in domain tables before it is sent.
 */
export interface JobQueue {
  /**
   * Queues a job. With `runHere`, this process also runs it at once, handing its handler `held`
   * (what the sender holds already, so that the run need not read it back): the queued job stays
   * the durable path, and a local run that fails is left to it.
   */
  send(name: string, data: Record<string, unknown>, options?: { runHere?: boolean; held?: unknown }): Promise<void>;
  /** Registers this process's handler of a queue; jobs sent before a crash are picked up when a worker starts again. */
  work(name: string, handler: JobHandler): Promise<void>;
  stop(): Promise<void>;
}

/** Runs one job: its data as sent, and on a run in the sending process, what the sender held (JobQueue.send). */
export type JobHandler = (data: Record<string, unknown>, held?: unknown) => Promise<void>;

export interface Services {
  db: Database;
  queue: JobQueue;
  clock: Clock;
  region: 'us' | 'eu';
  /** The board app's view of the Account's monday boards; absent when the board app is not configured. */
  boards?: BoardDirectory;
  /** The board app's OAuth, for a link started in the console; absent when the board app is not configured. */
  mondayAuthorization?: MondayAuthorization;
  /** Real voice providers (Vapi, Retell): their adapters and the configuration they need. */
  voice?: VoiceProviders;
  /** Told of large writes of contacts, so that the table's planner statistics follow (src/jobs/table-statistics.ts). */
  statistics?: { wrote(rows: number): void };
  /** Outgoing webhooks: the key of their secrets at rest, and where they may be sent. */
  webhooks?: WebhookSettings;
  /** The API keys this process has authenticated, kept while the database's change notices say they may be. */
  activeKeys?: ActiveKeyCache;
  /**
   * The tool server's OAuth authorization server (docs/oauth.md): its issuer is the service's
   * public address without a trailing slash (PUBLIC_BASE_URL, else filled in once the server
   * listens; empty until then).
   */
  oauth?: {
    issuer: string;
    /** The tool server's path: its address, the issuer followed by this, is the protected resource. */
    resourcePath: string;
  };
}

/** How outgoing webhooks are configured (docs/webhooks.md). */
export interface WebhookSettings extends WebhookUrlPolicy {
  /** The key of endpoint secrets at rest (WEBHOOK_SECRETS_KEY); null: endpoints cannot be created. */
  secretsKey: Buffer | null;
  /** Resolves an endpoint's host name to its addresses (default: the system's resolver; tests name hosts of their own). */
  lookup: HostLookup;
}

export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** What placing calls through Vapi or Retell needs from the process. */
export interface VoiceProviders {
  /** The adapter of each provider the process can reach. */
  adapters: Partial<Record<RemoteVoiceProvider, VoiceProviderAdapter>>;
  /** The key of Account credentials at rest (PROVIDER_CREDENTIALS_KEY); null: credentials cannot be stored or used. */
  credentialsKey: Buffer | null;
  /** Each provider API's base URL when not the SDK's default (VAPI_API_URL, RETELL_API_URL; the emulators in tests). */
  apiUrls: Partial<Record<RemoteVoiceProvider, string>>;
  /** The service's public address, for the webhook URL given to providers (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
}

/** Reads a monday board as the Account's linked user (through its stored OAuth token). */
export interface BoardDirectory {
  /**
   * The board and its columns, read with the link's token (as stored: encrypted); null when
   * monday knows no such board (or the user cannot see it).
   */
  board(link: { accessTokenEncrypted: string }, boardId: string): Promise<MondayBoard | null>;
  /** One page of the boards the linked user can see, as monday's API pages them (`limit`, `page` from 1). */
  boards(link: { accessTokenEncrypted: string }, page: { limit: number; page: number }): Promise<MondayBoardSummary[]>;
}

/** A board as a list of boards names it. */
export interface MondayBoardSummary {
  id: string;
  name: string;
}

/**
 * What a console-started link is bound to: the Account, the person and (hashed) their console
 * session, so that only the session that started the link can complete it.
 */
export interface ConsoleLinkClaims {
  accountId: string;
  userId: string;
  session: string;
}

/** monday's OAuth for a link started in the console (integration/monday/console-link.ts implements it). */
export interface MondayAuthorization {
  /** The origin of monday's OAuth pages (a page whose form leads there must allow it as a form-action). */
  readonly authorizeOrigin: string;
  /** monday's authorize page, with a state signed by this service carrying `claims` (10 minutes). */
  authorizeUrl(claims: ConsoleLinkClaims): string;
  /** The claims of a state this service signed for a console link; a DomainError (bad_request) otherwise. */
  verifyState(state: string): ConsoleLinkClaims;
  /** Exchanges monday's code for a token and reads who approved: the link to store, its token encrypted. */
  exchange(code: string): Promise<{ mondayAccountId: string; mondayUserId: string; accessTokenEncrypted: string }>;
}

/** A monday board with its columns. */
export interface MondayBoard {
  id: string;
  name: string;
  columns: BoardColumn[];
}

/** A request monday signed for the board app (its JWT verified), from a linked monday account. */
export interface BoardAppCaller {
  /** monday's account id, from the verified token. */
  mondayAccountId: string;
}

export interface RequestContext extends Services {
  requestId: string;
  /** The key's user and Account; null for operator (admin token) or anonymous requests. */
  actor: Actor | null;
  /** True when the request carried the operator ADMIN_TOKEN. */
  isAdmin: boolean;
  /** Set only by the board app, for a request monday signed; its operations require it. */
  boardApp?: BoardAppCaller;
  /** Set only by the console, for a signed-in person's request; its operations require it. */
  console?: ConsoleCaller;
}

/** A person signed in to the console (their session checked), acting in their Account. */
export interface ConsoleCaller {
  sessionId: string;
  email: string;
}

/** The acting Account, or 401 when the request is not account-scoped. */
export function requireActor(ctx: RequestContext): Actor {
  if (!ctx.actor) {
    throw new DomainError('unauthenticated', 'An API key is required: Authorization: Bearer svc_pk_...');
  }
  return ctx.actor;
}

/**
 * The board app's own operations (integration/monday/): the linked Account and monday's
 * account, or 401 for any other caller (an API key, the operator).
 */
export function requireBoardApp(ctx: RequestContext): Actor & BoardAppCaller {
  if (!ctx.boardApp || !ctx.actor) {
    throw new DomainError(
      'unauthenticated',
      "This operation is the monday board app's: only a request monday signed for a linked account runs it",
    );
  }
  return { ...ctx.actor, mondayAccountId: ctx.boardApp.mondayAccountId };
}

/**
 * The console's own operations (managing the Account's API keys): the signed-in person, or 401
 * for any other caller. An API key cannot mint or revoke keys.
 */
export function requireConsoleUser(ctx: RequestContext): Actor & ConsoleCaller {
  if (!ctx.console || !ctx.actor)
    throw new DomainError('unauthenticated', "This operation is the console's: sign in to the console to run it");
  return { ...ctx.actor, ...ctx.console };
}

/** Operator-only operations: 401 unless the request carried the ADMIN_TOKEN. */
export function requireAdmin(ctx: RequestContext): void {
  if (!ctx.isAdmin)
    throw new DomainError(
      'unauthenticated',
      'This operation needs the operator token (Authorization: Bearer <ADMIN_TOKEN>)',
    );
}
