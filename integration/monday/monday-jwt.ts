// The JWTs of monday's integration protocol: verifying the ones monday sends to our action,
// trigger and options URLs (Signing Secret, HS256/384/512, `aud` = the URL called, `exp`), and
// signing the one we send when firing a trigger ({ appId }, one minute).
import jwt from 'jsonwebtoken';

export interface MondayClaims {
  accountId: number;
  userId: number;
  aud?: string;
  iat: number;
  exp: number;
  /** A monday API token acting as the user, valid five minutes. */
  shortLivedToken?: string;
  backToUrl?: string;
}

export type MondayAuthFailure = 'missing' | 'invalid' | 'expired' | 'wrong_audience';

export class MondayAuthError extends Error {
  constructor(
    readonly reason: MondayAuthFailure,
    message: string,
  ) {
    super(message);
    this.name = 'MondayAuthError';
  }
}

const ALGORITHMS: jwt.Algorithm[] = ['HS256', 'HS384', 'HS512'];

/**
 * Verifies the Authorization header monday sends (raw JWT, or `Bearer <jwt>` as workflow
 * blocks send it). `audience`, when given, must equal the token's `aud` (the public URL of the
 * endpoint called). Throws MondayAuthError.
 */
export function verifyMondayJwt(
  header: string | undefined,
  signingSecret: string,
  options: { audience?: string; now?: Date } = {},
): MondayClaims {
  const token = header?.replace(/^Bearer\s+/i, '').trim();
  if (!token) throw new MondayAuthError('missing', 'Missing Authorization token from monday');
  let claims: jwt.JwtPayload;
  try {
    claims = jwt.verify(token, signingSecret, {
      algorithms: ALGORITHMS,
      ...(options.audience ? { audience: options.audience } : {}),
      ...(options.now ? { clockTimestamp: Math.floor(options.now.getTime() / 1000) } : {}),
    }) as jwt.JwtPayload;
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) throw new MondayAuthError('expired', 'The monday token has expired');
    if (error instanceof jwt.JsonWebTokenError && /audience/i.test(error.message)) {
      throw new MondayAuthError('wrong_audience', 'The monday token was issued for another URL');
    }
    throw new MondayAuthError('invalid', "The monday token is not signed with this app's Signing Secret");
  }
  if (typeof claims.accountId !== 'number' || typeof claims.exp !== 'number') {
    throw new MondayAuthError('invalid', 'The monday token lacks accountId or exp');
  }
  return claims as unknown as MondayClaims;
}

/** The Authorization value for firing a trigger at its webhookUrl: `Bearer <JWT { appId }>`, valid one minute. */
export function signTriggerAuthorization(appId: number, signingSecret: string, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  return `Bearer ${jwt.sign({ appId, iat, exp: iat + 60 }, signingSecret, { algorithm: 'HS256' })}`;
}

/** What a view's sessionToken says (monday puts its claims under `dat`). */
export interface MondaySessionClaims {
  accountId: number;
  userId: number | null;
  exp: number;
}

/**
 * Verifies the sessionToken monday gives a view (its iframe's ?sessionToken=, or the SDK's
 * monday.get('sessionToken')): HS256 with the app's Client Secret, `exp` required and not past,
 * `dat.account_id` a number. Throws MondayAuthError.
 */
export function verifyMondaySessionToken(
  token: string | undefined,
  clientSecret: string,
  now: Date,
): MondaySessionClaims {
  if (!token) throw new MondayAuthError('missing', 'Missing sessionToken from monday');
  let claims: jwt.JwtPayload;
  try {
    claims = jwt.verify(token, clientSecret, {
      algorithms: ['HS256'],
      clockTimestamp: Math.floor(now.getTime() / 1000),
    }) as jwt.JwtPayload;
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) throw new MondayAuthError('expired', 'The sessionToken has expired');
    throw new MondayAuthError('invalid', "The sessionToken is not signed with this app's Client Secret");
  }
  const dat = (claims.dat ?? {}) as { account_id?: unknown; user_id?: unknown };
  // jsonwebtoken checks exp only when present: a token that never expires is refused here.
  if (typeof claims.exp !== 'number' || typeof dat.account_id !== 'number') {
    throw new MondayAuthError('invalid', 'The sessionToken lacks exp or dat.account_id');
  }
  return {
    accountId: dat.account_id,
    userId: typeof dat.user_id === 'number' ? dat.user_id : null,
    exp: claims.exp,
  };
}
