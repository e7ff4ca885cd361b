// Service configuration: one zod schema, read once at start-up. Bad values fail fast.
import { z } from 'zod';
import type { LevelWithSilent } from 'pino';
import { CALL_RESULTS } from '../calls/telephony/telephony.port.js';
import { HttpEdgeEnvShape } from './http-edge-env.js';
import { MAX_SERVICE_PROCESSES, parseProcessCount, SERVICE_ROLES } from './service-role.js';

const SimulatedOutcomeSchema = z.strictObject({
  result: z.enum(CALL_RESULTS),
  durationSeconds: z.number().int().min(0).optional(),
  endReason: z.string().max(256).optional(),
  language: z.string().max(64).nullable().optional(),
  nextAttemptInMinutes: z.number().int().min(0).nullable().optional(),
  transcript: z.boolean().optional(),
});
const SimulatedOutcomesSchema = z.record(
  z.string().min(1),
  z.union([z.enum(CALL_RESULTS).transform((result) => ({ result })), SimulatedOutcomeSchema]),
);

/** pino's levels, most severe first, and `silent`. */
export const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const satisfies readonly LevelWithSilent[];
export type LogLevel = (typeof LOG_LEVELS)[number];

const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  /**
   * A streaming replica of DATABASE_URL: contact lists and searches, their CSV pages and
   * workflow results read from it (docs/read-replica.md). Needs DATABASE_URL.
   */
  DATABASE_READ_URL: z.string().url().optional(),
  /**
   * A direct (not pooled) connection to the primary. Setting it says DATABASE_URL is a
   * transaction pooler (PgBouncer): statements are unnamed, and what needs a session (the
   * process-liveness lock, `contactline migrate`) connects here. Needs DATABASE_URL.
   */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  /**
   * The embedded database's buffer pool (PostgreSQL's shared_buffers), held in the process's
   * memory from the start. 32MB keeps a service with 100,000 contacts under 400 MB resident; the
   * pages it does not hold are read through the operating system's file cache.
   */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'PGLITE_SHARED_BUFFERS must be a size such as 32MB or 1GB')
    .default('32MB'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  REGION: z.enum(['us', 'eu']).default('us'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Bearer token for operator operations on /graphql. No default: without it, operator operations are off. */
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
  /**
   * The simulator's outcome per phone number, as JSON: {"+14155550100": "converted"} or
   * {"+14155550100": {"result": "callback_requested", "nextAttemptInMinutes": 5}}.
   */
  SIMULATED_OUTCOMES: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return undefined;
      try {
        return SimulatedOutcomesSchema.parse(JSON.parse(text));
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `SIMULATED_OUTCOMES must be JSON mapping phone numbers to a call result or an outcome object (${(error as Error).message.slice(0, 200)})`,
        });
        return z.NEVER;
      }
    }),
  /**
   * How much faster than real time simulated calls run: a call scripted to last 210 s lasts
   * 210 / SIMULATED_CALL_SPEED seconds and reports what it lasted, so no time it reports is later
   * than the moment it reports it.
   */
  SIMULATED_CALL_SPEED: z.coerce.number().positive().max(3600).default(30),
  /**
   * Comma-separated HMAC secrets for POST /api/telephony/events (several during a rotation), each
   * at least 16 characters. Unset: the endpoint answers 404.
   */
  TELEPHONY_WEBHOOK_SECRETS: z
    .string()
    .refine((value) => value.split(',').every((secret) => secret.trim().length >= 16), {
      message: 'TELEPHONY_WEBHOOK_SECRETS must be comma-separated secrets of at least 16 characters each',
    })
    .optional(),
  /** AES-256 key (32 bytes, base64) for Accounts' voice provider credentials at rest. Unset: none can be stored. */
  PROVIDER_CREDENTIALS_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, {
      message: 'PROVIDER_CREDENTIALS_KEY must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)',
    })
    .optional(),
  /**
   * AES-256 key (32 bytes, base64) for webhook endpoints' signing secrets at rest. Unset: the
   * embedded database keeps one of its own in DATA_DIR/webhook-secrets.key; on PostgreSQL,
   * endpoints cannot be created.
   */
  WEBHOOK_SECRETS_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, {
      message: 'WEBHOOK_SECRETS_KEY must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)',
    })
    .optional(),
  /** Allow webhook endpoints on plain http to loopback addresses (a receiver on this machine; tests). */
  WEBHOOKS_ALLOW_HTTP_LOOPBACK: z
    .enum(['true', 'false'], { message: 'WEBHOOKS_ALLOW_HTTP_LOOPBACK must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /** Vapi's API base URL, when not https://api.vapi.ai (an EU org, or a local emulator). */
  VAPI_API_URL: z.string().url().optional(),
  /** Retell's API base URL, when not https://api.retellai.com (a local emulator). */
  RETELL_API_URL: z.string().url().optional(),
  /** What `contactline serve` runs when `--role` is not given: all, api or worker (docs/operating.md). */
  SERVICE_ROLE: z.enum(SERVICE_ROLES, { message: 'SERVICE_ROLE must be all, api or worker' }).default('all'),
  /** How many processes `contactline serve` runs when `--processes` is not given: a number, or auto. */
  SERVICE_PROCESSES: z
    .string()
    .refine((value) => parseProcessCount(value) !== undefined, {
      message: `SERVICE_PROCESSES must be a whole number from 1 to ${MAX_SERVICE_PROCESSES}, or auto`,
    })
    .default('1'),
  /** The least severe log line written (pino's levels; `silent` writes none). */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  // Rate limits, GraphQL document limits, CORS origins, proxies: ./http-edge-env.ts.
  ...HttpEdgeEnvShape,
});

export type Env = z.infer<typeof EnvSchema>;

/** Parses the environment; throws a readable error listing every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(withoutEmpty(source));
  if (!parsed.success) throw invalidConfiguration(parsed.error.issues);
  const needsPostgres = (['DATABASE_READ_URL', 'DATABASE_DIRECT_URL'] as const).filter(
    (name) => parsed.data[name] && !parsed.data.DATABASE_URL,
  );
  if (needsPostgres.length > 0)
    throw invalidConfiguration(
      needsPostgres.map((name) => ({
        code: 'custom',
        path: [name],
        message: `${name} needs DATABASE_URL: the embedded database has no replica and no pooler`,
        input: undefined,
      })),
    );
  return parsed.data;
}

/**
 * LOG_LEVEL, read as loadEnv reads it, alone: the logger is made when its module loads, before
 * (and whether or not) the rest of the configuration is read, and a bad variable elsewhere is
 * reported by whoever reads the configuration (the CLI: as a usage error), not by an import.
 */
export function logLevelFrom(source: NodeJS.ProcessEnv = process.env): LogLevel {
  const parsed = EnvSchema.pick({ LOG_LEVEL: true }).safeParse(withoutEmpty(source));
  if (!parsed.success) throw invalidConfiguration(parsed.error.issues);
  return parsed.data.LOG_LEVEL;
}

/** An empty variable counts as not set. */
function withoutEmpty(source: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
}

function invalidConfiguration(issues: z.core.$ZodIssue[]): Error {
  const lines = issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  return new Error(`Invalid configuration:\n${lines.join('\n')}`);
}
