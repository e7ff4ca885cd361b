// The rules of the tool server's authorization server (docs/oauth.md), in one place: which
// scopes an application may ask for, which redirect addresses it may register, and how long
// each credential lives.
import type { KeyScope } from '../api-keys/key-scopes.js';

/**
 * The scopes an application may ask for: the read-only scopes of the tool server's tools (the
 * key scopes of src/domain/api-keys/key-scopes.ts that a tool needs). A token reaches the tool
 * server only, and its tools only read, so each scope is described by what it lets a tool read.
 */
export const OAUTH_SCOPES = [
  'contacts:read',
  'calls:read',
  'workflows:read',
  'webhooks:manage',
] as const satisfies readonly KeyScope[];
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

export const OAUTH_SCOPE_DESCRIPTIONS: Readonly<Record<OAuthScope, string>> = {
  'contacts:read': 'Search and read your contacts, their consents, dialing decisions, imports and bulk updates',
  'calls:read': "Read contacts' calls and their transcripts",
  'workflows:read': 'Read your workflows, their results, enrollments and enrollment jobs',
  'webhooks:manage': 'Read your webhook endpoints and their deliveries (the tool server changes nothing)',
};

export const isOAuthScope = (scope: string): scope is OAuthScope => (OAUTH_SCOPES as readonly string[]).includes(scope);

/** An authorization code is exchanged within this (RFC 6749 recommends at most 10 minutes). */
export const CODE_TTL_MS = 5 * 60_000;
/** Access tokens are short-lived: a revoked grant, a removed user or a narrowed scope shows within this at worst. */
export const ACCESS_TOKEN_TTL_MS = 15 * 60_000;
/** A refresh token is used once (rotated) and unused for this long it expires; the application then asks the person again. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

export const ACCESS_TOKEN_PREFIX = 'svc_at_';
export const REFRESH_TOKEN_PREFIX = 'svc_rt_';
export const CODE_PREFIX = 'svc_ac_';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a redirect address may not be registered, or null when it may: https anywhere, or http on
 * a loopback address (a native application listening on this computer, RFC 8252); no fragment;
 * no user or password in it.
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash || uri.includes('#')) return `${uri} has a fragment`;
  if (url.username || url.password) return `${uri} carries a user name or password`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${uri} is neither https nor http on a loopback address (127.0.0.1, [::1], localhost)`;
}
