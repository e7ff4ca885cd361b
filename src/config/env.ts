// Service configuration: one zod schema, read once at start-up. Bad values fail fast.
import { z } from 'zod';

const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  REGION: z.enum(['us', 'eu']).default('us'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Bearer token for operator operations on /graphql. No default: without it, operator operations are off. */
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof EnvSchema>;

/** Parses the environment; throws a readable error listing every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
