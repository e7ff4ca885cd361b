// Where webhooks may be sent (docs/webhooks.md): https only, to public addresses. Plain http is
// allowed only to loopback addresses, and only when the operator's WEBHOOKS_ALLOW_HTTP_LOOPBACK
// is on (tests, a receiver on the same machine). An address is public when ipaddr.js ranks it
// `unicast`: private, loopback, link-local (cloud metadata at 169.254.169.254), unique-local,
// carrier-grade NAT, multicast, reserved and IPv4-mapped IPv6 addresses are all refused. The
// same rule is applied where it matters most, at connection time, to the address DNS actually
// gave (src/jobs/webhook-sender.ts, with request-filtering-agent), so a name that resolves to a
// private address later (DNS rebinding) is still refused; the checks here give the error at once.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface WebhookUrlPolicy {
  /** Plain http (and loopback addresses) allowed: WEBHOOKS_ALLOW_HTTP_LOOPBACK. */
  allowHttpLoopback: boolean;
}

export const MAX_URL_LENGTH = 2048;

/** The loopback ranges the operator setting opens (the agent's allow list). */
export const LOOPBACK_RANGES = ['127.0.0.0/8', '::1/128'];

/** Why an endpoint URL is refused, or null when it may be used (before its name is resolved). */
export function urlProblem(raw: string, policy: WebhookUrlPolicy): string | null {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL (https://…)';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  const host = hostOf(url);
  if (url.protocol === 'http:') {
    if (!policy.allowHttpLoopback) return 'must use https';
    if (!isLoopbackName(host) && !(isIP(host) && rangeOf(host) === 'loopback'))
      return 'must use https (plain http is allowed only to a loopback address)';
    return null;
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (isLoopbackName(host)) return policy.allowHttpLoopback ? null : 'must not be a loopback address';
  return isIP(host) ? addressProblem(host, policy) : null;
}

/** Why a resolved (or literal) address is refused, or null when it is a public address. */
export function addressProblem(address: string, policy: WebhookUrlPolicy): string | null {
  const range = rangeOf(address);
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowHttpLoopback) return null;
  return `must not lead to a ${range} address (${address}); webhooks go to public addresses only`;
}

/** The host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** localhost and its subdomains: loopback by definition (RFC 6761), never resolved. */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function rangeOf(address: string): string {
  try {
    return ipaddr.parse(address).range();
  } catch {
    return 'invalid';
  }
}
