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
