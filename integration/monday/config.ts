// Board-app configuration through @mondaycom/apps-sdk, so the same code runs on monday's
// hosting (secrets and variables from its managers) and standalone (they read process.env).
// Unset MONDAY_SIGNING_SECRET: the board app is off and its routes answer 404.
import { parseTokenKey } from './token-crypto.js';
import type { BoardLogger } from './board-logger.js';

export interface MondayConfig {
  signingSecret: string;
  /** Our numeric app id, signed into the JWT that fires triggers. */
  appId: number | null;
  apiUrl: string;
  apiVersion: string;
  /**
   * The service's public base URL (PUBLIC_BASE_URL, validated by src/config/env.ts and handed
   * over by the composition root): a JWT's `aud` must be it plus the path, and the OAuth redirect
   * is built from it. null (unset or empty): `aud` is not checked and the redirect uses the
   * request's origin.
   */
  publicBaseUrl: string | null;
  /**
   * OAuth install flow (oauth.route.ts). Client ID and Secret from the Developer Center
   * (MONDAY_CLIENT_ID, MONDAY_CLIENT_SECRET); unset: the install pages answer 503.
   */
  oauthClientId?: string | null;
  oauthClientSecret?: string | null;
  /** monday's OAuth server (MONDAY_OAUTH_URL, default https://auth.monday.com). */
  oauthUrl?: string;
  /** Space-separated scopes to request (MONDAY_OAUTH_SCOPES); unset: the app's configured scopes. */
  oauthScopes?: string | null;
  /**
   * AES-256 key for monday access tokens at rest (MONDAY_TOKEN_KEY, 32 bytes base64; a
   * malformed value fails start-up). Unset: the install flow answers 503 and stores nothing.
   */
  tokenKey?: Buffer | null;
  /** apps-sdk's Logger when loaded through the SDK; absent: the service's logger. */
  logger?: BoardLogger | null;
}

/**
 * The board app's configuration, or null when it is off. Its secrets and settings come from
 * monday's managers (on monday code) or the environment; the public base URL is the service's
 * own, passed in by the composition root (src/service.ts).
 */
export async function loadMondayConfig(service: { publicBaseUrl?: string | null } = {}): Promise<MondayConfig | null> {
  if (!process.env.MONDAY_SIGNING_SECRET && !process.env.K_SERVICE) return null;
  // Loaded only when the board app is configured: the SDK costs ~1 s to import.
  const { SecretsManager, EnvironmentVariablesManager, Logger } = await import('@mondaycom/apps-sdk');
  const secrets = new SecretsManager();
  const variables = new EnvironmentVariablesManager();
  // An empty value counts as unset.
  const read = async (key: string) => {
    const value = ((await secrets.get(key)) ?? (await variables.get(key)) ?? process.env[key]) as string | undefined;
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const signingSecret = await read('MONDAY_SIGNING_SECRET');
  if (!signingSecret) return null;
  const appId = Number(await read('MONDAY_APP_ID'));
  const tokenKey = await read('MONDAY_TOKEN_KEY');
  return {
    signingSecret,
    appId: Number.isSafeInteger(appId) && appId > 0 ? appId : null,
    apiUrl: (await read('MONDAY_API_URL')) ?? 'https://api.monday.com/v2',
    apiVersion: (await read('MONDAY_API_VERSION')) ?? '2026-10',
    publicBaseUrl: service.publicBaseUrl || null,
    oauthClientId: (await read('MONDAY_CLIENT_ID')) || null,
    oauthClientSecret: (await read('MONDAY_CLIENT_SECRET')) || null,
    oauthUrl: (await read('MONDAY_OAUTH_URL')) || 'https://auth.monday.com',
    oauthScopes: (await read('MONDAY_OAUTH_SCOPES')) || null,
    tokenKey: tokenKey ? parseTokenKey(tokenKey) : null,
    logger: new Logger('contactline-board-app'),
  };
}
