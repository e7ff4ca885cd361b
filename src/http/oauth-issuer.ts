// Where the tool server's OAuth lives (docs/oauth.md), shared by the tool server, its
// authorization server and the console's consent page: the issuer (the service's public
// address), the tool server's address that tokens are bound to (RFC 8707), and where its
// protected-resource metadata is (RFC 9728).
import type { Services } from '../domain/context.js';

/** The tool server's path: the protected resource. */
export const TOOL_SERVER_PATH = '/api/mcp';

/**
 * The issuer when OAuth can be served from it (https, or http on localhost or 127.0.0.1, as the
 * MCP SDK's authorization server requires), else null: OAuth is then not served at all.
 */
export function servedIssuer(settings: Services['oauth']): string | null {
  if (!settings?.issuer) return null;
  try {
    const url = new URL(settings.issuer);
    if (url.search || url.hash) return null;
    if (url.protocol === 'https:' || url.hostname === 'localhost' || url.hostname === '127.0.0.1')
      return settings.issuer.replace(/\/+$/, '');
  } catch {
    return null;
  }
  return null;
}

/** The protected resource: the tool server's address. Tokens are bound to it. */
export const toolServerResource = (issuer: string) => `${issuer}${TOOL_SERVER_PATH}`;

/** Where a client finds the tool server's protected-resource metadata (RFC 9728 §3.1). */
export const resourceMetadataUrl = (issuer: string) =>
  `${issuer}/.well-known/oauth-protected-resource${TOOL_SERVER_PATH}`;
