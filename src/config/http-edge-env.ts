// The HTTP edge's settings (request limits and the CORS policy), part of the one environment
// schema in ./env.ts. Defaults are far above what a normal integration sends: a limit is a
// guard against floods and runaway loops, never a quota a customer plans around.
import { z } from 'zod';

/** Defaults, also what the service uses when a caller (a test) passes no value. */
export const HTTP_EDGE_DEFAULTS = {
  RATE_LIMIT_WINDOW_SECONDS: 60,
  RATE_LIMIT_PER_KEY: 12_000,
  RATE_LIMIT_PER_ADDRESS: 24_000,
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: 60,
  GRAPHQL_MAX_ALIASES: 15,
  GRAPHQL_MAX_DEPTH: 8,
  GRAPHQL_MAX_COST: 5_000,
} as const;

const count = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

export const HttpEdgeEnvShape = {
  /** The window of the rate limits, in seconds. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(HTTP_EDGE_DEFAULTS.RATE_LIMIT_WINDOW_SECONDS),
  /** Requests per window per API key (REST, MCP, GraphQL); 0 turns the limit off. */
  RATE_LIMIT_PER_KEY: count(HTTP_EDGE_DEFAULTS.RATE_LIMIT_PER_KEY),
  /** Requests per window per client address, on every route but the probes; 0 turns it off. */
  RATE_LIMIT_PER_ADDRESS: count(HTTP_EDGE_DEFAULTS.RATE_LIMIT_PER_ADDRESS),
  /**
   * Password checks per window per client address (console sign-ins and invitation links
   * setting a password), each a deliberately costly hash; 0 turns the limit off.
   */
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: count(HTTP_EDGE_DEFAULTS.RATE_LIMIT_SIGN_IN_PER_ADDRESS),
  /**
   * Express's `trust proxy` (https://expressjs.com/en/guide/behind-proxies.html): which hops may
   * name the client in X-Forwarded-For. Unset: the connection's own address is the client's.
   */
  TRUST_PROXY: z.string().optional(),
  /** Origins (scheme://host[:port]) that browsers may call the API from, comma-separated. Unset: none. */
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      const origins = (text ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin.length > 0);
      for (const origin of origins) {
        if (!isOrigin(origin)) {
          ctx.addIssue({
            code: 'custom',
            message: `CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path)`,
          });
          return z.NEVER;
        }
      }
      return origins;
    }),
  GRAPHQL_MAX_ALIASES: count(HTTP_EDGE_DEFAULTS.GRAPHQL_MAX_ALIASES),
  GRAPHQL_MAX_DEPTH: count(HTTP_EDGE_DEFAULTS.GRAPHQL_MAX_DEPTH),
  GRAPHQL_MAX_COST: count(HTTP_EDGE_DEFAULTS.GRAPHQL_MAX_COST),
};

export type HttpEdgeEnv = { [K in keyof typeof HttpEdgeEnvShape]: z.infer<(typeof HttpEdgeEnvShape)[K]> };

/** An origin as browsers send it: scheme, host and port only. */
function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
  } catch {
    return false;
  }
}

/** The edge settings with the defaults filled in for whatever the caller left out. */
export function httpEdgeSettings(env: Partial<HttpEdgeEnv> = {}): HttpEdgeEnv {
  return {
    RATE_LIMIT_WINDOW_SECONDS: env.RATE_LIMIT_WINDOW_SECONDS ?? HTTP_EDGE_DEFAULTS.RATE_LIMIT_WINDOW_SECONDS,
    RATE_LIMIT_PER_KEY: env.RATE_LIMIT_PER_KEY ?? HTTP_EDGE_DEFAULTS.RATE_LIMIT_PER_KEY,
    RATE_LIMIT_PER_ADDRESS: env.RATE_LIMIT_PER_ADDRESS ?? HTTP_EDGE_DEFAULTS.RATE_LIMIT_PER_ADDRESS,
    RATE_LIMIT_SIGN_IN_PER_ADDRESS:
      env.RATE_LIMIT_SIGN_IN_PER_ADDRESS ?? HTTP_EDGE_DEFAULTS.RATE_LIMIT_SIGN_IN_PER_ADDRESS,
    TRUST_PROXY: env.TRUST_PROXY,
    CORS_ORIGINS: env.CORS_ORIGINS ?? [],
    GRAPHQL_MAX_ALIASES: env.GRAPHQL_MAX_ALIASES ?? HTTP_EDGE_DEFAULTS.GRAPHQL_MAX_ALIASES,
    GRAPHQL_MAX_DEPTH: env.GRAPHQL_MAX_DEPTH ?? HTTP_EDGE_DEFAULTS.GRAPHQL_MAX_DEPTH,
    GRAPHQL_MAX_COST: env.GRAPHQL_MAX_COST ?? HTTP_EDGE_DEFAULTS.GRAPHQL_MAX_COST,
  };
}
