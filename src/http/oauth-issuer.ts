// Where the tool server's OAuth lives (docs/oauth.md), shared by the tool server, its
// authorization server and the console's consent page: the issuer (the service's public
// address), the tool server's address that tokens are bound to (RFC 8707), and where its
// protected-resource metadata is (RFC 9728).
import type { Services } from '../domain/context.js';

export interface ServedOAuth {
  /** The issuer, without a trailing slash. */
  issuer: string;
  /** The protected resource: the tool server's address. */
  resource: string;
  /** Where a client finds the resource's metadata (RFC 9728 §3.1). */
  resourceMetadataUrl: string;
}

/**
 * The OAuth of the tool server when it can be served: its issuer is https, or http on localhost
 * or 127.0.0.1, as the MCP SDK's authorization server requires. Null otherwise: OAuth is then
 * not served at all.
 */
export function servedOAuth(settings: Services['oauth']): ServedOAuth | null {
  if (!settings?.issuer) return null;
  // Every tool-server request asks; the answer changes only with the issuer (once, when the server listens).
  const known = answers.get(settings);
  if (known?.issuer === settings.issuer) return known.served;
  const served = servedFrom(settings.issuer, settings.resourcePath);
  answers.set(settings, { issuer: settings.issuer, served });
  return served;
}

/** Each service's last answer, by its settings. */
const answers = new WeakMap<NonNullable<Services['oauth']>, { issuer: string; served: ServedOAuth | null }>();

function servedFrom(rawIssuer: string, resourcePath: string): ServedOAuth | null {
  let url: URL;
  try {
    url = new URL(rawIssuer);
  } catch {
    return null;
  }
  if (url.search || url.hash) return null;
  if (url.protocol !== 'https:' && url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') return null;
  const issuer = rawIssuer.replace(/\/+$/, '');
  return {
    issuer,
    resource: `${issuer}${resourcePath}`,
    resourceMetadataUrl: `${issuer}/.well-known/oauth-protected-resource${resourcePath}`,
  };
}
