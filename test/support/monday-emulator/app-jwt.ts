/**
 * The JWTs of monday's integration protocol, from monday's side: minting the token monday
 * sends with every call to our app, and checking the one our app sends when it fires a trigger.
 */
import jwt from 'jsonwebtoken';

export interface MintJwtInput {
  accountId: number;
  userId: number;
  /** The exact URL being called. */
  aud: string;
  /** Default: the Signing Secret. Pass the Client Secret or another string for negative cases. */
  secret?: string;
  /** Default 300 (monday's sample). Negative values mint an already expired token. */
  expiresInSeconds?: number;
  /** Seconds since the epoch; default: the emulator clock. */
  iat?: number;
  /** Default: a fresh 5-minute API token of this emulator; `false` omits the claim. */
  shortLivedToken?: string | false;
  /** Further claims (real tokens may carry some; our side must ignore them). */
  extra?: Record<string, unknown>;
}

export interface JwtMintingDeps {
  signingSecret: string;
  nowMs: () => number;
  issueShortLivedToken: (accountId: number, userId: number) => string;
}

/**
 * Signs monday's claims (accountId, userId, aud, iat, exp, shortLivedToken) with HS256 (the
 * algorithm monday's examples and emulators assume).
 */
export function mintMondayJwt(deps: JwtMintingDeps, input: MintJwtInput): string {
  const iat = input.iat ?? Math.floor(deps.nowMs() / 1000);
  const shortLivedToken =
    input.shortLivedToken === false
      ? undefined
      : (input.shortLivedToken ?? deps.issueShortLivedToken(input.accountId, input.userId));
  const claims = {
    ...input.extra,
    accountId: input.accountId,
    userId: input.userId,
    aud: input.aud,
    iat,
    exp: iat + (input.expiresInSeconds ?? 300),
    ...(shortLivedToken === undefined ? {} : { shortLivedToken }),
  };
  // jsonwebtoken keeps an explicit iat (noTimestamp would drop it).
  return jwt.sign(claims, input.secret ?? deps.signingSecret, { algorithm: 'HS256' });
}

/** monday's examples send the JWT raw; workflow blocks were seen sending `Bearer <jwt>`. */
export function authorizationFor(token: string, bearer: boolean): string {
  return bearer ? `Bearer ${token}` : token;
}

export type TriggerAuthFailure = 'missing_authorization' | 'invalid_token' | 'wrong_app_id';

export interface TriggerAuthConfig {
  signingSecret: string;
  appId: number;
  /** Also accept the legacy raw Signing Secret as the header value (monday's example apps send it). */
  acceptRawSecret: boolean;
  nowMs: () => number;
}

/**
 * Checks the Authorization our app sends to a webhookUrl: `Bearer <JWT>` signed HS256 with the
 * Signing Secret, payload `{ appId }`. `exp` is checked against the emulator clock.
 * Returns null when accepted, else why not.
 */
export function checkTriggerAuthorization(
  header: string | undefined,
  config: TriggerAuthConfig,
): TriggerAuthFailure | null {
  if (!header?.trim()) return 'missing_authorization';
  if (config.acceptRawSecret && header.replace(/^Bearer\s+/i, '').trim() === config.signingSecret) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) return 'invalid_token';
  let payload: jwt.JwtPayload | string;
  try {
    payload = jwt.verify(match[1], config.signingSecret, {
      algorithms: ['HS256'],
      clockTimestamp: Math.floor(config.nowMs() / 1000),
    });
  } catch {
    return 'invalid_token';
  }
  // The docs sign a numeric appId; a string would be our bug worth catching.
  if (typeof payload === 'string' || payload.appId !== config.appId) return 'wrong_app_id';
  return null;
}

export interface MintSessionTokenInput {
  accountId: number;
  userId: number;
  /** Default: the app's Client Secret. Pass another string to forge one. */
  secret?: string;
  /** Default 300. Negative values mint an already expired token. */
  expiresInSeconds?: number;
  /** Seconds since the epoch; default: the emulator clock (pass the service's clock's to match it). */
  iat?: number;
  appId?: number;
  clientId?: string;
}

/**
 * The sessionToken monday gives a view (appended to its iframe URL, and what the SDK's
 * monday.get('sessionToken') answers): HS256 with the app's Client Secret, monday's claims under
 * `dat` (client_id, user_id, account_id, slug, app_id, …) and `exp`.
 */
export function mintSessionToken(
  deps: { clientSecret: string; nowMs: () => number; appId: number },
  input: MintSessionTokenInput,
): string {
  const iat = input.iat ?? Math.floor(deps.nowMs() / 1000);
  const dat = {
    client_id: input.clientId ?? 'emulator-client-id',
    user_id: input.userId,
    account_id: input.accountId,
    slug: `account-${input.accountId}`,
    app_id: input.appId ?? deps.appId,
    app_version_id: 1,
    install_id: -2,
    is_admin: true,
    is_view_only: false,
    is_guest: false,
    user_kind: 'admin',
  };
  return jwt.sign({ dat, iat, exp: iat + (input.expiresInSeconds ?? 300) }, input.secret ?? deps.clientSecret, {
    algorithm: 'HS256',
  });
}
