// The service's rate limits and their answer headers.
//
//   address  every request but the probes, per client address (see TRUST_PROXY), checked
//            first, before the credential or the body is read;
//   key      every request authenticated with an API key (REST, MCP, GraphQL), per key, checked
//            right after the key is;
//   sign-in  every password check (a console sign-in, an invitation link setting a password), per
//            client address, checked before the password is hashed: a hash is costly on purpose.
//
// Over a limit: 429 `rate_limited` in the error body with Retry-After. Every answer carries the
// policies that applied to it in the fields of draft-ietf-httpapi-ratelimit-headers (structured
// field lists, one item per policy):
//   RateLimit-Policy: "address";q=24000;w=60, "key";q=12000;w=60
//   RateLimit: "address";r=23990;t=41, "key";r=11990;t=41
// A 429's Retry-After is the refusing policy's t.
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../../domain/shared/clock.js';
import { DomainError } from '../../../domain/errors.js';
import type { HttpEdgeEnv } from '../../../config/http-edge-env.js';
import { onBeforeHeaders } from '../before-headers.js';
import type { QuotaDecision, QuotaStore } from './quota-store.js';
import type { EdgeResponse } from '../../edge-response.js';

export type PolicyName = 'address' | 'key' | 'sign-in';

interface Policy {
  name: PolicyName;
  limit: number;
  windowSeconds: number;
  /** The RateLimit-Policy item, formatted once. */
  item: string;
}

/** Paths never limited: the platform's probes and the metrics scraper call them every few seconds. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const DECISIONS = Symbol('rateLimitDecisions');
type Decisions = Array<{ policy: Policy; decision: QuotaDecision }>;
type Locals = { [DECISIONS]?: Decisions; rateLimits?: RateLimits };

export class RateLimits {
  private readonly policies: Partial<Record<PolicyName, Policy>> = {};

  constructor(
    private readonly store: QuotaStore,
    settings: Pick<
      HttpEdgeEnv,
      'RATE_LIMIT_WINDOW_SECONDS' | 'RATE_LIMIT_PER_KEY' | 'RATE_LIMIT_PER_ADDRESS' | 'RATE_LIMIT_SIGN_IN_PER_ADDRESS'
    >,
    private readonly clock: Clock,
    /** The client's address, as every per-address limit counts it (it follows TRUST_PROXY). */
    readonly clientAddress: (req: IncomingMessage) => string,
  ) {
    const windowSeconds = settings.RATE_LIMIT_WINDOW_SECONDS;
    const add = (name: PolicyName, limit: number) => {
      if (limit > 0)
        this.policies[name] = { name, limit, windowSeconds, item: `"${name}";q=${limit};w=${windowSeconds}` };
    };
    add('address', settings.RATE_LIMIT_PER_ADDRESS);
    add('key', settings.RATE_LIMIT_PER_KEY);
    add('sign-in', settings.RATE_LIMIT_SIGN_IN_PER_ADDRESS);
  }

  /**
   * First for every request (src/http/front-door.ts), given its path: the address limit, and the
   * headers of every answer. Throws (or rejects with) a 429 DomainError past the limit; most
   * requests are answered without I/O, and then without a promise.
   */
  admit(req: IncomingMessage, res: EdgeResponse, path: string): void | Promise<void> {
    (res.locals as Locals).rateLimits = this;
    if (UNLIMITED_PATHS.has(path)) return;
    onBeforeHeaders(res, () => writeHeaders(res));
    return this.spend(res, 'address', this.clientAddress(req));
  }

  /** Spends one request of the policy's window for this partition; a 429 DomainError when none is left. */
  spend(res: EdgeResponse, name: PolicyName, partition: string): void | Promise<void> {
    const policy = this.policies[name];
    if (!policy) return;
    const taken = this.store.take(`${name}:${partition}`, policy.limit, policy.windowSeconds * 1000, this.clock.now());
    // Most takes are answered without I/O: no promise to wait for then.
    if (taken instanceof Promise) return taken.then((decision) => this.record(res, policy, decision));
    this.record(res, policy, taken);
  }

  private record(res: EdgeResponse, policy: Policy, decision: QuotaDecision): void {
    const { name } = policy;
    const locals = res.locals as Locals;
    locals[DECISIONS] ??= [];
    locals[DECISIONS].push({ policy, decision });
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.resetSeconds));
      const what =
        name === 'sign-in'
          ? 'sign-ins from this client address'
          : `requests for this ${name === 'key' ? 'API key' : 'client address'}`;
      throw new DomainError(
        'rate_limited',
        `Too many ${what}: at most ${policy.limit} every ${policy.windowSeconds} s; retry after ${decision.resetSeconds} s`,
      );
    }
  }

  stop(): Promise<void> {
    return this.store.stop();
  }
}

/** The sign-in limit of the request's client address (called before a password is hashed). */
export async function spendSignInQuota(req: IncomingMessage, res: EdgeResponse): Promise<void> {
  const limits = (res.locals as Locals).rateLimits;
  await limits?.spend(res, 'sign-in', limits.clientAddress(req));
}

/** The key limit of the request's API key (called where each surface authenticates one). */
export function spendKeyQuota(res: EdgeResponse, apiKeyId: string): void | Promise<void> {
  return (res.locals as Locals).rateLimits?.spend(res, 'key', apiKeyId);
}

function writeHeaders(res: EdgeResponse): void {
  const decisions = (res.locals as Locals)[DECISIONS];
  if (!decisions?.length) return;
  res.setHeader('RateLimit-Policy', decisions.map(({ policy }) => policy.item).join(', '));
  res.setHeader(
    'RateLimit',
    decisions
      .map(({ policy, decision }) => `"${policy.name}";r=${decision.remaining};t=${decision.resetSeconds}`)
      .join(', '),
  );
}
