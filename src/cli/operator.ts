// Operator commands run in-process: open the database from the environment (PGlite under
// DATA_DIR, or DATABASE_URL), run the operator GraphQL operation with an admin context, close.
// Heavy modules (Prisma, the schema) are loaded here, on demand, so `--help` stays fast.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CliError, EXIT } from './output.js';
import type { Env } from '../config/env.js';
import type { Database } from '../db/database.js';
import type { JobQueue, RequestContext } from '../domain/context.js';
import type { Operation, OperationResult, OperationVariables, VariablesArgument } from '../graphql/execute.js';
import type { CliOperations } from './operations.js';

type CliOperation = keyof typeof CliOperations;

/** Reads the configuration; a bad variable is a usage-class error (exit 2). */
export async function readEnv(): Promise<Env> {
  const { loadEnv } = await import('../config/env.js');
  try {
    return loadEnv();
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage, 'config');
  }
}

/** Where the database is, for messages (never prints a connection string: it may hold a password). */
export function describeDatabase(env: Env): string {
  return env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded database in ${path.resolve(env.DATA_DIR)}`;
}

/** Opens the database; the embedded data-dir lock's message ("in use by process N") is shown as is. */
export async function openFromEnv(env: Env, options: { direct?: boolean } = {}): Promise<Database> {
  const { openDatabase, SHORT_LIVED_PGLITE_BUFFERS } = await import('../db/database.js');
  try {
    // A command runs a few statements: a small buffer pool starts the embedded database faster.
    // `direct` (migrate): straight to the primary, past a transaction pooler (DATABASE_DIRECT_URL).
    return await openDatabase({
      databaseUrl: options.direct ? (env.DATABASE_DIRECT_URL ?? env.DATABASE_URL) : env.DATABASE_URL,
      directUrl: options.direct ? undefined : env.DATABASE_DIRECT_URL,
      dataDir: env.DATA_DIR,
      pgliteSharedBuffers: SHORT_LIVED_PGLITE_BUFFERS,
    });
  } catch (error) {
    const message = (error as Error).message;
    // The data-dir lock already names the directory and what to do.
    throw new CliError(
      /in use by process/.test(message) ? message : `Cannot open the ${describeDatabase(env)}: ${message}`,
    );
  }
}

/**
 * Operator commands never enqueue jobs (none of the operator mutations use the queue), but
 * Services requires one: this stand-in fails loudly if that ever changes instead of silently
 * dropping a job.
 */
const noQueue: JobQueue = {
  async send(name) {
    throw new Error(`The CLI's operator commands have no job queue (tried to send a "${name}" job)`);
  },
  async work() {
    throw new Error("The CLI's operator commands have no job queue");
  },
  async stop() {},
};

export interface OperatorSession {
  /** Runs one of the CLI's operator operations (operations.ts) by name; variables and data typed from the schema. */
  run<K extends CliOperation>(
    operation: K,
    ...variables: VariablesArgument<OperationVariables<(typeof CliOperations)[K]>>
  ): Promise<OperationResult<(typeof CliOperations)[K]>>;
}

/** Opens the database, runs `fn` with an operator (isAdmin) context, and always closes it. */
export async function withOperator<T>(fn: (session: OperatorSession) => Promise<T>): Promise<T> {
  const env = await readEnv();
  // Loading the schema (the slow part of start-up) overlaps with opening the database.
  const modules = Promise.all([
    import('../graphql/execute.js'),
    import('../domain/shared/clock.js'),
    import('./operations.js'),
    import('../calls/telephony/voice-providers.js'),
  ]);
  modules.catch(() => {}); // awaited below; never an unhandled rejection if opening fails first
  const db = await openFromEnv(env);
  try {
    await assertMigrated(db, env);
    const [{ runOperation }, { systemClock }, { CliOperations: operations }, { voiceProvidersFromEnv }] = await modules;
    const ctx: RequestContext = {
      db,
      queue: noQueue,
      clock: systemClock,
      region: env.REGION,
      voice: voiceProvidersFromEnv(env),
      requestId: `cli-${randomUUID()}`,
      actor: null,
      isAdmin: true,
    };
    // Picked by name, an operation's types are a union TypeScript cannot pair with the name's
    // variables; OperatorSession's signature states that pairing for callers.
    const run = async (operation: CliOperation, variables?: Record<string, unknown>) => {
      try {
        return await runOperation(ctx, operations[operation] as Operation<unknown, Record<string, unknown>>, variables);
      } catch (error) {
        throw await toCliError(error);
      }
    };
    return await fn({ run: run as OperatorSession['run'] });
  } finally {
    await db.close();
  }
}

async function assertMigrated(db: Database, env: Env): Promise<void> {
  const rows = await db.sql.query<{ ok: boolean }>(`SELECT to_regclass('"Account"') IS NOT NULL AS ok`);
  if (!rows.rows[0]?.ok) {
    throw new CliError(
      `The ${describeDatabase(env)} has no Contactline tables yet: run \`contactline migrate\` (or \`contactline serve\`) first.`,
    );
  }
}

/** Domain errors keep their code and message; anything else is reported as an internal failure. */
async function toCliError(error: unknown): Promise<CliError> {
  const { asDomainError } = await import('../domain/errors.js');
  const domain = asDomainError(error);
  if (domain && domain.code !== 'internal') return new CliError(domain.message, EXIT.failed, domain.code);
  const cause = (error as { cause?: unknown }).cause ?? error;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new CliError(`The operation failed: ${detail}`, EXIT.failed, 'internal');
}
